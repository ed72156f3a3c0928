"""`pbgi.torch` beside BoTorch's EI/LogEI and the papers' PBGI bisection, on torch tensors, in one run.

The same BO-like points and peers as `compare_python_vs_botorch.py` (`bench/_common.py`): BoTorch's
float64 EI / LogEI path (`sigma * _ei_helper(u)`, `_log_ei_helper(u) + ln sigma`) and the papers'
100-step PBGI bisection written in torch, against `pbgi.torch.ei`, `log_ei`, `pbgi` (with
`check=False`, as BoTorch checks nothing either; the default check adds one pass over the
arguments). On CPU `pbgi.torch` runs `pbgi.fast`'s kernels on the tensors' memory; the
torch-operation kernels that other devices run are timed on the CPU too, for the record. Each time is the minimum over REPEATS runs (the bisection: 1 run), in ns per point.

On CPU everything runs on 1 thread. `--device cuda` runs both on the GPU (synchronising after
each call) and records the device's name; that table goes to `compare_torch_vs_botorch_cuda`.
Options: --points N, --repeats R, --device D, `--update-results`.
"""
import os
import sys

import numpy as np

from _common import (  # bench/ is the script's directory
    ROOT,
    best_time,
    bo_points,
    botorch_ei,
    botorch_log_ei,
    head_commit,
    load_botorch,
    parser,
    speed_rows,
    today,
    torch_bisection100,
    torch_one_thread,
    write_result,
)

sys.path.insert(0, os.path.join(ROOT, "python"))
try:
    import pbgi
    import pbgi.torch as pt
except ImportError as error:
    sys.exit(f"compare_torch_vs_botorch.py: cannot import pbgi.torch ({error}); run `bash setup.sh --torch` first")


def main():
    p = parser(__doc__, {"points": 1_000_000, "repeats": 5})
    p.add_argument("--device", default="cpu", help="torch device (default: cpu, 1 thread)")
    a = p.parse_args()
    torch = torch_one_thread()
    load_botorch()
    device = torch.device(a.device)
    n = a.points
    mu, sigma, y, cost = bo_points(n)
    tm, ts, tc = (torch.from_numpy(v).to(device) for v in (mu, sigma, cost))
    ty = torch.tensor(y, dtype=torch.float64, device=device)

    def per_point(repeats, f):
        def run():
            f()
            if device.type == "cuda":
                torch.cuda.synchronize()
        run()  # warm-up: tables to the device, kernels compiled
        return best_time(repeats, run) * 1e9 / n

    ours = {
        "ei": per_point(a.repeats, lambda: pt.ei(tm, ts, ty, check=False)),
        "log_ei": per_point(a.repeats, lambda: pt.log_ei(tm, ts, ty, check=False)),
        "pbgi": per_point(a.repeats, lambda: pt.pbgi(tm, ts, tc, check=False)),
        "ei checked": per_point(a.repeats, lambda: pt.ei(tm, ts, ty)),
    }
    if device.type == "cpu":  # the torch-operation kernels that other devices run, on this CPU
        previous = pt.set_cpu_kernels("torch")
        ours_torch_ops = {k: per_point(1, f) for k, f in [
            ("ei", lambda: pt.ei(tm, ts, ty, check=False)), ("log_ei", lambda: pt.log_ei(tm, ts, ty, check=False)),
            ("pbgi", lambda: pt.pbgi(tm, ts, tc, check=False))]}
        pt.set_cpu_kernels(previous)
    peer = {
        "ei": per_point(a.repeats, lambda: botorch_ei(tm, ts, ty)),
        "log_ei": per_point(a.repeats, lambda: botorch_log_ei(tm, ts, ty)),
        "pbgi": per_point(1, lambda: torch_bisection100(tm, ts, tc)),
    }
    # Accuracy on the same points: ours against pbgi.fast (graded against the reference by the
    # test command) and BoTorch's EI's sign.
    ei = pt.ei(tm, ts, ty).cpu().numpy()
    fast = pbgi.fast.ei(mu, sigma, y)
    same = float(np.mean(ei == fast))
    g = pt.pbgi(tm, ts, tc).cpu().numpy()
    g_gap = np.max(np.abs(g - pbgi.fast.pbgi(mu, sigma, cost)) / (np.abs(mu) + np.abs(g - mu)))
    peer_negative = int((botorch_ei(tm, ts, ty) < 0).sum())

    where = "1 thread" if device.type == "cpu" else torch.cuda.get_device_name(device)
    name = "compare_torch_vs_botorch" + ("" if device.type == "cpu" else "_" + device.type)
    lines = [
        f"`bench/compare_torch_vs_botorch.py --device {a.device}` at {head_commit()}, {today()}: "
        f"{n} BO-like points, {where}, min of {a.repeats} runs (torch bisection: 1 run); "
        f"torch {torch.__version__}.",
        "",
        "| function | ours | ns/point | peer | ns/point | ours / peer | target |",
        "|---|---|---|---|---|---|---|",
    ]
    rows = [
        ("EI", "ei", "pbgi.torch.ei", "BoTorch sigma*_ei_helper(u)", "<= 2"),
        ("LogEI", "log_ei", "pbgi.torch.log_ei", "BoTorch _log_ei_helper(u) + ln sigma", "<= 2"),
        ("PBGI", "pbgi", "pbgi.torch.pbgi", "bisection100 in torch",
         "<= 0.05 (20x)" if device.type == "cpu" else "<= 0.1 (10x)"),
    ]
    lines += speed_rows(
        (fn, mine, ours[key], peer_name, peer[key], ours[key] / peer[key], target)
        for fn, key, mine, peer_name, target in rows
    )
    if device.type == "cpu":
        lines += ["", "The torch-operation kernels (what a GPU runs) on this CPU, 1 run, ns/point: "
                  + ", ".join(f"{k} {v:.0f}" for k, v in ours_torch_ops.items()) + "."]
    lines += [
        "",
        f"With the argument check (`check=True`, the default): EI {ours['ei checked']:.1f} ns/point.",
        f"Agreement: pbgi.torch.ei equals pbgi.fast.ei bit for bit at {same:.1%} of the points; "
        f"PBGI max |torch - fast| / (|mu| + |g - mu|) {g_gap:.1e}; BoTorch's EI is negative at "
        f"{peer_negative} of the {n} points.",
    ]
    table = "\n".join(lines) + "\n"
    print(table)
    if a.update_results:
        return write_result(name, __doc__.splitlines()[0].rstrip("."), table)
    return 0


if __name__ == "__main__":
    sys.exit(main())

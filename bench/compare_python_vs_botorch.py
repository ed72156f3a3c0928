"""The `pbgi` Python package beside BoTorch and the papers' bisection, from Python, in one run.

The same BO-like points and the same peers as `compare_fast_vs_botorch.py` (`bench/_common.py`):
BoTorch's float64 EI / LogEI path (`sigma * _ei_helper(u)`, `_log_ei_helper(u) + ln sigma`) on
torch tensors, and the papers' 100-step PBGI bisection written in torch. Ours: `pbgi.fast.ei`,
`pbgi.fast.log_ei`, `pbgi.fast.pbgi` on numpy arrays (contiguous float64, so no copy), writing
into a preallocated `out=` array as the torch peers write into fresh tensors, and once more
without `out=` (a fresh result array per call). Everything on 1 thread (`threads=1`: `pbgi.fast`
uses every core by default); each time is the minimum over REPEATS runs (the torch bisection:
1 run), in ns per point.

The package is the one `bash setup.sh` builds into python/pbgi/ (an abi3 extension, so the
benchmark environment's Python imports it from there). Run through `bench/run`; options:
--points N, --repeats R. With `--update-results` (or `--update-readme`) it also writes the table
to `docs/results/compare_python_vs_botorch.md`. The points, the timer and the peers are shared
with `compare_fast_vs_botorch.py` (`bench/_common.py`).
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
except ImportError as error:
    sys.exit(f"compare_python_vs_botorch.py: cannot import pbgi ({error}); run `bash setup.sh` first")


def ulp_distance(a, b):
    """Number of doubles between `a` and `b` (elementwise; ±0 are the same point)."""
    def ordered(v):
        bits = np.asarray(v, dtype=np.float64).view(np.int64)
        # Negative doubles count down from -0 so that the integers are monotone in the value.
        return np.where(bits < 0, np.int64(np.iinfo(np.int64).min) - bits, bits).astype(object)
    # Python integers: the difference of two int64 keys may exceed the int64 range.
    return np.abs(ordered(a) - ordered(b))

def main():
    a = parser(__doc__, {"points": 1_000_000, "repeats": 5}).parse_args()
    torch = torch_one_thread()
    load_botorch()
    os.environ.setdefault("RAYON_NUM_THREADS", "1")
    n = a.points
    mu, sigma, y, cost = bo_points(n)
    out = np.empty(n)

    def per_point(repeats, f):
        return best_time(repeats, f) * 1e9 / n

    ours = {
        "ei": per_point(a.repeats, lambda: pbgi.fast.ei(mu, sigma, y, out=out, threads=1)),
        "log_ei": per_point(a.repeats, lambda: pbgi.fast.log_ei(mu, sigma, y, out=out, threads=1)),
        "pbgi": per_point(a.repeats, lambda: pbgi.fast.pbgi(mu, sigma, cost, out=out, threads=1)),
        "ei (new array)": per_point(a.repeats, lambda: pbgi.fast.ei(mu, sigma, y, threads=1)),
        "log_ei (new array)": per_point(a.repeats, lambda: pbgi.fast.log_ei(mu, sigma, y, threads=1)),
        "pbgi (new array)": per_point(a.repeats, lambda: pbgi.fast.pbgi(mu, sigma, cost, threads=1)),
    }
    tm, ts, tc = (torch.from_numpy(v) for v in (mu, sigma, cost))
    ty = torch.tensor(y, dtype=torch.float64)
    peer = {
        "ei": per_point(a.repeats, lambda: botorch_ei(tm, ts, ty)),
        "log_ei": per_point(a.repeats, lambda: botorch_log_ei(tm, ts, ty)),
        "pbgi": per_point(1, lambda: torch_bisection100(tm, ts, tc)),
    }
    # Same points, same answers: the peers' values next to ours (relative difference), and at
    # the points where the two differ most, both against the certified reference (the judge).
    ei = pbgi.fast.ei(mu, sigma, y)
    peer_ei = botorch_ei(tm, ts, ty).numpy()
    positive = ei > 0
    relative = np.zeros(n)
    relative[positive] = np.abs(ei - peer_ei)[positive] / ei[positive]
    ei_gap = relative.max()
    worst = np.argsort(relative)[-2000:]
    judge = pbgi.reference.ei(mu[worst], sigma[worst], np.broadcast_to(y, mu.shape)[worst]).value
    ours_ulp = ulp_distance(ei[worst], judge).max()
    peer_ulp = ulp_distance(peer_ei[worst], judge).max()
    peer_negative = int((peer_ei < 0).sum())
    g = pbgi.fast.pbgi(mu, sigma, cost)
    g_gap = np.max(np.abs(g - torch_bisection100(tm, ts, tc).numpy()) / (np.abs(mu) + np.abs(g - mu)))

    commit = head_commit()
    lines = [
        f"`bench/compare_python_vs_botorch.py` at {commit}, "
        f"{today()}: {n} BO-like points, 1 thread, "
        f"min of {a.repeats} runs (torch bisection: 1 run); torch {torch.__version__} "
        f"(threads: {torch.get_num_threads()}), numpy {np.__version__}.",
        "",
        "| function | ours (Python) | ns/point | peer | ns/point | ours / peer | target |",
        "|---|---|---|---|---|---|---|",
    ]
    rows = [
        ("EI", "ei", "pbgi.fast.ei(..., out=)", "BoTorch sigma*_ei_helper(u)", "<= 0.5"),
        ("LogEI", "log_ei", "pbgi.fast.log_ei(..., out=)", "BoTorch _log_ei_helper(u) + ln sigma", "<= 0.5"),
        ("PBGI", "pbgi", "pbgi.fast.pbgi(..., out=)", "bisection100 in torch", "<= 0.02 (50x)"),
    ]
    lines += speed_rows(
        (fn, mine, ours[key], peer_name, peer[key], ours[key] / peer[key], target)
        for fn, key, mine, peer_name, target in rows
    )
    lines += [
        "",
        "Without `out=` (a new result array each call), ns/point: "
        + ", ".join(f"{k.split()[0]} {v:.1f}" for k, v in ours.items() if "new" in k) + ".",
        f"Agreement on these points: EI max relative difference to BoTorch {ei_gap:.1e}; "
        f"PBGI max |ours - torch bisection| / (|mu| + |g - mu|) {g_gap:.1e}.",
        f"At the {len(worst)} points where the two EIs differ most, against the certified "
        f"reference (`pbgi.reference.ei`): ours at most {ours_ulp} ULP, BoTorch at most "
        f"{peer_ulp:.3g} ULP; BoTorch's EI is negative at {peer_negative} of the {n} points.",
    ]
    table = "\n".join(lines) + "\n"
    print(table)
    if a.update_results:
        return write_result("compare_python_vs_botorch", __doc__.splitlines()[0].rstrip("."),
                            table)
    return 0

if __name__ == "__main__":
    sys.exit(main())

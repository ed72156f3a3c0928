"""The fast kernels beside BoTorch and the papers' 100-step bisection, on the same points, in one run.

Points (seeded, BO-like, as `fast/benches/hot.rs`'s `bo_mix`): mu ~ N(0, 1), sigma log-uniform
in [0.01, 2], incumbent y* = -1 (minimisation: z = (y* - mu)/sigma), cost log-uniform in
[1e-4, 1]. Everything runs on 1 thread; times in ns per point.

Timing: ROUNDS rounds, each timing ours (the Rust kernels, one process) and then BoTorch's EI
and LogEI, each the minimum over REPEATS runs; so ours and the peer are timed side by side in
every round, and a change of the machine's speed between rounds (other load, frequency) moves
both. A ratio is the median over the rounds of that round's ratio; the ns/point shown are the
medians over the rounds. The bisections run once (the Rust one in the first round).

Peers:
- BoTorch float64, as `botorch.acquisition.analytic` computes it from the posterior mean and
  standard deviation: EI = sigma * _ei_helper(u), LogEI = _log_ei_helper(u) + log(sigma), with
  u = _scaled_improvement(mean, sigma, best_f, maximize=False).
- the papers' PBGI solver: bracket [-1, 1] doubled until it holds every root, then 100 midpoint
  steps on EI(mu, sigma; g) - c, vectorised over all points in torch (EI by BoTorch's
  _ei_helper), and the same bisection in Rust (`pbgi_fast::pbgi_bisection100`, one point at a
  time).

Run through `bench/run` (which uses .venv-bench/); options: --points N, --rounds K,
--repeats R. With `--update-results` (or `--update-readme`) it also writes the table to
`docs/results/compare_fast_vs_botorch.md`. The points, the timer and the peers are shared with
`compare_python_vs_botorch.py` (`bench/_common.py`).
"""
import json
import os
import subprocess
import sys
import tempfile

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


def write_points(d, mu, sigma, y, cost):
    for name, a in (("mu", mu), ("sigma", sigma), ("cost", cost), ("y", np.array([y]))):
        a.astype("<f8").tofile(os.path.join(d, name + ".f64"))


def rust_times(d, repeats, bisection):
    """ns/point of the Rust kernels on the points in directory d (one process)."""
    cmd = ["cargo", "bench", "-q", "-p", "pbgi-fast", "--bench", "peers", "--", d, str(repeats)]
    if not bisection:
        cmd.append("no-bisection")
    out = subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    a = parser(__doc__, {"points": 1_000_000, "rounds": 7, "repeats": 3}).parse_args()
    torch = torch_one_thread()
    load_botorch()
    mu, sigma, y, cost = bo_points(a.points)

    tm, ts, tc = (torch.from_numpy(v) for v in (mu, sigma, cost))
    ty = torch.tensor(y, dtype=torch.float64)
    n = a.points
    # Interleaved rounds: ours, then the peer's, in every round.
    rounds = []
    with tempfile.TemporaryDirectory(prefix="pbgi-bench-") as d:
        write_points(d, mu, sigma, y, cost)
        for r in range(a.rounds):
            ours_r = rust_times(d, a.repeats, bisection=(r == 0))
            peer_r = {
                "botorch_ei": best_time(a.repeats, lambda: botorch_ei(tm, ts, ty)) * 1e9 / n,
                "botorch_log_ei":
                    best_time(a.repeats, lambda: botorch_log_ei(tm, ts, ty)) * 1e9 / n,
            }
            rounds.append({**ours_r, **peer_r})
    simd_path = rounds[0]["simd_path"]
    bisection_rust = rounds[0]["pbgi_bisection100"]
    torch_bisection = best_time(1, lambda: torch_bisection100(tm, ts, tc)) * 1e9 / n
    kernels = [k for k in rounds[0] if k not in ("simd_path", "pbgi_bisection100")]
    every = {k: float(np.median([rd[k] for rd in rounds])) for k in kernels}
    every["pbgi_bisection100"] = bisection_rust
    every["torch_bisection100"] = torch_bisection

    def ratio(mine, peer_key):
        """Median over the rounds of the per-round ratio (the bisections: one run each)."""
        if all(peer_key in rd for rd in rounds):
            return float(np.median([rd[mine] / rd[peer_key] for rd in rounds]))
        return every[mine] / every[peer_key]

    peer_spread = {k: (min(rd[k] for rd in rounds), max(rd[k] for rd in rounds))
                   for k in ("botorch_ei", "botorch_log_ei", "ei_slice", "log_ei_slice")}
    ours = {k: every[k] for k in kernels if not k.startswith("botorch_")}
    # The two PBGI solvers must agree (a bisection ends within 2^-100 of its bracket).
    g_torch = torch_bisection100(tm, ts, tc).numpy()
    g_bisect_scale = np.abs(mu) + np.abs(g_torch - mu)

    commit = head_commit()
    lines = [
        f"`bench/compare_fast_vs_botorch.py` at {commit}, "
        f"{today()}: {n} BO-like points (seed 20261121), "
        f"1 thread, {a.rounds} interleaved rounds of ours then BoTorch, each the min of "
        f"{a.repeats} runs; medians over the rounds (ratios: median of the per-round ratios; "
        f"bisections: 1 run); slices on the `{simd_path}` "
        f"path; torch {torch.__version__} (threads: {torch.get_num_threads()}).",
        "",
        "| function | ours | ns/point | peer | ns/point | ours / peer | target |",
        "|---|---|---|---|---|---|---|",
    ]
    rows = [
        ("EI", "ei_slice", "BoTorch sigma*_ei_helper(u)", "botorch_ei", "<= 0.5"),
        ("LogEI", "log_ei_slice", "BoTorch _log_ei_helper(u) + ln sigma", "botorch_log_ei", "<= 0.5"),
        ("PBGI", "pbgi_slice", "bisection100 in torch", "torch_bisection100", "<= 0.02 (50x)"),
        ("PBGI", "pbgi_slice", "pbgi_bisection100 (Rust)", "pbgi_bisection100", "<= 0.02 (50x)"),
    ]
    lines += speed_rows(
        (fn, mine, every[mine], peer_name, every[peer_key], ratio(mine, peer_key), target)
        for fn, mine, peer_name, peer_key, target in rows
    )
    lines += [
        "",
        "Other fast kernels on the same points (ns/point): "
        + ", ".join(f"{k} {v:.1f}" for k, v in ours.items()
                    if k not in ("ei_slice", "log_ei_slice", "pbgi_slice", "pbgi_bisection100"))
        + ".",
        "Spread over the rounds (ns/point, min to max): "
        + ", ".join(f"{k} {lo:.1f} to {hi:.1f}" for k, (lo, hi) in peer_spread.items())
        + ".",
    ]
    table = "\n".join(lines) + "\n"
    print(table)
    print(f"(the torch bisection's index, sanity check: finite for "
          f"{np.isfinite(g_torch).sum()} of {n}, scale |mu| + |g - mu| up to "
          f"{g_bisect_scale.max():.3g})")
    if a.update_results:
        return write_result("compare_fast_vs_botorch", __doc__.splitlines()[0].rstrip("."), table)
    return 0


if __name__ == "__main__":
    sys.exit(main())

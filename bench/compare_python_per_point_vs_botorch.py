"""`pbgi.fast` with one incumbent per point, and on several threads, beside BoTorch, in one run.

Per-point `y`: BO-like points (`bench/_common.py`'s `bo_points`: mu ~ N(0, 1), sigma
log-uniform in [0.01, 2]) with one incumbent each, y_i = -1 + 0.25·N(0, 1) (seeded), at 1e5 and
1e6 points. Ours: `pbgi.fast.ei` / `pbgi.fast.log_ei` on numpy arrays with an array `y` (the
crate's `*_slice_per_point` lanes), `threads=1`, into a preallocated `out=`. Peer: BoTorch's
float64 CPU path on torch tensors with a per-point `best_f` tensor (`sigma * _ei_helper(u)`,
`_log_ei_helper(u) + ln sigma`, `torch.set_num_threads(1)`). Ours and the peer alternate, round
by round, and each time is the minimum over the rounds, in ns per point (so that a busy spell
of a shared machine hits both).

Threads: the same calls (and `pbgi.fast.pbgi`) at 1e6 points with `threads=1, 2, ...` up to
the machine's cores (`pbgi.fast.DEFAULT_THREADS`), alternating the counts round by round;
speed-up = time on 1 thread / time on k. Target: at least 0.8·k.

Run through `bench/run`; options: --rounds R, --points N (the threads table's size). With
`--update-results` it also writes the tables to
`docs/results/compare_python_per_point_vs_botorch.md`. Never part of the test command.
"""
import os
import resource
import sys
import time

import numpy as np

from _common import (  # bench/ is the script's directory
    ROOT,
    bo_points,
    botorch_ei,
    botorch_log_ei,
    head_commit,
    load_botorch,
    parser,
    speed_rows,
    today,
    torch_one_thread,
    write_result,
)

sys.path.insert(0, os.path.join(ROOT, "python"))
try:
    import pbgi
except ImportError as error:
    sys.exit(f"compare_python_per_point_vs_botorch.py: cannot import pbgi ({error}); "
             "run `bash setup.sh` first")



def points(n):
    """BO-like points with one incumbent each: `(mu, sigma, y)`."""
    mu, sigma, _, _ = bo_points(n)
    y = -1.0 + 0.25 * np.random.default_rng(20261129).standard_normal(n)
    return mu, sigma, y


def cpu_seconds():
    """This process's CPU time so far (user + system, all threads), in seconds."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def interleaved(rounds, calls, cpu=None):
    """The shortest wall time of each of `calls` (name -> function) over `rounds` rounds, the
    calls one after the other within a round; seconds. With a dict `cpu`, also the CPU time of
    the process during each call's shortest run (how many cores it really used)."""
    best = {name: float("inf") for name in calls}
    for _ in range(rounds):
        for name, f in calls.items():
            c, t = cpu_seconds(), time.perf_counter()
            f()
            wall, used = time.perf_counter() - t, cpu_seconds() - c
            if wall < best[name]:
                best[name] = wall
                if cpu is not None:
                    cpu[name] = used
    return best


def main():
    a = parser(__doc__, {"rounds": 9, "points": 1_000_000}).parse_args()
    torch = torch_one_thread()
    load_botorch()
    load = os.getloadavg()[0]
    lines = [
        f"`bench/compare_python_per_point_vs_botorch.py` at {head_commit()}, {today()}: "
        f"BO-like points with one incumbent each, min of {a.rounds} interleaved rounds; "
        f"torch {torch.__version__} (threads: {torch.get_num_threads()}), numpy {np.__version__}, "
        f"SIMD path {pbgi.fast.SIMD_PATH}, {os.cpu_count()} cores, "
        f"load average {load:.2f} at the start.",
        "",
        "Per-point `y`, 1 thread:",
        "",
        "| function | points | ours | ns/point | peer | ns/point | ours / peer | target |",
        "|---|---|---|---|---|---|---|---|",
    ]
    ratios = []
    for n in (100_000, 1_000_000):
        mu, sigma, y = points(n)
        out = np.empty(n)
        tm, ts, ty = (torch.from_numpy(v) for v in (mu, sigma, y))
        # Same answers first (and every code path warmed up).
        ei, peer_ei = pbgi.fast.ei(mu, sigma, y, threads=1), botorch_ei(tm, ts, ty).numpy()
        assert np.allclose(ei, peer_ei, rtol=1e-6, atol=1e-12), "EI disagrees with BoTorch"
        log_ei = pbgi.fast.log_ei(mu, sigma, y, threads=1)
        peer_log_ei = botorch_log_ei(tm, ts, ty).numpy()
        assert np.allclose(log_ei, peer_log_ei, rtol=1e-6, atol=1e-9), "LogEI disagrees"
        t = interleaved(a.rounds, {
            "ei": lambda: pbgi.fast.ei(mu, sigma, y, out=out, threads=1),
            "peer ei": lambda: botorch_ei(tm, ts, ty),
            "log_ei": lambda: pbgi.fast.log_ei(mu, sigma, y, out=out, threads=1),
            "peer log_ei": lambda: botorch_log_ei(tm, ts, ty),
        })
        rows = [
            ("EI", "ei", "pbgi.fast.ei(mu, sigma, y[], out=, threads=1)",
             "BoTorch sigma*_ei_helper(u)"),
            ("LogEI", "log_ei", "pbgi.fast.log_ei(mu, sigma, y[], out=, threads=1)",
             "BoTorch _log_ei_helper(u) + ln sigma"),
        ]
        for fn, key, mine, peer_name in rows:
            ours, peer = t[key] * 1e9 / n, t["peer " + key] * 1e9 / n
            ratios.append(ours / peer)
            line = speed_rows([(fn, mine, ours, peer_name, peer, ours / peer, "<= 0.5")])[0]
            lines.append(line.replace(f"| {fn} |", f"| {fn} | {n:.0e} |", 1))

    n = a.points
    mu, sigma, y = points(n)
    cost = bo_points(n)[3]
    out = np.empty(n)
    cores = pbgi.fast.DEFAULT_THREADS
    counts = list(range(1, cores + 1))
    calls = {}
    for k in counts:
        calls[("ei", k)] = lambda k=k: pbgi.fast.ei(mu, sigma, y, out=out, threads=k)
        calls[("log_ei", k)] = lambda k=k: pbgi.fast.log_ei(mu, sigma, y, out=out, threads=k)
        calls[("pbgi", k)] = lambda k=k: pbgi.fast.pbgi(mu, sigma, cost, out=out, threads=k)
    cpu = {}
    t = interleaved(a.rounds, calls, cpu)
    lines += [
        "",
        f"`threads=`, {n:.0e} points (`DEFAULT_THREADS` = {cores}): ns/point, the speed-up "
        "over 1 thread (target: at least 0.8 × threads) and, in brackets, the process's CPU "
        "time over the wall time of that run (the cores it really had: below the thread count, "
        "other work shared the cores):",
        "",
        "| function | " + " | ".join(f"{k} thread{'s' if k > 1 else ''}" for k in counts) + " |",
        "|---|" + "---|" * len(counts),
    ]
    names = {"ei": "EI (per-point y)", "log_ei": "LogEI (per-point y)", "pbgi": "PBGI"}
    for key, label in names.items():
        one = t[(key, 1)]
        cells = [f"{t[(key, k)] * 1e9 / n:.2f}"
                 + ("" if k == 1 else f" ({one / t[(key, k)]:.2f}×)")
                 + f" [{cpu[(key, k)] / t[(key, k)]:.2f}]" for k in counts]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    table = "\n".join(lines) + "\n"
    print(table)
    if a.update_results:
        return write_result("compare_python_per_point_vs_botorch",
                            __doc__.splitlines()[0].rstrip("."), table)
    return 0


if __name__ == "__main__":
    sys.exit(main())

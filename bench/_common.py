"""What the comparison scripts share: the repository's commit, the results file each one writes,
the BO-like points, the timer, and the BoTorch peers (EI, LogEI and the papers' bisection).

Not a comparison itself (`bench/run` runs only files named `compare_*`). numpy is imported here;
torch and BoTorch only when a peer is first called, so that a comparison without them
(`compare_reference_vs_arb.py`) imports this module too.

Results: with `--update-results` (or its older name `--update-readme`) a comparison writes its
table to `docs/results/<name>.md`, headed by the command, the commit and the date, so that the
documentation links to measured figures and never pastes them.
"""
import argparse
import math
import os
import subprocess
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(ROOT, "docs", "results")

# The option that writes the results file, and the name it had when the tables lived in the
# README (still accepted, with the same effect).
UPDATE_OPTIONS = ("--update-results", "--update-readme")


def head_commit():
    """The short hash of the checked-out commit (named in each table), or "?" outside git."""
    return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, text=True,
                          capture_output=True).stdout.strip() or "?"


def today():
    """Today's date (UTC), as the tables name it."""
    return time.strftime("%Y-%m-%d", time.gmtime())


def add_update_option(parser):
    """Adds `--update-results` (alias `--update-readme`) to an argparse parser."""
    parser.add_argument(*UPDATE_OPTIONS, dest="update_results", action="store_true",
                        help="also write the table to docs/results/<comparison>.md")


def update_requested(argv=None):
    """Whether a script without argparse was asked to write its results file."""
    return any(a in UPDATE_OPTIONS for a in (sys.argv[1:] if argv is None else argv))


def write_result(name, title, table):
    """Writes `table` to `docs/results/<name>.md` under a header naming the command that wrote
    it, the commit and the date; 0 on success (the file is replaced whole)."""
    command = f"bench/run {name}.py --update-results"
    text = "\n".join([
        f"# {title}",
        "",
        f"Command: `{command}` · commit `{head_commit()}` · date {today()}.",
        "Written by that command (`bench/_common.py`, `write_result`); rerun it rather than "
        "editing this file.",
        "",
        table.rstrip("\n"),
        "",
    ])
    os.makedirs(RESULTS, exist_ok=True)
    path = os.path.join(RESULTS, f"{name}.md")
    partial = path + ".partial"
    with open(partial, "w") as f:
        f.write(text)
    os.replace(partial, path)
    print(f"{name}.py: table written to {os.path.relpath(path, ROOT)}", file=sys.stderr)
    return 0


def bo_points(n, seed=20261121):
    """`n` seeded BO-like points, as `fast/benches/hot.rs`'s `bo_mix`: mu ~ N(0, 1), sigma
    log-uniform in [0.01, 2], incumbent y* = -1 (minimisation), cost log-uniform in [1e-4, 1]."""
    rng = np.random.default_rng(seed)
    mu = rng.standard_normal(n)
    sigma = 10.0 ** rng.uniform(-2.0, math.log10(2.0), n)
    cost = 10.0 ** rng.uniform(-4.0, 0.0, n)
    return mu, sigma, -1.0, cost


def best_time(repeats, f):
    """The shortest wall time of `repeats` calls of `f`, in seconds."""
    best = math.inf
    for _ in range(repeats):
        t = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t)
    return best


def torch_one_thread():
    """Imports torch pinned to one thread and returns it."""
    import torch

    torch.set_num_threads(1)
    return torch


_BOTORCH = []


def load_botorch():
    """Imports BoTorch's analytic EI helpers once (call it before timing anything, so that no
    timed call pays for the import); returns `(_ei_helper, _log_ei_helper,
    _scaled_improvement)`."""
    if not _BOTORCH:
        import warnings

        warnings.filterwarnings("ignore", category=FutureWarning)  # torch.jit notices
        from botorch.acquisition.analytic import (
            _ei_helper,
            _log_ei_helper,
            _scaled_improvement,
        )

        _BOTORCH.extend((_ei_helper, _log_ei_helper, _scaled_improvement))
    return tuple(_BOTORCH)


def botorch_ei(mean, sigma, best_f):
    """BoTorch's float64 EI from the posterior mean and sd, minimising: sigma * _ei_helper(u)."""
    ei_helper, _, scaled_improvement = load_botorch()
    return sigma * ei_helper(scaled_improvement(mean, sigma, best_f, False))


def botorch_log_ei(mean, sigma, best_f):
    """BoTorch's float64 LogEI, minimising: _log_ei_helper(u) + log(sigma)."""
    _, log_ei_helper, scaled_improvement = load_botorch()
    return log_ei_helper(scaled_improvement(mean, sigma, best_f, False)) + sigma.log()


def torch_bisection100(mean, sigma, cost):
    """The papers' PBGI solver in the minimisation convention: g with EI(mu, sigma; g) = c, from
    the bracket [-1, 1] doubled until it holds every root, then 100 midpoint steps."""
    import torch

    def excess(g):
        return botorch_ei(mean, sigma, g) - cost

    lo = torch.full_like(mean, -1.0)
    hi = torch.full_like(mean, 1.0)
    while bool(torch.any(excess(lo) > 0)):
        lo = 2 * lo
    while bool(torch.any(excess(hi) < 0)):
        hi = 2 * hi
    mid = (lo + hi) / 2
    for _ in range(100):
        s = torch.sign(excess(mid))
        lo = torch.where(s <= 0, mid, lo)
        hi = torch.where(s >= 0, mid, hi)
        mid = (lo + hi) / 2
    return mid


def speed_rows(rows):
    """Markdown rows `| function | ours | ns | peer | ns | ratio | target |` from tuples
    `(function, ours_name, ours_ns, peer_name, peer_ns, ratio, target)`; a ratio below 0.1 is
    also written as a speed-up."""
    lines = []
    for fn, mine, mine_ns, peer_name, peer_ns, r, target in rows:
        speed = f" ({1 / r:.0f}x faster)" if r < 0.1 else ""
        lines.append(f"| {fn} | `{mine}` | {mine_ns:.1f} | {peer_name} | {peer_ns:.1f} | "
                     f"{r:.3f}{speed} | {target} |")
    return lines


def parser(doc, defaults):
    """The comparisons' argument parser: the first line of `doc` as description, one integer
    option per `defaults` entry (`points`, `rounds`, `repeats`, ...) and `--update-results`."""
    p = argparse.ArgumentParser(description=doc.splitlines()[0])
    for option, default in defaults.items():
        p.add_argument(f"--{option}", type=int, default=default)
    add_update_option(p)
    return p

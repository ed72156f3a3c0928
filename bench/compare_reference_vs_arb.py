#!/usr/bin/env python3
"""The certified reference against Arb (python-flint), per certified call, on the same points,
in one run.

What is timed, per point (wall clock, 1 thread, best of REPEATS runs):
* Arb EI: python-flint at 128-bit precision, `EI = σ·(z·Φ(z) + φ(z))` with `z = (y − μ)/σ`,
  `Φ(z) = erfc(−z/√2)/2`, `φ(z) = exp(−z²/2)/√(2π)`, all as arb balls (the inputs are exact
  doubles), Python call overhead included.
* Arb PBGI: the same certified quantity, the root `u` of `h(u) = c/σ` by bisection on 128-bit
  arb balls: from a bracket of width ≤ 2 in `u`, 64 halvings, each deciding `h(m) ≷ c/σ` from
  the ball of `h(m)` (stopping early only if a ball cannot decide); then `g = μ + σ·u`.
* Arb LogEI: the natural logarithm of the Arb EI ball.
* Ours: `pbgi eval ei`, `pbgi eval log-ei` and `pbgi eval pbgi` (the reference engine, the
  default) on a CSV of the same points, from reading the CSV to writing value, lower and upper (40-digit decimals):
  the whole process's wall time divided by the number of rows (process start-up included,
  about a millisecond over all rows).

Points: BO-like, seeded: σ = 10^U(−2, 2), μ = U(−1, 1); EI: z = N(0, 2); PBGI: c/σ = 10^U(−4, 1).
Prints a Markdown table with µs per call and the ratio Arb / ours (> 1: ours is faster).
With `--update-readme` it also writes the table into the project README, between the lines
`<!-- compare_reference_vs_arb: begin -->` and `<!-- compare_reference_vs_arb: end -->`.
"""
import math
import os
import random
import subprocess
import sys
import tempfile
import time

import flint
from flint import arb, ctx

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

from readme_table import head_commit, update_readme  # noqa: E402 (bench/ is the script's directory)
N_EI = 40000
N_PBGI = 2000
REPEATS = 3


def points(seed=20261122):
    rng = random.Random(seed)
    ei, pbgi = [], []
    for _ in range(N_EI):
        sigma = 10 ** rng.uniform(-2, 2)
        mu = rng.uniform(-1, 1)
        ei.append((mu, sigma, mu + rng.gauss(0, 2) * sigma))
    for _ in range(N_PBGI):
        sigma = 10 ** rng.uniform(-2, 2)
        mu = rng.uniform(-1, 1)
        pbgi.append((mu, sigma, sigma * 10 ** rng.uniform(-4, 1)))
    return ei, pbgi


SQRT2 = None
SQRT_2PI = None


def arb_h(z):
    cdf = (-z / SQRT2).erfc() / 2
    return z * cdf + (-(z * z) / 2).exp() / SQRT_2PI


def arb_ei(mu, sigma, y):
    m, s = arb(mu), arb(sigma)
    return s * arb_h((arb(y) - m) / s)


def arb_log_ei(mu, sigma, y):
    return arb_ei(mu, sigma, y).log()


def arb_pbgi(mu, sigma, cost):
    r = arb(cost) / arb(sigma)
    ratio = cost / sigma
    # Bracket for u (h(u) = r): u ∈ (r − h(0), r) for r ≥ 0.4; else around the small-cost
    # asymptotic u ≈ −√(2·ln(1/r) − 2·ln√(2π)) (checked, widened if needed).
    if ratio >= 0.4:
        lo, hi = ratio - 0.41, ratio
    else:
        l = -math.log(ratio) - 0.5 * math.log(2 * math.pi)
        u0 = 2 * (ratio - 0.3989422804014327) if l <= 1 else -math.sqrt(2 * l)
        lo, hi = u0 - 1.0, u0 + 1.0
        while arb_h(arb(lo)) > r:
            lo -= 1.0
        while arb_h(arb(hi)) < r:
            hi += 1.0
    lo, hi = arb(lo), arb(hi)
    for _ in range(64):
        m = (lo + hi) / 2
        v = arb_h(m)
        if v > r:
            hi = m
        elif v < r:
            lo = m
        else:
            break
    return arb(mu) + arb(sigma) * (lo + hi) / 2


def best(f):
    times = []
    for _ in range(REPEATS):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def pbgi_binary():
    subprocess.run(["cargo", "build", "-q", "--release", "-p", "pbgi-cli", "--bin", "pbgi"],
                   cwd=ROOT, check=True)
    return os.path.join(ROOT, "target", "release", "pbgi")


def ours(binary, function, header, rows):
    with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as f:
        f.write(header + "\n")
        for row in rows:
            f.write(",".join(repr(float(v)) for v in row) + "\n")
        path = f.name
    try:
        def run():
            # /dev/null opened for writing only: `pbgi eval` takes a read-write /dev/null on
            # standard output (subprocess.DEVNULL) for a closed one and refuses to run.
            with open(path) as inp, open(os.devnull, "w") as out:
                subprocess.run([binary, "eval", function], stdin=inp, stdout=out, check=True)
        return best(run)
    finally:
        os.unlink(path)


def main():
    global SQRT2, SQRT_2PI
    ctx.prec = 128
    SQRT2 = arb(2).sqrt()
    SQRT_2PI = (2 * arb.pi()).sqrt()
    ei_points, pbgi_points = points()
    binary = pbgi_binary()
    rows = []
    for name, function, header, pts, arb_f, target in [
            ("EI", "ei", "mu,sigma,y", ei_points, arb_ei, "≥ 6"),
            ("LogEI", "log-ei", "mu,sigma,y", ei_points, arb_log_ei, ""),
            ("PBGI", "pbgi", "mu,sigma,cost", pbgi_points, arb_pbgi, "≥ 30")]:
        a = best(lambda: [arb_f(*p) for p in pts]) / len(pts)
        o = ours(binary, function, header, pts) / len(pts)
        rows.append(f"| {name} | {a * 1e6:.1f} | {o * 1e6:.2f} | {a / o:.1f} | {target} |")
    commit = head_commit()
    table = "\n".join([
        f"`bench/compare_reference_vs_arb.py` at {commit}, "
        f"{time.strftime('%Y-%m-%d', time.gmtime())}: {N_EI} EI/LogEI and {N_PBGI} PBGI "
        f"points (seed 20261122), best of {REPEATS}; Arb: python-flint {flint.__version__}, "
        f"128-bit balls, Python calls; ours: `pbgi eval` (reference engine), CSV in and out "
        f"(value, lower, upper), process start-up included.",
        "",
        "| function | Arb µs/call | ours µs/call | Arb / ours | target |",
        "|---|---|---|---|---|",
        *rows,
    ]) + "\n"
    print(table)
    if "--update-readme" in sys.argv[1:]:
        return update_readme("compare_reference_vs_arb", table)
    return 0


if __name__ == "__main__":
    sys.exit(main())

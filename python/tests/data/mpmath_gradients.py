#!/usr/bin/env python3
"""Independent high-precision values of ln Φ and of the gradients, computed with mpmath.

How it was run (from the repository root, in the repository's .venv/):

    .venv/bin/python python/tests/data/mpmath_gradients.py > python/tests/data/mpmath_gradients.csv

mpmath (pinned in python/requirements-dev.txt), working precision DPS = 90 decimal digits plus
2*log10|z| guard digits where zΦ(z)+φ(z) cancels; values written with 60 significant digits.
Deterministic: fixed hand-picked inputs plus a stratified grid from random.Random(20261122).

Formulas (MATH.md), all through mpmath's own erfc/exp/log, independently of the Rust code:
  log_ndtr(x)  = ln Φ(x),  Φ(x) = erfc(-x/sqrt(2))/2; for x > 0 as log1p(-erfc(x/sqrt(2))/2),
                 since ln(1 - Q) at 1 - Q rounded would keep only DPS - |log10 Q| digits of Q
  h(z)         = z*Φ(z) + φ(z)
  ei_grad      : d_mu = -Φ(z),              d_sigma = φ(z)                 (z = (y - mu)/sigma)
  log_ei_grad  : d_mu = -Φ(z)/(sigma*h(z)), d_sigma = φ(z)/(sigma*h(z))
  pbgi_grad    : d_mu = 1, d_sigma = -φ(u)/Φ(u), d_cost = 1/Φ(u), h(u) = cost/sigma
                 (u by bisection to 1e-85 relative, then Newton on ln h(u) - ln(cost/sigma))
Inputs are f64 values written with repr() (round-trips exactly); mpmath takes them exactly.
Columns: function,a,b,c,output,value  (log_ndtr: a = x; ei_grad/log_ei_grad: a=mu,b=sigma,c=y;
pbgi_grad: a=mu,b=sigma,c=cost; output names the field: value, d_mu, d_sigma, d_cost).
"""
import random
import sys

import mpmath
from mpmath import mp, mpf

DPS = 90
DIGITS = 60


def guard(z):
    z = abs(mpf(z))
    return int(2 * mpmath.log10(z)) + 10 if z > 1 else 10


def ncdf(x):
    return mpmath.erfc(-x / mpmath.sqrt(2)) / 2


def npdf(x):
    return mpmath.exp(-x * x / 2) / mpmath.sqrt(2 * mpmath.pi)


def h(z):
    return z * ncdf(z) + npdf(z)


def solve_u(r):
    """u with h(u) = r (h is increasing): bisection, then Newton steps on ln h(u) - ln r."""
    lo, hi = mpf(-1), mpf(1)
    while h(lo) > r:
        lo *= 2
    while h(hi) < r:
        hi *= 2
    for _ in range(400):
        mid = (lo + hi) / 2
        if h(mid) < r:
            lo = mid
        else:
            hi = mid
        if hi - lo < mpf(10) ** (-DPS + 5) * max(1, abs(lo)):
            break
    u = (lo + hi) / 2
    for _ in range(3):
        with mp.workdps(DPS + guard(u)):
            u -= (mpmath.log(h(u)) - mpmath.log(r)) * h(u) / ncdf(u)
    return u


def fmt(x):
    return mpmath.nstr(x, DIGITS, min_fixed=1, max_fixed=0, strip_zeros=False)


def row(function, args, output, value):
    cells = [repr(float(a)) for a in args] + [""] * (3 - len(args))
    print(",".join([function, *cells, output, fmt(value)]))


def log_ndtr_rows(xs):
    for x in xs:
        with mp.workdps(DPS + guard(x)):
            t = mpf(x)
            value = mpmath.log1p(-ncdf(-t)) if t > 0 else mpmath.log(ncdf(t))
            row("log_ndtr", [x], "value", value)


def ei_grad_rows(points):
    for mu, sigma, y in points:
        z0 = (mpf(y) - mpf(mu)) / mpf(sigma)
        with mp.workdps(DPS + guard(z0)):
            z = (mpf(y) - mpf(mu)) / mpf(sigma)
            row("ei_grad", [mu, sigma, y], "d_mu", -ncdf(z))
            row("ei_grad", [mu, sigma, y], "d_sigma", npdf(z))
            sh = mpf(sigma) * h(z)
            row("log_ei_grad", [mu, sigma, y], "d_mu", -ncdf(z) / sh)
            row("log_ei_grad", [mu, sigma, y], "d_sigma", npdf(z) / sh)


def pbgi_grad_rows(points):
    for mu, sigma, cost in points:
        with mp.workdps(DPS + 20):
            u = solve_u(mpf(cost) / mpf(sigma))
        with mp.workdps(DPS + guard(u)):
            row("pbgi_grad", [mu, sigma, cost], "d_mu", mpf(1))
            row("pbgi_grad", [mu, sigma, cost], "d_sigma", -npdf(u) / ncdf(u))
            row("pbgi_grad", [mu, sigma, cost], "d_cost", 1 / ncdf(u))


def main():
    mp.dps = DPS
    rng = random.Random(20261122)
    print(__doc__.strip().splitlines()[0].join(["# ", ""]))
    print("function,a,b,c,output,value")
    xs = [0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 5.0, -5.0, 8.0, 10.0, 20.0, 37.0, 38.0,
          -8.0, -20.0, -37.0, -38.5, -40.0, -100.0, -1e3, -1e5, -1e8, 1e-300, -1e-300]
    xs += [rng.uniform(-40.0, 10.0) for _ in range(20)]
    xs += [-(10.0 ** rng.uniform(1.6, 8.0)) for _ in range(10)]
    log_ndtr_rows(xs)
    points = [(0.0, 1.0, 0.0), (0.0, 1.0, 1.0), (1.0, 2.0, -69.0), (0.0, 1.0, -38.5),
              (0.0, 1.0, -1e3), (3.0, 0.5, 3.25), (-5.95, 0.8, -6.55), (1e5, 1e-3, 1e5 - 0.01)]
    for _ in range(24):
        mu = rng.gauss(0.0, 3.0)
        sigma = 10.0 ** rng.uniform(-3.0, 3.0)
        z = rng.uniform(-40.0, 8.0)
        points.append((mu, sigma, mu + sigma * z))
    ei_grad_rows(points)
    costs = [(0.0, 1.0, 1e-4), (0.0, 1.0, 0.1), (0.0, 1.0, 0.3989422804014327), (0.0, 1.0, 2.0),
             (5.0, 0.01, 1e-30), (-3.0, 100.0, 1e3), (0.0, 1.0, 1e-100), (0.0, 1.0, 30.0)]
    for _ in range(16):
        mu = rng.gauss(0.0, 3.0)
        sigma = 10.0 ** rng.uniform(-3.0, 3.0)
        cost = sigma * 10.0 ** rng.uniform(-60.0, 1.2)
        costs.append((mu, sigma, cost))
    pbgi_grad_rows(costs)


if __name__ == "__main__":
    sys.exit(main())

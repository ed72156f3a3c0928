#!/usr/bin/env python3
"""Independent high-precision values for pbgi-reference, computed with mpmath.

How it was run (from the repository root):

    python3 reference/tests/data/mpmath_values.py > reference/tests/data/mpmath_values.csv

mpmath 1.3.0, Python 3.11, working precision DPS = 90 decimal digits plus 2*log10|z| guard
digits where zΦ(z)+φ(z) cancels; values written with 60 significant digits. Deterministic:
fixed hand-picked inputs plus a stratified grid from random.Random(20261121).

Formulas (MATH.md), all through mpmath's own erfc/exp/log, i.e. independently of the Rust
code (which uses a continued fraction / asymptotic series / Taylor series with directed rounding):
  h(z)   = z*ncdf(z) + npdf(z), ncdf(z) = erfc(-z/sqrt(2))/2   (|z| <= 1e50)
  h(z)   = max(z,0) + npdf(z)/z^2 (1 - 3/z^2 + 15/z^4)   (|z| > 1e50: rel. error < 1e-398)
  EI     = sigma*h((y-mu)/sigma)           (sigma = 0: max(y-mu, 0))
  LogEI  = ln EI                           (-inf when EI = 0)
  PBGI   = mu + sigma*u, h(u) = cost/sigma, u by mpmath.findroot (Newton on ln h(u) - ln(c/sigma))
  LogEIPC = ln EI - ln cost
  LogEIPC-inv = ln EI - (m - s^2/2),  LogEIPC-exp = ln EI - (m + s^2/2)
  PBGI-lognormal = PBGI(mu, sigma, exp(m + s^2/2))
Inputs are f64 values written with repr() (round-trips exactly); mpmath takes them exactly.
Columns: function,a,b,c,d,e,value  (h/ln_h: a=z; ei/log_ei: a=mu,b=sigma,c=y;
pbgi: a=mu,b=sigma,c=cost; log_eipc: a=mu,b=sigma,c=y,d=cost;
log_eipc_inv/log_eipc_exp: a=mu,b=sigma,c=y,d=m,e=s; pbgi_lognormal: a=mu,b=sigma,c=m,d=s).
"""
import math
import random
import sys

import mpmath
from mpmath import mp, mpf

DPS = 90
DIGITS = 60


def guard(z):
    z = abs(mpf(z))
    return int(2 * mpmath.log10(z)) + 10 if z > 1 else 10


def h(z):
    z = mpf(z)
    if abs(z) > mpf("1e50"):
        # mpmath's erfc overflows a float bound beyond ~1e154; here the asymptotic form of MATH.md
        # h(-x) = phi(x)/x^2 (1 - 3/x^2 + 15/x^4 - ...), h(x) = x + h(-x), has relative error
        # below 105/x^8 < 1e-398, far beyond the digits written.
        x = abs(z)
        tail = mpmath.npdf(x) / x**2 * (1 - 3 / x**2 + 15 / x**4)
        return tail if z < 0 else x + tail
    with mp.workdps(DPS + guard(z)):
        v = z * mpmath.erfc(-z / mpmath.sqrt(2)) / 2 + mpmath.npdf(z)
    return +v


def ei(mu, sigma, y):
    mu, sigma, y = mpf(mu), mpf(sigma), mpf(y)
    with mp.workdps(DPS + 700):  # y - mu exactly for any two doubles
        d = y - mu
    if sigma == 0:
        return max(d, mpf(0))
    with mp.workdps(DPS + guard(d / sigma)):
        return sigma * h(d / sigma)


def log(v):
    return mpf("-inf") if v == 0 else mpmath.log(v)


def pbgi(mu, sigma, cost):
    mu, sigma, cost = mpf(mu), mpf(sigma), mpf(cost)
    if sigma == 0:
        with mp.workdps(DPS + 700):
            return mu + cost
    r = cost / sigma
    lr = mpmath.log(r)
    # Starting point: u ≈ r for large r, asymptotic -sqrt(2 ln(1/r)) for small r.
    if r > 1:
        u0 = r - mpf("0.3")
    elif r > mpf("0.05"):
        u0 = 2 * (r - 1 / mpmath.sqrt(2 * mpmath.pi))
    else:
        u0 = -mpmath.sqrt(2 * (-lr - mpmath.log(mpmath.sqrt(2 * mpmath.pi))))
    with mp.workdps(DPS + 20):
        if r > 1e6:
            # u = r - h(-u), h(-u) < phi(u)/u^2 negligible or tiny: fixed point converges at once.
            u = r
            for _ in range(5):
                u = r - h(-u)
        else:
            f = lambda u: mpmath.log(h(u)) - lr
            df = lambda u: mpmath.ncdf(u) / h(u)
            u = mpmath.findroot(f, u0, solver="newton", df=df, tol=mpf(10) ** (-2 * DPS))
        with mp.workdps(DPS + 700):
            return mu + sigma * u


def log_eipc(mu, sigma, y, cost):
    with mp.workdps(DPS + 20):
        return log(ei(mu, sigma, y)) - mpmath.log(mpf(cost))


def log_eipc_lognormal(mu, sigma, y, m, s, sign):
    with mp.workdps(DPS + 20):
        return log(ei(mu, sigma, y)) - (mpf(m) + sign * mpf(s) ** 2 / 2)


def pbgi_lognormal(mu, sigma, m, s):
    with mp.workdps(DPS + 20):
        cost = mpmath.exp(mpf(m) + mpf(s) ** 2 / 2)
    return pbgi(mu, sigma, cost)


def fmt(v):
    if v == mpf("-inf"):
        return "-inf"
    return mpmath.nstr(v, DIGITS, min_fixed=1, max_fixed=0)


def main():
    mp.dps = DPS
    rng = random.Random(20261121)
    rows = []

    zs = [0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 5.0, -5.0, 10.0, -10.0, 20.0, -20.0, 37.0, -37.0,
          38.0, -38.0, 38.5, -38.5, 38.47, -38.47, 39.0, -39.0, 40.0, -40.0, 100.0, -100.0,
          1e3, -1e3, 1e4, -1e4, 1e5, -1e5, 3e5, -3e5, 1e6, -1e6, 1e7, -1e7, 1e8, -1e8, 1e9, -1e9,
          1e-300, -1e-300, 5e-324, 1e-20, -1e-20, 1e300, -1e300, 1.5, -1.5, 3.0, -3.0, 8.0, -8.0]
    for _ in range(40):
        zs.append(rng.choice([-1, 1]) * 10 ** rng.uniform(-3, 8.5))
    for z in zs:
        rows.append(("h", z))
        rows.append(("ln_h", z))

    ei_inputs = [(0.0, 1.0, 0.0), (0.0, 1.0, 1.0), (0.0, 0.0, 1.0), (1.0, 0.0, 0.5), (2.0, 0.0, 2.0),
                 (1e308, 0.0, -1e308), (-1e308, 0.0, 1e308), (0.1, 0.0, 0.3),
                 (0.0, 1e-300, 1e-300), (0.0, 1e300, 1e300), (0.0, 1e-300, -3.85e-299),
                 (1e300, 1e300, 0.0), (5.0, 1e-300, 5.0), (0.0, 1e300, -3e307), (1e10, 1.0, 1e10 - 38.5)]
    for _ in range(80):
        sigma = 10 ** rng.uniform(-300, 300)
        z = rng.choice([-1, 1]) * 10 ** rng.uniform(-4, 8)
        mu = rng.choice([0.0, rng.uniform(-1, 1) * sigma * 10 ** rng.uniform(-5, 3)])
        y = mu + z * sigma
        if math.isfinite(y):
            ei_inputs.append((mu, sigma, y))
    for a in ei_inputs:
        rows.append(("ei",) + a)
        rows.append(("log_ei",) + a)

    pbgi_inputs = [(0.0, 1.0, 1e-4), (0.0, 1.0, 0.1), (0.0, 1.0, 0.3989422804014327), (0.0, 1.0, 1.0),
                   (0.0, 0.0, 1.0), (1.0, 0.0, 0.1), (1e308, 0.0, 1e308), (0.0, 1.0, 1e-300),
                   (0.0, 1.0, 1e300), (0.0, 1e300, 1e-300), (0.0, 1e-300, 1e-310),
                   (3.0, 1e-300, 1e-300), (0.0, 1e300, 1.0), (1e10, 1.0, 1e-200),
                   (-5.0, 2.0, 0.01), (0.0, 1e-300, 1e-10)]
    for _ in range(80):
        sigma = 10 ** rng.uniform(-300, 300)
        ratio = 10 ** rng.uniform(-300, 300)
        cost = sigma * ratio
        if not (0 < cost < 1e308):
            continue
        mu = rng.choice([0.0, rng.uniform(-1, 1) * sigma * 10 ** rng.uniform(-3, 3)])
        pbgi_inputs.append((mu, sigma, cost))
    for a in pbgi_inputs:
        rows.append(("pbgi",) + a)

    eipc_inputs = [(0.0, 0.0, 1.0, 1.0), (0.0, 0.0, 3.0, 1.5), (0.0, 1.0, 0.0, 0.3), (0.0, 1.0, -40.0, 1e-300),
                   (0.0, 1e-300, 1e-300, 1e-300), (0.0, 1e300, 0.0, 1e300)]
    for _ in range(60):
        sigma = 10 ** rng.uniform(-300, 300)
        z = rng.choice([-1, 1]) * 10 ** rng.uniform(-4, 7)
        mu = rng.choice([0.0, rng.uniform(-1, 1) * sigma])
        y = mu + z * sigma
        cost = sigma * 10 ** rng.uniform(-300, 300)
        if math.isfinite(y) and 0 < cost < 1e308:
            eipc_inputs.append((mu, sigma, y, cost))
    for a in eipc_inputs:
        rows.append(("log_eipc",) + a)

    lognormal_inputs = [(0.0, 1.0, 0.0, 0.0, 0.0), (0.0, 1.0, 0.0, -1.0, 1.0), (0.0, 0.0, 1.0, 0.0, 0.0),
                        (0.0, 1.0, -30.0, -400.0, 3.0), (0.0, 1e-300, 0.0, -690.0, 0.5)]
    for _ in range(30):
        sigma = 10 ** rng.uniform(-300, 300)
        z = rng.choice([-1, 1]) * 10 ** rng.uniform(-4, 6)
        mu = rng.choice([0.0, rng.uniform(-1, 1) * sigma])
        y = mu + z * sigma
        m = math.log(sigma) + rng.uniform(-600, 600)
        s_ = rng.choice([0.0, rng.uniform(0, 3), 10 ** rng.uniform(-5, 1.3)])
        if math.isfinite(y):
            lognormal_inputs.append((mu, sigma, y, m, s_))
    for a in lognormal_inputs:
        rows.append(("log_eipc_inv",) + a)
        rows.append(("log_eipc_exp",) + a)
        mu, sigma, _, m, s_ = a
        if m + s_ * s_ / 2 < 700:
            rows.append(("pbgi_lognormal", mu, sigma, m, s_))

    out = sys.stdout
    out.write("function,a,b,c,d,e,value\n")
    for row in rows:
        f, args = row[0], row[1:]
        if f == "h":
            v = h(args[0])
        elif f == "ln_h":
            v = log(h(args[0]))
        elif f == "ei":
            v = ei(*args)
        elif f == "log_ei":
            v = log(ei(*args))
        elif f == "pbgi":
            v = pbgi(*args)
        elif f == "log_eipc":
            v = log_eipc(*args)
        elif f == "log_eipc_inv":
            v = log_eipc_lognormal(*args, -1)
        elif f == "log_eipc_exp":
            v = log_eipc_lognormal(*args, 1)
        else:
            v = pbgi_lognormal(*args)
        cols = [repr(float(a)) for a in args] + [""] * (5 - len(args))
        out.write(",".join([f] + cols + [fmt(v)]) + "\n")


if __name__ == "__main__":
    main()

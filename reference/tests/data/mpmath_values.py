#!/usr/bin/env python3
"""Independent high-precision values for pbgi-reference, computed with mpmath.

How it was run (from the repository root):

    python3 reference/tests/data/mpmath_values.py > reference/tests/data/mpmath_values.csv

mpmath 1.3.0, Python 3.11, working precision DPS = 90 decimal digits plus 2*log10|z| guard
digits where zΦ(z)+φ(z) cancels (on top of the caller's precision); values written with 60
significant digits. Deterministic: fixed hand-picked inputs plus a stratified grid from
random.Random(20261121) (values, gradients at the same inputs) and random.Random(20261201)
(log_ndtr, far-tail gradient inputs).

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
  log_ndtr(x) = ln ncdf(x) for x <= 0, log1p(-Q(x)) for x > 0, Q(x) = erfc(x/sqrt(2))/2
               (|x| > 1e50: Q(x) = npdf(x)/x (1 - 1/x^2 + 3/x^4 - 15/x^6), rel. error < 1e-398)
  gradients, z = (y-mu)/sigma, u = (PBGI - mu)/sigma from the same Newton root (at 2*log10|u|
  more digits, which npdf(u) amplifies):
    ei_grad.d_mu = -ncdf(z), ei_grad.d_sigma = npdf(z)
    log_ei_grad.d_mu = -ncdf(z)/(sigma h(z)), log_ei_grad.d_sigma = npdf(z)/(sigma h(z))
    pbgi_grad.d_sigma = -npdf(u)/ncdf(u), pbgi_grad.d_cost = 1/ncdf(u)
  sigma = 0 (one-sided derivatives in sigma): ei_grad = (-1, 0) for y > mu, (0, 0) for y < mu;
  log_ei_grad = (-1/(y-mu), 0) for y > mu; pbgi_grad = (1, 0, 1). Inputs where a derivative
  does not exist (sigma = 0 and y = mu for EI, y <= mu for LogEI) have no row.
  (pbgi_grad.d_mu = 1 identically and has no row.)
Inputs are f64 values written with repr() (round-trips exactly); mpmath takes them exactly.
Columns: function,a,b,c,d,e,value  (h/ln_h: a=z; log_ndtr: a=x; *_grad.*: as the function; ei/log_ei: a=mu,b=sigma,c=y;
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
    with mp.extradps(guard(z)):
        v = z * mpmath.erfc(-z / mpmath.sqrt(2)) / 2 + mpmath.npdf(z)
    return +v


def upper_tail(x):
    """Q(x) = P(Z > x) for x >= 0, relative accuracy to the working precision."""
    x = mpf(x)
    if x > mpf("1e50"):
        return mpmath.npdf(x) / x * (1 - 1 / x**2 + 3 / x**4 - 15 / x**6)
    return mpmath.erfc(x / mpmath.sqrt(2)) / 2


def ncdf(z):
    z = mpf(z)
    return upper_tail(-z) if z <= 0 else 1 - upper_tail(z)


def log_ndtr(x):
    x = mpf(x)
    with mp.workdps(DPS + 20):
        if x <= 0:
            if x < mpf("-1e50"):
                t = -x
                return (-t**2 / 2 - mpmath.log(mpmath.sqrt(2 * mpmath.pi)) - mpmath.log(t)
                        + mpmath.log(1 - 1 / t**2 + 3 / t**4 - 15 / t**6))
            return mpmath.log(upper_tail(-x))
        return mpmath.log1p(-upper_tail(x))


def standardized(mu, sigma, y):
    mu, sigma, y = mpf(mu), mpf(sigma), mpf(y)
    with mp.workdps(DPS + 700):  # y - mu exactly for any two doubles
        d = y - mu
    return d, d / sigma if sigma != 0 else None


def ei_grad(mu, sigma, y):
    d, _ = standardized(mu, sigma, y)
    if sigma == 0:
        return {"d_mu": mpf(-1) if d > 0 else mpf(0), "d_sigma": mpf(0)}
    with mp.workdps(DPS + guard(d / mpf(sigma))):
        z = d / mpf(sigma)
        return {"d_mu": -ncdf(z), "d_sigma": mpmath.npdf(z)}


def h_over_npdf_and_mills(x):
    """(h(-x)/npdf(x), Q(x)/npdf(x)) for x > 1e50 by their asymptotic series (rel. err < 1e-398)."""
    return (1 / x**2 * (1 - 3 / x**2 + 15 / x**4 - 105 / x**6),
            1 / x * (1 - 1 / x**2 + 3 / x**4 - 15 / x**6))


def log_ei_grad(mu, sigma, y):
    d, _ = standardized(mu, sigma, y)
    sigma = mpf(sigma)
    if sigma == 0:
        return {"d_mu": -1 / d, "d_sigma": mpf(0)}
    with mp.workdps(DPS + guard(d / sigma)):
        z = d / sigma
        if z < mpf("-1e50"):
            q, r = h_over_npdf_and_mills(-z)
            return {"d_mu": -r / (sigma * q), "d_sigma": 1 / (sigma * q)}
        e = sigma * h(z)
        return {"d_mu": -ncdf(z) / e, "d_sigma": mpmath.npdf(z) / e}


def pbgi_grad(mu, sigma, cost):
    if sigma == 0:
        return {"d_sigma": mpf(0), "d_cost": mpf(1)}
    u = standardized_index(mpf(sigma), mpf(cost))
    with mp.workdps(DPS + guard(u)):
        c = ncdf(u)
        return {"d_sigma": -mpmath.npdf(u) / c, "d_cost": 1 / c}


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
    with mp.workdps(DPS + 700):
        if sigma == 0:
            return mu + cost
        return mu + sigma * standardized_index(sigma, cost)


def standardized_index(sigma, cost):
    """u with h(u) = cost/sigma (sigma > 0), to DPS + 2*log10|u| digits."""
    r = cost / sigma
    lr = mpmath.log(r)
    # Starting point: u ≈ r for large r, asymptotic -sqrt(2 ln(1/r)) for small r.
    if r > 1:
        u0 = r - mpf("0.3")
    elif r > mpf("0.05"):
        u0 = 2 * (r - 1 / mpmath.sqrt(2 * mpmath.pi))
    else:
        u0 = -mpmath.sqrt(2 * (-lr - mpmath.log(mpmath.sqrt(2 * mpmath.pi))))
    with mp.workdps(DPS + 20 + guard(u0)):
        r = cost / sigma
        lr = mpmath.log(r)
        if r > 1e6:
            # u = r - h(-u), h(-u) < phi(u)/u^2 negligible or tiny: fixed point converges at once.
            u = r
            for _ in range(5):
                u = r - h(-u)
        else:
            f = lambda u: mpmath.log(h(u)) - lr
            df = lambda u: mpmath.ncdf(u) / h(u)
            u = mpmath.findroot(f, u0, solver="newton", df=df,
                                tol=mpf(10) ** (-2 * (DPS + guard(u0))))
        return +u


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

    extra = random.Random(20261201)
    xs = [0.0, 1e-300, -1e-300, 5e-324, -5e-324, 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 3.9, -3.9, 4.0,
          -4.0, 4.1, -4.1, 5.0, -5.0, 8.0, -8.0, 10.0, -10.0, 20.0, -20.0, 37.0, -37.0, 38.0, -38.0,
          38.5, -38.5, 39.0, -39.0, 40.0, -40.0, 100.0, -100.0, 1e3, -1e3, 1e5, -1e5, 1e8, -1e8,
          2.5e9, -2.5e9, 3e9, -3e9, 1e10, -1e10, 1e20, -1e20, 1e50, -1e50, 1e100, -1e100, 1e154,
          -1e154, 2e154, -2e154, 1e300, -1e300, 1.7976931348623157e308, -1.7976931348623157e308]
    for _ in range(60):
        xs.append(extra.choice([-1, 1]) * 10 ** extra.uniform(-3, 10))
    for _ in range(20):
        xs.append(extra.choice([-1, 1]) * 10 ** extra.uniform(10, 308))
    for x in xs:
        rows.append(("log_ndtr", x))

    tail_inputs = [(0.0, 1.0, -1e300), (0.0, 1.0, 1e300), (0.0, 1.0, -3e9), (0.0, 1.0, 3e9),
                   (0.0, 1.0, -1e5), (0.0, 1.0, 1e5), (0.0, 1.0, -38.5), (0.0, 1.0, 38.5),
                   (0.0, 1.0, -40.0), (0.0, 1.0, 4.0), (0.0, 1.0, -4.0), (1.0, 0.0, 3.0),
                   (3.0, 0.0, 1.0), (0.0, 5e-324, 1e308), (0.0, 5e-324, -1e308),
                   (0.0, 1e300, -1e-300), (1e308, 1e-300, 1e308), (0.0, 2.0, -3.0)]
    for _ in range(30):
        sigma = 10 ** extra.uniform(-300, 300)
        z = extra.choice([-1, 1]) * 10 ** extra.uniform(0, 12)
        mu = extra.choice([0.0, extra.uniform(-1, 1) * sigma * 10 ** extra.uniform(-5, 3)])
        y = mu + z * sigma
        if math.isfinite(y):
            tail_inputs.append((mu, sigma, y))
    for a in ei_inputs + tail_inputs:
        mu, sigma, y = a
        d, _ = standardized(mu, sigma, y)
        if not (sigma == 0 and d == 0):
            rows.append(("ei_grad.d_mu",) + a)
            rows.append(("ei_grad.d_sigma",) + a)
        if not (sigma == 0 and d <= 0):
            rows.append(("log_ei_grad.d_mu",) + a)
            rows.append(("log_ei_grad.d_sigma",) + a)

    index_inputs = [(0.0, 1e300, 5e-324), (0.0, 5e-324, 1e308), (0.0, 1.0, 1e-10), (0.0, 1.0, 30.0),
                    (0.0, 1.0, 38.0), (0.0, 1.0, 1e10), (2.0, 1.0, 0.5)]
    for a in pbgi_inputs + index_inputs:
        rows.append(("pbgi_grad.d_sigma",) + a)
        rows.append(("pbgi_grad.d_cost",) + a)

    # The slowest log-normal calls of the reference's timing sweep (its tests/slow_corners.rs).
    for a in [(0.0, 1.0, -8.849341758706261, 5.0), (0.0, 1.0, -184.20680743952366, 0.0),
              (0.0, 1e150, 348.16035267134663, 0.0), (0.0, 1e300, 694.4261861395074, 0.0),
              (0.0, 1.0, 3.5638794541139363, 0.5), (0.0, 1e300, 244.42618613950742, 30.0)]:
        rows.append(("pbgi_lognormal",) + a)

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
        elif f == "pbgi_lognormal":
            v = pbgi_lognormal(*args)
        elif f == "log_ndtr":
            v = log_ndtr(*args)
        else:
            name, field = f.split(".")
            grad = {"ei_grad": ei_grad, "log_ei_grad": log_ei_grad, "pbgi_grad": pbgi_grad}[name]
            v = grad(*args)[field]
        cols = [repr(float(a)) for a in args] + [""] * (5 - len(args))
        out.write(",".join([f] + cols + [fmt(v)]) + "\n")


if __name__ == "__main__":
    main()

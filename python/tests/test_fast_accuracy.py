"""pbgi.fast is within its documented bounds of the certified reference, region by region.

Graded by `pbgi.check` (the `pbgi check` report) on seeded stratified points over the
documented domain (|z| up to 1e8, sigma from 1e-300 to 1e300, sigma = 0); the bounds are the
project's tolerance table (`pbgi.fast.tolerances`, from `conformance/src/tolerances.rs`).
"""

import numpy as np
import pytest

import pbgi

SEED = 20261124
# Region ranges of z (of u for PBGI), as in the report's region table.
Z_STRATA = [(-1e8, -1e6), (-1e6, -1e4), (-1e4, -40), (-40, -37), (-37, -5), (-5, -0.5),
            (-0.5, 0.5), (0.5, 1e4), (1e4, 1e6), (1e6, 1e8)]


def stratified_z(rng, per_stratum):
    return np.concatenate([rng.uniform(lo, hi, per_stratum) for lo, hi in Z_STRATA])


def mu_sigma(rng, n):
    mu = rng.normal(0.0, 1.0, n) * 10.0 ** rng.uniform(-3, 3, n)
    sigma = 10.0 ** rng.uniform(-6, 6, n)
    extreme = rng.random(n) < 0.1
    sigma[extreme] = 10.0 ** rng.choice([-300.0, -200.0, 200.0, 300.0], extreme.sum())
    mu[extreme] = 0.0
    return mu, sigma


# Region ranges of x for log-ndtr: log-uniform in |x| for the wide ones.
X_STRATA = [(-1e300, -1e154), (-1e154, -1e8), (-1e8, -40), (-40, -8), (-8, -1), (-1, 0), (0, 1),
            (1, 8), (8, 38.5), (38.5, 1e300)]


def stratified_x(rng, per_stratum):
    parts = []
    for lo, hi in X_STRATA:
        if hi - lo > 100:
            a, b = sorted((abs(lo), abs(hi)))
            parts.append(np.sign(lo + hi) * 10.0 ** rng.uniform(np.log10(a), np.log10(b), per_stratum))
        else:
            parts.append(rng.uniform(lo, hi, per_stratum))
    return np.concatenate(parts)


def points(function, rng):
    if function == "log-ndtr":
        return {"x": stratified_x(rng, 40)}
    if function in ("h", "ln-h"):
        return {"z": stratified_z(rng, 40)}
    if function in ("ei", "log-ei", "log-eipc"):
        z = stratified_z(rng, 30)
        mu, sigma = mu_sigma(rng, z.size)
        y = mu + sigma * z
        sigma[:12] = 0.0  # the exact sigma = 0 case
        columns = {"mu": mu, "sigma": sigma, "y": y}
        if function == "log-eipc":
            columns["cost"] = 10.0 ** rng.uniform(-10, 3, z.size)
        return {k: v[np.isfinite(y)] for k, v in columns.items()}
    assert function == "pbgi"
    n = 120
    mu, sigma = mu_sigma(rng, n)
    ratio = 10.0 ** np.concatenate([rng.uniform(-250, -20, 40), rng.uniform(-20, 1, 60),
                                    rng.uniform(1, 250, 20)])
    with np.errstate(over="ignore"):
        cost = sigma * ratio
    sigma[:8] = 0.0
    ok = np.isfinite(cost) & (cost > 0)
    return {"mu": mu[ok], "sigma": sigma[ok], "cost": cost[ok]}


FAST = {"h": "h", "ln-h": "ln_h", "log-ndtr": "log_ndtr", "ei": "ei", "log-ei": "log_ei", "pbgi": "pbgi",
        "log-eipc": "log_eipc"}


@pytest.mark.parametrize("function", sorted(FAST))
def test_fast_within_its_bounds_by_region(function):
    print(f"seed {SEED}")
    rng = np.random.default_rng([SEED, sorted(FAST).index(function)])
    columns = points(function, rng)
    ours = getattr(pbgi.fast, FAST[function])(*columns.values())
    report = pbgi.check(function, ours, **columns)
    bounds = pbgi.fast.tolerances(function)
    graded = 0
    for region in report.regions:
        bound, reason = bounds[region["label"]]
        assert region["max"] <= bound, f"{region['label']}: {region['max']} ULP > {bound} ({reason})\n{report}"
        graded += region["rows"]
    assert graded == report.ulp.size > 100


def ordinal(v):
    """Position of each float64 on the line of float64 values (-0 and +0 at the same place)."""
    bits = np.asarray(v, dtype=np.float64).view(np.int64)
    return np.where(bits < 0, -(bits & np.int64(0x7FFFFFFFFFFFFFFF)), bits)


def test_fast_log_ndtr_within_four_ulp_of_the_reference():
    print(f"seed {SEED}")
    rng = np.random.default_rng([SEED, 99])
    x = np.concatenate([stratified_x(rng, 30), [0.0, -0.0, -8.0, 8.0, 38.5, 40.0, -1.9e154]])
    fast = pbgi.fast.log_ndtr(x)
    reference = pbgi.reference.log_ndtr(x).value
    assert np.array_equal(np.isinf(fast), np.isinf(reference))
    finite = np.isfinite(reference)
    ulps = np.abs(ordinal(fast[finite]) - ordinal(reference[finite]))
    worst = int(np.argmax(ulps))
    assert ulps.max() <= 4, f"{ulps.max()} ULP at x = {x[finite][worst]!r}"
    assert pbgi.fast.log_ndtr(0.0) == -np.log(2.0)
    assert np.signbit(pbgi.fast.log_ndtr(np.inf)) and pbgi.fast.log_ndtr(np.inf) == 0.0

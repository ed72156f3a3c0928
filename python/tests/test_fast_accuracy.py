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


def points(function, rng):
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


FAST = {"h": "h", "ln-h": "ln_h", "ei": "ei", "log-ei": "log_ei", "pbgi": "pbgi",
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

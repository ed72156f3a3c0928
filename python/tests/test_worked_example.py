"""The worked example of docs/grading.md: a naive SciPy EI, `sigma*(z*Phi(z) + phi(z))`, graded by the
oracle. SciPy's Phi and phi are accurate; the formula itself cancels for z below about -5, and
the grading must fail it there and only there."""

import numpy as np
import scipy.stats

import pbgi

SEED = 20261125


def naive_ei(mu, sigma, y):
    z = (y - mu) / sigma
    return sigma * (z * scipy.stats.norm.cdf(z) + scipy.stats.norm.pdf(z))


def test_naive_scipy_ei_fails_where_it_cancels():
    print(f"seed {SEED}")
    rng = np.random.default_rng(SEED)
    z = np.concatenate([rng.uniform(lo, hi, 40) for lo, hi in
                        [(-37, -5), (-5, -0.5), (-0.5, 0.5), (0.5, 30)]])
    mu = rng.normal(0.0, 1.0, z.size)
    sigma = 10.0 ** rng.uniform(-1, 1, z.size)
    y = mu + sigma * z
    report = pbgi.check("ei", naive_ei(mu, sigma, y), mu=mu, sigma=sigma, y=y)
    assert not report.passed(4)
    regions = {r["label"]: r for r in report.regions}
    assert regions["-37 <= z < -5"]["max"] > 1e4          # catastrophic cancellation
    assert regions["-0.5 <= z <= 0.5"]["max"] <= 4
    assert regions["0.5 < z <= 1e4"]["max"] <= 4
    failing = report.ulp > 4
    assert failing.any()
    assert (((y - mu) / sigma)[failing] < -0.5).all()     # every failure is in the left tail

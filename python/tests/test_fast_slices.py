"""A scalar `y` (one incumbent for every candidate, the BO case) sends `pbgi.fast.ei`,
`log_ei` and `log_eipc` to the crate's vectorised slice kernels; an array `y` to their
per-point forms (`*_slice_per_point`). The crate promises both are bit-identical to the scalar
functions (its lanes tests); this checks the promise holds through the Python layer (the
per-point kernels against the scalar function itself: `test_fast_threads.py`), on BO-like points and on the branchy
inputs a lane hands back to the scalar path (far tails, sigma = 0, subnormal and huge sigma,
NaN and infinite arguments)."""

import numpy as np
import pytest

import pbgi

SEED = 20261122


def points(n=20_003):
    rng = np.random.default_rng(SEED)
    print(f"seed {SEED}")
    mu = rng.normal(0.0, 1.0, n) * 10.0 ** rng.uniform(-3, 3, n)
    sigma = 10.0 ** rng.uniform(-8, 8, n)
    special = np.array([0.0, 0.0, 5e-324, 1e-300, 1e300, np.inf, np.nan, 1.0, 1.0, 1.0, -1.0])
    mu_special = np.array([0.0, 2.0, 0.0, 1e-290, -1e308, 0.0, 0.0, np.nan, 1e8, -1e8, 0.0])
    mu = np.concatenate([mu, mu_special])
    sigma = np.concatenate([sigma, special])
    cost = 10.0 ** rng.uniform(-12, 2, mu.size)
    return mu, sigma, cost


@pytest.mark.parametrize("y", [0.0, -3.5, 1e6, -1e-300])
@pytest.mark.parametrize("name", ["ei", "log_ei"])
def test_scalar_y_slice_path_is_bit_identical_to_the_element_path(name, y):
    mu, sigma, _ = points()
    f = getattr(pbgi.fast, name)
    vectorised = f(mu, sigma, y)
    per_element = f(mu, sigma, np.full(mu.size, y))
    np.testing.assert_array_equal(vectorised.view(np.int64)[~np.isnan(vectorised)],
                                  per_element.view(np.int64)[~np.isnan(vectorised)])
    assert np.array_equal(np.isnan(vectorised), np.isnan(per_element))


@pytest.mark.parametrize("y", [0.0, -3.5, 1e6])
def test_log_eipc_scalar_y_slice_path_is_bit_identical_to_the_element_path(y):
    mu, sigma, cost = points()
    vectorised = pbgi.fast.log_eipc(mu, sigma, y, cost)
    per_element = pbgi.fast.log_eipc(mu, sigma, np.full(mu.size, y), cost)
    np.testing.assert_array_equal(vectorised.view(np.int64)[~np.isnan(vectorised)],
                                  per_element.view(np.int64)[~np.isnan(vectorised)])
    assert np.array_equal(np.isnan(vectorised), np.isnan(per_element))

"""Arguments broadcast like numpy ufuncs, in both modules, with the elementwise values of scalar
calls; `out=` receives results in place; inputs are never modified."""

import numpy as np
import pytest

import pbgi


def scalar_loop(f, *args):
    """`f` called once per element of the broadcast arguments (the meaning of broadcasting)."""
    b = np.broadcast(*args)
    return np.array([f(*xs) for xs in b]).reshape(b.shape)


MU = np.array([[0.0], [1.5], [-2.0]])          # (3, 1)
SIGMA = np.array([0.5, 1.0, 2.0, 0.0])           # (4,)
Y = 0.25


@pytest.mark.parametrize("name", ["ei", "log_ei"])
def test_fast_broadcasts_like_a_ufunc(name):
    f = getattr(pbgi.fast, name)
    got = f(MU, SIGMA, Y)
    assert got.shape == (3, 4) and got.dtype == np.float64
    expected = scalar_loop(lambda m, s, y: f(float(m), float(s), float(y)), MU, SIGMA, Y)
    np.testing.assert_array_equal(got, expected)


def test_reference_broadcasts_like_a_ufunc():
    got = pbgi.reference.pbgi(MU, SIGMA, 0.1)
    assert got.value.shape == got.lower.shape == got.upper.shape == (3, 4)
    expected = scalar_loop(lambda m, s, c: pbgi.reference.pbgi(m, s, c).value, MU, SIGMA, 0.1)
    np.testing.assert_array_equal(got.value, expected)
    lower, upper = got.decimals()
    assert lower.shape == upper.shape == (3, 4)
    assert (lower[2, 1], upper[2, 1]) == pbgi.reference.pbgi(-2.0, 1.0, 0.1).decimals()


def test_scalars_give_numpy_scalars():
    assert isinstance(pbgi.fast.ei(0.0, 1.0, 0.0), np.float64)
    r = pbgi.reference.ei(0, 1, 0)
    assert isinstance(r.value, np.float64) and isinstance(r.lower, np.float64)
    lower, upper = r.decimals()
    assert isinstance(lower, str) and isinstance(upper, str)


def test_zero_d_and_length_one_arrays_keep_their_shape():
    assert pbgi.fast.h(np.array([0.0])).shape == (1,)
    assert pbgi.reference.h(np.array([[0.0]])).value.shape == (1, 1)


def test_empty_arrays_give_empty_results():
    assert pbgi.fast.pbgi(np.empty((0, 3)), 1.0, 0.1).shape == (0, 3)
    r = pbgi.reference.ei(np.empty(0), 1.0, 0.0)
    assert r.value.shape == r.lower.shape == (0,)
    assert r.decimals()[0].shape == (0,)


def test_integer_float32_and_list_inputs_are_taken_exactly():
    np.testing.assert_array_equal(
        pbgi.fast.ei([0, 1], np.float32(1.0), np.array([0, 2], dtype=np.int64)),
        pbgi.fast.ei(np.array([0.0, 1.0]), 1.0, np.array([0.0, 2.0])),
    )


def test_non_contiguous_inputs_give_the_same_values():
    mu = np.linspace(-3.0, 3.0, 40).reshape(4, 10)
    view = mu[:, ::3]
    assert not view.flags.c_contiguous
    np.testing.assert_array_equal(pbgi.fast.log_ei(view, 1.0, 0.0), pbgi.fast.log_ei(view.copy(), 1.0, 0.0))
    np.testing.assert_array_equal(
        pbgi.reference.ei(mu.T, 1.0, 0.0).value, pbgi.reference.ei(np.ascontiguousarray(mu.T), 1.0, 0.0).value
    )


def test_out_receives_the_result_and_is_returned():
    mu = np.linspace(-2.0, 2.0, 7)
    out = np.full(7, np.nan)
    returned = pbgi.fast.pbgi(mu, 1.0, 0.1, out=out)
    assert returned is out
    np.testing.assert_array_equal(out, pbgi.fast.pbgi(mu, 1.0, 0.1))


def test_out_may_be_an_input():
    mu = np.linspace(-2.0, 2.0, 7)
    expected = pbgi.fast.ei(mu, 1.0, 0.0)
    pbgi.fast.ei(mu, 1.0, 0.0, out=mu)
    np.testing.assert_array_equal(mu, expected)


def test_gradient_outs_are_filled():
    outs = tuple(np.empty(5) for _ in range(4))
    g = pbgi.fast.pbgi_grad(np.arange(5.0), 1.0, 0.1, out=outs)
    assert all(a is b for a, b in zip(g, outs))
    np.testing.assert_array_equal(g.d_mu, 1.0)


def test_inputs_are_not_modified():
    mu = np.linspace(-2.0, 2.0, 9)
    before = mu.copy()
    pbgi.fast.ei(mu, 1.0, 0.0)
    pbgi.reference.ei(mu, 1.0, 0.0)
    np.testing.assert_array_equal(mu, before)


def test_fast_gradients_match_their_values():
    mu, sigma, y = np.linspace(-3, 3, 11), 0.7, 0.2
    np.testing.assert_array_equal(pbgi.fast.ei_grad(mu, sigma, y).value, pbgi.fast.ei(mu, sigma, y))
    np.testing.assert_array_equal(pbgi.fast.log_ei_grad(mu, sigma, y).value, pbgi.fast.log_ei(mu, sigma, y))
    np.testing.assert_array_equal(pbgi.fast.pbgi_grad(mu, sigma, 0.3).value, pbgi.fast.pbgi(mu, sigma, 0.3))


@pytest.mark.parametrize("name", ["ei", "log_ei", "pbgi", "log_eipc"])
def test_every_argument_pattern_gives_the_same_values(name):
    # Array/scalar patterns take different loops (the crate's slice kernels or the per-element
    # loop); every element must equal the scalar function's value.
    f = getattr(pbgi.fast, name)
    rng = np.random.default_rng(7)
    mu, sigma = rng.normal(size=50), 10.0 ** rng.uniform(-2, 1, 50)
    third = 0.1 if name == "pbgi" else -0.7
    args = [mu, sigma, third] + ([0.01] if name == "log_eipc" else [])
    expected = np.array([f(*(a[i] if np.ndim(a) else a for a in args)) for i in range(50)])
    for k in range(len(args)):
        varied = list(args)
        varied[k] = np.broadcast_to(args[k], (50,)).copy()
        np.testing.assert_array_equal(f(*varied), expected)
    np.testing.assert_array_equal(f(*[np.broadcast_to(a, (50,)).copy() for a in args]), expected)

"""Bad input raises a clear error naming the argument and the index of the first bad element;
the fast kernels follow the crate's NaN convention instead."""

import numpy as np
import pytest

import pbgi


def test_reference_names_argument_and_index():
    sigma = np.array([1.0, 2.0, -1.0, -3.0])
    with pytest.raises(pbgi.InvalidInput, match=r"^sigma\[2\]: sigma must be >= 0, got -1$") as info:
        pbgi.reference.ei(0.0, sigma, 0.0)
    assert isinstance(info.value, ValueError)
    assert info.value.argument == "sigma" and info.value.index == (2,)


def test_index_is_in_the_arguments_own_shape_after_broadcasting():
    cost = np.array([[0.1], [0.0]])                  # (2, 1): bad element at (1, 0)
    mu = np.zeros((2, 3))
    with pytest.raises(pbgi.InvalidInput, match=r"^cost\[1, 0\]: cost must be > 0, got 0$"):
        pbgi.reference.pbgi(mu, 1.0, cost)


def test_first_bad_element_in_order_is_reported():
    mu = np.array([0.0, np.inf, 0.0])
    y = np.array([0.0, 0.0, np.nan])
    with pytest.raises(pbgi.InvalidInput, match=r"^mu\[1\]: mu must be finite, got inf$"):
        pbgi.reference.log_ei(mu, 1.0, y)


def test_scalar_argument_is_named_without_index():
    with pytest.raises(pbgi.InvalidInput, match=r"^z: z must be finite, got NaN$") as info:
        pbgi.reference.h(float("nan"))
    assert info.value.index == ()


@pytest.mark.parametrize(
    "call, argument",
    [
        (lambda: pbgi.reference.log_eipc(0, 1, 0, -1.0), "cost"),
        (lambda: pbgi.reference.pbgi(0, 1, np.inf), "cost"),
        (lambda: pbgi.reference.ln_h(-np.inf), "z"),
        (lambda: pbgi.reference.ei(np.nan, 1, 0), "mu"),
    ],
)
def test_every_function_checks_its_domain(call, argument):
    with pytest.raises(pbgi.InvalidInput) as info:
        call()
    assert info.value.argument == argument


def test_arguments_that_cannot_broadcast_are_named():
    with pytest.raises(ValueError, match=r"cannot be broadcast together: mu \(2,\), sigma \(3,\)"):
        pbgi.fast.ei(np.zeros(2), np.ones(3), 0.0)


def test_non_numeric_argument_is_named():
    with pytest.raises(TypeError, match=r"^sigma: expected real numbers, got strings$"):
        pbgi.fast.ei(0.0, "one", 0.0)
    # A numeric string is refused too (it used to be parsed).
    with pytest.raises(TypeError, match=r"^sigma: expected real numbers, got strings$"):
        pbgi.fast.ei(0.0, "1.5", 0.0)


@pytest.mark.parametrize(
    "out, message",
    [
        (np.empty(3, dtype=np.float32), r"^out: expected dtype float64, got float32$"),
        (np.empty(4), r"^out: shape \(4,\), the result has shape \(3,\)$"),
        (np.empty((3, 2))[:, 0], r"^out: must be C-contiguous$"),
        ([0.0, 0.0, 0.0], r"^out: expected a numpy array, got list$"),
    ],
)
def test_bad_out_arrays_are_rejected(out, message):
    with pytest.raises((TypeError, ValueError), match=message):
        pbgi.fast.ei(np.zeros(3), 1.0, 0.0, out=out)


def test_read_only_out_is_rejected():
    out = np.empty(3)
    out.flags.writeable = False
    with pytest.raises(ValueError, match=r"^out: is read-only$"):
        pbgi.fast.ei(np.zeros(3), 1.0, 0.0, out=out)


def test_fast_gives_nan_for_invalid_input_as_documented():
    values = pbgi.fast.pbgi([0.0, 0.0, np.nan, 0.0], [1.0, -1.0, 1.0, 1.0], [0.1, 0.1, 0.1, 0.0])
    assert not np.isnan(values[0]) and np.isnan(values[1:]).all()


def test_decimals_needs_a_digit():
    with pytest.raises(ValueError, match=r"^digits: must be an int from 1 to 10000, got 0$"):
        pbgi.reference.ei(0, 1, 0).decimals(0)

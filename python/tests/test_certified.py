"""`Certified` results: `decimals(digits)` takes an int from 1 to a documented cap, and results
pickle exactly (the copy's enclosure prints the same decimal strings at the cap's digits)."""

import copy
import pickle
import time

import numpy as np
import pytest

import pbgi
from pbgi.reference import MAX_DECIMAL_DIGITS


def test_the_cap_is_documented():
    assert MAX_DECIMAL_DIGITS == 10_000
    assert "10,000" in pbgi.reference.Certified.decimals.__doc__


@pytest.mark.parametrize(
    "digits, error, message",
    [
        (2**40, ValueError, r"^digits: must be an int from 1 to 10000, got 1099511627776$"),
        (10**9, ValueError, r"^digits: must be an int from 1 to 10000, got 1000000000$"),
        (MAX_DECIMAL_DIGITS + 1, ValueError, r"^digits: must be an int from 1 to 10000, got 10001$"),
        (-1, ValueError, r"^digits: must be an int from 1 to 10000, got -1$"),
        (0, ValueError, r"^digits: must be an int from 1 to 10000, got 0$"),
        (1.5, TypeError, r"^digits: expected an int, got 1.5$"),
        (40.0, TypeError, r"^digits: expected an int, got 40.0$"),
        (True, TypeError, r"^digits: expected an int, got True$"),
        ("40", TypeError, r"^digits: expected an int, got '40'$"),
    ],
)
def test_digits_outside_the_cap_are_refused_at_once(digits, error, message):
    # The inputs: 2**40 aborted the interpreter, 10**9 ran for minutes at 2.7 GB, -1
    # raised a raw OverflowError. Scalar, array and empty results alike.
    for result in (pbgi.reference.ei(0, 1, 0), pbgi.reference.h([0.0, 1.0]), pbgi.reference.h([])):
        started = time.perf_counter()
        with pytest.raises(error, match=message):
            result.decimals(digits)
        assert time.perf_counter() - started < 0.5


def test_the_cap_itself_is_fast_and_exact():
    # EI(0, 1; -1e5) ~ 1.2e-2171472420: an end whose exact expansion is longer than the cap.
    result = pbgi.reference.ei(0.0, 1.0, -1e5)
    started = time.perf_counter()
    lower, upper = result.decimals(MAX_DECIMAL_DIGITS)
    assert time.perf_counter() - started < 2.0
    assert lower.startswith("1.2152088604450315") and lower.endswith("e-2171472420")
    assert len(lower.split("e")[0].replace(".", "")) == MAX_DECIMAL_DIGITS
    assert pbgi.reference.ei(0, 1, 0).decimals(3) == ("3.98e-1", "3.99e-1")
    assert pbgi.reference.ei(0, 1, 0).decimals(np.int32(3)) == ("3.98e-1", "3.99e-1")


def same(a, b):
    assert type(a) is type(b)
    for field in ("value", "lower", "upper"):
        x, y = getattr(a, field), getattr(b, field)
        assert np.shape(x) == np.shape(y)
        np.testing.assert_array_equal(x, y)
    da, db = a.decimals(MAX_DECIMAL_DIGITS), b.decimals(MAX_DECIMAL_DIGITS)
    np.testing.assert_array_equal(da[0], db[0])
    np.testing.assert_array_equal(da[1], db[1])


@pytest.mark.parametrize(
    "make",
    [
        lambda: pbgi.reference.ei(0, 1, 0),
        lambda: pbgi.reference.pbgi(np.zeros((2, 3)), 1.0, [[0.1], [1e-200]]),
        lambda: pbgi.reference.ei(0.0, 1.0, [-1e5, -1e8, 3.0]),  # ends far beyond f64's range
        lambda: pbgi.reference.ln_h([-1.8961503816218355e154, 0.0]),  # value -inf, ends finite
        lambda: pbgi.reference.log_ei(0.0, 0.0, [-1.0, 1.0]),  # the exact point -inf
        lambda: pbgi.reference.h(np.empty((0, 2))),
    ],
)
def test_certified_results_pickle_exactly(make):
    # The issue: "cannot pickle 'pbgi._pbgi.Enclosures' object".
    result = make()
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
        same(result, pickle.loads(pickle.dumps(result, protocol)))
    same(result, copy.deepcopy(result))


def test_gradients_pickle():
    gradient = pbgi.reference.pbgi_grad([0.0, 1.0], 1.0, 0.1)
    back = pickle.loads(pickle.dumps(gradient))
    assert type(back) is pbgi.reference.PbgiGradient
    for a, b in zip(gradient, back):
        same(a, b)


def test_a_spoilt_pickle_is_an_error_not_a_wrong_enclosure():
    state = pbgi.reference.ei(0, 1, 0)._enclosures.__reduce__()[1][0]
    value, lower, upper = state[0]
    for bad in [(value, upper, lower), (value, "53:zz:1", upper), (value, lower, "0:1:0"),
                (float("nan"), lower, upper), (value, "53:" + "f" * 20 + ":0", upper),
                (value, lower, "nonsense"), (value, "53:nan", upper)]:
        with pytest.raises(ValueError, match="pickled enclosure 0: not a valid state"):
            pbgi._pbgi.enclosures_from_state([bad])

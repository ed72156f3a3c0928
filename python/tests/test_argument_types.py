"""Arguments that a float64 conversion would silently change are refused with a `TypeError`
naming the argument: complex (the imaginary part), masked arrays (the mask), datetime64 and
timedelta64, strings, and objects that are not real numbers (`None` became NaN). Counts and
seeds are ints in a stated range, never truncated floats or raw `OverflowError`s."""

import fractions
import math

import numpy as np
import pytest

import pbgi

# Every public entry that takes elementwise arguments, with the argument to spoil.
ENTRIES = [
    ("mu", lambda a: pbgi.fast.ei(a, 1.0, 0.0)),
    ("sigma", lambda a: pbgi.reference.ei(0.0, a, 0.0)),
    ("y", lambda a: pbgi.fast.log_ei_grad(0.0, 1.0, a)),
    ("cost", lambda a: pbgi.reference.pbgi(0.0, 1.0, a)),
    ("z", lambda a: pbgi.fast.ln_h(a)),
    ("mu", lambda a: pbgi.check("ei", 0.1, mu=a, sigma=1.0, y=0.0)),
    ("value", lambda a: pbgi.check("ei", a, mu=0.0, sigma=1.0, y=0.0)),
    ("cost", lambda a: pbgi.stopping.pbgi_gap(0.0, 1.0, a, 0.0)),
    ("y_best", lambda a: pbgi.stopping.stop_by_pbgi(0.0, 1.0, 0.1, a)),
    ("statistic", lambda a: pbgi.stopping.StoppingHelper().observe(a)),
]

SPOILT = {
    "complex array": (np.array([1.0 + 2.0j, 0.5]), "complex"),
    "complex scalar": (np.complex128(0.5 + 0.0j), "complex"),
    "datetime64": (np.array(["2020-01-01"], dtype="datetime64[D]"), "datetime64"),
    "timedelta64": (np.timedelta64(3, "s"), "timedelta64"),
    "string": ("0.5", "strings"),
    "None in a list": ([0.5, None], "got None"),
    "object": (np.array([0.5, object()], dtype=object), "expected a real number"),
}


@pytest.mark.parametrize("name, call", ENTRIES)
@pytest.mark.parametrize("spoilt", SPOILT)
def test_lossy_arguments_are_refused_by_name(name, call, spoilt):
    value, words = SPOILT[spoilt]
    if name in ("y_best", "statistic") and np.ndim(value) > 0:
        value = np.asarray(value)[-1:]
    with pytest.raises(TypeError, match=rf"^{name}(\[\d+\])?: .*{words}"):
        call(value)


@pytest.mark.parametrize("name, call", ENTRIES)
def test_masked_arrays_are_refused_by_name(name, call):
    # The issue's input: the mask was ignored and the masked element computed.
    masked = np.ma.array([1.0, 2.0], mask=[False, True])
    with pytest.raises(TypeError, match=rf"^{name}: masked arrays are not accepted"):
        call(masked)


def test_the_issues_inputs():
    with pytest.raises(TypeError, match=r"^mu: expected real numbers, got complex"):
        pbgi.fast.ei(np.array([1 + 2j]), 1, 0)
    with pytest.raises(TypeError, match=r"^mu: expected real numbers, got datetime64"):
        pbgi.fast.ei(np.datetime64("2020-01-01"), 1, 0)
    with pytest.raises(TypeError, match=r"^mu\[1\]: expected a real number, got None"):
        pbgi.fast.ei(np.array([1, None], dtype=object), 1, 0)


def test_real_numbers_of_every_kind_are_accepted():
    expected = pbgi.fast.ei(0.5, 1.0, 0.0)
    for value in (0.5, np.float32(0.5), np.float16(0.5), fractions.Fraction(1, 2),
                  [0.5], np.array([0.5], dtype=object), np.longdouble(0.5)):
        assert pbgi.fast.ei(value, 1.0, 0.0) == expected
    assert pbgi.fast.ei(np.array([True]), 1.0, 0.0) == pbgi.fast.ei(1.0, 1.0, 0.0)
    assert pbgi.fast.ei(np.int64(2), 1.0, 0.0) == pbgi.fast.ei(2.0, 1.0, 0.0)


def test_an_integer_beyond_float64_is_a_value_error():
    with pytest.raises(ValueError, match=r"^mu: 1000.*is beyond float64's range"):
        pbgi.fast.ei(10**400, 1.0, 0.0)
    with pytest.raises(ValueError, match=r"^cost\[1\]: .* is beyond float64's range"):
        pbgi.reference.pbgi(0.0, 1.0, [1, -(10**309)])
    # Within range a Python int is exact as far as float64 allows.
    assert pbgi.fast.ei(2**1000, 1.0, 0.0) == pbgi.fast.ei(2.0**1000, 1.0, 0.0)


@pytest.mark.parametrize(
    "seed, error, message",
    [
        (-1, ValueError, r"^seed: must be an int from 0 to 18446744073709551615, got -1$"),
        (2**64, ValueError, r"^seed: must be an int from 0 to 18446744073709551615, got 1844"),
        (1.5, TypeError, r"^seed: expected an int, got 1.5$"),
        (1.0, TypeError, r"^seed: expected an int, got 1.0$"),
        (True, TypeError, r"^seed: expected an int, got True$"),
    ],
)
def test_seed_is_an_int_in_range(seed, error, message):
    instance = {"boxes": [{"cost": 1, "values": [0, 1], "probs": ["1/2", "1/2"]}]}
    with pytest.raises(error, match=message):
        pbgi.pandora.solve(instance, simulate=10, seed=seed)


@pytest.mark.parametrize(
    "runs, error, message",
    [
        (1e30, TypeError, r"^simulate: expected an int, got 1e\+30$"),
        (2**40, ValueError, r"^simulate: must be an int from 1 to 4294967295, got 1099511627776$"),
        (10**400, ValueError, r"^simulate: must be an int from 1 to 4294967295, got 1000"),
        (0, ValueError, r"^simulate: must be an int from 1 to 4294967295, got 0$"),
        (-3, ValueError, r"^simulate: must be an int from 1 to 4294967295, got -3$"),
        (2.0, TypeError, r"^simulate: expected an int, got 2.0$"),
    ],
)
def test_simulate_is_a_positive_int_up_to_the_clis_bound(runs, error, message):
    instance = {"boxes": [{"cost": 1, "values": [0, 1], "probs": ["1/2", "1/2"]}]}
    with pytest.raises(error, match=message):
        pbgi.pandora.solve(instance, simulate=runs)


def test_largest_seed_and_numpy_ints_are_accepted():
    instance = {"boxes": [{"cost": 1, "values": [0, 1], "probs": ["1/2", "1/2"]}]}
    report = pbgi.pandora.solve(instance, simulate=np.int64(20), seed=2**64 - 1)
    assert report["simulation"]["runs"] == 20 and report["simulation"]["seed"] == 2**64 - 1


@pytest.mark.parametrize(
    "kwargs, error, name",
    [
        ({"window": -1}, ValueError, "window"),
        ({"window": 2**24 + 1}, ValueError, "window"),
        ({"window": 2.0}, TypeError, "window"),
        ({"stabilisation": -1}, ValueError, "stabilisation"),
        ({"debounce": 1.5}, TypeError, "debounce"),
    ],
)
def test_stopping_helper_counts_are_checked(kwargs, error, name):
    with pytest.raises(error, match=rf"^{name}: "):
        pbgi.stopping.StoppingHelper(**kwargs)

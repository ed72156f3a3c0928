"""Grading verdicts that can fail: `Report.passed`, `to_dict`, `text` and
`pbgi.testing.assert_ulp_close` take a bound by `pbgi check --max-ulp`'s rule (a finite number
>= 0, `cli/src/check.rs`), so that a NaN value, or an infinity where the reference is finite,
fails at every bound they accept. The expected verdicts follow from the reference's values,
which are finite at these points."""

import math
import sys

import numpy as np
import pytest

import pbgi
import pbgi.testing

SEED = 20270601


@pytest.mark.parametrize("bound", [math.inf, -math.inf, math.nan, -1, -1e-300])
def test_a_bound_the_cli_refuses_is_refused(bound):
    # The inputs: passed(inf) passed a NaN value, passed(nan) and passed(-1) were taken.
    report = pbgi.check("ei", np.array([np.nan, 0.1]), mu=0.0, sigma=1.0, y=0.0)
    message = r"^max_ulp: must be a finite number >= 0, got "
    with pytest.raises(ValueError, match=message):
        report.passed(bound)
    with pytest.raises(ValueError, match=message):
        report.to_dict(max_ulp=bound)
    with pytest.raises(ValueError, match=message):
        report.text(max_ulp=bound)
    with pytest.raises(ValueError, match=message):
        pbgi.testing.assert_ulp_close("ei", np.nan, bound, mu=0.0, sigma=1.0, y=0.0)


@pytest.mark.parametrize("bound", ["4", None, True, 1 + 0j])
def test_a_bound_that_is_no_real_number_is_a_type_error(bound):
    report = pbgi.check("ei", 0.1, mu=0.0, sigma=1.0, y=0.0)
    with pytest.raises(TypeError, match=r"^max_ulp: expected a real number"):
        report.passed(bound)


def test_the_private_report_refuses_the_same_bounds():
    # The compiled Report guards itself too (the Python layer is not the only caller).
    report = pbgi.check("ei", 0.1, mu=0.0, sigma=1.0, y=0.0)._report
    for bound in (math.inf, math.nan, -1.0):
        with pytest.raises(ValueError, match=r"^max_ulp: must be a finite number >= 0"):
            report.passed(bound)


def test_nan_or_wrong_infinity_fails_at_every_accepted_bound():
    # Property: for random functions, points and bounds (up to the largest double), a NaN or an
    # infinity where the reference is finite never passes.
    print(f"seed {SEED}")
    rng = np.random.default_rng(SEED)
    bounds = [0, 4, 1e300, sys.float_info.max] + list(10.0 ** rng.uniform(0, 308, 20))
    cases = [
        ("ei", dict(mu=0.0, sigma=1.0, y=rng.normal(size=4))),
        ("log-ei", dict(mu=0.0, sigma=1.0, y=rng.normal(size=4) * 10)),
        ("pbgi", dict(mu=rng.normal(size=4), sigma=1.0, cost=0.1)),
        ("h", dict(z=rng.normal(size=4))),
        ("ei-grad", dict(mu=0.0, sigma=1.0, y=rng.normal(size=4))),
    ]
    for function, columns in cases:
        outputs = pbgi._pbgi.check_columns(function)[1]
        for bad in (np.nan, np.inf, -np.inf):
            value = np.full(4, bad)
            value = (value,) * len(outputs) if len(outputs) > 1 else value
            report = pbgi.check(function, value, **columns)
            assert np.isinf(report.ulp).all(), (function, bad)
            for bound in bounds:
                assert not report.passed(bound), (function, bad, bound)
                with pytest.raises(AssertionError):
                    pbgi.testing.assert_ulp_close(function, value, bound, **columns)


def test_correct_values_pass_at_the_largest_bound():
    exact = pbgi.reference.ei(0.0, 1.0, [0.0, 1.0]).value
    assert pbgi.check("ei", exact, mu=0.0, sigma=1.0, y=[0.0, 1.0]).passed(sys.float_info.max)
    pbgi.testing.assert_ulp_close("ei", exact, 0, mu=0.0, sigma=1.0, y=[0.0, 1.0])

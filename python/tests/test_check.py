"""pbgi.check and pbgi.testing.assert_ulp_close: errors measured in ULPs against the reference,
with expected errors built independently (values stepped by known numbers of floats)."""

import math
import sys

import numpy as np
import pytest

import pbgi
import pbgi.testing


def step(x, n):
    """`x` moved `n` floats up (n > 0) or down."""
    for _ in range(abs(n)):
        x = np.nextafter(x, np.inf if n > 0 else -np.inf)
    return x


MU = np.array([0.0, 1.0, -2.0, 0.5, 3.0])
SIGMA = np.array([1.0, 0.5, 2.0, 1.0, 0.25])
Y = np.array([0.0, 0.5, -5.0, -1.0, 3.5])


def test_correctly_rounded_values_score_zero():
    exact = pbgi.reference.ei(MU, SIGMA, Y).value
    report = pbgi.check("ei", exact, mu=MU, sigma=SIGMA, y=Y)
    np.testing.assert_array_equal(report.ulp, 0.0)
    assert report.max_ulp == 0 and report.passed(0)


def test_ulp_distance_for_ei_counts_floats():
    exact = pbgi.reference.ei(MU, SIGMA, Y).value
    offsets = [0, 1, -3, 7, -1]
    theirs = np.array([step(v, k) for v, k in zip(exact, offsets)])
    report = pbgi.check("ei", theirs, mu=MU, sigma=SIGMA, y=Y)
    np.testing.assert_array_equal(report.ulp, np.abs(offsets))
    assert report.max_ulp == 7 and not report.passed(6) and report.passed(7)
    worst = report.worst(2)
    assert [w["index"] for w in worst] == [(3,), (2,)]
    assert worst[0]["args_hex"]["y"] == "0xbff0000000000000"
    assert worst[0]["values"][0]["oracle"] == exact[3]


def test_log_ei_is_measured_in_ulps_of_one_near_zero():
    # ln EI(0, 1; 0.3) is about -0.53: the measure is ULPs of max(|exact|, 1) = 1, i.e. 2^-52.
    exact = pbgi.reference.log_ei(0.0, 1.0, 0.3).value
    report = pbgi.check("log-ei", exact + 3 * 2.0**-52, mu=0.0, sigma=1.0, y=0.3)
    assert report.max_ulp == pytest.approx(3.0, abs=0.5)


def test_nan_and_wrong_infinity_are_infinite_errors():
    exact = pbgi.reference.pbgi(0.0, 1.0, [0.1, 0.2]).value
    report = pbgi.check("pbgi", [np.nan, -np.inf], mu=0.0, sigma=1.0, cost=[0.1, 0.2])
    assert np.isinf(report.ulp).all() and not report.passed(1e300)
    assert report.to_dict()["ulp"]["max"] == "inf"
    assert np.isfinite(exact).all()


def test_broadcast_shape_and_indices():
    mu = np.zeros((2, 3))
    theirs = pbgi.fast.ei(mu, 1.0, np.array([[-1.0], [0.0]]))
    report = pbgi.check("ei", theirs, mu=mu, sigma=1.0, y=np.array([[-1.0], [0.0]]))
    assert report.ulp.shape == (2, 3)
    assert report.worst(1)[0]["index"] in [(i, j) for i in range(2) for j in range(3)]


def test_report_as_data_and_text():
    theirs = pbgi.fast.pbgi(MU, SIGMA, 0.1)
    report = pbgi.check("pbgi", theirs, mu=MU, sigma=SIGMA, cost=0.1)
    data = report.to_dict(worst=3, max_ulp=4)
    assert data["function"] == "pbgi" and data["region_variable"] == "u = (g - mu)/sigma"
    assert data["ulp"]["rows"] == 5 and len(data["worst"]) == 3
    assert data["bound"] == {"max_ulp": 4.0, "rows_above": report.ulp.__gt__(4).sum(), "passed": report.passed(4)}
    assert sum(r["rows"] for r in report.regions) == 5
    text = str(report)
    assert text.startswith("pbgi check pbgi") and "by region of u = (g - mu)/sigma" in text


def test_assert_ulp_close_passes_and_fails_with_the_report():
    exact = pbgi.reference.h([0.0, -3.0]).value
    pbgi.testing.assert_ulp_close("h", exact, 0, z=[0.0, -3.0])
    with pytest.raises(AssertionError) as info:
        pbgi.testing.assert_ulp_close("h", [exact[0], step(exact[1], 5)], 4, z=[0.0, -3.0])
    message = str(info.value)
    assert "--max-ulp 4: FAILED (1 of 2 rows above the bound)" in message
    assert "0xc008000000000000" in message  # z = -3 as hex bits, to reproduce it


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: pbgi.check("erf", 0.0, x=0.0), r"function: expected one of"),
        (lambda: pbgi.check("ei", 0.0, mu=0.0, sigma=1.0), r"ei takes the columns mu, sigma, y: missing y"),
        (lambda: pbgi.check("h", 0.0, z=0.0, w=1.0), r"unexpected w"),
    ],
)
def test_bad_calls_are_explained(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_argument_outside_the_domain_is_named():
    with pytest.raises(pbgi.InvalidInput, match=r"^cost\[1\]: cost must be > 0, got -1$"):
        pbgi.check("pbgi", [0.0, 0.0], mu=0.0, sigma=1.0, cost=[0.1, -1.0])


def test_no_values_never_pass():
    report = pbgi.check("ei", np.empty(0), mu=np.empty(0), sigma=1.0, y=0.0)
    assert report.max_ulp == 0 and not report.passed(sys.float_info.max) and not report.passed(0)


def test_gradients_are_graded_per_output_column():
    mu, sigma, y = MU, SIGMA, Y
    exact = pbgi.reference.ei_grad(mu, sigma, y)
    theirs = (exact.d_mu.value, np.array([step(v, 2) for v in exact.d_sigma.value]))
    report = pbgi.check("ei-grad", theirs, mu=mu, sigma=sigma, y=y)
    np.testing.assert_array_equal(report.ulp, 2.0)
    data = report.to_dict()
    assert data["outputs"] == ["d_mu", "d_sigma"]
    assert {g["label"]: g["max"] for g in data["by_output"]} == {"d_mu": 0.0, "d_sigma": 2.0}
    fast = pbgi.fast.pbgi_grad(mu, sigma, 0.1)
    graded = pbgi.check("pbgi-grad", (fast.d_mu, fast.d_sigma, fast.d_cost), mu=mu, sigma=sigma, cost=0.1)
    assert graded.ulp.shape == (5,) and np.isfinite(graded.ulp).all()
    by_name = pbgi.check("pbgi-grad", fast, mu=mu, sigma=sigma, cost=0.1)
    np.testing.assert_array_equal(by_name.ulp, graded.ulp)


def test_log_ndtr_takes_column_x():
    x = np.array([-40.0, -1.0, 0.0, 5.0])
    report = pbgi.check("log-ndtr", pbgi.reference.log_ndtr(x).value, x=x)
    assert report.passed(0) and report.to_dict()["region_variable"] == "x"


@pytest.mark.parametrize(
    "function, value, columns",
    [
        # The input: EI's kink at sigma = 0, y = mu raised NotCertified.
        ("ei-grad", (-0.5, 0.3), dict(mu=0.0, sigma=0.0, y=0.0)),
        ("ei-grad", (-0.5, 0.3), dict(mu=[1.0, 2.5], sigma=[1.0, 0.0], y=2.5)),
        ("log-ei-grad", (-1.0, 0.0), dict(mu=1.0, sigma=0.0, y=[2.0, 0.5])),
        ("log-ei-grad", (-1.0, 0.0), dict(mu=1.0, sigma=0.0, y=1.0)),
    ],
)
def test_a_kink_is_not_differentiable_as_in_the_reference(function, value, columns):
    # The same points raise NotDifferentiable from the reference gradient itself.
    name = function.replace("-grad", "_grad").replace("-", "_")
    with pytest.raises(pbgi.NotDifferentiable) as from_reference:
        getattr(pbgi.reference, name)(**columns)
    with pytest.raises(pbgi.NotDifferentiable) as from_check:
        pbgi.check(function, value, **columns)
    assert not isinstance(from_check.value, pbgi.NotCertified)
    # Both name the same element.
    assert str(from_check.value).split(":")[0] == str(from_reference.value).split(":")[0]

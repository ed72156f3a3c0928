"""The stated domains hold at their edges: `ln h(z)` and `LogEI` (and `ln Φ`) round to -inf
exactly below z = -1.8961503816218352e154 (-0x1.6a09e667f3bccp+512), as the Rust docs
(`reference/src/h.rs`, `log_ei.rs`), the docstrings and docs/accuracy.md say; and every accuracy
figure in `pbgi.fast`'s docstrings is the one tolerance table's (`tolerances(function)`)."""

import math
import re

import numpy as np
import pytest

import pbgi

LAST_FINITE = float.fromhex("-0x1.6a09e667f3bccp+512")
FIRST_INFINITE = float.fromhex("-0x1.6a09e667f3bcdp+512")


def test_the_boundary_is_as_stated():
    assert LAST_FINITE == -1.8961503816218352e154
    assert FIRST_INFINITE == np.nextafter(LAST_FINITE, -math.inf) == -1.8961503816218355e154
    for text in (pbgi.reference.ln_h.__doc__, pbgi.reference.log_ei.__doc__,
                 pbgi.fast.ln_h.__doc__, pbgi.fast.log_ei.__doc__):
        assert "1.8961503816218352e154" in text


@pytest.mark.parametrize(
    "f",
    [
        lambda z: pbgi.reference.ln_h(z).value,
        lambda z: pbgi.reference.log_ei(0.0, 1.0, z).value,
        lambda z: pbgi.reference.log_ndtr(z).value,
        pbgi.fast.ln_h,
        lambda z: pbgi.fast.log_ei(0.0, 1.0, z),
        pbgi.fast.log_ndtr,
    ],
)
def test_finite_just_inside_minus_inf_beyond(f):
    inside = f(LAST_FINITE)
    assert math.isfinite(inside) and inside < -1.79e308
    assert f(FIRST_INFINITE) == -math.inf
    # The points: ln_h(-1e200), log_ei(0, 1, -1e200) are beyond, hence -inf.
    assert f(-1e200) == -math.inf


def test_the_reference_enclosure_stays_finite_beyond():
    beyond = pbgi.reference.ln_h(FIRST_INFINITE)
    assert beyond.value == -math.inf and math.isfinite(beyond.upper)
    lower, upper = beyond.decimals(20)
    assert lower.startswith("-1.79769313486231615") and lower.endswith("e308")


def test_log_ei_boundary_moves_with_sigma():
    # LogEI(0, sigma; y) = ln sigma + ln h(y/sigma): ln 2^-600 = -416 is far below the unit
    # of -f64::MAX (2^971), so the boundary in z = y/sigma is ln h's (y scaled exactly).
    sigma = 2.0**-600
    assert math.isfinite(pbgi.reference.log_ei(0.0, sigma, LAST_FINITE * sigma).value)
    assert pbgi.reference.log_ei(0.0, sigma, FIRST_INFINITE * sigma).value == -math.inf


FAST_VALUES = ["h", "ln_h", "log_ndtr", "ei", "log_ei", "pbgi", "log_eipc"]


@pytest.mark.parametrize("name", FAST_VALUES)
def test_fast_docstrings_state_the_tolerance_tables_bound(name):
    # The issue: log_eipc's docstring said 8 ULP, the README and the table 4.
    bound = max(b for b, _ in pbgi.fast.tolerances(name.replace("_", "-")).values())
    stated = re.findall(r"≤ (\d+) ULP", getattr(pbgi.fast, name).__doc__)
    assert stated and all(float(s) == bound for s in stated), (name, stated, bound)
    assert f"within {bound:g} ULP" in pbgi.fast.__doc__

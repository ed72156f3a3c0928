"""pbgi.reference against independent mpmath values (90 digits; data scripts beside the data).

Every value must be the correctly rounded float64 of mpmath's value, and mpmath's value (60
significant digits, so within half a unit of its 60th digit of the exact value) must meet both
the float64 enclosure `[lower, upper]` and the decimal enclosure of `decimals()`.
Comparisons are exact (`exact_decimal`), never with a tolerance.
"""

import numpy as np
import pytest

import pbgi
from conftest import MPMATH_VALUES, read_csv
from exact_decimal import exact

ARGUMENTS = {
    "h": ("a",),
    "ln_h": ("a",),
    "ei": ("a", "b", "c"),
    "log_ei": ("a", "b", "c"),
    "pbgi": ("a", "b", "c"),
    "log_eipc": ("a", "b", "c", "d"),
}


def mpmath_interval(text):
    """The exact value's possible range given mpmath's 60-digit rounding of it."""
    return exact(text).nudged(60)


def rows_of(function):
    rows = [r for r in read_csv(MPMATH_VALUES) if r["function"] == function]
    assert rows, f"no mpmath rows for {function}"
    return rows


@pytest.mark.parametrize("function", sorted(ARGUMENTS))
def test_values_are_mpmath_correctly_rounded(function):
    rows = rows_of(function)
    args = [np.array([float(r[c]) for r in rows]) for c in ARGUMENTS[function]]
    result = getattr(pbgi.reference, function)(*args)
    expected = np.array([float(r["value"]) for r in rows])
    wrong = [
        (rows[i], result.value[i])
        for i in range(len(rows))
        if not (result.value[i] == expected[i] or (np.isnan(expected[i]) and np.isnan(result.value[i])))
    ]
    assert not wrong, f"{len(wrong)} of {len(rows)} not correctly rounded, first: {wrong[0]}"


@pytest.mark.parametrize("function", sorted(ARGUMENTS))
def test_mpmath_values_lie_in_the_enclosures(function):
    rows = rows_of(function)
    args = [np.array([float(r[c]) for r in rows]) for c in ARGUMENTS[function]]
    result = getattr(pbgi.reference, function)(*args)
    lower_text, upper_text = result.decimals()
    for i, r in enumerate(rows):
        low, high = mpmath_interval(r["value"])
        assert exact(result.lower[i]) <= high and low <= exact(result.upper[i]), (
            r,
            result.lower[i],
            result.upper[i],
        )
        assert exact(lower_text[i]) <= high and low <= exact(upper_text[i]), (
            r,
            lower_text[i],
            upper_text[i],
        )

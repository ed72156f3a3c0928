"""Exact comparison of decimal strings and floats, at any exponent.

`decimal.Decimal` compares exactly but stops at exponents near ±1e18; the reference prints
enclosures like `3.6e-21714724095162593...` (h at z = -1e300, far beyond). `exact(x)` keeps such
a number as a sign, a decimal mantissa and an integer exponent, and compares exactly.
"""

import decimal
import functools
import re

_DECIMAL = re.compile(r"^([+-]?)(\d+(?:\.\d*)?|\.\d+)(?:[eE]([+-]?\d+))?$")
_CONTEXT = decimal.Context(prec=400, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN)


@functools.total_ordering
class Exact:
    """`sign · m · 10^e` with `m` a Decimal in [1, 10) (or an infinity, or zero)."""

    __slots__ = ("sign", "mantissa", "exponent", "special")

    def __init__(self, x):
        if isinstance(x, float):
            x = repr(x) if x in (float("inf"), float("-inf")) else format(decimal.Decimal(x), "e")
        text = x.strip().lower()
        self.special = None
        if text in ("inf", "+inf", "-inf"):
            self.special = -1 if text.startswith("-") else 1
            self.sign, self.mantissa, self.exponent = self.special, None, 0
            return
        match = _DECIMAL.match(text)
        if not match:
            raise ValueError(f"not a decimal number: {x!r}")
        sign, digits, exponent = match.groups()
        m = decimal.Decimal(digits)
        e = int(exponent or 0)
        if m.is_zero():
            self.sign, self.mantissa, self.exponent = 0, m, 0
            return
        shift = m.adjusted()
        self.sign = -1 if sign == "-" else 1
        self.mantissa = m.scaleb(-shift, _CONTEXT)
        self.exponent = e + shift

    def _key_magnitude(self, other):
        """-1, 0, 1: |self| against |other|, both finite and nonzero."""
        if self.exponent != other.exponent:
            return -1 if self.exponent < other.exponent else 1
        return (self.mantissa > other.mantissa) - (self.mantissa < other.mantissa)

    def _cmp(self, other):
        if self.special or other.special:
            a = self.special or 0
            b = other.special or 0
            if self.special and other.special:
                return (a > b) - (a < b)
            return a if self.special else -b
        if self.sign != other.sign:
            return (self.sign > other.sign) - (self.sign < other.sign)
        if self.sign == 0:
            return 0
        return self.sign * self._key_magnitude(other)

    def __eq__(self, other):
        return self._cmp(_exact(other)) == 0

    def __lt__(self, other):
        return self._cmp(_exact(other)) < 0

    def __repr__(self):
        if self.special:
            return "inf" if self.special > 0 else "-inf"
        return f"{'-' if self.sign < 0 else ''}{self.mantissa}e{self.exponent}"

    def nudged(self, digit_position):
        """`(self - u/2, self + u/2)` for `u` one unit in significant digit `digit_position`:
        the range of the exact number that rounds to `self` at that many digits."""
        if self.special or self.sign == 0:
            return self, self
        half = decimal.Decimal((0, (5,), -digit_position))
        below, above = Exact.__new__(Exact), Exact.__new__(Exact)
        for result, m in (
            (below, _CONTEXT.subtract(self.mantissa, half)),
            (above, _CONTEXT.add(self.mantissa, half)),
        ):
            result.special, result.sign, result.exponent = None, self.sign, self.exponent
            result.mantissa = m
        if self.sign < 0:
            below, above = above, below
        return below, above


def _exact(x):
    return x if isinstance(x, Exact) else Exact(x)


def exact(x):
    """A float or a decimal string (`inf`, `-inf`, any exponent) as an exactly comparable number."""
    return Exact(float(x) if not isinstance(x, str) else x)

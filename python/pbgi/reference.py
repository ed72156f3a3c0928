"""The certified reference: correctly rounded values with guaranteed enclosures.

Every function evaluates `pbgi-reference` (MPFR interval arithmetic, a Ziv loop) at each element
of its broadcast arguments, exactly as `pbgi eval` does, and returns a `Certified` result:

- `.value`: the exact value at the f64 inputs (taken as exact binary numbers) **correctly
  rounded** to float64 (nearest, ties to even; subnormals, ±0 and ±inf included);
- `.lower`, `.upper`: the certified enclosure rounded outward to float64, so
  `lower <= exact <= upper` holds in float64 arithmetic;
- `.decimals(digits=40)`: the enclosure as decimal strings rounded outward, for more than
  float64 can hold (the strings of `pbgi eval`'s `lower` and `upper` columns).

Convention (MATH.md): **minimisation**. `EI(mu, sigma; y) = E[max(y - f, 0)]` for
`f ~ N(mu, sigma^2)`; PBGI is the `g` with `EI(mu, sigma; g) = cost`.

Domain: every argument finite, `sigma >= 0`, `cost > 0`; `|z|` up to 1e300 (tested to 1e8 and
beyond), `sigma` and `cost/sigma` from 1e-300 to 1e300. Anything else raises `InvalidInput`
(a `ValueError`) naming the argument and the index of the first bad element, before any
evaluation. A result the reference cannot certify within its precision cap raises
`NotCertified` (an `ArithmeticError`), never a guess.

Cost: tens of µs per element (`h`, `ei`, `log_ei`, `log_eipc`) to about a millisecond (`pbgi`).
The GIL is released, and arrays of 8 or more elements are spread over all cores (each element
is independent, so the results do not depend on the number of threads).
"""

from typing import NamedTuple

import numpy as np

from . import _pbgi
from ._broadcast import Call, int_in

__all__ = [
    "Certified",
    "MAX_DECIMAL_DIGITS",
    "EiGradient",
    "PbgiGradient",
    "h",
    "ln_h",
    "log_ndtr",
    "ei",
    "log_ei",
    "pbgi",
    "log_eipc",
    "ei_grad",
    "log_ei_grad",
    "pbgi_grad",
]


MAX_DECIMAL_DIGITS = _pbgi.MAX_DECIMAL_DIGITS
"""The most significant digits `Certified.decimals` prints (10,000)."""


def _digits(digits):
    """`digits` of `Certified.decimals`: an int from 1 to `MAX_DECIMAL_DIGITS`."""
    return int_in("digits", digits, 1, MAX_DECIMAL_DIGITS)


class Certified:
    """A certified result: `lower <= exact <= upper` and `value` = exact correctly rounded.

    `value`, `lower` and `upper` are float64 arrays of the broadcast shape of the arguments
    (numpy scalars when every argument is a scalar). `value` need not lie between `lower` and
    `upper` as printed in float64 when the enclosure is tighter than one float64 spacing;
    `lower <= value <= upper` always holds for the outward-rounded floats.

    Certified results pickle (and `copy.deepcopy`) exactly: the enclosures travel as MPFR's
    exact hexadecimal text, so `decimals()` of the copy gives the same strings.
    """

    __slots__ = ("value", "lower", "upper", "_enclosures", "_shape")

    def __init__(self, enclosures, shape):
        self._enclosures = enclosures
        self._shape = tuple(shape)
        self.value = self._shaped(enclosures.value())
        self.lower = self._shaped(enclosures.lower())
        self.upper = self._shaped(enclosures.upper())

    def _shaped(self, flat):
        return flat.reshape(self._shape)[()] if self._shape == () else flat.reshape(self._shape)

    def __reduce__(self):
        return (Certified, (self._enclosures, self._shape))

    def decimals(self, digits=40):
        """`(lower, upper)`: the enclosure as decimal strings with `digits` significant digits,
        rounded outward (`lower` toward -inf, `upper` toward +inf; trailing zeros dropped;
        `inf`, `-inf`, `0` as such). Strings for scalar arguments, else object arrays of
        strings in the result's shape. Exponents beyond float64's range are printed as they
        are (`EI(0, 1; -1e5)` is about `1.2e-2171472420`).

        `digits`: an int from 1 to `MAX_DECIMAL_DIGITS` (10,000, more than the 8192-bit
        working precision of any enclosure resolves, about 2466 digits); `TypeError` for a
        non-int (a float such as `1.5` too), `ValueError` outside that range."""
        lower, upper = self._enclosures.decimals(_digits(digits))
        if self._shape == ():
            return lower[0], upper[0]
        return (
            np.array(lower, dtype=object).reshape(self._shape),
            np.array(upper, dtype=object).reshape(self._shape),
        )

    def __repr__(self):
        return f"Certified(value={self.value!r}, lower={self.lower!r}, upper={self.upper!r})"


def _evaluate(kernel, names, values, fields=None):
    """`kernel` at the broadcast arguments: one `Certified`, or with `fields` (the names of a
    gradient's fields) a list of them in that order."""
    call = Call(names, values)
    if call.size == 0:
        empty = _Empty(np.empty(call.shape))
        return empty if fields is None else [empty] * len(fields)
    try:
        enclosures = kernel(*call.flat)
    except _pbgi.InvalidInput as error:
        raise call.invalid_input(error) from None
    except (_pbgi.NotCertified, _pbgi.NotDifferentiable) as error:
        element, message = error.args
        raise type(error)(f"element {call.result_index(element)}: {message}") from None
    if fields is None:
        return Certified(enclosures, call.shape)
    return [Certified(e, call.shape) for e in enclosures]


class _Empty(Certified):
    """The result of a call with zero elements."""

    __slots__ = ()

    def __init__(self, empty):
        self.value = self.lower = self.upper = empty
        self._shape = empty.shape

    def __reduce__(self):
        return (_Empty, (np.empty(self._shape),))

    def decimals(self, digits=40):
        _digits(digits)
        empty = np.empty(self.value.shape, dtype=object)
        return empty, empty.copy()


def h(z):
    """`h(z) = z·Φ(z) + φ(z) = E[max(z - Z, 0)]`, `Z ~ N(0, 1)` (MATH.md, "Gaussian building
    blocks"); `h(0) = 1/√(2π)`.

    Domain: finite `z` (`h` underflows float64 below `z ≈ -38.5`, where `value` is 0 and the
    enclosure stays positive; use `ln_h`). Returns `Certified`; correctly rounded."""
    return _evaluate(_pbgi.reference_h, ("z",), (z,))


def ln_h(z):
    """`ln h(z)` (about `-z²/2` far left). Returns `Certified`; correctly rounded.

    Domain: finite `z`. The exact value and the enclosure are finite for every finite `z`, but
    `-z²/2` passes `-f64::MAX`: `value` (and `lower`) is finite exactly for
    `z >= -1.8961503816218352e154` (`-0x1.6a09e667f3bccp+512`) and `-inf` below it (use
    `decimals()` for the enclosure there)."""
    return _evaluate(_pbgi.reference_ln_h, ("z",), (z,))


def ei(mu, sigma, y):
    """Expected improvement (minimisation) `EI(mu, sigma; y) = E[max(y - f, 0)]`,
    `f ~ N(mu, sigma²)`: `sigma·h((y - mu)/sigma)`, and exactly `max(y - mu, 0)` for
    `sigma = 0` (MATH.md, "Expected improvement").

    Domain: finite arguments, `sigma >= 0`. Below float64's range `value` is 0 (use `log_ei`).
    Returns `Certified`; correctly rounded. Example: `ei(0, 1, 0).value == 0.3989422804014327`.
    """
    return _evaluate(_pbgi.reference_ei, ("mu", "sigma", "y"), (mu, sigma, y))


def log_ei(mu, sigma, y):
    """`ln EI(mu, sigma; y)`; `-inf` where EI is exactly 0 (`sigma = 0`, `y <= mu`).

    Domain: finite arguments, `sigma >= 0`. The exact value is finite wherever EI > 0, also far
    below float64's range (`ln sigma + ln h(z)`, `ln h(z)` about `-z²/2`); `value` is `-inf`
    where that value is below `-f64::MAX` (beyond its rounding boundary), i.e. for `|z|` beyond
    about `1.896e154` (`sigma = 1`: exactly `z < -1.8961503816218352e154`, as `ln_h`).
    Returns `Certified`; correctly rounded."""
    return _evaluate(_pbgi.reference_log_ei, ("mu", "sigma", "y"), (mu, sigma, y))


def pbgi(mu, sigma, cost):
    """The Pandora's Box Gittins index: the `g` with `EI(mu, sigma; g) = cost`
    (`g = mu + cost` for `sigma = 0`; MATH.md, "Pandora's Box Gittins index").

    Domain: finite arguments, `sigma >= 0`, `cost > 0`. Returns `Certified`; correctly rounded
    (found by certified bisection; about 0.5 ms per element). Example:
    `pbgi(0, 1, 0.1).value == -0.9023463475100345`."""
    return _evaluate(_pbgi.reference_pbgi, ("mu", "sigma", "cost"), (mu, sigma, cost))


def log_eipc(mu, sigma, y, cost):
    """`LogEIPC = ln EI(mu, sigma; y) - ln cost` (stopping paper, eq. 4). The stopping rule
    stops when `max LogEIPC <= 0` over the candidates.

    Domain: finite arguments, `sigma >= 0`, `cost > 0`. Returns `Certified`; correctly
    rounded (exactly 0 when `y - mu = cost` and `sigma = 0`)."""
    return _evaluate(
        _pbgi.reference_log_eipc, ("mu", "sigma", "y", "cost"), (mu, sigma, y, cost)
    )


def log_ndtr(x):
    """`ln Φ(x)`, the logarithm of the standard normal distribution function (SciPy's
    `scipy.special.log_ndtr`). Finite and negative for every finite `x`: about
    `-x²/2 - ln(-x·√(2π))` far left (rounds to `-inf` only below about -1.9e154), `-ln 2` at 0,
    about `-φ(x)/x` far right (rounds to `-0.0` beyond `x ≈ 38.5`).

    Domain: finite `x`. Returns `Certified`; correctly rounded."""
    return _evaluate(_pbgi.reference_log_ndtr, ("x",), (x,))


class EiGradient(NamedTuple):
    """The certified gradient of EI or LogEI: `d_mu`, `d_sigma`, each a `Certified`."""

    d_mu: Certified
    d_sigma: Certified


class PbgiGradient(NamedTuple):
    """The certified gradient of PBGI: `d_mu` (= 1), `d_sigma` (= -φ(u)/Φ(u)), `d_cost`
    (= 1/Φ(u)), each a `Certified` (`u = (g - mu)/sigma`)."""

    d_mu: Certified
    d_sigma: Certified
    d_cost: Certified


def ei_grad(mu, sigma, y):
    """The gradient of EI: `∂EI/∂mu = -Φ(z)`, `∂EI/∂sigma = φ(z)`, `z = (y - mu)/sigma`
    (MATH.md), each field certified and correctly rounded.

    Domain: as `ei`. At `sigma = 0`: `(-1, 0)` for `y > mu`, `(0, 0)` for `y < mu` (the
    one-sided derivative in sigma), and `y = mu` raises `pbgi.NotDifferentiable` (EI has a kink
    in mu there; `pbgi.fast.ei_grad` returns the limits `(-1/2, 1/√(2π))`)."""
    return EiGradient(
        *_evaluate(_pbgi.reference_ei_grad, ("mu", "sigma", "y"), (mu, sigma, y), EiGradient._fields)
    )


def log_ei_grad(mu, sigma, y):
    """The gradient of LogEI: `-Φ(z)/EI`, `φ(z)/EI` (finite also where EI underflows), each field
    certified and correctly rounded. Domain: as `log_ei`. At `sigma = 0`: `(-1/(y - mu), 0)` for
    `y > mu`; `y <= mu` (LogEI = -inf) raises `pbgi.NotDifferentiable`."""
    return EiGradient(
        *_evaluate(
            _pbgi.reference_log_ei_grad, ("mu", "sigma", "y"), (mu, sigma, y), EiGradient._fields
        )
    )


def pbgi_grad(mu, sigma, cost):
    """The gradient of the PBGI index `g`: `(1, -φ(u)/Φ(u), 1/Φ(u))` with `u = (g - mu)/sigma`
    (MATH.md; PBGI paper, Prop. 3, sign-flipped), each field certified and correctly rounded.
    Domain: as `pbgi`; at `sigma = 0`, the limits `(1, 0, 1)`."""
    return PbgiGradient(
        *_evaluate(
            _pbgi.reference_pbgi_grad,
            ("mu", "sigma", "cost"),
            (mu, sigma, cost),
            PbgiGradient._fields,
        )
    )

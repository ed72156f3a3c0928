"""Fast float64 kernels (`pbgi-fast`): the same functions as `pbgi.reference`, for hot loops.

Each function broadcasts its arguments like a numpy ufunc and returns a plain float64 array
(a numpy scalar when every argument is a scalar). One call runs one compiled loop over the
elements with the GIL released: no Python object per element, and no copy of an argument that
is already C-contiguous float64 of the result's shape. `out=` (a C-contiguous float64 array of
the result's shape) receives the result instead of a new array; it may be one of the inputs.

Threads: `threads=` (every elementwise function) runs the call on that many threads, each on one
contiguous range of the elements; the default (`None`) is every core
(`std::thread::available_parallelism`, `DEFAULT_THREADS`), `threads=1` the calling thread alone.
The results are the same bits for any count (each element is computed on its own). Arrays
shorter than about 16,000 elements per thread run on fewer threads. At most `MAX_THREADS`
(1024): a larger count, 0, a negative or non-integer count (`True` included) raises an error
naming `threads`. Ctrl-C interrupts a long call on any number of threads.

A per-point threshold `y` (an array with one incumbent per candidate) runs the crate's
vectorised `*_slice_per_point` kernels, as a scalar `y` runs `ei_slice` and its kind: for `ei`,
`log_ei`, `log_eipc`, `ei_grad` and `log_ei_grad`, with `mu` and `sigma` (and `cost`) arrays of
the result's shape. Other broadcast patterns run the scalar function per element; the bits are
the same either way.

Convention (MATH.md): **minimisation**, as in `pbgi.reference`.

Domain and special values follow the `pbgi-fast` crate: NaN in any argument gives NaN;
`sigma < 0` or `cost <= 0` gives NaN (these functions never raise for bad values: check with
`numpy.isnan`, or use `pbgi.reference`, which raises `InvalidInput`); `sigma = 0` is exactly
`max(y - mu, 0)` / `mu + cost`; infinities follow the limits.

Accuracy: within 4 ULP of the certified reference for `h`, `ln_h`, `log_ndtr`, `ei`, `log_ei`,
`pbgi` and `log_eipc` (in the ULP measures of `pbgi check`: plain ULPs for `h`/`log_ndtr`/`ei`;
ULPs of `max(|exact|, 1)` for `ln_h`/`log_ei`; ULPs of `|mu| + |g - mu|` for `pbgi`; ULPs of
`max(|exact|, |ln cost|, 1)` for `log_eipc`). The gradients are accurate to about
1e-15·(1 + z²) relative, per output column. The bounds region by region, and the maxima
measured there: the one tolerance table `conformance/src/tolerances.rs` (`tolerances(function)`).
"""

from typing import NamedTuple

import operator

import numpy as np

from . import _pbgi
from ._broadcast import Call, output, overlaps

__all__ = [
    "MAX_THREADS",
    "DEFAULT_THREADS",
    "SIMD_PATH",
    "EiGrad",
    "PbgiGrad",
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
    "tolerances",
]


MAX_THREADS, DEFAULT_THREADS = _pbgi.fast_threads()
"""`MAX_THREADS`: the largest `threads=` accepted (1024, the same on every machine: beyond the
cores threads only contend, and each holds a stack). `DEFAULT_THREADS`: the count `threads=None`
uses, every core of this machine (`std::thread::available_parallelism`)."""

SIMD_PATH = _pbgi.fast_simd_path()
"""Which compilation of the slice kernels this CPU runs (`pbgi_fast::simd_path()`:
`"avx512f+avx512vl"`, `"avx512f"`, `"avx2+fma"` or `"portable"`); all give the same bits."""


def _threads(threads):
    """`threads=` checked: None (every core) or an int in `1..=MAX_THREADS`."""
    if threads is None:
        return None
    if isinstance(threads, (bool, np.bool_)):
        raise TypeError(
            f"threads: expected an integer from 1 to {MAX_THREADS} or None (every core), "
            f"got {threads!r}"
        )
    try:
        count = operator.index(threads)
    except TypeError:
        raise TypeError(
            f"threads: expected an integer from 1 to {MAX_THREADS} or None (every core), "
            f"got {type(threads).__name__} {threads!r}"
        ) from None
    if not 1 <= count <= MAX_THREADS:
        raise ValueError(
            f"threads={count}: expected an integer from 1 to {MAX_THREADS} "
            "(leave it out, or None, for every core)"
        )
    return count


class EiGrad(NamedTuple):
    """EI or LogEI with its gradient: arrays `value`, `d_mu`, `d_sigma`."""

    value: np.ndarray
    d_mu: np.ndarray
    d_sigma: np.ndarray


class PbgiGrad(NamedTuple):
    """PBGI with its gradient: arrays `value`, `d_mu` (= 1), `d_sigma` (= -φ(u)/Φ(u)),
    `d_cost` (= 1/Φ(u)), `u = (g - mu)/sigma`."""

    value: np.ndarray
    d_mu: np.ndarray
    d_sigma: np.ndarray
    d_cost: np.ndarray


def _apply(kernel, names, values, outs, threads):
    """Runs `kernel(*flat arguments, *flat outputs, threads)`; `outs` are the caller's `out=`
    arrays (None for new ones). Returns the results in the broadcast shape."""
    threads = _threads(threads)
    call = Call(names, values)
    targets = []
    for k, out in enumerate(outs):
        flat = output("out" if len(outs) == 1 else f"out[{k}]", out, call)
        targets.append((out, flat))
    if any(flat is not None for _, flat in targets):
        given = [flat for _, flat in targets if flat is not None]
        if len({id(f.base) if f.base is not None else id(f) for f in given}) < len(given) or any(
            np.may_share_memory(a, b) for i, a in enumerate(given) for b in given[i + 1 :]
        ):
            raise ValueError("out: the output arrays overlap")
    flats = []
    for out, flat in targets:
        if flat is None or overlaps(flat, call):
            flats.append(np.empty(call.size))
        else:
            flats.append(flat)
    if call.size:
        kernel(*call.flat, *flats, threads)
    results = []
    for (out, flat), computed in zip(targets, flats):
        if flat is None:
            results.append(call.shaped(computed))
        else:
            if computed is not flat:
                flat[...] = computed
            results.append(out)
    return results


def h(z, *, out=None, threads=None):
    """`h(z) = z·Φ(z) + φ(z)` (MATH.md). Underflows to 0 below `z ≈ -38.5` (use `ln_h`).
    ≤ 4 ULP."""
    return _apply(_pbgi.fast_h, ("z",), (z,), (out,), threads)[0]


def ln_h(z, *, out=None, threads=None):
    """`ln h(z)`, finite for finite `z >= -1.8961503816218352e154` (`-0x1.6a09e667f3bccp+512`)
    and `-inf` below (about `-z²/2`, below `-f64::MAX`), as `pbgi.reference.ln_h`. ≤ 4 ULP of the
    result, or of 1 where `|ln h| < 1`."""
    return _apply(_pbgi.fast_ln_h, ("z",), (z,), (out,), threads)[0]


def log_ndtr(x, *, out=None, threads=None):
    """`ln Φ(x)`, the logarithm of the standard normal distribution function (SciPy's
    `log_ndtr`). Negative for every finite `x`: `-ln 2` at 0, about `-x²/2 - ln(-x√(2π))` as
    `x → -∞` (`-inf` below about -1.9e154), about `-φ(x)/x` as `x → +∞` (`-0.0` beyond about
    38.5); `log_ndtr(+inf) = -0.0`, `log_ndtr(-inf) = -inf`. ≤ 4 ULP (plain ULPs)."""
    return _apply(_pbgi.fast_log_ndtr, ("x",), (x,), (out,), threads)[0]


def ei(mu, sigma, y, *, out=None, threads=None):
    """Expected improvement (minimisation) `EI(mu, sigma; y) = sigma·h((y - mu)/sigma)`;
    `max(y - mu, 0)` for `sigma = 0`. ≤ 4 ULP; results below float64's subnormal range are 0
    (use `log_ei`)."""
    return _apply(_pbgi.fast_ei, ("mu", "sigma", "y"), (mu, sigma, y), (out,), threads)[0]


def log_ei(mu, sigma, y, *, out=None, threads=None):
    """`ln EI(mu, sigma; y)`, finite wherever EI > 0 (also where EI underflows) and the exact
    value is above `-f64::MAX` (for `sigma = 1`: `z >= -1.8961503816218352e154`, as `ln_h`);
    `-inf` beyond, as `pbgi.reference.log_ei`. ≤ 4 ULP of the result, or of 1 where
    `|LogEI| < 1`."""
    return _apply(_pbgi.fast_log_ei, ("mu", "sigma", "y"), (mu, sigma, y), (out,), threads)[0]


def pbgi(mu, sigma, cost, *, out=None, threads=None):
    """The Pandora's Box Gittins index `g` with `EI(mu, sigma; g) = cost` (`mu + cost` for
    `sigma = 0`), by a fitted start and one Halley step. ≤ 4 ULP of `|mu| + |g - mu|`."""
    return _apply(
        _pbgi.fast_pbgi, ("mu", "sigma", "cost"), (mu, sigma, cost), (out,), threads
    )[0]


def log_eipc(mu, sigma, y, cost, *, out=None, threads=None):
    """`ln EI(mu, sigma; y) - ln cost` (stopping paper, eq. 4). ≤ 4 ULP of
    `max(|result|, |ln cost|, 1)` (`tolerances("log-eipc")`)."""
    return _apply(
        _pbgi.fast_log_eipc, ("mu", "sigma", "y", "cost"), (mu, sigma, y, cost), (out,), threads
    )[0]


def _outs(out, k):
    if out is None:
        return (None,) * k
    if not isinstance(out, tuple) or len(out) != k:
        raise TypeError(f"out: expected a tuple of {k} arrays (or None)")
    return out


def ei_grad(mu, sigma, y, *, out=None, threads=None):
    """EI and its gradient `(value, d_mu, d_sigma)`: `∂EI/∂mu = -Φ(z)`, `∂EI/∂sigma = φ(z)`.
    `out=` is a tuple of three arrays. For `sigma = 0`, the limits `sigma -> 0+`."""
    return EiGrad(
        *_apply(
            _pbgi.fast_ei_grad, ("mu", "sigma", "y"), (mu, sigma, y), _outs(out, 3), threads
        )
    )


def log_ei_grad(mu, sigma, y, *, out=None, threads=None):
    """LogEI and its gradient `(value, d_mu, d_sigma)`: `-Φ(z)/(sigma·h(z))`,
    `φ(z)/(sigma·h(z))`; finite wherever LogEI is. `out=` is a tuple of three arrays."""
    return EiGrad(
        *_apply(
            _pbgi.fast_log_ei_grad, ("mu", "sigma", "y"), (mu, sigma, y), _outs(out, 3), threads
        )
    )


def pbgi_grad(mu, sigma, cost, *, out=None, threads=None):
    """PBGI and its gradient `(value, d_mu, d_sigma, d_cost)` = `(g, 1, -φ(u)/Φ(u), 1/Φ(u))`
    (MATH.md; PBGI paper, Prop. 3, sign-flipped). `out=` is a tuple of four arrays."""
    return PbgiGrad(
        *_apply(
            _pbgi.fast_pbgi_grad, ("mu", "sigma", "cost"), (mu, sigma, cost), _outs(out, 4), threads
        )
    )


def tolerances(function):
    """This module's accuracy bounds for `function` (a `pbgi.check` name: `"ei"`, `"log-ei"`,
    ...), region by region: `{region label: (max ULP, reason)}`, from the project's one
    tolerance table (`conformance/src/tolerances.rs`), in `pbgi.check`'s ULP measures and
    region labels."""
    return {label: (bound, reason) for label, bound, reason in _pbgi.fast_tolerances(function)}

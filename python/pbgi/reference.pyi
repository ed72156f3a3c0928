"""Type stubs of `pbgi.reference` (docstrings: the module itself)."""

from typing import Any, Tuple, Union

import numpy as np
import numpy.typing as npt

_Real = Union[float, int, np.floating, np.integer]
_ArrayLike = Union[_Real, npt.ArrayLike]
_Values = Union[np.float64, npt.NDArray[np.float64]]
_Decimals = Union[str, npt.NDArray[np.object_]]

MAX_DECIMAL_DIGITS: int

class Certified:
    """`lower <= exact <= upper` (float64, rounded outward) and `value` = exact correctly rounded."""

    value: _Values
    lower: _Values
    upper: _Values
    def decimals(self, digits: int = 40) -> Tuple[_Decimals, _Decimals]:
        """`digits`: an int from 1 to `MAX_DECIMAL_DIGITS` (10,000)."""
    def __reduce__(self) -> Tuple[Any, Tuple[Any, Tuple[int, ...]]]: ...

def h(z: _ArrayLike) -> Certified: ...
def ln_h(z: _ArrayLike) -> Certified: ...
def ei(mu: _ArrayLike, sigma: _ArrayLike, y: _ArrayLike) -> Certified: ...
def log_ei(mu: _ArrayLike, sigma: _ArrayLike, y: _ArrayLike) -> Certified: ...
def pbgi(mu: _ArrayLike, sigma: _ArrayLike, cost: _ArrayLike) -> Certified: ...
def log_eipc(mu: _ArrayLike, sigma: _ArrayLike, y: _ArrayLike, cost: _ArrayLike) -> Certified: ...

from typing import NamedTuple

class EiGradient(NamedTuple):
    d_mu: Certified
    d_sigma: Certified

class PbgiGradient(NamedTuple):
    d_mu: Certified
    d_sigma: Certified
    d_cost: Certified

def log_ndtr(x: _ArrayLike) -> Certified: ...
def ei_grad(mu: _ArrayLike, sigma: _ArrayLike, y: _ArrayLike) -> EiGradient: ...
def log_ei_grad(mu: _ArrayLike, sigma: _ArrayLike, y: _ArrayLike) -> EiGradient: ...
def pbgi_grad(mu: _ArrayLike, sigma: _ArrayLike, cost: _ArrayLike) -> PbgiGradient: ...

"""Type stubs of `pbgi.fast` (docstrings: the module itself)."""

from typing import NamedTuple, Optional, Tuple, Union

import numpy as np
import numpy.typing as npt

_Real = Union[float, int, np.floating, np.integer]
_ArrayLike = Union[_Real, npt.ArrayLike]
_Values = Union[np.float64, npt.NDArray[np.float64]]
_Out = Optional[npt.NDArray[np.float64]]

MAX_THREADS: int
DEFAULT_THREADS: int
SIMD_PATH: str

class EiGrad(NamedTuple):
    value: _Values
    d_mu: _Values
    d_sigma: _Values

class PbgiGrad(NamedTuple):
    value: _Values
    d_mu: _Values
    d_sigma: _Values
    d_cost: _Values

def h(z: _ArrayLike, *, out: _Out = None, threads: Optional[int] = None) -> _Values: ...
def ln_h(z: _ArrayLike, *, out: _Out = None, threads: Optional[int] = None) -> _Values: ...
def log_ndtr(x: _ArrayLike, *, out: _Out = None, threads: Optional[int] = None) -> _Values: ...
def ei(mu: _ArrayLike, sigma: _ArrayLike, y: _ArrayLike, *, out: _Out = None, threads: Optional[int] = None) -> _Values: ...
def log_ei(mu: _ArrayLike, sigma: _ArrayLike, y: _ArrayLike, *, out: _Out = None, threads: Optional[int] = None) -> _Values: ...
def pbgi(mu: _ArrayLike, sigma: _ArrayLike, cost: _ArrayLike, *, out: _Out = None, threads: Optional[int] = None) -> _Values: ...
def log_eipc(
    mu: _ArrayLike, sigma: _ArrayLike, y: _ArrayLike, cost: _ArrayLike, *, out: _Out = None,
    threads: Optional[int] = None,
) -> _Values: ...
def ei_grad(
    mu: _ArrayLike,
    sigma: _ArrayLike,
    y: _ArrayLike,
    *,
    out: Optional[Tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]] = None,
    threads: Optional[int] = None,
) -> EiGrad: ...
def log_ei_grad(
    mu: _ArrayLike,
    sigma: _ArrayLike,
    y: _ArrayLike,
    *,
    out: Optional[Tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]] = None,
    threads: Optional[int] = None,
) -> EiGrad: ...
def pbgi_grad(
    mu: _ArrayLike,
    sigma: _ArrayLike,
    cost: _ArrayLike,
    *,
    out: Optional[
        Tuple[
            npt.NDArray[np.float64],
            npt.NDArray[np.float64],
            npt.NDArray[np.float64],
            npt.NDArray[np.float64],
        ]
    ] = None,
    threads: Optional[int] = None,
) -> PbgiGrad: ...

from typing import Dict

def tolerances(function: str) -> Dict[str, Tuple[float, str]]: ...

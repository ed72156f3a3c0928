"""Type stubs of `pbgi` (docstrings: the package itself)."""

from typing import Any, Dict, List, Optional, Tuple

import numpy as np
import numpy.typing as npt

from . import fast as fast
from . import pandora as pandora
from . import reference as reference
from . import stopping as stopping
from . import testing as testing

class Report:
    """The grading of one set of values by `check` (the `pbgi check` report)."""

    function: str
    @property
    def ulp(self) -> npt.NDArray[np.float64]: ...
    @property
    def max_ulp(self) -> float: ...
    def passed(self, max_ulp: float) -> bool:
        """`max_ulp`: a finite number >= 0 (`pbgi check --max-ulp`'s rule), else `ValueError`."""
    def worst(self, k: int = 10) -> List[Dict[str, Any]]: ...
    @property
    def regions(self) -> List[Dict[str, Any]]: ...
    def to_dict(self, worst: int = 10, max_ulp: Optional[float] = None) -> Dict[str, Any]: ...
    def text(self, worst: int = 10, max_ulp: Optional[float] = None) -> str: ...

def check(function: str, value: Any, /, **columns: Any) -> Report: ...

class InvalidInput(ValueError):
    """An argument outside the domain: `argument` names it, `index` is the first bad element's
    index in that argument's own shape (`()` for a scalar)."""

    argument: str
    index: Tuple[int, ...]

class NotCertified(ArithmeticError):
    """The reference could not certify a result within its precision cap."""

class NotDifferentiable(ValueError):
    """The derivative does not exist at this point (EI's gradient at sigma = 0, y = mu)."""

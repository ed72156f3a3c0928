"""Type stubs of `pbgi` (docstrings: the package itself)."""

from typing import Tuple

from . import fast as fast
from . import pandora as pandora
from . import reference as reference
from . import stopping as stopping

class InvalidInput(ValueError):
    """An argument outside the domain: `argument` names it, `index` is the first bad element's
    index in that argument's own shape (`()` for a scalar)."""

    argument: str
    index: Tuple[int, ...]

class NotCertified(ArithmeticError):
    """The reference could not certify a result within its precision cap."""

"""Type stubs of `pbgi.pandora` (docstrings: the module itself)."""

import os
from typing import Any, Dict, Optional, Union

_Exact = Union[int, float, str]

MAX_SIMULATE: int
DEFAULT_MAX_STATES: int
MAX_STATES_CEILING: int
DEFAULT_MAX_WORK: float

def solve(
    instance: Union[Dict[str, Any], str, "os.PathLike[str]"],
    *,
    tie: _Exact = "early",
    budget: Optional[_Exact] = None,
    engine: str = "reference",
    simulate: Optional[int] = None,
    seed: int = ...,
    max_states: int = ...,
    max_work: float = ...,
) -> Dict[str, Any]: ...
def counterexample(epsilon: _Exact, delta: _Exact) -> Dict[str, Any]: ...

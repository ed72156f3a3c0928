"""Type stubs of `pbgi.testing` (docstrings: the module itself)."""

from typing import Any

from . import Report

def assert_ulp_close(function: str, value: Any, max_ulp: float, /, **columns: Any) -> Report:
    """`max_ulp`: a finite number >= 0 (`pbgi check --max-ulp`'s rule)."""

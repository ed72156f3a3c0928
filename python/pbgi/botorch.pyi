"""Type stubs of `pbgi.botorch` (docstrings: the module itself)."""

from typing import Any, Callable, NamedTuple, Optional, Union

import torch
from botorch.acquisition.analytic import AnalyticAcquisitionFunction
from botorch.models.model import Model

Cost = Union[Callable[[torch.Tensor], torch.Tensor], Model]

def expected_cost(cost: Cost, X: torch.Tensor) -> torch.Tensor: ...
def budget_lambda(u: float, budget: float, first_cost: float) -> float: ...

class PBGI(AnalyticAcquisitionFunction):
    cost: Cost
    lmbda: float
    maximize: bool
    def __init__(
        self, model: Model, cost: Cost, lmbda: float, maximize: bool = ..., posterior_transform: Any = ...
    ) -> None: ...
    def forward(self, X: torch.Tensor) -> torch.Tensor: ...

class LogEIPC(AnalyticAcquisitionFunction):
    best_f: torch.Tensor
    cost: Cost
    maximize: bool
    def __init__(
        self, model: Model, best_f: Union[float, torch.Tensor], cost: Cost, maximize: bool = ...,
        posterior_transform: Any = ...
    ) -> None: ...
    def forward(self, X: torch.Tensor) -> torch.Tensor: ...

class StopCheck(NamedTuple):
    stop: bool
    signal: bool
    max_log_eipc: float
    pbgi_gap: float
    moving_average: Optional[float]
    x_log_eipc: torch.Tensor
    x_pbgi: torch.Tensor

class PBGID(PBGI):
    beta: float
    def __init__(
        self, model: Model, cost: Cost, lmbda0: float = ..., beta: float = ..., maximize: bool = ...,
        posterior_transform: Any = ...
    ) -> None: ...
    def decay(self) -> float: ...
    def update(
        self, model: Model, best_f: Union[float, torch.Tensor], bounds: Optional[torch.Tensor] = ...,
        candidates: Optional[torch.Tensor] = ..., **search: Any
    ) -> StopCheck: ...

class StoppingRule:
    def __init__(self, stabilisation: int = ..., debounce: int = ..., moving_average: int = ...) -> None: ...
    def check(
        self, model: Model, best_f: Union[float, torch.Tensor], cost: Cost,
        bounds: Optional[torch.Tensor] = ..., candidates: Optional[torch.Tensor] = ...,
        maximize: bool = ..., num_restarts: Optional[int] = ..., raw_samples: Optional[int] = ..., options: Optional[dict] = ...
    ) -> StopCheck: ...
    def reset(self) -> None: ...

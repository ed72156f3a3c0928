"""PBGI, LogEIPC, PBGI-D and the PBGI/LogEIPC stopping rule as BoTorch acquisition functions.

    from botorch.optim import optimize_acqf
    from pbgi.botorch import PBGI, StoppingRule

    cost = lambda X: 1.0 + X[..., 0]                  # a known cost, X: batch × 1 × d
    acqf = PBGI(model, cost, lmbda=0.01)               # maximize=True, as BoTorch
    x_next, _ = optimize_acqf(acqf, bounds, q=1, num_restarts=8, raw_samples=256)
    decision = StoppingRule().check(model, best_f, lambda X: 0.01 * cost(X), bounds=bounds)

**Conventions.** These classes follow BoTorch's: the objective is **maximised** by default
(`maximize=True`, as in `LogExpectedImprovement`), `best_f` is the best (largest) value
observed, `X` has shape `batch × 1 × d` (`q = 1`), and the acquisition value is to be
maximised by `optimize_acqf`. The rest of `pbgi` minimises (MATH.md, "Conventions"); the
translation, with `f` the objective, is: the loss is `−f`, its posterior mean `−mean` with the
same `sigma`, and the incumbent `y* = −best_f`. With `maximize=False` the objective is already
a loss and nothing is negated.

**Costs** (`cost`): either a callable `X → positive tensor` (a known cost; it receives `X` of
shape `batch × 1 × d` and returns `batch`, `batch × 1` or `batch × 1 × 1` values), or a
BoTorch model of the **log** cost (an unknown cost, `ln c(x) ~ N(m, s²)`), which is replaced
by `E[c] = exp(m + s²/2)` (MATH.md, "Unknown (log-normal) costs": PBGI with `E[c]` and the
LogEIPC-exp form, the pair for which the stopping rule's equivalence holds). Costs are never
negated. `lmbda` (λ > 0) converts cost into objective units: the cost used is `λ·c(x)`.

The values are `pbgi.torch`'s (accurate, differentiable, any device).
"""

import math
from typing import Callable, NamedTuple, Optional, Union

try:
    import torch
    from botorch.acquisition.analytic import AnalyticAcquisitionFunction
    from botorch.models.model import Model
    from botorch.optim import optimize_acqf
    from botorch.utils.transforms import t_batch_mode_transform
except ImportError as error:  # pragma: no cover - exercised by test_torch_optional
    raise ImportError(
        "pbgi.botorch needs PyTorch and BoTorch: pip install 'pbgi[torch]' "
        "(or pip install torch botorch)"
    ) from error

from . import torch as pt
from .stopping import StoppingHelper, budget_lambda

__all__ = ["PBGI", "LogEIPC", "PBGID", "StoppingRule", "StopCheck", "budget_lambda", "expected_cost"]

Cost = Union[Callable[[torch.Tensor], torch.Tensor], Model]


def expected_cost(cost: Cost, X: torch.Tensor) -> torch.Tensor:
    """The cost of each point of `X` (`batch × 1 × d`), shape `batch`: `cost(X)` for a callable,
    `E[c] = exp(m + s²/2)` for a model of log cost. Raises `ValueError` for a cost that is not
    positive and finite (naming the first offending point)."""
    if isinstance(cost, Model):
        posterior = cost.posterior(X)
        m = posterior.mean.reshape(X.shape[:-2])
        s2 = posterior.variance.clamp_min(0.0).reshape(X.shape[:-2])
        return torch.exp(m + 0.5 * s2)
    if not callable(cost):
        raise TypeError(f"cost: a callable X -> positive tensor or a BoTorch model of log cost is "
                        f"needed, got {type(cost).__name__}")
    values = torch.as_tensor(cost(X))
    batch = X.shape[:-2]
    if values.shape != batch:
        if values.numel() == math.prod(batch) and values.shape[: len(batch)] == batch:
            values = values.reshape(batch)
        else:
            try:
                values = values.expand(batch) if values.dim() == 0 else values.reshape(batch)
            except RuntimeError as error:
                raise ValueError(f"cost: returned shape {tuple(values.shape)} for X of shape "
                                 f"{tuple(X.shape)}; expected {tuple(batch)}") from error
    bad = ~(torch.isfinite(values) & (values > 0))
    if bool(bad.any()):
        index = tuple(int(i) for i in torch.nonzero(bad)[0].tolist())
        raise ValueError(f"cost: every cost must be finite and > 0; the cost at X{list(index)} "
                         f"is {float(values[index])!r}")
    return values


def _positive(name, value):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not (math.isfinite(value) and value > 0):
        raise ValueError(f"{name}: a finite number > 0 is needed, got {value!r}")
    return float(value)


class _CostAware(AnalyticAcquisitionFunction):
    def _loss_moments(self, X):
        mean, sigma = self._mean_and_sigma(X)
        if mean.dim() > X.dim() - 2:
            mean, sigma = mean.squeeze(-1), sigma.squeeze(-1)
        return (-mean if self.maximize else mean), sigma


class PBGI(_CostAware):
    """The Pandora's Box Gittins index acquisition [PBGI paper eq. 6; stopping paper eq. 5].

    In this project's minimisation form the next point minimises `g(x) = PBGI(μ_loss(x), σ(x),
    λ·c(x))`, the `g` with `EI(μ_loss, σ; g) = λ·c(x)`. BoTorch maximises, so the value returned
    is `−g(x)` with `maximize=True`: exactly the paper's index in its maximisation form (the `α`
    with `E[(f − α)⁺] = λ·c(x)`); with `maximize=False` it is `−g(x)` for the loss `f` itself.
    Either way, larger is better.

    Args: `model` (a single-outcome BoTorch model), `cost` (see the module), `lmbda` (λ > 0),
    `maximize` (default True).
    """

    def __init__(self, model: Model, cost: Cost, lmbda: float, maximize: bool = True, posterior_transform=None):
        super().__init__(model=model, posterior_transform=posterior_transform)
        self.cost = cost
        self.lmbda = _positive("lmbda", lmbda)
        self.maximize = maximize

    @t_batch_mode_transform(expected_q=1)
    def forward(self, X: torch.Tensor) -> torch.Tensor:
        mean, sigma = self._loss_moments(X)
        c = self.lmbda * expected_cost(self.cost, X).to(mean)
        return -pt.pbgi(mean, sigma, c, check=False)


class LogEIPC(_CostAware):
    """Log expected improvement per unit cost [stopping paper eq. 4]: `ln EI(x; y*) − ln c(x)`.

    EI is the same number in both conventions (`E[(f − best_f)⁺]` for a maximised `f`, `E[(y* −
    loss)⁺]` with `y* = −best_f` for its loss), so the value needs no sign change; only the
    arguments are translated. `cost` is used as given (multiply by λ in the callable, or use
    `PBGI`'s `lmbda`); for a model of log cost this is the LogEIPC-exp form (`E[c]`).
    """

    def __init__(self, model: Model, best_f, cost: Cost, maximize: bool = True, posterior_transform=None):
        super().__init__(model=model, posterior_transform=posterior_transform)
        self.register_buffer("best_f", torch.as_tensor(best_f, dtype=torch.float64))
        self.cost = cost
        self.maximize = maximize

    @t_batch_mode_transform(expected_q=1)
    def forward(self, X: torch.Tensor) -> torch.Tensor:
        mean, sigma = self._loss_moments(X)
        y = (-self.best_f if self.maximize else self.best_f).to(mean)
        c = expected_cost(self.cost, X).to(mean)
        return pt.log_eipc(mean, sigma, y, c, check=False)


class PBGID(PBGI):
    """PBGI-D [PBGI paper §3.3 eq. 7]: PBGI with a cost scale λ that starts at `lmbda0` (paper:
    0.1) and is divided by `beta` (paper: 2) each time the stopping rule fires for the current
    λ, i.e. when `min_x g(x) ≥ y*` (`max LogEIPC ≤ 0`), after which the search continues.

    Call `update(model, best_f, bounds=… | candidates=…)` once per iteration, after the
    posterior update: it checks the rule with the current λ (through `StoppingRule` without
    practical options) and divides λ when it fires; it returns the `StopCheck`. Or decide
    yourself and call `decay()`.
    """

    def __init__(self, model: Model, cost: Cost, lmbda0: float = 0.1, beta: float = 2.0, maximize: bool = True,
                 posterior_transform=None):
        super().__init__(model, cost, lmbda0, maximize=maximize, posterior_transform=posterior_transform)
        self.beta = _positive("beta", beta)
        if not self.beta > 1.0:
            raise ValueError(f"beta: a number > 1 is needed, got {beta!r}")

    def decay(self) -> float:
        """λ ← λ/β (never below the smallest positive double); returns the new λ."""
        self.lmbda = max(self.lmbda / self.beta, 5e-324)
        return self.lmbda

    def update(self, model: Model, best_f, bounds=None, candidates=None, **search) -> "StopCheck":
        self.model = model
        lmbda, cost = self.lmbda, self.cost

        def scaled(X):
            return lmbda * expected_cost(cost, X)

        check = StoppingRule().check(model, best_f, scaled, bounds=bounds, candidates=candidates,
                                     maximize=self.maximize, **search)
        if check.signal:
            self.decay()
        return check


class StopCheck(NamedTuple):
    """One check of the stopping rule.

    `stop`: the decision with the practical options applied (stabilisation, debounce, moving
    average); `signal`: the plain rule at this check, `max LogEIPC ≤ 0`; `max_log_eipc`: the
    statistic (the maximum found over the candidates or the box); `pbgi_gap`: `min g − y*` in
    the minimisation form (`≥ 0` ⇔ stop; both are taken over the same found points, so their
    signs agree); `moving_average`: the averaged statistic the decision used (`None` until
    the window is full: no check signals before `moving_average` checks); `x_log_eipc`, `x_pbgi`: where the two extremes were found."""

    stop: bool
    signal: bool
    max_log_eipc: float
    pbgi_gap: float
    moving_average: Optional[float]
    x_log_eipc: torch.Tensor
    x_pbgi: torch.Tensor


class StoppingRule:
    """The PBGI/LogEIPC stopping rule [stopping paper §3, eqs. 6–10]: stop when
    `max_x LogEIPC(x; y*) ≤ 0`, equivalently `min_x PBGI(x) ≥ y*` (ties stop), checked after each
    posterior update, with the paper's practical options (`pbgi.stopping.StoppingHelper`):
    `stabilisation` (no stop during the first k checks), `debounce` (stop after m consecutive
    signals), `moving_average` (test the mean of the statistic over the last w checks).
    Theorem 1's bound holds for the plain rule (the defaults 0, 1, 1).

    `check(model, best_f, cost, bounds=… | candidates=…)`: over a finite `candidates` tensor
    (`n × d`, the unevaluated points) the maxima are exact; over a box `bounds` (`2 × d`) they
    are `optimize_acqf`'s (`num_restarts`, `raw_samples`, `options` are passed on; by default
    the stopping paper's authors' budget, `10·d` restarts from `1024·d` raw samples), one search of
    LogEIPC and one of PBGI, each found point scored by both (the two statistics agree point by
    point, so the better search counts for both; an optimiser that underestimates the maximum
    makes the rule stop too early, the stopping paper's "imperfect optimization"). `cost` is in
    objective units (λ applied), as `LogEIPC` takes it.
    """

    def __init__(self, stabilisation: int = 0, debounce: int = 1, moving_average: int = 1):
        self.helper = StoppingHelper(stabilisation, debounce, moving_average)

    def check(self, model: Model, best_f, cost: Cost, bounds=None, candidates=None, maximize: bool = True,
              num_restarts: Optional[int] = None, raw_samples: Optional[int] = None, options=None) -> StopCheck:
        if (bounds is None) == (candidates is None):
            raise ValueError("check: give exactly one of bounds= (a 2 × d box) or candidates= (n × d points)")
        log_eipc = LogEIPC(model, best_f, cost, maximize=maximize)
        index = PBGI(model, cost, 1.0, maximize=maximize)
        y_star = -float(best_f) if maximize else float(best_f)
        if candidates is not None:
            if candidates.dim() != 2 or candidates.shape[0] == 0:
                raise ValueError(f"candidates: an n × d tensor with n ≥ 1 is needed, got shape "
                                 f"{tuple(candidates.shape)}")
            with torch.no_grad():
                values = log_eipc(candidates.unsqueeze(-2))
                gittins = index(candidates.unsqueeze(-2))
            i, j = int(values.argmax()), int(gittins.argmax())
            best, x_best = float(values[i]), candidates[i]
            top, x_top = float(gittins[j]), candidates[j]
        else:
            d = bounds.shape[-1]
            # The stopping paper's authors' budget (scripts/bayesianoptimizer.py at 7bb1efc):
            # 10·d restarts from 1024·d raw samples for every stopping statistic.
            restarts = 10 * d if num_restarts is None else num_restarts
            raw = 1024 * d if raw_samples is None else raw_samples
            kwargs = dict(q=1, num_restarts=restarts, raw_samples=raw, options=options or {})
            x_best, _ = optimize_acqf(log_eipc, bounds=bounds, **kwargs)
            x_top, _ = optimize_acqf(index, bounds=bounds, **kwargs)
            # Both searches look for the same thing (g(x) < y* ⇔ LogEIPC(x) > 0, point by
            # point), so each found point is scored by both and the better one counts: an
            # optimiser that misses the blocking region in one landscape is caught by the other.
            found = torch.cat([x_best, x_top]).unsqueeze(-2)
            with torch.no_grad():
                values, gittins = log_eipc(found), index(found)
            i, j = int(values.argmax()), int(gittins.argmax())
            best, x_best = float(values[i]), found[i, 0]
            top, x_top = float(gittins[j]), found[j, 0]
        gap = -top - y_star  # min g − y*: the acquisition value is −g
        stop = self.helper.observe(best)
        return StopCheck(stop, best <= 0.0, best, gap, self.helper.moving_average, x_best, x_top)

    def reset(self):
        """Forgets all checks (a new run)."""
        self.helper.reset()

"""The PBGI/LogEIPC stopping rule (stopping paper, eqs. 6–10; MATH.md), minimisation.

Candidates are the points not yet evaluated, each with posterior `N(mu, sigma^2)` and a cost in
objective units (`λ·c(x)`). Stop when `min PBGI >= y_best`, equivalently
`max LogEIPC(·, y_best) <= 0` (ties stop; no candidates stop). Check the rule after each
posterior update.

- `stop_by_pbgi`, `stop_by_log_eipc`, `pbgi_gap`, `max_log_eipc`: the rule and its two
  statistics in float64 (`pbgi-fast`; invalid candidates give NaN, which never stops).
- `stop_decision`: the rule decided exactly both ways by the certified reference.
- `StoppingHelper`: the paper's practical options (stabilisation period, debounce, moving
  average of the statistic).
- `PbgiDSchedule`, `budget_lambda`: PBGI-D's cost scale and Theorem 1's `λ = U/(B − C)`.
  `PbgiDSchedule.on_stop_signal()` divides `λ` by `β`, rounded to the nearest positive double:
  a quotient that would underflow to 0 gives `5e-324` (the smallest positive double), where
  `λ` then stays. `budget_lambda` raises `ValueError` where `U/(B − C)` overflows or underflows
  float64 (`inf` and `0` are no cost scales).

`mu`, `sigma`, `cost` broadcast against each other (a scalar cost for all candidates is fine).
"""

from typing import List, NamedTuple, Optional

import numpy as np

from . import _pbgi
from ._broadcast import Call, int_in, real_scalar
from ._pbgi import PbgiDSchedule, budget_lambda

__all__ = [
    "stop_by_pbgi",
    "stop_by_log_eipc",
    "pbgi_gap",
    "max_log_eipc",
    "stop_decision",
    "StopDecision",
    "StoppingHelper",
    "PbgiDSchedule",
    "budget_lambda",
    "MAX_WINDOW",
]


def _candidates(mu, sigma, cost):
    call = Call(("mu", "sigma", "cost"), (mu, sigma, cost))
    return [np.ascontiguousarray(np.broadcast_to(a, (call.size,))) for a in call.flat]


def _y(y_best):
    return real_scalar("y_best", y_best)


def stop_by_pbgi(mu, sigma, cost, y_best):
    """`True` when `min PBGI(mu, sigma, cost) >= y_best` (float64; ties stop)."""
    return _pbgi.stop_by_pbgi(*_candidates(mu, sigma, cost), _y(y_best))


def stop_by_log_eipc(mu, sigma, cost, y_best):
    """`True` when `max LogEIPC(mu, sigma, y_best, cost) <= 0` (float64; ties stop)."""
    return _pbgi.stop_by_log_eipc(*_candidates(mu, sigma, cost), _y(y_best))


def pbgi_gap(mu, sigma, cost, y_best):
    """`y_best - min PBGI`: the rule's statistic in PBGI form (`<= 0` means stop; `-inf` for no
    candidates; NaN if any index is NaN)."""
    return _pbgi.pbgi_gap(*_candidates(mu, sigma, cost), _y(y_best))


def max_log_eipc(mu, sigma, cost, y_best):
    """`max LogEIPC(·, y_best)`: the statistic in LogEIPC form (`<= 0` means stop)."""
    return _pbgi.max_log_eipc(*_candidates(mu, sigma, cost), _y(y_best))


class StopDecision(NamedTuple):
    """The exact decision: `stop`; `blocking`, the candidates with `PBGI < y_best` (equivalently
    `LogEIPC > 0`), in order; `min_pbgi`, the candidate a PBGI policy evaluates next."""

    stop: bool
    blocking: List[int]
    min_pbgi: Optional[int]


def stop_decision(mu, sigma, cost, y_best):
    """The stopping rule decided exactly both ways by the certified reference (each candidate's
    PBGI against `y_best` and each LogEIPC's sign, which must agree). Raises `ValueError` for an
    invalid candidate (naming its index) or a non-finite `y_best`."""
    return StopDecision(*_pbgi.stop_decision(*_candidates(mu, sigma, cost), _y(y_best)))


# The largest `StoppingHelper` window: the helper keeps the window's statistics (8 bytes each).
MAX_WINDOW = 1 << 24


class StoppingHelper:
    """The stopping rule with the paper's practical options ("Preventing spurious stops"): a
    stabilisation period (no stop during the first `stabilisation` checks), a debounce (stop
    only after `debounce` consecutive signals) and a moving average of the statistic over the
    last `window` checks. With the defaults (0, 1, 1) it is the plain rule.

    The moving average waits for a full window, as the stopping paper's authors' code: until
    `window` statistics have been observed (since construction or `reset()`) it is not yet
    available (`moving_average` is `None`) and no check signals, so a run with window `w`
    cannot stop before check `w`. From then on a check signals when the mean of the last `w`
    statistics is `<= 0` (ties stop).

    Feed it one statistic per BO iteration, after the posterior update: `observe(s)` with
    `s <= 0` meaning "stop" (`pbgi_gap` or `max_log_eipc`), or `observe_pbgi` /
    `observe_log_eipc` with the candidates. Each returns `True` when the run should stop now.
    A NaN statistic never signals and resets the debounce count, as does a check whose window
    is not yet full.

    `stabilisation` is an int `>= 0`, `debounce` an int `>= 1`, `window` an int from 1 to
    `MAX_WINDOW` (2**24; the helper keeps the window's statistics); anything else raises
    `TypeError` (not an int) or `ValueError` (out of range). The moving average is the mean of
    the window's statistics within a few ULP (an exact sum of the statistics scaled by a power
    of two, so it neither overflows nor cancels: the mean of `[-1.7e308, -1.7e308, 1.79e308,
    1.79e308]` is about `4.5e306`, of `[1e16, 1, -1e16]` is `1/3`)."""

    __slots__ = ("_inner",)

    def __init__(self, stabilisation=0, debounce=1, window=1):
        self._inner = _pbgi.StoppingHelper(
            int_in("stabilisation", stabilisation, 0, 2**63 - 1),
            int_in("debounce", debounce, 1, 2**63 - 1),
            int_in("window", window, 1, MAX_WINDOW),
        )

    def observe(self, statistic):
        """Records one check's statistic; `True` when the run should stop now."""
        return self._inner.observe(real_scalar("statistic", statistic))

    def observe_pbgi(self, mu, sigma, cost, y_best):
        """`observe(pbgi_gap(mu, sigma, cost, y_best))`."""
        return self._inner.observe_pbgi(*_candidates(mu, sigma, cost), _y(y_best))

    def observe_log_eipc(self, mu, sigma, cost, y_best):
        """`observe(max_log_eipc(mu, sigma, cost, y_best))`."""
        return self._inner.observe_log_eipc(*_candidates(mu, sigma, cost), _y(y_best))

    @property
    def moving_average(self):
        """Mean of the last `window` statistics once `window` have been observed since
        construction or `reset()`; `None` before (the moving average is not yet available and
        no check signals). NaN while a NaN statistic is in the window."""
        return self._inner.moving_average

    @property
    def checks(self):
        """Number of checks so far."""
        return self._inner.checks

    @property
    def consecutive_signals(self):
        """Current run of consecutive counted signals."""
        return self._inner.consecutive_signals

    def reset(self):
        """Forgets all checks and the window (keeps the configuration): the moving average is
        `None` again until `window` statistics have been observed."""
        self._inner.reset()

    def __repr__(self):
        return repr(self._inner)

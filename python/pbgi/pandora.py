"""Pandora's Box, solved exactly: the report of `pbgi pandora`, as a dict.

Convention (MATH.md): **minimisation**. Boxes `i` have cost `c_i > 0` and independent values
`X_i`; `outside` is the value already in hand (leave it out to require opening a box). The
objective is `E[min(outside, min over opened X_i) + sum of opened c_i]`. Weitzman's policy opens
boxes in increasing index (reservation value `g_i`: `E[max(g_i - X_i, 0)] = c_i`) and stops when
the best value in hand is `<= ` the next index (ties stop, by default).

The instance format is docs/pandora.md's (`fixtures/pandora/*.json`): numbers are read exactly from
their text (`0.1` is 1/10; fractions `"p/q"`); discrete boxes (`values`, `probs`) or normal
boxes (`normal: {mean, sd}`). Exact rationals come back as `{"exact": "p/q", "decimal": f}`.
"""

import json
import os

from . import _pbgi
from ._broadcast import int_in

__all__ = [
    "solve",
    "counterexample",
    "MAX_SIMULATE",
    "DEFAULT_MAX_STATES",
    "MAX_STATES_CEILING",
    "DEFAULT_MAX_WORK",
]

# The size limit of an instance file: `pbgi pandora`'s (`pbgi_conformance::limits::MAX_FILE_BYTES`),
# read no further, so that a path such as /dev/zero is an error and not a MemoryError.
_MAX_FILE_BYTES = 16 << 20


# The most Monte Carlo runs `solve(simulate=...)` takes: `pbgi pandora --simulate`'s (a u32).
MAX_SIMULATE = 2**32 - 1

# The exact solves' limits, `pbgi pandora --max-states` and `--max-work` (defaults and ceiling:
# `reference/src/pandora/work.rs`, `conformance/src/pandora/report.rs`).
DEFAULT_MAX_STATES = 2**20
MAX_STATES_CEILING = 2**26
DEFAULT_MAX_WORK = 3e10


def _exact_text(x, name):
    if isinstance(x, bool) or not isinstance(x, (int, float, str)):
        raise TypeError(f"{name}: expected a number or an exact string like \"3/2\", got {x!r}")
    return x if isinstance(x, str) else repr(x)


def solve(
    instance,
    *,
    tie="early",
    budget=None,
    engine="reference",
    simulate=None,
    seed=0x5EED0004,
    max_states=DEFAULT_MAX_STATES,
    max_work=DEFAULT_MAX_WORK,
):
    """Solves a Pandora's Box instance; returns `pbgi pandora`'s JSON report as a dict.

    `instance`: the instance as a dict (the JSON file format), or a path to a JSON file.
    `tie`: `"early"` (stop on a tie; default), `"late"` (open), or a stop-early probability
    (a number or exact string such as `"1/3"`). `budget`: an expected budget `B` (discrete
    instances; Theorem 2's `λ*` and mixture). `engine`: `"reference"` (exact rationals / MPFR)
    or `"fast"` (float64). `simulate`: a number of Monte Carlo runs to add, an int from 1 to
    `MAX_SIMULATE` (2**32 - 1, `pbgi pandora --simulate`'s limit), seeded by `seed`, an int from
    0 to 2**64 - 1 (`TypeError` for a non-int such as 1.5 or 1e30, `ValueError` out of range).

    The report holds the indices in the order the policy opens the boxes, expected cost, best
    value and objective, the Kleinberg–Waggoner–Weyl closed form, and (`report["dp"]`) the exact
    DP optimum and whether the policy attains it. The DP runs for discrete instances with the
    reference engine, within the limits `max_states` (its table of `2^boxes × (distinct hand
    values + 1)` states; default 2^20, at most 2^26: 12 boxes with 255 distinct values, or 16
    boxes with 15) and `max_work` (default 3e10 work units, about 10 s; `pbgi pandora
    --max-states`, `--max-work`). Otherwise `report["dp"]["skipped"]` says why it was not run
    (and which limit it exceeds). The same `max_work` bounds every exact step: the policy's
    evaluation, the KWW objective and, with normal boxes, the quadrature (estimated before it
    starts: about 20 normal boxes exceed the default); beyond it, a `ValueError` with the
    estimate and the `max_work` that would allow it, or `engine="fast"`.

    Raises `ValueError` naming the box and field for an invalid instance (or the file for an
    unreadable path, one over 16 MiB or one that is not UTF-8)."""
    if isinstance(instance, (str, os.PathLike)):
        name = os.fspath(instance)
        try:
            with open(name, "rb") as f:
                data = f.read(_MAX_FILE_BYTES + 1)
        except OSError as error:
            raise ValueError(f"{name}: cannot read: {error.strerror}") from None
        if len(data) > _MAX_FILE_BYTES:
            raise ValueError(
                f"{name}: larger than {_MAX_FILE_BYTES >> 20} MiB, the limit of an instance file "
                "(as `pbgi pandora`'s)"
            )
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise ValueError(f"{name}: not UTF-8 text (byte {error.start})") from None
    elif isinstance(instance, dict):
        name = "<instance>"
        # Numbers keep their exact decimal text: Python's repr of a float is the shortest
        # string that reads back to it, which the instance reader takes as an exact decimal.
        text = json.dumps(instance)
    else:
        raise TypeError(f"instance: expected a dict or a path, got {type(instance).__name__}")
    tie_text = tie if tie in ("early", "late") else _exact_text(tie, "tie")
    budget_text = None if budget is None else _exact_text(budget, "budget")
    runs = None if simulate is None else int_in("simulate", simulate, 1, MAX_SIMULATE)
    if isinstance(max_work, bool) or not isinstance(max_work, (int, float)):
        raise TypeError(f"max_work: expected a number of work units, got {max_work!r}")
    report = _pbgi.pandora_solve(
        text,
        name,
        tie_text,
        budget_text,
        engine,
        runs,
        int_in("seed", seed, 0, 2**64 - 1),
        int_in("max_states", max_states, 0, MAX_STATES_CEILING),
        float(max_work),
    )
    return json.loads(report)


def counterexample(epsilon, delta):
    """The EI-per-cost counterexample (Astudillo et al., supplement Thm 1), in maximisation form
    as in the source, as `pbgi pandora --counterexample EPS,DELTA` reports it: exact `K`, `N`,
    EI-per-cost's value, the value of opening the expensive box once, their ratio, and PBGI's
    choice. `epsilon`, `delta`: numbers or exact strings (`"1/100"`)."""
    text = _pbgi.pandora_counterexample(
        _exact_text(epsilon, "epsilon"), _exact_text(delta, "delta")
    )
    return json.loads(text)

"""`pbgi.check`: grade another implementation's values against the certified reference.

The grading is `pbgi check`'s own report type (the Rust `CheckReport`), fed with arrays: the
same error measures, regions, worst rows and verdict as the command line.
"""

import json
import math
import numbers

import numpy as np

from . import _pbgi
from ._broadcast import Call

__all__ = ["check", "Report"]


def max_ulp_bound(max_ulp):
    """`max_ulp` as a float, checked by `pbgi check --max-ulp`'s rule (`cli/src/check.rs`): a
    finite number >= 0. NaN would pass nothing silently, an infinity would pass a NaN value, and
    a negative bound fails correctly rounded answers; each raises `ValueError`, anything but a
    real number `TypeError`."""
    if isinstance(max_ulp, bool) or not isinstance(max_ulp, numbers.Real):
        raise TypeError(f"max_ulp: expected a real number, got {max_ulp!r}")
    bound = float(max_ulp)
    if not (math.isfinite(bound) and bound >= 0):
        raise ValueError(f"max_ulp: must be a finite number >= 0, got {max_ulp!r}")
    return bound


class Report:
    """The grading of one set of values (see `check`).

    - `ulp`: every element's error in ULPs (the measure of `pbgi check`), in the shape of the
      broadcast arguments;
    - `max_ulp`: the largest error (0 for no elements);
    - `worst(k)`: the `k` worst elements, largest error first, each a dict with the arguments
      (also as IEEE-754 hex bits), their value, the oracle's correctly rounded value, the
      error, the region and `index` (the element's index in the arguments' broadcast shape);
    - `regions`: the error statistics by region of `z = (y - mu)/sigma` (PBGI: of
      `u = (g - mu)/sigma`; `h`, `ln h`: of `z`), each a dict (`label`, `rows`, `max`,
      `median`, `p99`, `worst_index`);
    - `passed(max_ulp)`: every element within `max_ulp` (and at least one element); `max_ulp`
      is a finite number >= 0, as `pbgi check --max-ulp` takes it (else `ValueError`), so a NaN
      value, or an infinity where the oracle is finite, fails at every bound;
    - `to_dict(worst=10, max_ulp=None)`: the whole report as data (`pbgi check --json`);
    - `str(report)`: the text report (`pbgi check`'s), `report.text(worst, max_ulp)`.

    Non-finite numbers in the dicts are the strings "inf", "-inf", "nan", as in the JSON.
    """

    __slots__ = ("_report", "_call", "function")

    def __init__(self, report, call, function):
        self._report = report
        self._call = call
        self.function = function

    @property
    def ulp(self):
        return self._call.shaped(self._report.ulp())

    @property
    def max_ulp(self):
        return self._report.max_ulp()

    def passed(self, max_ulp):
        """Whether every element's error is within `max_ulp` ULPs (and there is one).

        `max_ulp` must be a finite number >= 0 (`pbgi check --max-ulp`'s rule): `ValueError`
        for NaN, an infinity or a negative number, `TypeError` for a non-number."""
        return self._report.passed(max_ulp_bound(max_ulp))

    def _indexed(self, row):
        row["index"] = self._call.result_index(row["line"])
        return row

    def worst(self, k=10):
        """The `k` worst elements, largest error first (ties: earlier elements first)."""
        return [self._indexed(r) for r in json.loads(self._report.worst(int(k)))]

    @property
    def regions(self):
        out = []
        for group in json.loads(self._report.regions()):
            line = group.pop("worst_line")
            group["worst_index"] = None if line is None else self._call.result_index(line)
            out.append(group)
        return out

    def to_dict(self, worst=10, max_ulp=None):
        """The whole report: statistics, the worst rows, the region table, and the verdict
        against `max_ulp` when given (`pbgi check --json`; rows' `line` is the flat element
        index, `index` the index in the broadcast shape)."""
        summary = json.loads(
            self._report.summary(int(worst), None if max_ulp is None else max_ulp_bound(max_ulp))
        )
        for row in summary["worst"]:
            self._indexed(row)
        return summary

    def text(self, worst=10, max_ulp=None):
        """The report as `pbgi check` prints it (its `line` column is the flat element index)."""
        return self._report.text(
            int(worst), None if max_ulp is None else max_ulp_bound(max_ulp)
        )

    def __str__(self):
        return self.text()

    def __repr__(self):
        return f"<pbgi.Report {self.function}: {self._call.size} elements, max {self.max_ulp:g} ULP>"


def check(function, value, /, **columns):
    """Grades `value`, someone's results for `function`, against the certified reference.

    `function` is a command-line name: `"h"`, `"ln-h"`, `"log-ndtr"`, `"ei"`, `"log-ei"`,
    `"pbgi"`, `"log-eipc"`, or a gradient `"ei-grad"`, `"log-ei-grad"` (then `value` is the
    pair `(d_mu, d_sigma)`), `"pbgi-grad"` (`(d_mu, d_sigma, d_cost)`); a named tuple such as
    `pbgi.fast.ei_grad`'s result gives its fields by name. `columns` are the
    arguments by the CLI's column names (`z`; `x`; `mu`, `sigma`, `y`; `mu`, `sigma`, `cost`;
    `mu`, `sigma`, `y`, `cost`), each a scalar or an array; they broadcast with `value` like
    numpy ufunc arguments. Returns a `Report` (for gradients, an element's error is the largest
    over its fields; `to_dict()["by_output"]` has each field's statistics).

    The error measures are `pbgi check`'s (docs/grading.md; `conformance/src/ulp.rs`): e.g. plain ULP
    distance for `h` and `ei`; ULPs of `max(|exact|, 1)` for `ln-h` and `log-ei`; ULPs of
    `|mu| + |g - mu|` for `pbgi`; ULPs of `max(|exact|, |ln cost|, 1)` for `log-eipc`. A NaN, or an infinity where the exact value is
    finite, is an infinite error.

    Raises `ValueError` for an unknown function, missing or unexpected columns, or shapes that
    do not broadcast; `pbgi.InvalidInput` (naming the column and index) for an argument outside
    the domain; `pbgi.NotDifferentiable` for a gradient at a point where it does not exist
    (`ei-grad` at `sigma = 0, y = mu`; `log-ei-grad` at `sigma = 0, y <= mu`), as
    `pbgi.reference.ei_grad` raises there; `pbgi.NotCertified` when the reference cannot
    answer. The reference costs tens of µs per element (PBGI ~0.5 ms), spread over all
    cores with the GIL released.
    """
    inputs, outputs = _pbgi.check_columns(function)
    missing = [c for c in inputs if c not in columns]
    unexpected = [c for c in columns if c not in inputs]
    if missing or unexpected:
        parts = []
        if missing:
            parts.append(f"missing {', '.join(missing)}")
        if unexpected:
            parts.append(f"unexpected {', '.join(unexpected)}")
        raise ValueError(
            f"{function} takes the columns {', '.join(inputs)}: {'; '.join(parts)}"
        )
    if len(outputs) > 1 and hasattr(value, "_asdict"):
        # A gradient named tuple (pbgi.fast.ei_grad's, or the user's): its fields by name.
        fields = value._asdict()
        value = tuple(fields[o] for o in outputs if o in fields)
    values = tuple(value) if len(outputs) > 1 else (value,)
    if len(values) != len(outputs):
        raise ValueError(f"{function}: value must give {', '.join(outputs)}")
    names = tuple("value" if len(outputs) == 1 else o for o in outputs) + tuple(inputs)
    call = Call(names, values + tuple(columns[c] for c in inputs))
    full = [np.ascontiguousarray(np.broadcast_to(v, (call.size,))) for v in call.flat[: len(values)]]
    try:
        report = _pbgi.check(
            function, "values passed to pbgi.check", full, call.flat[len(values):]
        )
    except _pbgi.InvalidInput as error:
        position, element, message = error.args
        raise call.invalid_input(
            _pbgi.InvalidInput(position + len(values), element, message)
        ) from None
    except (_pbgi.NotCertified, _pbgi.NotDifferentiable) as error:
        element, message = error.args
        raise type(error)(f"element {call.result_index(element)}: {message}") from None
    return Report(report, call, function)

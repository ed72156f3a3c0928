"""pbgi.reference agrees bit for bit with the golden fixtures and with `pbgi eval`.

For every row of `fixtures/<function>.csv`: `value` has the fixture's bits (`value_hex`), and
running `pbgi eval` (the CLI binary the README's test command builds) on the same inputs gives
the same value and the same 40-digit enclosure strings as `Certified.decimals()`. The fixture's
`exact` column (the exact value to 40 digits, from a 160-bit enclosure) lies within the
enclosure up to its own last-digit rounding.
"""

import csv
import io
import os
import struct
import subprocess

import numpy as np
import pytest

import pbgi
from conftest import FIXTURES, ROOT, read_csv
from exact_decimal import exact

FUNCTIONS = {
    "h": ("h", ("z",)),
    "ln-h": ("ln_h", ("z",)),
    "ei": ("ei", ("mu", "sigma", "y")),
    "log-ei": ("log_ei", ("mu", "sigma", "y")),
    "pbgi": ("pbgi", ("mu", "sigma", "cost")),
    "log-eipc": ("log_eipc", ("mu", "sigma", "y", "cost")),
}


def bits(x):
    return struct.unpack("<Q", struct.pack("<d", float(x)))[0]


def pbgi_binary():
    target = os.environ.get("CARGO_TARGET_DIR", str(ROOT / "target"))
    path = os.path.join(target, "release", "pbgi")
    if not os.path.exists(path):
        pytest.fail(
            f"{path} not found: build it first (cargo build --release -p pbgi-conformance, "
            "or the README's test command, which runs cargo test --workspace --release)"
        )
    return path


def evaluate(cli_name, columns, rows):
    name, arg_names = FUNCTIONS[cli_name]
    args = [np.array([float(r[c]) for r in rows]) for c in arg_names]
    return getattr(pbgi.reference, name)(*args)


@pytest.mark.parametrize("cli_name", sorted(FUNCTIONS))
def test_values_have_the_fixture_bits(cli_name):
    rows = read_csv(FIXTURES / f"{cli_name}.csv")
    result = evaluate(cli_name, FUNCTIONS[cli_name][1], rows)
    wrong = [
        (r, result.value[i])
        for i, r in enumerate(rows)
        if bits(result.value[i]) != int(r["value_hex"], 16)
    ]
    assert not wrong, f"{len(wrong)} of {len(rows)} rows differ, first: {wrong[0]}"


@pytest.mark.parametrize("cli_name", sorted(FUNCTIONS))
def test_fixture_exact_values_lie_in_the_enclosures(cli_name):
    rows = read_csv(FIXTURES / f"{cli_name}.csv")
    result = evaluate(cli_name, FUNCTIONS[cli_name][1], rows)
    lower, upper = result.decimals()
    for i, r in enumerate(rows):
        # At least 40 digits, rounded to nearest: within half a unit of the last printed digit.
        digits = len(r["exact"].split("e")[0].lstrip("-").replace(".", "").lstrip("0"))
        low, high = exact(r["exact"]).nudged(max(digits, 1))
        assert exact(lower[i]) <= high and low <= exact(upper[i]), (r, lower[i], upper[i])


# The functions `pbgi eval` evaluates.
EVAL_FUNCTIONS = ["ei", "log-ei", "pbgi", "log-eipc"]


@pytest.mark.parametrize("cli_name", EVAL_FUNCTIONS)
def test_agrees_bit_for_bit_with_pbgi_eval(cli_name):
    _, arg_names = FUNCTIONS[cli_name]
    rows = read_csv(FIXTURES / f"{cli_name}.csv")
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(arg_names)
    writer.writerows([r[c] for c in arg_names] for r in rows)
    run = subprocess.run(
        [pbgi_binary(), "eval", cli_name],
        input=text.getvalue(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    cli = list(csv.DictReader(io.StringIO(run.stdout)))
    assert len(cli) == len(rows)
    result = evaluate(cli_name, arg_names, rows)
    lower, upper = result.decimals(40)
    for i, row in enumerate(cli):
        assert bits(float(row["value"])) == bits(result.value[i]), (row, result.value[i])
        assert (row["lower"], row["upper"]) == (lower[i], upper[i]), row

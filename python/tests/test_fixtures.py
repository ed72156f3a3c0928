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
    "h": ("h", ("z",), None),
    "ln-h": ("ln_h", ("z",), None),
    "log-ndtr": ("log_ndtr", ("x",), None),
    "ei": ("ei", ("mu", "sigma", "y"), None),
    "log-ei": ("log_ei", ("mu", "sigma", "y"), None),
    "pbgi": ("pbgi", ("mu", "sigma", "cost"), None),
    "log-eipc": ("log_eipc", ("mu", "sigma", "y", "cost"), None),
    "ei-grad": ("ei_grad", ("mu", "sigma", "y"), ("d_mu", "d_sigma")),
    "log-ei-grad": ("log_ei_grad", ("mu", "sigma", "y"), ("d_mu", "d_sigma")),
    "pbgi-grad": ("pbgi_grad", ("mu", "sigma", "cost"), ("d_mu", "d_sigma", "d_cost")),
}


def bits(x):
    return struct.unpack("<Q", struct.pack("<d", float(x)))[0]


def pbgi_binary():
    target = os.environ.get("CARGO_TARGET_DIR", str(ROOT / "target"))
    path = os.path.join(target, "release", "pbgi")
    if not os.path.exists(path):
        pytest.fail(
            f"{path} not found: build it first (cargo build --release -p pbgi-cli, "
            "or the README's test command, which runs cargo test --workspace --release)"
        )
    return path


def outputs(cli_name, rows):
    """`[(output name, Certified, fixture column prefix, CLI column prefix)]` for the rows."""
    name, arg_names, fields = FUNCTIONS[cli_name]
    args = [np.array([float(r[c]) for r in rows]) for c in arg_names]
    result = getattr(pbgi.reference, name)(*args)
    if fields is None:
        return [("value", result, "", "")]
    return [(f, getattr(result, f), f"{f}_", f"{f}_") for f in fields]


@pytest.mark.parametrize("cli_name", sorted(FUNCTIONS))
def test_values_have_the_fixture_bits(cli_name):
    rows = read_csv(FIXTURES / f"{cli_name}.csv")
    for output, certified, prefix, _ in outputs(cli_name, rows):
        hex_column = f"{prefix}hex" if prefix else "value_hex"
        wrong = [
            (r, certified.value[i])
            for i, r in enumerate(rows)
            if bits(certified.value[i]) != int(r[hex_column], 16)
        ]
        assert not wrong, f"{output}: {len(wrong)} of {len(rows)} rows differ, first: {wrong[0]}"


@pytest.mark.parametrize("cli_name", sorted(FUNCTIONS))
def test_fixture_exact_values_lie_in_the_enclosures(cli_name):
    rows = read_csv(FIXTURES / f"{cli_name}.csv")
    for output, certified, prefix, _ in outputs(cli_name, rows):
        lower, upper = certified.decimals()
        for i, r in enumerate(rows):
            text = r[f"{prefix}exact"]
            # At least 40 digits, rounded to nearest: within half a unit of the last printed digit.
            digits = len(text.split("e")[0].lstrip("-").replace(".", "").lstrip("0"))
            low, high = exact(text).nudged(max(digits, 1))
            assert exact(lower[i]) <= high and low <= exact(upper[i]), (output, r, lower[i], upper[i])


@pytest.mark.parametrize("cli_name", sorted(FUNCTIONS))
def test_agrees_bit_for_bit_with_pbgi_eval(cli_name):
    _, arg_names, _ = FUNCTIONS[cli_name]
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
    for output, certified, _, prefix in outputs(cli_name, rows):
        lower, upper = certified.decimals(40)
        value_column = output if prefix else "value"
        for i, row in enumerate(cli):
            assert bits(float(row[value_column])) == bits(certified.value[i]), (output, row)
            assert (row[f"{prefix}lower"], row[f"{prefix}upper"]) == (lower[i], upper[i]), (output, row)

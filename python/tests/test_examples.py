"""The examples run from a fresh clone and say what they promise."""

import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_botorch_cost_aware_loop_runs_and_stops():
    pytest.importorskip("botorch")
    run = subprocess.run([sys.executable, str(ROOT / "examples" / "botorch_cost_aware_loop.py")],
                         capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].split() == ["iter", "value", "best", "cost", "so", "far", "max", "LogEIPC", "decision"]
    assert any("continue" in line for line in lines)
    assert any(" stop (max LogEIPC <= 0" in line for line in lines), run.stdout
    assert lines[-1].startswith("best value ")

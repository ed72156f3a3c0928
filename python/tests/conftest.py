"""Shared paths and readers of the independent test data."""

import csv
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
MPMATH_VALUES = ROOT / "reference" / "tests" / "data" / "mpmath_values.csv"
MPMATH_GRADIENTS = pathlib.Path(__file__).resolve().parent / "data" / "mpmath_gradients.csv"


def read_csv(path):
    """The rows of a CSV file as dicts, skipping `#` comment lines."""
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))

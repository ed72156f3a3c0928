"""Writes a benchmark's Markdown table into the README between its marker lines.

Each comparison script owns one block, `<!-- NAME: begin -->` ... `<!-- NAME: end -->`, so the
README's speed tables are always the output of the command it names, never typed by hand.
"""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def head_commit():
    """The short hash of the checked-out commit (named in each table), or "?" outside git."""
    return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, text=True,
                          capture_output=True).stdout.strip() or "?"


def update_readme(name, table):
    """Replace the README block of comparison `name` with `table`; 0 on success, 2 if the
    README has no such block (nothing is written then)."""
    begin = f"<!-- {name}: begin -->"
    end = f"<!-- {name}: end -->"
    path = os.path.join(ROOT, "README.md")
    with open(path) as f:
        text = f.read()
    if begin not in text or end not in text:
        print(f"{name}.py: error: {path} has no lines {begin} and {end}", file=sys.stderr)
        return 2
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    with open(path, "w") as f:
        f.write(head + begin + "\n" + table + end + tail)
    print(f"{name}.py: table written into {path}", file=sys.stderr)
    return 0

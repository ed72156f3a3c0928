"""Grades `pbgi.torch` against the certified reference on one device, region by region.

    .venv/bin/python bench/torch_grading.py [--device cuda] [--per-stratum 3] [--update-results]

The points are the test command's (`python/tests/test_fast_accuracy.py`'s stratified points:
|z| to 1e8, sigma from 1e-300 to 1e300, sigma = 0), multiplied by `--per-stratum` seeds; the
values are computed on the device, the gradients by autograd on the device, and graded on the
CPU by `pbgi.check` (the reference). Prints one Markdown table: per function and region, the
rows, the largest error in `pbgi check`'s measure (on CPU for both paths, `pbgi.fast`'s kernels
and the torch-operation kernels) and `pbgi.fast`'s bound there. With
`--update-results` also writes docs/results/torch-grading-<device>.md. Not a test: the test
command grades the CPU (python/tests/test_torch_accuracy.py) and fails above the bounds.
"""
import argparse
import pathlib
import platform
import subprocess
import sys
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python"))
sys.path.insert(0, str(ROOT / "python" / "tests"))

import torch  # noqa: E402

import pbgi  # noqa: E402
import pbgi.torch as pt  # noqa: E402
from test_fast_accuracy import FAST, SEED, points  # noqa: E402

GRADIENTS = {"ei-grad": ("ei", "ei", ("mu", "sigma")), "log-ei-grad": ("log_ei", "log-ei", ("mu", "sigma")),
             "pbgi-grad": ("pbgi", "pbgi", ("mu", "sigma", "cost"))}


def columns_for(function, seeds):
    parts = [points(function, np.random.default_rng([SEED + 1000 + s, len(function)])) for s in range(seeds)]
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def cpu_name():
    try:
        for line in open("/proc/cpuinfo", encoding="utf-8"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "cpu"


def grade(device, per_stratum):
    """{(function, region label): (rows, max error, bound)} for the current kernels."""
    out = {}
    for function in sorted(FAST):
        columns = columns_for(function, per_stratum)
        args = [torch.tensor(v, device=device) for v in columns.values()]
        ours = getattr(pt, FAST[function])(*args).cpu().numpy()
        report = pbgi.check(function, ours, **columns)
        bounds = pbgi.fast.tolerances(function)
        for region in report.regions:
            out[(function, region["label"])] = (region["rows"], region["max"], bounds[region["label"]][0])
    for function, (fn, values_of, wrt) in sorted(GRADIENTS.items()):
        columns = columns_for(values_of, per_stratum)
        if function != "pbgi-grad":
            keep = (columns["sigma"] > 0) | (columns["y"] > columns["mu"])
            columns = {k: v[keep] for k, v in columns.items()}
        args = {k: torch.tensor(v, device=device, requires_grad=k in wrt) for k, v in columns.items()}
        getattr(pt, fn)(*args.values()).sum().backward()
        ours = tuple(args[k].grad.cpu().numpy() for k in wrt)
        report = pbgi.check(function, ours, **columns)
        bounds = pbgi.fast.tolerances(function)
        for region in report.regions:
            out[(function, region["label"])] = (region["rows"], region["max"], bounds[region["label"]][0])
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--per-stratum", type=int, default=3, help="seeds of the stratified points")
    ap.add_argument("--update-results", action="store_true")
    a = ap.parse_args()
    device = torch.device(a.device)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, text=True,
                            capture_output=True).stdout.strip() or "unknown"
    name = torch.cuda.get_device_name(device) if device.type == "cuda" else cpu_name()
    # On CPU both paths: pbgi.fast's kernels (the default) and the torch-operation kernels
    # that every other device runs; elsewhere the torch-operation kernels only.
    paths = ["fast", "torch"] if device.type == "cpu" else ["torch"]
    graded = {}
    for path in paths:
        previous = pt.set_cpu_kernels(path)
        graded[path] = grade(device, a.per_stratum)
        pt.set_cpu_kernels(previous)
    heads = {"fast": "max error, CPU default (pbgi.fast)", "torch": "max error, torch operations"}
    lines = [f"`bench/torch_grading.py --device {a.device} --per-stratum {a.per_stratum}` at {commit}, "
             f"{time.strftime('%Y-%m-%d', time.gmtime())}, on {name}, torch {torch.__version__}.", "",
             "| function | region | rows | " + " | ".join(heads[p] for p in paths) + " | pbgi.fast's bound |",
             "|---|---|---|" + "---|" * len(paths) + "---|"]
    over = 0
    for key, (rows, _, bound) in graded[paths[0]].items():
        errors = [graded[p][key][1] for p in paths]
        over += sum(e > bound for e in errors)
        lines.append(f"| {key[0]} | {key[1]} | {rows} | " + " | ".join(f"{e:g}" for e in errors) + f" | {bound:g} |")
    lines += ["", f"Regions above pbgi.fast's bound: {over}."]
    table = "\n".join(lines) + "\n"
    print(table)
    if a.update_results:
        out = ROOT / "docs" / "results" / f"torch-grading-{device.type}.md"
        out.write_text(f"# pbgi.torch graded against the reference ({device.type})\n\n"
                       f"[← results](README.md)\n\n{table}")
        print(f"wrote {out.relative_to(ROOT)}", file=sys.stderr)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())

"""pbgi.torch is within pbgi.fast's documented bounds of the certified reference, region by
region, values and gradients, on CPU (the same graders and points as test_fast_accuracy.py,
on a seed of its own, with torch's autograd giving the gradients).

The printed reports (`pytest -s`) are the accuracy table of docs/python.md.
"""

import numpy as np
import pytest

import pbgi

torch = pytest.importorskip("torch")
import pbgi.torch as pt  # noqa: E402

from test_fast_accuracy import FAST, SEED, points  # noqa: E402

TORCH_SEED = SEED + 29


@pytest.fixture(params=["fast", "torch"], autouse=True)
def cpu_kernels(request):
    """Both CPU paths: pbgi.fast's compiled kernels (the default) and the torch-operation
    kernels that every other device runs."""
    previous = pt.set_cpu_kernels(request.param)
    yield request.param
    pt.set_cpu_kernels(previous)


def run(function, columns):
    return getattr(pt, FAST[function])(*(torch.tensor(v) for v in columns.values())).numpy()


@pytest.mark.parametrize("function", sorted(FAST))
def test_torch_values_within_the_fast_bounds_by_region(function):
    print(f"seed {TORCH_SEED}")
    rng = np.random.default_rng([TORCH_SEED, sorted(FAST).index(function)])
    columns = points(function, rng)
    ours = run(function, columns)
    report = pbgi.check(function, ours, **columns)
    print(report.text(worst=3))
    bounds = pbgi.fast.tolerances(function)
    graded = 0
    for region in report.regions:
        bound, reason = bounds[region["label"]]
        assert region["max"] <= bound, f"{region['label']}: {region['max']} ULP > {bound} ({reason})\n{report}"
        graded += region["rows"]
    assert graded == report.ulp.size > 100


GRADIENTS = {"ei-grad": (pt.ei, "ei", ("mu", "sigma")), "log-ei-grad": (pt.log_ei, "log-ei", ("mu", "sigma")),
             "pbgi-grad": (pt.pbgi, "pbgi", ("mu", "sigma", "cost"))}


def autograd_partials(fn, columns, wrt):
    args = {k: torch.tensor(v, requires_grad=k in wrt) for k, v in columns.items()}
    fn(*args.values()).sum().backward()
    return tuple(args[k].grad.numpy() for k in wrt)


@pytest.mark.parametrize("function", sorted(GRADIENTS))
def test_torch_gradients_within_the_fast_bounds_by_region(function):
    fn, values_of, wrt = GRADIENTS[function]
    print(f"seed {TORCH_SEED}")
    rng = np.random.default_rng([TORCH_SEED, 50 + sorted(GRADIENTS).index(function)])
    columns = points(values_of, rng)
    if function != "pbgi-grad":
        # The reference refuses the points where the gradient does not exist (σ = 0, y ≤ μ).
        keep = (columns["sigma"] > 0) | (columns["y"] > columns["mu"])
        columns = {k: v[keep] for k, v in columns.items()}
    ours = autograd_partials(fn, columns, wrt)
    report = pbgi.check(function, ours, **columns)
    print(report.text(worst=3))
    bounds = pbgi.fast.tolerances(function)
    for region in report.regions:
        bound, reason = bounds[region["label"]]
        assert region["max"] <= bound, f"{region['label']}: {region['max']} ULP > {bound} ({reason})\n{report}"
    assert report.ulp.size > 100

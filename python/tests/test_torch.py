"""pbgi.torch: autograd, the domain's edges, errors, dtypes, broadcasting, and the import
without torch. Accuracy against the reference: test_torch_accuracy.py."""

import subprocess
import sys

import numpy as np
import pytest

import pbgi

torch = pytest.importorskip("torch")
import pbgi.torch as pt  # noqa: E402
from torch.autograd import gradcheck  # noqa: E402

F64 = torch.float64


@pytest.fixture(params=["fast", "torch"], autouse=True)
def cpu_kernels(request):
    """Every test on both CPU paths: pbgi.fast's kernels (the default) and the torch-operation
    kernels every other device runs."""
    previous = pt.set_cpu_kernels(request.param)
    yield request.param
    pt.set_cpu_kernels(previous)


def t(values, grad=True):
    return torch.tensor(values, dtype=F64, requires_grad=grad)


def test_gradcheck_on_ordinary_points():
    gen = torch.Generator().manual_seed(29)
    mu = torch.randn(40, dtype=F64, generator=gen).requires_grad_()
    sigma = (torch.rand(40, dtype=F64, generator=gen) * 3 + 0.05).requires_grad_()
    y = (torch.randn(40, dtype=F64, generator=gen) * 3).requires_grad_()
    cost = (torch.rand(40, dtype=F64, generator=gen) + 1e-3).requires_grad_()
    assert gradcheck(pt.ei, (mu, sigma, y))
    assert gradcheck(pt.log_ei, (mu, sigma, y))
    assert gradcheck(pt.log_eipc, (mu, sigma, y, cost))
    assert gradcheck(pt.pbgi, (mu, sigma, cost))
    z = torch.linspace(-35, 12, 97, dtype=F64).requires_grad_()
    assert gradcheck(pt.h, (z,))
    assert gradcheck(pt.ln_h, (z,))
    assert gradcheck(pt.log_ndtr, (z,))


def test_gradients_in_the_far_tail_and_at_tiny_costs_match_pbgi_fast():
    # Where finite differences need steps below the arguments' own scale (z to -1e4, σ to 1e-8,
    # cost/σ to 1e-300), autograd's gradients against pbgi.fast's closed forms, which
    # test_fast_accuracy grades against the reference.
    mu = np.array([0.0, 0.0, 1.0, 3.0, 0.0, 2.0])
    sigma = np.array([1.0, 1e-3, 1e-8, 0.5, 1e-4, 7.0])
    y = np.array([-60.0, -0.2, 0.9999999, -100.0, -1.0, -70000.0])
    cost = np.array([1e-200, 1e-50, 1e-12, 1e-300, 1e-9, 1e-30])
    for fn, fast, args, wrt in [(pt.log_ei, pbgi.fast.log_ei_grad, (mu, sigma, y), 2),
                                (pt.ei, pbgi.fast.ei_grad, (mu, sigma, y), 2),
                                (pt.pbgi, pbgi.fast.pbgi_grad, (mu, sigma, cost), 3)]:
        ts = [t(a) for a in args]
        value = fn(*ts)
        value.sum().backward()
        expected = fast(*args)
        assert np.allclose(value.detach().numpy(), expected.value, rtol=1e-15, atol=0)
        assert np.allclose(ts[0].grad.numpy(), expected.d_mu, rtol=1e-12, atol=0), fn.__name__
        assert np.allclose(ts[1].grad.numpy(), expected.d_sigma, rtol=1e-12, atol=0), fn.__name__
        if wrt == 3:
            assert np.allclose(ts[2].grad.numpy(), expected.d_cost, rtol=1e-12, atol=0)
        assert torch.isfinite(ts[0].grad).all() and torch.isfinite(ts[1].grad).all()


def edge_arguments():
    values = [0.0, 5e-324, 1e-300, 1e-8, 0.5, 1.0, 37.0, 1e8, 1e150, 1e300, 1.7976931348623157e308]
    signed = sorted(set(values + [-v for v in values]))
    positive = [v for v in values if v > 0]
    return signed, values, positive


def test_no_nan_in_values_or_gradients_on_the_domain_edges():
    signed, nonneg, positive = edge_arguments()
    mu, sigma, y = np.meshgrid(signed, nonneg, signed, indexing="ij")
    for name, fn, args in [("ei", pt.ei, (mu, sigma, y)), ("log_ei", pt.log_ei, (mu, sigma, y))]:
        ts = [t(a.ravel()) for a in args]
        value = fn(*ts)
        value.sum().backward() if name == "ei" else value[torch.isfinite(value)].sum().backward()
        assert not torch.isnan(value).any(), name
        for a in ts:
            assert not torch.isnan(a.grad).any(), name
    mu, sigma, cost = np.meshgrid(signed, nonneg, positive, indexing="ij")
    ts = [t(a.ravel()) for a in (mu, sigma, cost)]
    g = pt.pbgi(*ts)
    g[torch.isfinite(g)].sum().backward()
    assert not torch.isnan(g).any()
    for a in ts:
        assert not torch.isnan(a.grad).any()
    # The values agree with pbgi.fast's at these edges (the same algorithms; the ULP bound of
    # test_torch_accuracy.py applies, here every one is within 4 ULP of pbgi.fast).
    fast = pbgi.fast.pbgi(mu.ravel(), sigma.ravel(), cost.ravel())
    ours = g.detach().numpy()
    same = (ours == fast) | (np.isnan(ours) & np.isnan(fast))
    with np.errstate(over="ignore", invalid="ignore"):
        close = np.abs(ours - fast) <= 4 * np.spacing(np.abs(mu.ravel()) + np.abs(fast - mu.ravel()))
    assert (same | close).all()


def test_gradients_at_sigma_zero_are_the_documented_limits():
    mu, sigma, y = t([0.0, 0.0, 0.0]), t([0.0, 0.0, 0.0]), t([1.0, -1.0, 0.0])
    pt.ei(mu, sigma, y).sum().backward()
    assert mu.grad.tolist() == [-1.0, 0.0, -0.5] and y.grad.tolist() == [1.0, 0.0, 0.5]
    assert sigma.grad.tolist() == [0.0, 0.0, pytest.approx(0.3989422804014327, rel=1e-15)]
    mu, sigma, cost = t([1.0]), t([0.0]), t([0.25])
    g = pt.pbgi(mu, sigma, cost)
    g.backward()
    assert g.item() == 1.25 and (mu.grad.item(), sigma.grad.item(), cost.grad.item()) == (1.0, 0.0, 1.0)


def test_bad_arguments_are_named_with_their_index():
    with pytest.raises(ValueError, match=r"sigma: every element must be finite and >= 0; element \(1,\) is -1.0"):
        pt.ei(torch.zeros(3), torch.tensor([1.0, -1.0, 1.0]), 0.0)
    with pytest.raises(ValueError, match=r"cost: .* > 0; element \(0, 1\) is 0.0"):
        pt.pbgi(0.0, 1.0, torch.tensor([[1.0, 0.0]]))
    with pytest.raises(ValueError, match=r"mu: every element must be finite; element \(0,\) is nan"):
        pt.log_ei(torch.tensor([float("nan")]), 1.0, 0.0)
    with pytest.raises(ValueError, match="do not broadcast"):
        pt.ei(torch.zeros(3), torch.ones(2), 0.0)
    with pytest.raises(TypeError, match="y: a tensor or a real number"):
        pt.ei(0.0, 1.0, "0")
    with pytest.raises(TypeError, match="y: a tensor or a real number"):
        pt.ei(0.0, 1.0, True)
    with pytest.raises(TypeError, match="mu: a real tensor"):
        pt.ei(torch.zeros(2, dtype=torch.complex128), 1.0, 0.0)
    # check=False: no check, NaN for an invalid element (pbgi.fast's convention).
    assert torch.isnan(pt.ei(0.0, -1.0, 0.0, check=False))
    with pytest.raises(ValueError, match="set_cpu_kernels: 'fast' or 'torch'"):
        pt.set_cpu_kernels("gpu")


def test_float32_is_computed_in_float64_and_rounded_once():
    gen = torch.Generator().manual_seed(3)
    mu = torch.randn(1000, generator=gen)
    sigma = torch.rand(1000, generator=gen) + 0.01
    y = torch.randn(1000, generator=gen) * 4
    for fn in (pt.ei, pt.log_ei):
        v32 = fn(mu, sigma, y)
        v64 = fn(mu.double(), sigma.double(), y.double())
        assert v32.dtype == torch.float32 and torch.equal(v32, v64.float())
    mu.requires_grad_()
    pt.log_ei(mu, sigma, y).sum().backward()
    assert mu.grad.dtype == torch.float32
    assert pt.ei(0, 1, 0).dtype == F64 and pt.ei(torch.tensor(0), 1.0, 0.0).dtype == F64


def test_broadcasting_and_gradient_shapes():
    mu = torch.zeros(3, 1, dtype=F64, requires_grad=True)
    sigma = torch.ones(4, dtype=F64, requires_grad=True)
    cost = torch.tensor(0.1, dtype=F64, requires_grad=True)
    g = pt.pbgi(mu, sigma, cost)
    assert g.shape == (3, 4)
    g.sum().backward()
    assert mu.grad.shape == (3, 1) and sigma.grad.shape == (4,) and cost.grad.shape == ()
    assert torch.equal(mu.grad, torch.full((3, 1), 4.0, dtype=F64))
    single = pbgi.fast.pbgi_grad(0.0, 1.0, 0.1)
    assert sigma.grad[0].item() == pytest.approx(3 * single.d_sigma, rel=1e-14)
    assert cost.grad.item() == pytest.approx(12 * single.d_cost, rel=1e-14)


def test_values_match_pbgi_fast_on_bo_like_points():
    rng = np.random.default_rng(7)
    mu, sigma = rng.normal(size=20000), 10 ** rng.uniform(-4, 1, 20000)
    y, cost = rng.normal(size=20000) - 1, 10 ** rng.uniform(-6, 0, 20000)
    for fn, fast, args in [(pt.ei, pbgi.fast.ei, (mu, sigma, y)), (pt.log_ei, pbgi.fast.log_ei, (mu, sigma, y)),
                           (pt.pbgi, pbgi.fast.pbgi, (mu, sigma, cost)),
                           (pt.log_eipc, pbgi.fast.log_eipc, (mu, sigma, y, cost))]:
        ours = fn(*(torch.tensor(a) for a in args)).numpy()
        theirs = fast(*args)
        assert np.mean(ours == theirs) > 0.9, fn.__name__
        assert np.all(np.abs(ours - theirs) <= 4 * np.spacing(np.maximum(np.abs(theirs), 1.0)) + 4 * np.spacing(np.abs(mu)))


def test_stop_decision_agrees_between_pbgi_and_log_eipc():
    # min PBGI >= y* <=> max LogEIPC <= 0 (MATH.md), on the torch kernels.
    rng = np.random.default_rng(11)
    for _ in range(200):
        mu, sigma = torch.tensor(rng.normal(size=50)), torch.tensor(10 ** rng.uniform(-3, 0, 50))
        cost = torch.tensor(10 ** rng.uniform(-4, -1, 50))
        y = float(rng.normal() - 1.5)
        by_pbgi = bool(pt.pbgi(mu, sigma, cost).min() >= y)
        by_log_eipc = bool(pt.log_eipc(mu, sigma, y, cost).max() <= 0)
        assert by_pbgi == by_log_eipc


def test_pbgi_is_importable_without_torch_and_pbgi_torch_names_the_extra():
    code = (
        "import sys; sys.modules['torch'] = None\n"
        "import pbgi, pbgi.fast, pbgi.stopping\n"
        "try:\n"
        "    import pbgi.torch\n"
        "except ImportError as e:\n"
        "    print(e)\n"
        "try:\n"
        "    import pbgi.botorch\n"
        "except ImportError as e:\n"
        "    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.count("pip install 'pbgi[torch]'") == 2, out


def test_second_derivatives_are_refused_clearly():
    mu = t([0.0])
    (g,) = torch.autograd.grad(pt.ei(mu, 1.0, 0.0).sum(), mu, create_graph=True)
    with pytest.raises(RuntimeError):
        g.sum().backward()

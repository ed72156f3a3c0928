"""pbgi.botorch: the acquisition classes against BoTorch's own LogEI and against pbgi.torch,
optimize_acqf with PBGI and LogEIPC, the stopping rule against the exact reference decision
(pbgi.stopping.stop_decision), unknown costs, PBGI-D, and clear errors."""

import math

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("botorch")
from botorch.acquisition.analytic import LogExpectedImprovement  # noqa: E402
from botorch.models import SingleTaskGP  # noqa: E402
from botorch.optim import optimize_acqf  # noqa: E402

import pbgi.stopping  # noqa: E402
import pbgi.torch as pt  # noqa: E402
from pbgi.botorch import PBGI, PBGID, LogEIPC, StoppingRule, budget_lambda, expected_cost  # noqa: E402

F64 = torch.float64


def model_and_data(seed=0, n=8, d=2):
    gen = torch.Generator().manual_seed(seed)
    X = torch.rand(n, d, dtype=F64, generator=gen)
    Y = torch.sin(6 * X).sum(-1, keepdim=True)
    model = SingleTaskGP(X, Y)
    # Fixed hyperparameters: the tests need a posterior, not a fit (the example fits one).
    model.covar_module.lengthscale = torch.full((1, d), 0.3, dtype=F64)
    model.likelihood.noise = torch.tensor([1e-4], dtype=F64)
    model.eval()
    return model, X, Y


def cost(X):
    return 0.5 + X[..., 0].squeeze(-1)


def grid(d=2, n=400, seed=1):
    return torch.rand(n, d, dtype=F64, generator=torch.Generator().manual_seed(seed))


def test_log_eipc_is_botorch_log_ei_minus_log_cost():
    model, _, Y = model_and_data()
    best_f = Y.max()
    X = grid().unsqueeze(-2)
    with torch.no_grad():
        ours = LogEIPC(model, best_f, cost)(X)
        theirs = LogExpectedImprovement(model, best_f)(X) - torch.log(cost(X))
    assert ours.shape == (400,)
    assert torch.allclose(ours, theirs, rtol=1e-9, atol=1e-9)
    # maximize=False: the objective is a loss; EI below best_f.
    with torch.no_grad():
        ours = LogEIPC(model, Y.min(), cost, maximize=False)(X)
        theirs = LogExpectedImprovement(model, Y.min(), maximize=False)(X) - torch.log(cost(X))
    assert torch.allclose(ours, theirs, rtol=1e-9, atol=1e-9)


def test_pbgi_is_the_negated_index_of_the_loss():
    model, _, _ = model_and_data()
    X = grid().unsqueeze(-2)
    with torch.no_grad():
        post = model.posterior(X)
        mean, sigma = post.mean.reshape(-1), post.variance.clamp_min(1e-12).sqrt().reshape(-1)
        ours = PBGI(model, cost, lmbda=0.01)(X)
        expected = -pt.pbgi(-mean, sigma, 0.01 * cost(X))
    assert torch.equal(ours, expected)
    # In the maximisation form the value is the α with E[(f − α)⁺] = λc.
    alpha = ours[:5]
    ei = pt.ei(-mean[:5], sigma[:5], -alpha)
    assert torch.allclose(ei, 0.01 * cost(X[:5]), rtol=1e-12)


def test_optimize_acqf_runs_with_pbgi_and_log_eipc():
    model, _, Y = model_and_data()
    bounds = torch.tensor([[0.0, 0.0], [1.0, 1.0]], dtype=F64)
    for acqf in (PBGI(model, cost, lmbda=0.01), LogEIPC(model, Y.max(), cost)):
        x, value = optimize_acqf(acqf, bounds=bounds, q=1, num_restarts=4, raw_samples=64)
        assert x.shape == (1, 2) and torch.isfinite(value)
        with torch.no_grad():
            on_grid = acqf(grid().unsqueeze(-2)).max()
        assert value >= on_grid - 1e-6 * (1 + abs(on_grid))  # the optimiser beats a random grid


def test_stopping_rule_agrees_with_the_exact_reference_decision():
    decided = {True: 0, False: 0}
    for seed in range(12):
        model, _, Y = model_and_data(seed)
        candidates = grid(seed=100 + seed)
        with torch.no_grad():
            post = model.posterior(candidates.unsqueeze(-2))
        mean = post.mean.reshape(-1).numpy()
        sigma = post.variance.clamp_min(1e-12).sqrt().reshape(-1).numpy()
        for lmbda in (1e-4, 1e-2, 1.0):
            scaled = lambda X, lmbda=lmbda: lmbda * cost(X)  # noqa: E731
            check = StoppingRule().check(model, Y.max(), scaled, candidates=candidates)
            exact = pbgi.stopping.stop_decision(-mean, sigma, lmbda * cost(candidates).numpy(), -float(Y.max()))
            assert check.stop == check.signal == exact.stop, (seed, lmbda)
            assert (check.pbgi_gap >= 0) == exact.stop
            decided[exact.stop] += 1
    assert decided[True] > 0 and decided[False] > 0


def test_stopping_rule_over_a_box_and_its_practical_options():
    model, _, Y = model_and_data()
    bounds = torch.tensor([[0.0, 0.0], [1.0, 1.0]], dtype=F64)
    rule = StoppingRule(moving_average=3)
    checks = [rule.check(model, Y.max(), lambda X: 10.0 * cost(X), bounds=bounds, num_restarts=2,
                         raw_samples=32) for _ in range(3)]
    assert all(c.signal for c in checks)  # a cost of 5–15 dwarfs every EI here
    # The window of 3 is full at the third check only: no average, and no stop, before.
    assert [c.moving_average is None for c in checks] == [True, True, False]
    assert [c.stop for c in checks] == [False, False, True]
    assert all((c.pbgi_gap >= 0) == c.signal for c in checks)
    assert checks[-1].stop and math.isclose(checks[-1].moving_average, np.mean([c.max_log_eipc for c in checks]),
                                            rel_tol=1e-12)


def test_unknown_cost_uses_the_expected_cost():
    model, X, _ = model_and_data()
    log_cost = SingleTaskGP(X, torch.log(cost(X.unsqueeze(-2))).unsqueeze(-1))
    log_cost.eval()
    Xg = grid().unsqueeze(-2)
    with torch.no_grad():
        post = log_cost.posterior(Xg)
        expected = torch.exp(post.mean.reshape(-1) + 0.5 * post.variance.reshape(-1))
        assert torch.allclose(expected_cost(log_cost, Xg), expected, rtol=1e-14)
        value = PBGI(model, log_cost, lmbda=0.01)(Xg)
    assert torch.isfinite(value).all()


def test_pbgi_d_divides_lambda_when_the_rule_fires():
    model, _, Y = model_and_data()
    acqf = PBGID(model, lambda X: 100.0 * cost(X), lmbda0=0.1, beta=2.0)
    check = acqf.update(model, Y.max(), candidates=grid())
    assert check.signal and acqf.lmbda == 0.05
    acqf = PBGID(model, lambda X: 1e-9 * cost(X))
    check = acqf.update(model, Y.max(), candidates=grid())
    assert not check.signal and acqf.lmbda == 0.1
    with pytest.raises(ValueError, match="beta: a number > 1"):
        PBGID(model, cost, beta=0.5)


def test_budget_lambda_is_theorem_1s():
    assert budget_lambda(2.0, 11.0, 1.0) == 0.2


def test_bad_costs_and_arguments_are_named():
    model, _, Y = model_and_data()
    X = grid(n=5).unsqueeze(-2)
    with pytest.raises(ValueError, match=r"cost: every cost must be finite and > 0; the cost at X\[2\] is -1.0"):
        PBGI(model, lambda X: torch.tensor([1.0, 1.0, -1.0, 1.0, 1.0], dtype=F64), 0.01)(X)
    with pytest.raises(ValueError, match="cost: returned shape"):
        LogEIPC(model, Y.max(), lambda X: torch.ones(3, dtype=F64))(X)
    with pytest.raises(TypeError, match="cost: a callable"):
        PBGI(model, 3.0, 0.01)(X)
    with pytest.raises(ValueError, match="lmbda: a finite number > 0"):
        PBGI(model, cost, 0.0)
    with pytest.raises(ValueError, match="exactly one of bounds="):
        StoppingRule().check(model, Y.max(), cost)

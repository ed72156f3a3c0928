"""A cost-aware Bayesian-optimisation loop in BoTorch with PBGI and the PBGI/LogEIPC stopping rule.

    .venv/bin/python examples/botorch_cost_aware_loop.py [--lmbda 0.1] [--max-iterations 60]

The objective is BoTorch's Branin function (maximised as `−branin`, on the unit square), and
evaluating a point costs `c(x) = 0.2 + 1.8·x₀` (left is cheap, right is expensive). Each
iteration fits a `SingleTaskGP` by marginal likelihood, checks the stopping rule on the
posterior (`max LogEIPC ≤ 0` over the square, with the cost scaled by λ), stops if it fires,
and otherwise evaluates the point that maximises PBGI. It prints, per iteration, the value
found, the best so far, the cost spent, the rule's statistic and the decision. About 10 s on a
quiet 2-core machine (a minute when the cores are busy); run by python/tests/test_examples.py.
"""

import argparse
import time

import torch
from botorch.fit import fit_gpytorch_mll
from botorch.models import SingleTaskGP
from botorch.models.transforms import Normalize, Standardize
from botorch.optim import optimize_acqf
from botorch.test_functions import Branin
from botorch.utils.transforms import unnormalize
from gpytorch.mlls import ExactMarginalLogLikelihood

from pbgi.botorch import PBGI, StoppingRule

BRANIN = Branin(negate=True).to(torch.float64)
UNIT = torch.tensor([[0.0, 0.0], [1.0, 1.0]], dtype=torch.float64)


def objective(X):
    return BRANIN(unnormalize(X, BRANIN.bounds))


def cost(X):
    """Evaluation cost (in time units): any positive function of the point."""
    return 0.2 + 1.8 * X[..., 0]


def fit(X, Y):
    model = SingleTaskGP(X, Y, input_transform=Normalize(X.shape[-1]), outcome_transform=Standardize(1))
    fit_gpytorch_mll(ExactMarginalLogLikelihood(model.likelihood, model))
    return model


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lmbda", type=float, default=0.1, help="cost scale λ: objective units per unit of cost")
    parser.add_argument("--max-iterations", type=int, default=60, help="evaluations after the first")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.manual_seed(args.seed)

    X = torch.rand(1, 2, dtype=torch.float64)  # one initial point, chosen independently of f
    Y = objective(X).unsqueeze(-1)
    spent = float(cost(X).sum())
    rule = StoppingRule()  # the plain rule, the one Theorem 1 covers
    scaled_cost = lambda X: args.lmbda * cost(X)  # noqa: E731: cost in objective units
    started = time.perf_counter()
    print(f"{'iter':>4} {'value':>10} {'best':>10} {'cost so far':>11} {'max LogEIPC':>12}  decision")
    print(f"{0:>4} {Y[-1].item():>10.4f} {Y.max().item():>10.4f} {spent:>11.3f} {'':>12}  initial point")
    for iteration in range(1, args.max_iterations + 1):
        model = fit(X, Y)
        check = rule.check(model, Y.max(), scaled_cost, bounds=UNIT, num_restarts=4, raw_samples=128)
        if check.stop:
            print(f"{iteration:>4} {'':>10} {Y.max().item():>10.4f} {spent:>11.3f} {check.max_log_eipc:>12.4f}  "
                  f"stop (max LogEIPC <= 0, min PBGI - y* = {check.pbgi_gap:.4g})")
            break
        x_next, _ = optimize_acqf(PBGI(model, cost, args.lmbda), bounds=UNIT, q=1, num_restarts=4, raw_samples=128)
        y_next = objective(x_next).unsqueeze(-1)
        X, Y = torch.cat([X, x_next]), torch.cat([Y, y_next])
        spent += float(cost(x_next).sum())
        print(f"{iteration:>4} {y_next.item():>10.4f} {Y.max().item():>10.4f} {spent:>11.3f} "
              f"{check.max_log_eipc:>12.4f}  continue")
    else:
        print(f"no stop within {args.max_iterations} iterations")
    regret = BRANIN.optimal_value - Y.max().item()
    print(f"best value {Y.max().item():.4f} (optimum {BRANIN.optimal_value:.4f}, regret {regret:.4f}) "
          f"after {len(Y)} evaluations costing {spent:.3f}; {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()

//! Theorem 2 checked against the Lagrangian DP of the budget-constrained problem. For the
//! returned `λ*` and mixture: (1) the mixture spends exactly `B`; (2) both mixed policies
//! attain the DP optimum `V*(λ*c)` of the cost-per-sample problem with costs `λ*c`; hence
//! `E[best] = V*(λ*c) - λ*B`, which by weak duality (`E[best_π] ≥ V*(λc) - λB` for every
//! policy with `E[cost_π] ≤ B` and every `λ ≥ 0`) proves the mixture optimal for the budget
//! problem; (3) the dual `D(λ) = V*(λc) - λB` at other `λ` never exceeds `D(λ*)`.
mod common;

use common::pandora::{instances, r, runner};
use pbgi_reference::pandora::{
    kww_objective, solve_budget, solve_dp, BudgetSolution, Instance, PandoraBox, ScaledPolicy,
};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use rug::Rational;
use std::cell::RefCell;

fn dp_value(instance: &Instance, lambda: &Rational) -> Rational {
    solve_dp(&instance.with_scaled_costs(lambda))
        .expect("small")
        .optimum()
        .clone()
}

fn scaled_objective(p: &ScaledPolicy) -> Rational {
    Rational::from(&p.lambda * &p.evaluation.expected_cost) + &p.evaluation.expected_best
}

fn dual(instance: &Instance, lambda: &Rational, budget: &Rational) -> Rational {
    dp_value(instance, lambda) - Rational::from(lambda * budget)
}

/// Smallest achievable `E[best]`: open every box, `E[min(y0, min_i X_i)]`.
fn open_everything(instance: &Instance) -> Rational {
    let below: Vec<Rational> = instance
        .boxes()
        .iter()
        .map(|b| b.as_discrete().expect("discrete").atoms()[0].0.clone() - 1)
        .collect();
    kww_objective(instance, &below).expect("discrete")
}

fn check_theorem2(
    instance: &Instance,
    budget: &Rational,
    tally: &RefCell<[u32; 3]>,
) -> Result<(), TestCaseError> {
    let solution = solve_budget(instance, budget).expect("solvable");
    let (lambda, best) = match &solution {
        BudgetSolution::Breakpoint {
            lambda,
            alpha,
            low_cost,
            high_cost,
            expected_best,
        } => {
            tally.borrow_mut()[0] += 1;
            prop_assert!(*lambda > 0 && *alpha >= 0 && *alpha <= 1);
            let spent = Rational::from(alpha * &low_cost.evaluation.expected_cost)
                + Rational::from(1 - alpha) * &high_cost.evaluation.expected_cost;
            prop_assert_eq!(&spent, budget, "mixture does not spend B");
            let v = dp_value(instance, lambda);
            prop_assert_eq!(
                &scaled_objective(low_cost),
                &v,
                "stop-early side not optimal"
            );
            prop_assert_eq!(
                &scaled_objective(high_cost),
                &v,
                "stop-late side not optimal"
            );
            prop_assert_eq!(expected_best, &(v - Rational::from(lambda * budget)));
            (lambda.clone(), expected_best.clone())
        }
        BudgetSolution::Interval { policy, .. } => {
            tally.borrow_mut()[1] += 1;
            prop_assert_eq!(&policy.evaluation.expected_cost, budget);
            let v = dp_value(instance, &policy.lambda);
            prop_assert_eq!(&scaled_objective(policy), &v);
            (
                policy.lambda.clone(),
                policy.evaluation.expected_best.clone(),
            )
        }
        BudgetSolution::NotBinding { policy } => {
            // Theorem 2's conclusion holds with a λ > 0 (the returned policy is the index
            // policy for λ·c and attains V*(λc)); Lemma 9 fails: the dual's optimum is at 0.
            tally.borrow_mut()[2] += 1;
            prop_assert!(policy.lambda > 0);
            prop_assert!(policy.evaluation.expected_cost < *budget);
            prop_assert_eq!(
                &scaled_objective(policy),
                &dp_value(instance, &policy.lambda)
            );
            let smallest = open_everything(instance);
            prop_assert_eq!(&policy.evaluation.expected_best, &smallest);
            prop_assert_eq!(&dual(instance, &Rational::new(), budget), &smallest);
            return Ok(());
        }
    };
    for probe in [
        Rational::from(&lambda / 2),
        Rational::from(&lambda * 2),
        Rational::from(&lambda * r(9, 10)),
        Rational::from(&lambda * r(11, 10)),
        Rational::from(&lambda + r(1, 1000)),
    ] {
        let d = dual(instance, &probe, budget);
        prop_assert!(d <= best, "dual at λ = {} exceeds the primal value", probe);
    }
    Ok(())
}

#[test]
fn budget_mixture_is_lagrangian_optimal_on_random_instances() {
    let (mut runner, seed) = runner("budget_mixture_is_lagrangian_optimal", 300);
    let tally = RefCell::new([0u32; 3]);
    runner
        .run(&(instances(5, 3), 1i64..=7), |(inst, k)| {
            let costs: Vec<&Rational> = inst.boxes().iter().map(|b| b.cost()).collect();
            let min = (*costs.iter().min().unwrap()).clone();
            let total: Rational = costs.iter().copied().sum();
            if min == total {
                return Ok(());
            }
            let budget = Rational::from(&min + Rational::from(&total - &min) * r(k, 8));
            check_theorem2(&inst, &budget, &tally)?;
            // A second budget inside the binding range (min c, C(0⁺)), where C(0⁺) is the
            // largest expected cost of any index policy (read off a not-binding answer).
            let near_total = Rational::from(&total - r(1, 1000));
            let ceiling = match solve_budget(&inst, &near_total).expect("solvable") {
                BudgetSolution::NotBinding { policy } => policy.evaluation.expected_cost,
                _ => near_total,
            };
            if ceiling > min {
                let binding = Rational::from(&min + (ceiling - &min) * r(k, 8));
                check_theorem2(&inst, &binding, &tally)?;
            }
            Ok(())
        })
        .unwrap_or_else(|e| panic!("PANDORA_SEED={seed}: {e}"));
    let [breakpoint, interval, not_binding] = *tally.borrow();
    eprintln!("breakpoint {breakpoint}, interval {interval}, not binding {not_binding}");
    assert!(breakpoint > 200, "too few breakpoint cases: {breakpoint}");
}

/// Two boxes `X ∈ {0, 2}` (1/2 each), cost 1, `y0 = 1`, `B = 6/5`. By hand: `g(λ) = 2λ` on
/// `[0, 1]`, so `g = y0` at `λ* = 1/2`; stop-early spends 0 (keeps 1), stop-late spends 3/2
/// (best `1/4`); `α = (3/2 - 6/5)/(3/2) = 1/5`, `E[best] = 1/5·1 + 4/5·1/4 = 2/5`.
#[test]
fn hand_computed_budget_breakpoint() {
    let make = |i| {
        PandoraBox::discrete(
            r(1, 1),
            vec![r(0, 1), r(2, 1)],
            vec![r(1, 2), r(1, 2)],
            Some(i),
        )
        .expect("valid")
    };
    let inst = Instance::new(vec![make(0), make(1)], Some(r(1, 1))).expect("valid");
    match solve_budget(&inst, &r(6, 5)).expect("solvable") {
        BudgetSolution::Breakpoint {
            lambda,
            alpha,
            expected_best,
            ..
        } => {
            assert_eq!((lambda, alpha, expected_best), (r(1, 2), r(1, 5), r(2, 5)));
        }
        other => panic!("expected a breakpoint, got {other:?}"),
    }
}

/// Two deterministic boxes at 0: the first box opened already reaches the best possible
/// value, so no `λ > 0` makes the policy spend `B > min c`; the budget does not bind.
#[test]
fn budget_that_cannot_bind() {
    let make = |c: i64, i| {
        PandoraBox::discrete(r(c, 1), vec![r(0, 1)], vec![r(1, 1)], Some(i)).expect("valid")
    };
    let inst = Instance::new(vec![make(1, 0), make(2, 1)], None).expect("valid");
    match solve_budget(&inst, &r(2, 1)).expect("solvable") {
        BudgetSolution::NotBinding { policy } => {
            assert_eq!(policy.evaluation.expected_cost, r(1, 1));
            assert_eq!(policy.evaluation.expected_best, r(0, 1));
        }
        other => panic!("expected not binding, got {other:?}"),
    }
}

#[test]
fn budget_outside_assumptions_is_an_error() {
    let b = PandoraBox::discrete(r(1, 1), vec![r(0, 1)], vec![r(1, 1)], Some(0)).expect("valid");
    let inst = Instance::new(vec![b.clone(), b], None).expect("valid");
    let e = solve_budget(&inst, &r(1, 1)).unwrap_err();
    assert!(e.to_string().contains("min c < B < Σ c"), "{e}");
}

/// Same instance, `B = 3/2`: for every `λ ∈ (0, 1/2)` the policy opens box 1 and, when it shows
/// 2, box 2: cost `1 + 1/2 = 3/2 = B` on the whole interval (the `Interval` case), with
/// `E[best] = 1/4`; the DP at the representative `λ` confirms `E[best] + λB = V*(λc)`.
#[test]
fn hand_computed_budget_interval() {
    let make = |i| {
        PandoraBox::discrete(
            r(1, 1),
            vec![r(0, 1), r(2, 1)],
            vec![r(1, 2), r(1, 2)],
            Some(i),
        )
        .expect("valid")
    };
    let inst = Instance::new(vec![make(0), make(1)], Some(r(1, 1))).expect("valid");
    match solve_budget(&inst, &r(3, 2)).expect("solvable") {
        BudgetSolution::Interval {
            lower,
            upper,
            policy,
        } => {
            assert_eq!((lower, upper), (r(0, 1), Some(r(1, 2))));
            assert_eq!(policy.evaluation.expected_best, r(1, 4));
            let v = dp_value(&inst, &policy.lambda);
            assert_eq!(scaled_objective(&policy), v);
        }
        other => panic!("expected an interval, got {other:?}"),
    }
}

//! Normal-box evaluation (certified indices, cost enclosure, quadrature objective) against
//! independent sources: the exact rational evaluation on discrete instances (same code path for
//! the quadrature, exact answer known), and closed forms for one normal box (MATH.md: one box
//! without outside option has objective `E[X] + c`; with `y0 > g` it is
//! `y0 - σ·h((y0 - μ)/σ) + c`, `h` from the certified `pbgi_reference::h`).
mod pandora_support;

use pandora_support::{instances, runner};
use pbgi_reference::pandora::{
    evaluate, evaluate_general, Distribution, IndexPolicy, Instance, PandoraBox, Tie,
};
use proptest::prelude::*;
use rug::{Float, Rational};

fn r(num: i64, den: i64) -> Rational {
    Rational::from((num, den))
}

fn normal_box(mean: Rational, sd: Rational, cost: Rational) -> PandoraBox {
    PandoraBox::new(cost, Distribution::Normal { mean, sd }, None).expect("valid")
}

#[test]
fn quadrature_path_reproduces_exact_discrete_results() {
    let (mut runner, seed) = runner("quadrature_path_reproduces_exact_discrete_results", 40);
    runner
        .run(&instances(4, 3), |inst| {
            for tie in [Tie::Early, Tie::Late] {
                let policy = IndexPolicy::new(&inst).expect("discrete");
                let exact = evaluate(&inst, &policy, &tie).expect("discrete");
                let general = evaluate_general(&inst, &tie).expect("evaluates");
                prop_assert!(
                    general.cost_lower <= exact.expected_cost
                        && exact.expected_cost <= general.cost_upper,
                    "cost enclosure misses the exact cost"
                );
                let diff = Float::with_val(128, &general.objective - &exact.objective()).abs();
                prop_assert!(diff <= general.objective_error, "objective off by {}", diff);
                prop_assert!(
                    general.objective_error < 1e-22,
                    "error {}",
                    general.objective_error
                );
            }
            Ok(())
        })
        .unwrap_or_else(|e| panic!("PANDORA_SEED={seed}: {e}"));
}

#[test]
fn one_normal_box_objective_is_mean_plus_cost() {
    for (mean, sd, cost) in [
        (r(0, 1), r(1, 1), r(1, 4)),
        (r(3, 2), r(1, 8), r(1, 1024)),
        (r(-2, 1), r(5, 1), r(3, 1)),
    ] {
        let inst = Instance::new(vec![normal_box(mean.clone(), sd, cost.clone())], None).unwrap();
        let e = evaluate_general(&inst, &Tie::Early).unwrap();
        let want = Rational::from(&mean + &cost);
        let diff = Float::with_val(128, &e.objective - &want).abs();
        assert!(
            diff <= e.objective_error && e.objective_error < 1e-22,
            "{mean} {cost}: {diff}"
        );
        assert!(e.cost_lower <= cost && cost <= e.cost_upper);
    }
}

#[test]
fn one_normal_box_with_outside_option_matches_closed_form() {
    // y0 = 1, N(0, 1), c = 1/4: g = PBGI(0, 1, 1/4) < 1 so the box is opened.
    let inst = Instance::new(vec![normal_box(r(0, 1), r(1, 1), r(1, 4))], Some(r(1, 1))).unwrap();
    let e = evaluate_general(&inst, &Tie::Early).unwrap();
    let h1 = pbgi_reference::h(1.0).unwrap();
    // objective = 1 - h(1) + 1/4, enclosed by the certified h.
    let lo = Float::with_val(128, 1.25) - &h1.upper - &e.objective_error;
    let hi = Float::with_val(128, 1.25) - &h1.lower + &e.objective_error;
    assert!(
        lo <= e.objective && e.objective <= hi,
        "{} not in [{lo}, {hi}]",
        e.objective
    );
    assert!(e.cost_lower <= 0.25 && 0.25 <= e.cost_upper);
}

/// PBGI(0, 1, 0.1) from MATH.md's sanity values fixes the normal index.
#[test]
fn normal_index_is_the_certified_pbgi() {
    let inst = Instance::new(vec![normal_box(r(0, 1), r(1, 1), r(1, 10))], None).unwrap();
    let e = evaluate_general(&inst, &Tie::Early).unwrap();
    assert_eq!(e.indices[0].value, -0.9023463475100345);
    assert_eq!(e.rounded_parameters, vec![(0, "cost")]);
}

//! Normal-box evaluation (certified indices, cost enclosure, quadrature objective) against
//! independent sources: the exact rational evaluation on discrete instances (same code path for
//! the quadrature, exact answer known), and closed forms for one normal box (MATH.md: one box
//! without outside option has objective `E[X] + c`; with `y0 > g` it is
//! `y0 - σ·h((y0 - μ)/σ) + c`, `h` from the certified `pbgi_reference::h`).
mod common;

use common::pandora::{instances, r, runner};
use pbgi_reference::pandora::{
    evaluate, evaluate_general, nearest_f64, Distribution, IndexPolicy, Instance, PandoraBox, Tie,
};
use proptest::prelude::*;
use rug::ops::Pow;
use rug::{Float, Rational};

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
                    general.objective_lower <= exact.objective()
                        && exact.objective() <= general.objective_upper,
                    "exact objective outside the certified enclosure"
                );
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
        assert!(e.objective_lower <= want && want <= e.objective_upper);
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

/// `E[best] + E[cost]` for one normal box opened with certainty from `y0 = 0`, mean 0:
/// `-σ·φ(0) + c` (MATH.md: `y0 - σ·h((y0 - μ)/σ) + c` with `h(0) = φ(0) = 1/√(2π)`), at 256
/// bits from the f64 parameters the reference uses.
fn opened_box_objective(sd: f64, cost: f64) -> Float {
    let two_pi = Float::with_val(256, rug::float::Constant::Pi) * 2u32;
    let phi0 = two_pi.sqrt().recip();
    Float::with_val(256, cost) - Float::with_val(256, &phi0 * sd)
}

/// The objective at every scale from `sd = 1e-300` to `1e300` (cost `sd·1e-10`, so the box is
/// always opened) against the closed form: the estimate within its error estimate and within
/// `1e-28` relative, the closed form inside the certified enclosure; the expected cost
/// enclosure contains `c`. Includes the reproducer `sd = 1e-30, c = 1e-40` (once 2% off).
#[test]
fn objective_is_right_at_every_scale() {
    let mut worst_relative = 0.0f64;
    let mut widest = 0.0f64;
    for k in (-300i32..=300).step_by(50).chain([-25, -30]) {
        // The decimal 10^k exactly, as an instance file would give it.
        let sd = if k < 0 {
            Rational::from((
                rug::Integer::from(1),
                rug::Integer::from(10).pow(k.unsigned_abs()),
            ))
        } else {
            Rational::from(rug::Integer::from(10).pow(k as u32))
        };
        let sd_text = format!("1e{k}");
        let cost = Rational::from(&sd / Rational::from(10_000_000_000u64));
        let inst = Instance::new(
            vec![normal_box(r(0, 1), sd.clone(), cost.clone())],
            Some(r(0, 1)),
        )
        .unwrap();
        let e = evaluate_general(&inst, &Tie::Early).unwrap();
        let (sd_f, cost_f) = (nearest_f64(&sd), nearest_f64(&cost));
        let want = opened_box_objective(sd_f, cost_f);
        let diff = Float::with_val(256, &e.objective - &want).abs();
        let relative = Float::with_val(64, &diff / &want).abs().to_f64();
        let width = Float::with_val(64, &e.objective_upper - &e.objective_lower) / &want;
        worst_relative = worst_relative.max(relative);
        widest = widest.max(width.abs().to_f64());
        assert!(
            diff <= e.objective_error && relative < 1e-28,
            "sd = {sd_text}: off by {relative:e} relative (estimate {})",
            e.objective_error
        );
        assert!(
            e.objective_lower <= want && want <= e.objective_upper,
            "sd = {sd_text}: closed form outside the certified enclosure"
        );
        assert!(
            e.cost_lower <= cost_f && cost_f <= e.cost_upper,
            "sd = {sd_text}: cost"
        );
    }
    eprintln!(
        "one normal box, sd 1e-300..1e300: worst relative error {worst_relative:.1e}, widest \
         certified enclosure {widest:.1e} (relative)"
    );
}

/// With `c = 1e-40` and `sd ≤ 1e-50` the index `≈ μ + c` is above `y0 = 0`: nothing is opened,
/// the objective is exactly `y0 = 0` at every such scale.
#[test]
fn a_box_worth_less_than_its_cost_is_not_opened_at_any_scale() {
    for k in [50u32, 100, 200, 300] {
        let sd = Rational::from((rug::Integer::from(1), rug::Integer::from(10).pow(k)));
        let cost = Rational::from((rug::Integer::from(1), rug::Integer::from(10).pow(40)));
        let inst = Instance::new(vec![normal_box(r(0, 1), sd, cost)], Some(r(0, 1))).unwrap();
        let e = evaluate_general(&inst, &Tie::Early).unwrap();
        assert!(e.cost_upper == 0 && e.cost_lower == 0, "sd = 1e-{k}");
        assert!(
            e.objective_lower <= 0 && e.objective_upper >= 0,
            "sd = 1e-{k}"
        );
        assert!(Float::with_val(64, e.objective.abs_ref()) <= e.objective_error);
    }
}

/// Scaling every value, cost and `y0` by `s = 2^k` scales every result by `s` (PBGI is
/// equivariant and the instance's f64 parameters stay exact): the estimates agree within their
/// error estimates and the certified enclosures overlap, for `s` from `2^-990` to `2^990`.
#[test]
fn results_scale_with_the_instance() {
    let build = |s: &Rational| {
        let scaled = |x: Rational| Rational::from(x * s);
        let boxes = vec![
            normal_box(scaled(r(1, 2)), scaled(r(2, 1)), scaled(r(1, 4))),
            normal_box(scaled(r(-1, 4)), scaled(r(1, 2)), scaled(r(1, 8))),
            PandoraBox::discrete(
                scaled(r(1, 8)),
                vec![scaled(r(-1, 1)), scaled(r(1, 1))],
                vec![r(1, 2), r(1, 2)],
                None,
            )
            .unwrap(),
        ];
        Instance::new(boxes, Some(r(0, 1))).unwrap()
    };
    let unit = evaluate_general(&build(&r(1, 1)), &Tie::Early).unwrap();
    for k in [-990i32, -500, -100, -1, 1, 100, 500, 990] {
        let s = if k < 0 {
            Rational::from((rug::Integer::from(1), rug::Integer::from(1) << (-k) as u32))
        } else {
            Rational::from(rug::Integer::from(1) << k as u32)
        };
        let e = evaluate_general(&build(&s), &Tie::Early).unwrap();
        assert_eq!(e.order, unit.order, "2^{k}: order");
        let back = |x: &Float| Float::with_val(x.prec().max(64), x / &s);
        let diff = Float::with_val(256, back(&e.objective) - &unit.objective).abs();
        let allowed = Float::with_val(256, back(&e.objective_error) + &unit.objective_error);
        assert!(diff <= allowed, "2^{k}: objective differs by {diff}");
        assert!(
            back(&e.objective_lower) <= unit.objective_upper
                && unit.objective_lower <= back(&e.objective_upper),
            "2^{k}: objective enclosures do not overlap"
        );
        assert!(
            back(&e.cost_lower) <= unit.cost_upper && unit.cost_lower <= back(&e.cost_upper),
            "2^{k}: cost enclosures do not overlap"
        );
        let relative = Float::with_val(64, &diff / &unit.objective).abs();
        assert!(relative < 1e-26, "2^{k}: relative difference {relative}");
    }
}

/// `nearest_f64` against Rust's correctly rounded decimal parser and hand-computed ties.
#[test]
fn nearest_f64_rounds_to_nearest_even() {
    let decimal = |k: u32| Rational::from((rug::Integer::from(1), rug::Integer::from(10).pow(k)));
    assert_eq!(nearest_f64(&decimal(310)), "1e-310".parse::<f64>().unwrap());
    assert_eq!(nearest_f64(&decimal(1)), 0.1);
    assert_eq!(nearest_f64(&r(1, 3)), 1.0 / 3.0);
    let two_53 = rug::Integer::from(1) << 53u32;
    let above_one = |k: u32| Rational::from((two_53.clone() + k, two_53.clone()));
    assert_eq!(nearest_f64(&above_one(1)), 1.0, "midpoint: ties to even");
    assert_eq!(
        nearest_f64(&above_one(3)),
        1.0 + 2.0 * f64::EPSILON,
        "ties to even"
    );
    let max = Rational::from_f64(f64::MAX).unwrap();
    assert_eq!(nearest_f64(&max), f64::MAX);
    assert_eq!(nearest_f64(&Rational::from(&max * 2)), f64::INFINITY);
    assert_eq!(nearest_f64(&-decimal(400)), -0.0);
}

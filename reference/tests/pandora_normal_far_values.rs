//! The certified objective of normal-box instances at far scales: finite, sound and tight.
//!
//! Two classes of failure these tests guard:
//! - the enclosure's chord bounds took `ln_1p(ratio - 1)` of a ratio of survival values far
//!   below `2^-53`, which is `ln_1p(-1) = -∞`, and the bounds became NaN (outside 500, 1e4,
//!   1e16 with one `N(0, 1)` box of cost 0.25);
//! - the uncertainty of every index counted towards the error, also of an index far above the
//!   outside value, which cannot change the integrand: a box `N(1e300, 1e280²)` with outside
//!   `1e100` gave an enclosure `±1.6e239` around an objective of exactly `1e100`.
//!
//! Expected values: one box with outside `y0 > g` has objective `μ + c - E[(X - y0)^+]`
//! (MATH.md, "Pandora's Box Gittins index"), and `E[(X - y0)^+]` is below `1e-300` for every `y0`
//! here, so the objective is `0.25` to far below the enclosure's width (documented: relative
//! width about 1e-6); a box whose index is
//! above `y0` is never opened, and the objective is `y0` exactly.
use pbgi_reference::pandora::{evaluate_general, Distribution, Instance, PandoraBox, Tie};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rug::{Float, Rational};

fn one_normal_box(cost: f64, mean: f64, sd: f64, outside: f64) -> Instance {
    let b = PandoraBox::new(
        Rational::from_f64(cost).unwrap(),
        Distribution::Normal {
            mean: Rational::from_f64(mean).unwrap(),
            sd: Rational::from_f64(sd).unwrap(),
        },
        Some(0),
    )
    .unwrap();
    Instance::new(vec![b], Some(Rational::from_f64(outside).unwrap())).unwrap()
}

#[test]
fn certified_bounds_are_finite_and_hold_for_far_outside_values() {
    for outside in [500.0, 1e4, 1e16, 1e100, 1e300] {
        let e = evaluate_general(&one_normal_box(0.25, 0.0, 1.0, outside), &Tie::Early).unwrap();
        let (lo, hi) = (e.objective_lower.to_f64(), e.objective_upper.to_f64());
        assert!(
            lo.is_finite() && hi.is_finite(),
            "outside {outside:e}: enclosure [{lo}, {hi}]"
        );
        assert!(
            lo <= 0.25 && 0.25 <= hi && hi - lo <= 0.25e-6,
            "outside {outside:e}: enclosure [{lo:e}, {hi:e}] of 0.25"
        );
        assert_eq!(e.objective.to_f64(), 0.25, "outside {outside:e}");
    }
}

#[test]
fn a_box_far_above_the_outside_value_leaves_the_objective_exact() {
    let e = evaluate_general(&one_normal_box(1.0, 1e300, 1e280, 1e100), &Tie::Early).unwrap();
    assert_eq!(e.objective.to_f64(), 1e100);
    assert!(e.objective_lower <= 1e100 && e.objective_upper >= 1e100);
    let width = Float::with_val(64, &e.objective_upper - &e.objective_lower).to_f64();
    assert!(width <= 1e100 * 1e-30, "enclosure width {width:e}");

    // The class: random boxes whose index is far above a random outside value, at every scale.
    let mut rng = ChaCha8Rng::seed_from_u64(0xfa4_ab0e);
    for _ in 0..40 {
        let sd = 10f64.powf(rng.gen_range(-250.0..250.0));
        let mean = sd * 10f64.powf(rng.gen_range(2.0..50.0));
        let cost = sd * rng.gen_range(0.01..10.0);
        let outside = mean * 10f64.powf(rng.gen_range(-40.0..-1.0));
        let e = evaluate_general(&one_normal_box(cost, mean, sd, outside), &Tie::Early).unwrap();
        assert_eq!(
            e.objective.to_f64(),
            outside,
            "N({mean:e}, {sd:e}²), cost {cost:e}, outside {outside:e}"
        );
        let width = Float::with_val(64, &e.objective_upper - &e.objective_lower).to_f64();
        assert!(
            e.objective_lower <= outside && e.objective_upper >= outside,
            "N({mean:e}, {sd:e}²): enclosure misses the outside value {outside:e}"
        );
        assert!(
            width <= outside.abs() * 1e-30,
            "N({mean:e}, {sd:e}²), outside {outside:e}: enclosure width {width:e}"
        );
    }
}

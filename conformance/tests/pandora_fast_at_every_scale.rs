//! The fast Pandora engine's objective at every scale of the outside value and of the boxes.
//!
//! With one normal box `N(μ, σ²)` of cost `c` and an outside value `y0`, the objective
//! `E[min(y0, max(X, g))]` has a closed form: `y0` when the index `g ≥ y0` (the box is not
//! worth opening), else `μ + c - E[(X - y0)^+]` (MATH.md, "Pandora's Box Gittins index": `g`
//! solves `E[(g - X)^+] = c`, so `E[max(X, g)] = μ + c`), and `E[(X - y0)^+] = EI(-μ, σ; -y0)`.
//! The certified reference gives both the index and that EI, so the exact objective is enclosed
//! without quadrature. Several boxes: the reference engine's quadrature.
//!
//! The class these tests guard: the fast quadrature integrated up to `y0` however far it was,
//! and tanh-sinh missed the normal box's drop of width `σ` in a range of width `y0`
//! (`{"outside":1e16,"boxes":[{"cost":0.25,"normal":{"mean":0,"sd":1}}]}` gave 0.0249 for 0.25).
mod common;

use common::pandora_seed as seed;
use pbgi_fast::pandora as fast;
use pbgi_reference::pandora as exact;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rug::{Float, Rational};

/// Working precision of the closed form's sums (exact for f64 terms and the enclosures' ends).
const PREC: u32 = 4096;
/// Relative tolerance of the fast objective, relative to the scale of the instance (the
/// largest of `|g|`, `σ` and the objective: the quadrature's pieces are of that size). f64
/// tanh-sinh to 1e-14 per piece, libm `erfc` ~2.5 ulp, the fast index ≤ 4 ulp.
const RELATIVE: f64 = 1e-12;

/// Enclosure `[lo, hi]` of the objective of one normal box with outside value `y0`, or `None`
/// when the certified index cannot be told apart from `y0`.
fn one_box_objective(cost: f64, mean: f64, sd: f64, y0: f64) -> Option<(Float, Float)> {
    let g = pbgi_reference::pbgi(mean, sd, cost).ok()?;
    let y = Float::with_val(PREC, y0);
    if g.lower >= y {
        return Some((y.clone(), y));
    }
    if g.upper >= y {
        return None;
    }
    // E[(X - y0)^+] = EI(-μ, σ; -y0).
    let excess = pbgi_reference::ei(-mean, sd, -y0).ok()?;
    let base = Float::with_val(PREC, mean) + cost;
    Some((
        Float::with_val(PREC, &base - &excess.upper),
        Float::with_val(PREC, &base - &excess.lower),
    ))
}

fn fast_objective(cost: f64, mean: f64, sd: f64, y0: f64) -> (f64, f64) {
    let b = fast::PandoraBox::normal(cost, mean, sd, Some(0)).unwrap();
    let instance = fast::Instance::new(vec![b], Some(y0)).unwrap();
    let (indices, _) = fast::policy_order(&instance);
    (
        fast::Evaluation::of(&instance, fast::Tie::Early).objective,
        indices[0],
    )
}

/// Distance of `x` from `[lo, hi]`, as f64.
fn distance(x: f64, (lo, hi): &(Float, Float)) -> f64 {
    let x = Float::with_val(PREC, x);
    if x < *lo {
        Float::with_val(PREC, lo - &x).to_f64()
    } else if x > *hi {
        Float::with_val(PREC, &x - hi).to_f64()
    } else {
        0.0
    }
}

fn check_one_box(cost: f64, mean: f64, sd: f64, y0: f64) -> Option<f64> {
    let exact = one_box_objective(cost, mean, sd, y0)?;
    let (value, g) = fast_objective(cost, mean, sd, y0);
    let scale = g.abs().max(sd).max(value.abs());
    let error = distance(value, &exact) / scale;
    assert!(
        error <= RELATIVE,
        "one box (cost {cost:e}, N({mean:e}, {sd:e}²)), outside {y0:e}: fast objective {value:e}, \
         exact in [{:e}, {:e}], error {error:e} of the scale {scale:e}",
        exact.0.to_f64(),
        exact.1.to_f64()
    );
    Some(error)
}

#[test]
fn the_reported_far_outside_values_give_the_closed_form() {
    // Exact objective: μ + c = 0.25 (E[(X - y0)^+] is below 1e-300 for every y0 here).
    for y0 in [500.0, 1e4, 1e10, 1e16, 1e20, 1e100, 1e300, f64::MAX] {
        let (value, _) = fast_objective(0.25, 0.0, 1.0, y0);
        assert!(
            (value - 0.25).abs() <= 1e-15,
            "outside {y0:e}: fast objective {value:e}, exact 0.25"
        );
    }
}

#[test]
fn one_normal_box_matches_the_closed_form_at_every_scale() {
    let seed = seed();
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xfa57_5ca1e);
    let (mut checked, mut worst) = (0, 0.0f64);
    for _ in 0..1500 {
        let sd = 10f64.powf(rng.gen_range(-300.0..300.0));
        let cost = sd * 10f64.powf(rng.gen_range(-12.0..3.0));
        let mean = if rng.gen_bool(0.3) {
            0.0
        } else {
            sd * 10f64.powf(rng.gen_range(-3.0..8.0)) * if rng.gen_bool(0.5) { 1.0 } else { -1.0 }
        };
        // The outside value: near the index (a few σ), or anywhere up to far beyond.
        let y0 = if rng.gen_bool(0.5) {
            mean + sd * rng.gen_range(-10.0..10.0)
        } else {
            let far = 10f64.powf(rng.gen_range(-300.0..308.0));
            mean + if rng.gen_bool(0.8) { far } else { -far }
        };
        if !(mean.is_finite() && cost.is_finite() && y0.is_finite()) || cost <= 0.0 {
            continue;
        }
        if let Some(e) = check_one_box(cost, mean, sd, y0) {
            checked += 1;
            worst = worst.max(e);
        }
    }
    eprintln!("{checked} single-box instances, worst error {worst:e} of the scale");
    assert!(checked >= 1000, "only {checked} instances could be checked");
}

#[test]
fn several_boxes_match_the_reference_at_every_scale() {
    let seed = seed();
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5e7e_4a1);
    let mut worst = 0.0f64;
    for case in 0..16 {
        let scale = 10f64.powf(rng.gen_range(-200.0..200.0));
        let n = rng.gen_range(2..=3);
        let mut fast_boxes = Vec::new();
        let mut exact_boxes = Vec::new();
        for i in 0..n {
            let sd = scale * rng.gen_range(0.5..2.0);
            let mean = scale * rng.gen_range(-3.0..3.0);
            let cost = sd * 10f64.powf(rng.gen_range(-4.0..0.5));
            fast_boxes.push(fast::PandoraBox::normal(cost, mean, sd, Some(i)).unwrap());
            exact_boxes.push(
                exact::PandoraBox::new(
                    Rational::from_f64(cost).unwrap(),
                    exact::Distribution::Normal {
                        mean: Rational::from_f64(mean).unwrap(),
                        sd: Rational::from_f64(sd).unwrap(),
                    },
                    Some(i),
                )
                .unwrap(),
            );
        }
        let y0 = scale * 10f64.powf(rng.gen_range(-1.0..30.0));
        let f = fast::Instance::new(fast_boxes, Some(y0)).unwrap();
        let e = exact::Instance::new(exact_boxes, Some(Rational::from_f64(y0).unwrap())).unwrap();
        let reference = exact::evaluate_general(&e, &exact::Tie::Early)
            .unwrap_or_else(|err| panic!("case {case}: reference failed: {err}"));
        let value = fast::Evaluation::of(&f, fast::Tie::Early).objective;
        let lo = reference.objective_lower.to_f64();
        let hi = reference.objective_upper.to_f64();
        assert!(
            lo.is_finite() && hi.is_finite() && lo <= hi,
            "case {case}: reference enclosure [{lo:e}, {hi:e}]"
        );
        let error = distance(
            value,
            &(
                reference.objective_lower.clone(),
                reference.objective_upper.clone(),
            ),
        ) / scale;
        worst = worst.max(error);
        assert!(
            error <= RELATIVE,
            "case {case} (scale {scale:e}, outside {y0:e}): fast {value:e}, reference in \
             [{lo:e}, {hi:e}], error {error:e} of the scale"
        );
    }
    eprintln!("16 instances, worst error {worst:e} of the scale");
}

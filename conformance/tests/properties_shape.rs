//! Monotonicity and shape of EI and PBGI (MATH.md), in both crates.
//!
//! Inputs lie on dyadic grids (`μ = j/64`, `σ = 2^e`, `y = μ + σ·k/64`, ...) so that shifted and
//! scaled arguments are exact f64 values and each property is a statement about exact inputs.
//! - `reference::*`: decided from certified enclosures, so the properties are checked exactly
//!   (strict inequalities included); few cases, since every call is a certified evaluation.
//! - `fast::*`: the same statements up to the fast crate's documented error, taken from the one
//!   tolerance table (`conformance/src/tolerances.rs`).
mod common;

use pbgi_conformance::function::Function;
use pbgi_conformance::regions::Region;
use pbgi_conformance::tolerances::fast_tolerance;
use pbgi_conformance::ulp::ulp_of;
use proptest::prelude::*;

/// `(μ, σ, z)` on the grid: `μ = j/64 ∈ [−100, 100]`, `σ = 2^e`, `e ∈ [−10, 10]`,
/// `z = k/64 ∈ [z_min, z_max]`.
fn grid_point(z_min: f64, z_max: f64) -> impl Strategy<Value = (f64, f64, f64)> {
    (
        -6400i32..=6400,
        -10i32..=10,
        ((z_min * 64.0) as i32)..=((z_max * 64.0) as i32),
    )
        .prop_map(|(j, e, k)| (f64::from(j) / 64.0, 2f64.powi(e), f64::from(k) / 64.0))
}

/// The fast crate's bound for `function` at the region of `z`, in its ULP measure.
fn bound(function: Function, z: f64) -> f64 {
    fast_tolerance(function, Region::of_z(Some(z))).max_ulp
}

mod fast {
    use super::*;

    proptest! {
        #![proptest_config(common::config(512))]

        #[test]
        fn ei_increasing_in_y((mu, sigma, z) in grid_point(-30.0, 30.0), step in 1i32..=64) {
            let y1 = mu + sigma * z;
            let y2 = y1 + sigma * f64::from(step) / 64.0;
            prop_assert!(pbgi_fast::ei(mu, sigma, y1) < pbgi_fast::ei(mu, sigma, y2));
        }

        #[test]
        fn ei_convex_in_y((mu, sigma, z) in grid_point(-30.0, 30.0), step in 1i32..=64) {
            let d = sigma * f64::from(step) / 64.0;
            let y = mu + sigma * z;
            let (a, m, b) = (
                pbgi_fast::ei(mu, sigma, y - d),
                pbgi_fast::ei(mu, sigma, y),
                pbgi_fast::ei(mu, sigma, y + d),
            );
            // Convex up to the documented error of the three values.
            let slack = 2.0 * bound(Function::Ei, z + 1.0) * ulp_of(a.max(m).max(b));
            prop_assert!(m <= 0.5 * (a + b) + slack, "{a} {m} {b}");
        }

        #[test]
        fn ei_at_least_positive_part((mu, sigma, z) in grid_point(-30.0, 30.0)) {
            let y = mu + sigma * z;
            let positive_part = (y - mu).max(0.0);
            let ei = pbgi_fast::ei(mu, sigma, y);
            prop_assert!(ei >= positive_part - bound(Function::Ei, z) * ulp_of(positive_part));
            prop_assert!(ei > 0.0);
        }

        #[test]
        fn log_ei_is_ln_of_ei((mu, sigma, z) in grid_point(-30.0, 30.0)) {
            let y = mu + sigma * z;
            let log_ei = pbgi_fast::log_ei(mu, sigma, y);
            let ln_ei = pbgi_fast::ei(mu, sigma, y).ln();
            // ln adds half an ULP; EI's relative error e adds |ln(1 + e)| ≈ e.
            let slack = (bound(Function::LogEi, z) + 1.0) * ulp_of(log_ei.abs().max(1.0))
                + bound(Function::Ei, z) * f64::EPSILON;
            prop_assert!((log_ei - ln_ei).abs() <= slack, "{log_ei} vs ln EI = {ln_ei}");
        }

        #[test]
        fn pbgi_increasing_in_mu_with_slope_one(
            (mu, sigma, _z) in grid_point(0.0, 0.0),
            shift in 1i32..=6400,
            log2_ratio in -40i32..=5,
        ) {
            let cost = sigma * 2f64.powi(log2_ratio);
            let a = f64::from(shift) / 64.0;
            let g1 = pbgi_fast::pbgi(mu, sigma, cost);
            let g2 = pbgi_fast::pbgi(mu + a, sigma, cost);
            let slack = 2.0 * bound(Function::Pbgi, -1.0)
                * ulp_of((mu + a).abs() + (g2 - mu - a).abs()) + ulp_of(g2);
            prop_assert!(((g2 - g1) - a).abs() <= slack, "g1 {g1} g2 {g2} a {a}");
        }

        #[test]
        fn pbgi_increasing_in_cost(
            (mu, sigma, _z) in grid_point(0.0, 0.0),
            log2_ratio in -60i32..=20,
            bump in 1i32..=1024,
        ) {
            let c1 = sigma * 2f64.powi(log2_ratio);
            let c2 = c1 * (1.0 + f64::from(bump) / 1024.0);
            prop_assert!(pbgi_fast::pbgi(mu, sigma, c1) < pbgi_fast::pbgi(mu, sigma, c2));
        }

        #[test]
        fn pbgi_decreasing_in_sigma(
            (mu, sigma, _z) in grid_point(0.0, 0.0),
            log2_ratio in -60i32..=0,
            bump in 1i32..=1024,
        ) {
            // cost/σ ≤ 1 keeps u ≤ 0.35, where ∂g/∂σ = −φ(u)/Φ(u) ≤ −0.3 is visible in f64.
            let cost = sigma * 2f64.powi(log2_ratio);
            let wider = sigma * (1.0 + f64::from(bump) / 1024.0);
            prop_assert!(pbgi_fast::pbgi(mu, wider, cost) < pbgi_fast::pbgi(mu, sigma, cost));
        }

        #[test]
        fn pbgi_shift_scale_invariant(
            (mu, sigma, _z) in grid_point(0.0, 0.0),
            log2_ratio in -60i32..=10,
            shift in -6400i32..=6400,
            log2_scale in -8i32..=8,
        ) {
            // PBGI(a + b·μ, b·σ, b·c) = a + b·PBGI(μ, σ, c); with b = 2^k every argument is exact.
            let cost = sigma * 2f64.powi(log2_ratio);
            let (a, b) = (f64::from(shift) / 64.0, 2f64.powi(log2_scale));
            let g = pbgi_fast::pbgi(mu, sigma, cost);
            let moved = pbgi_fast::pbgi(a + b * mu, b * sigma, b * cost);
            let expected = a + b * g;
            let slack = bound(Function::Pbgi, -1.0)
                * (b * ulp_of(mu.abs() + (g - mu).abs())
                    + ulp_of((a + b * mu).abs() + (moved - a - b * mu).abs()))
                + ulp_of(expected);
            prop_assert!((moved - expected).abs() <= slack, "{moved} vs {expected}");
        }

        #[test]
        fn pbgi_solves_ei_equals_cost(
            (mu, sigma, _z) in grid_point(0.0, 0.0),
            log2_ratio in -900i32..=20,
        ) {
            let cost = sigma * 2f64.powi(log2_ratio);
            let g = pbgi_fast::pbgi(mu, sigma, cost);
            let u = (g - mu) / sigma;
            // d ln EI / dg = Φ(u)/(σ h(u)) ≤ (|u| + 2)/σ, so g's error moves ln EI by that much.
            let g_error = bound(Function::Pbgi, u) * ulp_of(mu.abs() + (g - mu).abs());
            let slack = (u.abs() + 2.0) / sigma * g_error
                + (bound(Function::LogEi, u) + 1.0) * ulp_of(cost.ln().abs().max(1.0));
            let log_ei = pbgi_fast::log_ei(mu, sigma, g);
            prop_assert!((log_ei - cost.ln()).abs() <= slack, "ln EI(g) {log_ei} vs ln c {}", cost.ln());
        }
    }
}

mod reference {
    use super::*;
    use pbgi_reference::{Accuracy, Certified, Float};
    use rug::float::Round;

    fn r(result: Result<Certified, pbgi_reference::Error>) -> Certified {
        result.expect("the reference certifies every grid point")
    }

    /// `x − a` rounded down / up at 256 bits.
    fn minus_down(x: &Float, a: f64) -> Float {
        Float::with_val_round(256, x - a, Round::Down).0
    }
    fn minus_up(x: &Float, a: f64) -> Float {
        Float::with_val_round(256, x - a, Round::Up).0
    }

    /// Whether `[a_lo, a_hi]` and `[b_lo, b_hi]` share a point.
    fn overlap(a_lo: &Float, a_hi: &Float, b_lo: &Float, b_hi: &Float) -> bool {
        a_lo <= b_hi && b_lo <= a_hi
    }

    proptest! {
        #![proptest_config(common::config(128))]

        #[test]
        fn ei_increasing_in_y((mu, sigma, z) in grid_point(-40.0, 40.0), step in 1i32..=64) {
            let y1 = mu + sigma * z;
            let y2 = y1 + sigma * f64::from(step) / 64.0;
            let (a, b) = (r(pbgi_reference::ei(mu, sigma, y1)), r(pbgi_reference::ei(mu, sigma, y2)));
            prop_assert!(a.upper < b.lower, "EI({y1}) = {} not below EI({y2}) = {}", a.value, b.value);
        }

        #[test]
        fn ei_convex_in_y((mu, sigma, z) in grid_point(-30.0, 10.0), step in 1i32..=64) {
            let accuracy = Accuracy { enclosure_bits: 128, ..Accuracy::default() };
            let d = sigma * f64::from(step) / 64.0;
            let y = mu + sigma * z;
            let a = r(pbgi_reference::ei_with(mu, sigma, y - d, &accuracy));
            let m = r(pbgi_reference::ei_with(mu, sigma, y, &accuracy));
            let b = r(pbgi_reference::ei_with(mu, sigma, y + d, &accuracy));
            // Strictly convex (h'' = φ > 0): EI(y) < (EI(y − d) + EI(y + d))/2, certified.
            let chord_low = Float::with_val_round(512, &a.lower + &b.lower, Round::Down).0 / 2u32;
            prop_assert!(m.upper < chord_low);
        }

        #[test]
        fn ei_at_least_positive_part((mu, sigma, z) in grid_point(-40.0, 40.0)) {
            let y = mu + sigma * z;
            let ei = r(pbgi_reference::ei(mu, sigma, y));
            let positive_part = (y - mu).max(0.0); // exact on the grid
            // Rounding is monotone: EI ≥ y − μ gives RN(EI) ≥ RN(y − μ) = y − μ.
            prop_assert!(ei.value >= positive_part);
            // h(z) > max(z, 0) strictly; the gap φ(z)/z² (z > 0) is certifiable while it exceeds
            // the enclosure's width (2^-100 relative), i.e. up to z ≈ 11.
            if z <= 8.0 {
                prop_assert!(ei.lower > positive_part);
            }
        }

        #[test]
        fn log_ei_is_ln_of_ei((mu, sigma, z) in grid_point(-40.0, 40.0)) {
            let y = mu + sigma * z;
            let ei = r(pbgi_reference::ei(mu, sigma, y));
            let log_ei = r(pbgi_reference::log_ei(mu, sigma, y));
            let ln_low = Float::with_val_round(256, ei.lower.ln_ref(), Round::Down).0;
            let ln_high = Float::with_val_round(256, ei.upper.ln_ref(), Round::Up).0;
            prop_assert!(overlap(&log_ei.lower, &log_ei.upper, &ln_low, &ln_high));
        }

        #[test]
        fn pbgi_increasing_in_mu_with_slope_one(
            (mu, sigma, _z) in grid_point(0.0, 0.0),
            shift in 1i32..=6400,
            log2_ratio in -900i32..=20,
        ) {
            let cost = sigma * 2f64.powi(log2_ratio);
            let a = f64::from(shift) / 64.0;
            let g1 = r(pbgi_reference::pbgi(mu, sigma, cost));
            let g2 = r(pbgi_reference::pbgi(mu + a, sigma, cost));
            prop_assert!(overlap(&g1.lower, &g1.upper, &minus_down(&g2.lower, a), &minus_up(&g2.upper, a)));
        }

        #[test]
        fn pbgi_increasing_in_cost(
            (mu, sigma, _z) in grid_point(0.0, 0.0),
            log2_ratio in -900i32..=20,
            bump in 1i32..=1024,
        ) {
            let c1 = sigma * 2f64.powi(log2_ratio);
            let c2 = c1 * (1.0 + f64::from(bump) / 1024.0);
            let (g1, g2) = (r(pbgi_reference::pbgi(mu, sigma, c1)), r(pbgi_reference::pbgi(mu, sigma, c2)));
            prop_assert!(g1.upper < g2.lower);
        }

        #[test]
        fn pbgi_decreasing_in_sigma(
            (mu, sigma, _z) in grid_point(0.0, 0.0),
            log2_ratio in -900i32..=0,
            bump in 1i32..=1024,
        ) {
            // cost/σ ≤ 1 (u ≤ 0.35): there ∂g/∂σ = −φ(u)/Φ(u) ≤ −0.3, far above the enclosure
            // width; for large u the change is below any fixed precision (φ(u) → 0).
            let cost = sigma * 2f64.powi(log2_ratio);
            let wider = sigma * (1.0 + f64::from(bump) / 1024.0);
            let (g1, g2) = (r(pbgi_reference::pbgi(mu, sigma, cost)), r(pbgi_reference::pbgi(mu, wider, cost)));
            prop_assert!(g2.upper < g1.lower);
        }

        #[test]
        fn pbgi_shift_scale_invariant(
            (mu, sigma, _z) in grid_point(0.0, 0.0),
            log2_ratio in -900i32..=20,
            shift in -6400i32..=6400,
            log2_scale in -8i32..=8,
        ) {
            let cost = sigma * 2f64.powi(log2_ratio);
            let (a, b) = (f64::from(shift) / 64.0, 2f64.powi(log2_scale));
            let g = r(pbgi_reference::pbgi(mu, sigma, cost));
            let moved = r(pbgi_reference::pbgi(a + b * mu, b * sigma, b * cost));
            // b = 2^k: the products are exact; the sums are rounded outward.
            let low = Float::with_val_round(256, &g.lower * b, Round::Down).0;
            let low = Float::with_val_round(256, &low + a, Round::Down).0;
            let high = Float::with_val_round(256, &g.upper * b, Round::Up).0;
            let high = Float::with_val_round(256, &high + a, Round::Up).0;
            prop_assert!(overlap(&moved.lower, &moved.upper, &low, &high));
        }

        #[test]
        fn pbgi_solves_ei_equals_cost(
            (mu, sigma, _z) in grid_point(0.0, 0.0),
            log2_ratio in -900i32..=3,
        ) {
            // cost/σ ≤ 8 (u ≤ 8): beyond, EI at the neighbouring f64 exceeds the cost by less
            // than φ(u)/u², below the enclosure width. EI is increasing in the threshold, so EI at the f64 just below the index is below
            // the cost and EI at the f64 just above is above it: the index is pinned to one ULP.
            let cost = sigma * 2f64.powi(log2_ratio);
            let g = r(pbgi_reference::pbgi(mu, sigma, cost));
            let below = g.lower.to_f64_round(Round::Down);
            let above = g.upper.to_f64_round(Round::Up);
            prop_assert!(below == above || below.next_up() == above,
                "the enclosure [{below}, {above}] lies between adjacent f64 values");
            let ei_below = r(pbgi_reference::ei(mu, sigma, below));
            let ei_above = r(pbgi_reference::ei(mu, sigma, above));
            if below == above {
                // The index is an f64: EI there is exactly the cost.
                prop_assert!(ei_below.lower <= cost && cost <= ei_below.upper);
            } else {
                prop_assert!(ei_below.upper < cost, "EI just below the index is below the cost");
                prop_assert!(ei_above.lower > cost, "EI just above the index is above the cost");
            }
        }
    }
}

/// Gradients of the fast crate against certified central differences of the reference:
/// `(f(x + δ) − f(x − δ))/(2δ)` with `δ = 2^-24·σ` (so `x ± δ` are exact), enclosed from the
/// reference's 160-bit enclosures with outward rounding. The difference quotient differs from the
/// derivative by `δ²·f'''/6`, about `1e-13` relative on these ranges; the tolerance is `1e-9`.
mod gradients {
    use super::*;
    use pbgi_reference::{Accuracy, Certified, Float};
    use rug::float::Round;

    fn tight() -> Accuracy {
        Accuracy {
            enclosure_bits: 160,
            ..Accuracy::default()
        }
    }

    fn r(result: Result<Certified, pbgi_reference::Error>) -> Certified {
        result.expect("the reference certifies every grid point")
    }

    /// The enclosure of `(plus − minus)/(2δ)`, as f64 bounds rounded outward.
    fn quotient(plus: &Certified, minus: &Certified, delta: f64) -> (f64, f64) {
        let low =
            Float::with_val_round(512, &plus.lower - &minus.upper, Round::Down).0 / (2.0 * delta);
        let high =
            Float::with_val_round(512, &plus.upper - &minus.lower, Round::Up).0 / (2.0 * delta);
        (low.to_f64_round(Round::Down), high.to_f64_round(Round::Up))
    }

    fn assert_close(name: &str, fast: f64, (low, high): (f64, f64)) -> Result<(), TestCaseError> {
        let slack = 1e-9 * low.abs().max(high.abs());
        prop_assert!(
            low - slack <= fast && fast <= high + slack,
            "{name}: fast {fast:e}, certified difference quotient in [{low:e}, {high:e}]"
        );
        Ok(())
    }

    proptest! {
        #![proptest_config(common::config(128))]

        #[test]
        fn pbgi_gradient_matches_certified_differences(
            (mu, sigma, _z) in grid_point(0.0, 0.0),
            log2_ratio in -40i32..=3,
        ) {
            let cost = sigma * 2f64.powi(log2_ratio);
            let grad = pbgi_fast::pbgi_grad(mu, sigma, cost);
            prop_assert_eq!(grad.d_mu, 1.0);
            let ds = sigma * 2f64.powi(-24);
            let d_sigma = quotient(
                &r(pbgi_reference::pbgi_with(mu, sigma + ds, cost, &tight())),
                &r(pbgi_reference::pbgi_with(mu, sigma - ds, cost, &tight())),
                ds,
            );
            assert_close("d_sigma", grad.d_sigma, d_sigma)?;
            let dc = cost * 2f64.powi(-24);
            let d_cost = quotient(
                &r(pbgi_reference::pbgi_with(mu, sigma, cost + dc, &tight())),
                &r(pbgi_reference::pbgi_with(mu, sigma, cost - dc, &tight())),
                dc,
            );
            assert_close("d_cost", grad.d_cost, d_cost)?;
        }

        #[test]
        fn ei_gradient_matches_certified_differences((mu, sigma, z) in grid_point(-20.0, 20.0)) {
            let y = mu + sigma * z;
            let grad = pbgi_fast::ei_grad(mu, sigma, y);
            let d = sigma * 2f64.powi(-24);
            let d_mu = quotient(
                &r(pbgi_reference::ei_with(mu + d, sigma, y, &tight())),
                &r(pbgi_reference::ei_with(mu - d, sigma, y, &tight())),
                d,
            );
            assert_close("d_mu", grad.d_mu, d_mu)?;
            let d_sigma = quotient(
                &r(pbgi_reference::ei_with(mu, sigma + d, y, &tight())),
                &r(pbgi_reference::ei_with(mu, sigma - d, y, &tight())),
                d,
            );
            assert_close("d_sigma", grad.d_sigma, d_sigma)?;
        }
    }
}

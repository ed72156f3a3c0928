//! Source of truth: the asymptotic forms of `h` in both tails (MATH.md, "Gaussian building
//! blocks") with their rigorous remainder bounds, evaluated here with MPFR's `exp` and directed
//! rounding, independently of the crate's code paths:
//!
//! * `z → -∞`: `φ(x)/x²·(1 - 3/x²) < h(-x) < φ(x)/x²·(1 - 3/x² + 15/x⁴)` for `x > 0`
//!   (integration by parts; the remainder after each term has the sign of the next term).
//! * `z → +∞`: `z < h(z) = z + h(-z) < z + φ(z)/z²`.

mod common;
use common::{down, up};
use pbgi_reference::{h, ln_h, Float};
use rug::float::Constant;

const P: u32 = 600;

/// `[lo, hi]` enclosing `ln(φ(x)/x²)`.
fn ln_phi_over_x2(x: f64) -> (Float, Float) {
    let x = Float::with_val(53, x);
    let x2 = Float::with_val(P, x.square_ref()); // exact
    let (pi_lo, pi_hi) = (down(P, Constant::Pi), up(P, Constant::Pi));
    let (l2pi_lo, l2pi_hi) = (
        down(P, Float::with_val(P, &pi_lo * 2u32).ln_ref()),
        up(P, Float::with_val(P, &pi_hi * 2u32).ln_ref()),
    );
    let (lx2_lo, lx2_hi) = (down(P, x2.ln_ref()), up(P, x2.ln_ref()));
    let half_x2 = Float::with_val(P, &x2 >> 1u32);
    // -x²/2 - ln(2π)/2 - ln x²
    let lo = -up(P, &half_x2 + &up(P, &up(P, &l2pi_hi >> 1u32) + &lx2_hi));
    let hi = -down(P, &half_x2 + &down(P, &down(P, &l2pi_lo >> 1u32) + &lx2_lo));
    (lo, hi)
}

/// `[lo, hi]` enclosing the bracket `(1 - 3/x², 1 - 3/x² + 15/x⁴)` (outward).
fn series_factor(x: f64) -> (Float, Float) {
    let x2 = Float::with_val(P, Float::with_val(53, x).square_ref());
    let t_lo = down(P, Float::with_val(P, 3u32) / &x2);
    let t_hi = up(P, Float::with_val(P, 3u32) / &x2);
    let lo = down(P, 1u32 - Float::with_val(P, &t_hi));
    let q_hi = up(P, Float::with_val(P, 15u32) / up(P, x2.square_ref()));
    let hi = up(P, &up(P, 1u32 - Float::with_val(P, &t_lo)) + &q_hi);
    (lo, hi)
}

#[test]
fn lower_tail_log_lies_between_the_asymptotic_bounds() {
    for x in [
        10.0, 20.0, 38.5, 40.0, 100.0, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e10, 1e50, 1e150, 1e300,
    ] {
        let (a_lo, a_hi) = ln_phi_over_x2(x);
        let (f_lo, f_hi) = series_factor(x);
        let lo = down(P, &a_lo + &down(P, f_lo.ln_ref()));
        let hi = up(P, &a_hi + &up(P, f_hi.ln_ref()));
        let r = ln_h(-x).unwrap();
        assert!(
            r.upper >= lo && r.lower <= hi,
            "ln h(-{x}): [{}, {}] misses [{lo}, {hi}]",
            r.lower_decimal(30),
            r.upper_decimal(30)
        );
        // Beyond x = 1e4 the bounds are narrower than an f64 ulp: the value must be theirs.
        if x >= 1e4 {
            assert_eq!(r.value, lo.to_f64(), "ln h(-{x})");
            assert_eq!(r.value, hi.to_f64(), "ln h(-{x})");
        }
    }
}

#[test]
fn lower_tail_value_lies_between_the_asymptotic_bounds() {
    for x in [10.0, 20.0, 30.0, 37.0, 38.5, 40.0, 1e3, 1e8] {
        let (a_lo, a_hi) = ln_phi_over_x2(x);
        let (f_lo, f_hi) = series_factor(x);
        let lo = down(P, &down(P, a_lo.exp_ref()) * &f_lo);
        let hi = up(P, &up(P, a_hi.exp_ref()) * &f_hi);
        let r = h(-x).unwrap();
        assert!(
            r.upper >= lo && r.lower <= hi,
            "h(-{x}): [{}, {}] misses [{lo}, {hi}]",
            r.lower_decimal(30),
            r.upper_decimal(30)
        );
        // h(-38.5) ≈ 3.65e-326 is subnormal-range rounding territory; beyond ~38.6 it rounds to 0.
        if x >= 40.0 {
            assert_eq!(r.value, 0.0);
        }
    }
}

#[test]
fn h_near_f64_underflow_rounds_correctly() {
    // Around x = 38.5, h(-x) crosses the smallest subnormal 2^-1074 ≈ 4.94e-324: the value is the
    // multiple of 2^-1074 nearest to the bounds above (both round the same way here).
    for x in [37.5, 38.0, 38.4, 38.5, 38.6] {
        let (a_lo, a_hi) = ln_phi_over_x2(x);
        let (f_lo, f_hi) = series_factor(x);
        let lo = down(P, &down(P, a_lo.exp_ref()) * &f_lo);
        let hi = up(P, &up(P, a_hi.exp_ref()) * &f_hi);
        if lo.to_f64() == hi.to_f64() {
            assert_eq!(h(-x).unwrap().value, lo.to_f64(), "h(-{x})");
        }
    }
}

#[test]
fn upper_tail_lies_between_z_and_z_plus_phi_over_z2() {
    for z in [10.0, 38.5, 40.0, 1e3, 1e8, 1e300] {
        let (_, a_hi) = ln_phi_over_x2(z);
        let r = h(z).unwrap();
        let lo = Float::with_val(53, z);
        let hi = up(P, &lo + &up(P, a_hi.exp_ref()));
        // The enclosure must meet (z, z + φ(z)/z²].
        assert!(
            r.upper > lo && r.lower <= hi,
            "h({z}): [{}, {}]",
            r.lower_decimal(30),
            r.upper_decimal(30)
        );
        if z >= 40.0 {
            assert_eq!(r.value, z, "h({z}) rounds to z");
        }
    }
}

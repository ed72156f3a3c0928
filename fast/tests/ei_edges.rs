//! `pbgi_fast::ei` at the edges of f64's range and at its rarely taken branches: `y + μ` or
//! `y - μ` overflowing, tiny or infinite σ, `z` far outside the kernels' range, the rounding of
//! `y - μ` where EI is `y - μ`, and the low part of `y - μ` in `z` (with LogEI). Each case is
//! checked against the certified reference or a closed form (`EI(μ, σ; μ) = σ·h(0)`) and names
//! the branch it reaches; found by mutation testing (`proofs-notes/mutants.md`).
mod common;
use common::{assert_log_ei_near_reference, ulps, H0};
use pbgi_fast::ei;

/// `got` within `n` ulps of the reference's correctly rounded EI.
fn assert_ei_near_reference(mu: f64, sigma: f64, y: f64, n: u64) {
    let want = pbgi_reference::ei(mu, sigma, y).unwrap().value;
    let got = ei(mu, sigma, y);
    assert!(
        ulps(got, want) <= n,
        "ei({mu:e}, {sigma:e}, {y:e}) = {got:e}, reference {want:e}"
    );
}

#[test]
fn ei_where_y_plus_mu_overflows_but_y_minus_mu_does_not() {
    // y = μ = 1e308: y - μ = 0, so EI = σ·h(0) (y + μ would overflow).
    assert!(ulps(ei(1e308, 1.0, 1e308), H0) <= 1);
    assert!(ulps(ei(-1e308, 2.0, -1e308), 2.0 * H0) <= 1);
}

#[test]
fn ei_where_y_minus_mu_overflows() {
    // y - μ = 2e308 > f64::MAX: EI = y - μ + σ·h(-z) rounds to +∞.
    assert_eq!(ei(-1e308, 1.0, 1e308), f64::INFINITY);
    // y - μ = -2e308 with σ = 1e307: z = -20, EI = σ·h(-20) is a normal number.
    assert_ei_near_reference(1e308, 1e307, -1e308, 4);
}

#[test]
fn ei_tiny_sigma_huge_difference_is_the_positive_part() {
    // σ < 1e-280 and |y - μ| > 2^420: |z| > 2^1300, EI = max(y - μ, 0) to all digits.
    assert_eq!(ei(0.0, 1e-290, 1e200), 1e200);
    assert_eq!(ei(0.0, 1e-290, -1e200), 0.0);
    assert_eq!(ei(-1e200, 1e-290, 0.0), 1e200);
    assert_eq!(ei(1e200, 1e-290, 0.0), 0.0);
}

#[test]
fn ei_far_below_the_underflow_threshold_is_zero_for_any_sigma() {
    // z = -1e200 with σ > 1: past X_UNDERFLOW, where the kernel (x² overflows) must not run.
    assert_eq!(ei(0.0, 2.0, -2e200), 0.0);
    assert_eq!(ei(0.0, 1e100, -1e300), 0.0);
}

#[test]
fn ei_minus_infinite_difference_with_infinite_sigma_is_nan() {
    // σ = ∞ and y - μ = -∞ (given, or overflowed from finite y, μ): ∞·0, NaN as documented.
    assert!(ei(0.0, f64::INFINITY, f64::NEG_INFINITY).is_nan());
    assert!(ei(1e308, f64::INFINITY, -1e308).is_nan());
    // Finite σ beyond the kernels' range: z = -2e308/1e300 = -2e8, EI underflows to 0.
    assert_eq!(ei(1e308, 1e300, -1e308), 0.0);
    assert_eq!(ei(0.0, 1e300, f64::NEG_INFINITY), 0.0);
}

#[test]
fn ei_far_right_rounds_the_difference_once() {
    // z = 1000 > 40: EI = (y - μ) + σ·h(-z) with σ·h(-z) < e^{-500000}, so EI is y - μ
    // correctly rounded. Here y - μ = 1 + 9e-17 rounds to 1 with a low part of 9e-17, more than
    // half the spacing below 1 (2^-54): 1 - 9e-17 would round to 1 - 2^-53.
    let (mu, sigma, y) = (-9e-17, 1e-3, 1.0);
    let want = pbgi_reference::ei(mu, sigma, y).unwrap().value;
    assert_eq!(want, 1.0);
    assert_eq!(ei(mu, sigma, y), want);
}

#[test]
fn z_keeps_the_low_part_of_y_minus_mu_for_sigma_outside_the_one_division_range() {
    // σ = 1e200 is outside [1e-150, 1e150], where z's low part is formed with σ and y - μ
    // scaled by σ's power of two. y - μ = -3.1e201 - 3e185 rounds to -3.1e201 with a low part of
    // -3e185 (0.45 ulp), which moves z ≈ -31 by 3e-15 and LogEI by about 26 of its ulps.
    let (mu, sigma, y) = (3e185, 1e200, -3.1e201);
    assert_ei_near_reference(mu, sigma, y, 4);
    assert_log_ei_near_reference(mu, sigma, y, 4);
}

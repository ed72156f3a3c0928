//! Source of truth: MATH.md's published sanity values and closed forms (`σ = 0`, `h(0)`).

use pbgi_reference::{ei, h, log_ei, log_eipc, pbgi, Float};

#[test]
fn ei_published_values() {
    // MATH.md: EI(0,1;0) = 0.3989422804014327, EI(0,1;1) = 1.0833154705876863.
    assert_eq!(ei(0.0, 1.0, 0.0).unwrap().value, 0.3989422804014327);
    assert_eq!(ei(0.0, 1.0, 1.0).unwrap().value, 1.0833154705876863);
}

#[test]
fn h_at_zero_is_inverse_sqrt_two_pi() {
    // h(0) = 1/√(2π), enclosed independently from MPFR's π.
    let r = h(0.0).unwrap();
    let pi_lo = Float::with_val_round(300, rug::float::Constant::Pi, rug::float::Round::Down).0;
    let pi_hi = Float::with_val_round(300, rug::float::Constant::Pi, rug::float::Round::Up).0;
    let inv_sqrt = |p: Float| Float::with_val(300, (p * 2u32).sqrt().recip_ref());
    let (lo, hi) = (inv_sqrt(pi_hi), inv_sqrt(pi_lo));
    assert!(
        r.lower <= hi && r.upper >= lo,
        "h(0) enclosure misses 1/sqrt(2 pi)"
    );
    assert_eq!(r.value, 0.3989422804014327);
}

#[test]
fn pbgi_published_values() {
    // MATH.md: PBGI(0,1,1e-4) = -3.3630153259270825, PBGI(0,1,0.1) = -0.9023463475100345.
    assert_eq!(pbgi(0.0, 1.0, 1e-4).unwrap().value, -3.3630153259270825);
    assert_eq!(pbgi(0.0, 1.0, 0.1).unwrap().value, -0.9023463475100345);
}

#[test]
fn pbgi_at_h0_is_zero_up_to_the_rounding_of_the_cost() {
    // MATH.md: PBGI(0,1,1/√(2π)) = 0 exactly. The f64 cost c = 0.3989422804014327 exceeds
    // h(0) = 1/√(2π) by δ ≈ 2.49e-17, so the exact index u solves h(u) = h(0) + δ. Since
    // h' = Φ, h'(0) = 1/2 and 0 < h'' = φ ≤ φ(0) < 0.4: 2δ - 0.4·(2δ)² ≤ u ≤ 2δ.
    let r = pbgi(0.0, 1.0, 0.3989422804014327).unwrap();
    let pi = Float::with_val(400, rug::float::Constant::Pi);
    let h0 = Float::with_val(400, (pi * 2u32).sqrt().recip_ref());
    let delta = Float::with_val(400, Float::with_val(400, 0.3989422804014327) - &h0);
    let upper = Float::with_val(400, &delta * 2u32);
    let lower = Float::with_val(
        400,
        &upper - Float::with_val(400, upper.square_ref()) * 0.4f64,
    );
    assert!(
        r.lower <= upper && r.upper >= lower,
        "[{}, {}]",
        r.lower_decimal(20),
        r.upper_decimal(20)
    );
    assert!(r.value > 0.0 && r.value < 1e-16, "{}", r.value);
    assert!(
        (r.value - upper.to_f64()).abs() <= 1e-32,
        "{} vs 2δ = {}",
        r.value,
        upper.to_f64()
    );
}

#[test]
fn sigma_zero_is_the_positive_part_exactly() {
    assert_eq!(ei(1.0, 0.0, 3.5).unwrap().value, 2.5);
    assert_eq!(ei(1.0, 0.0, -3.5).unwrap().value, 0.0);
    assert_eq!(ei(2.0, 0.0, 2.0).unwrap().value, 0.0);
    // Correct rounding of an inexact difference: 1 - (-2^-53) = 1 + 2^-53 is a tie, to even = 1.
    assert_eq!(ei(-(2f64.powi(-53)), 0.0, 1.0).unwrap().value, 1.0);
    // ... and just above the tie rounds up.
    assert_eq!(
        ei(-(2f64.powi(-53) + 2f64.powi(-105)), 0.0, 1.0)
            .unwrap()
            .value,
        1.0 + f64::EPSILON
    );
    // Overflow of y - mu rounds to inf.
    assert_eq!(ei(-1e308, 0.0, 1e308).unwrap().value, f64::INFINITY);
    let r = ei(-1e308, 0.0, 1e308).unwrap();
    assert!(r.lower == r.upper && r.lower == Float::with_val(53, 1e308) * 2u32);
}

#[test]
fn sigma_zero_log_forms() {
    let r = log_ei(0.0, 0.0, 0.0).unwrap();
    assert!(
        r.value == f64::NEG_INFINITY
            && r.lower == f64::NEG_INFINITY
            && r.upper == f64::NEG_INFINITY
    );
    // ln 1 = 0 exactly; y - mu = cost exactly gives LogEIPC = 0 exactly.
    let r = log_ei(0.0, 0.0, 1.0).unwrap();
    assert!(r.value == 0.0 && r.lower == 0 && r.upper == 0);
    let r = log_eipc(0.25, 0.0, 1.75, 1.5).unwrap();
    assert!(r.value == 0.0 && r.lower == 0 && r.upper == 0);
    assert_eq!(
        log_eipc(0.0, 0.0, 2.0, 1.0).unwrap().value,
        std::f64::consts::LN_2
    );
}

#[test]
fn pbgi_sigma_zero_is_mu_plus_cost() {
    assert_eq!(pbgi(1.0, 0.0, 0.5).unwrap().value, 1.5);
    assert_eq!(pbgi(0.1, 0.0, 0.2).unwrap().value, 0.1 + 0.2);
    assert_eq!(pbgi(1e308, 0.0, 1e308).unwrap().value, f64::INFINITY);
}

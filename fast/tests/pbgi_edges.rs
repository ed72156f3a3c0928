//! `pbgi_fast::pbgi` over its solver's regimes and at the edges of f64's range (σ outside the
//! exact remainder's range, `σ·u` overflowing, subnormal sums, each special value alone), and
//! `pbgi_fast::pbgi_small_cost` against its formula in MPFR. Each case is checked against the
//! certified reference or a closed form within the documented bound; found by mutation testing
//! (`proofs-notes/mutants.md`).
mod common;
use common::{ulp_at, ulps};

/// `pbgi` within 4 ulp of `|μ| + σ·|u|` of the reference (its documented bound), with
/// `σ·|u| = |g - μ|` taken from the reference's `g`.
fn assert_pbgi_near_reference(mu: f64, sigma: f64, cost: f64) {
    let want = pbgi_reference::pbgi(mu, sigma, cost).unwrap().value;
    let got = pbgi_fast::pbgi(mu, sigma, cost);
    let scale = (mu.abs() + (want - mu).abs()).min(f64::MAX);
    assert!(
        (got - want).abs() <= 4.0 * ulp_at(scale),
        "pbgi({mu:e}, {sigma:e}, {cost:e}) = {got:e}, reference {want:e}"
    );
}

#[test]
fn pbgi_over_the_solver_regimes_against_the_reference() {
    // r = c/σ across the regimes: r ≥ 40 (g = μ + c), u ≥ 0.5 from the fit (r < 4.5) and from
    // u = r, the middle regime with its two starts (|r - φ0| below and above 1e-3), and the
    // log-space regime down to r below 2^-1022 (ln σ - ln c).
    for cost in [
        1e3, 40.0, 39.9, 12.0, 4.5, 4.4, 2.0, 1.0, 0.7, 0.69, 0.5, 0.4, 0.3989, 0.39, 0.2, 0.1,
        0.084, 0.08, 1e-2, 1e-5, 1e-20, 1e-100, 1e-300, 3e-308, 1e-315, 5e-324,
    ] {
        assert_pbgi_near_reference(0.0, 1.0, cost);
        assert_pbgi_near_reference(-3.25, 2.5, 2.5 * cost);
    }
}

#[test]
fn pbgi_middle_regime_where_the_start_is_furthest_from_the_root() {
    // u = -0.777 and -0.9994: among 3000 points of [h(-1), h(0.5)) the fitted start is furthest
    // from the root here, so the Halley step needs the slope Φ(u) (the series S_SERIES) to its
    // last terms: a sign error in the k = 7 term (1e-7) moves u by 7 and 5 ulps.
    for cost in [0.125_202_598_005_481_4, 0.083_417_884_102_155_24] {
        assert_pbgi_near_reference(0.0, 1.0, cost);
    }
}

#[test]
fn pbgi_with_sigma_outside_the_exact_remainder_range() {
    // σ outside [1e-280, 1e280]: the remainder of c/σ from c and σ scaled by σ's power of two.
    for r in [50.0, 3.0, 0.6, 0.3989, 0.2, 1e-3] {
        for sigma in [1e-300, 3e-290, 7e285, 1e300] {
            assert_pbgi_near_reference(0.0, sigma, r * sigma);
        }
    }
    assert_pbgi_near_reference(0.0, 1e300, 1e100);
    assert_pbgi_near_reference(0.0, 1e-290, 1e-310);
    // σ inside the range but r·σ below 1e-290 (the remainder dropped: r < 1e-10) and r below
    // 2^-1022 (ln σ - ln c).
    assert_pbgi_near_reference(0.0, 1e-280, 1e-300);
    assert_pbgi_near_reference(1.0, 1e10, 1e-300);
    assert_pbgi_near_reference(0.0, 1e-300, 1e-320);
}

#[test]
fn pbgi_where_sigma_u_overflows_but_g_does_not() {
    // σ·u ≈ -2e308 overflows; μ + σ·u ≈ -3e307 does not (formed as 2·(μ/2 + (σ/2)·u)).
    assert_pbgi_near_reference(1.7e308, 1e308, 8.5e305);
    assert_pbgi_near_reference(f64::MAX, f64::MAX, 0.01 * f64::MAX);
    // g itself overflows: +∞ / -∞.
    assert_eq!(pbgi_fast::pbgi(1.7e308, 1e307, 1e308), f64::INFINITY);
    assert_eq!(pbgi_fast::pbgi(-1.7e308, 1e308, 1e-4), f64::NEG_INFINITY);
}

#[test]
fn pbgi_special_values_each_alone() {
    let (nan, inf) = (f64::NAN, f64::INFINITY);
    // σ = -0 is σ = 0: μ + c.
    assert_eq!(pbgi_fast::pbgi(1.0, -0.0, 0.5), 1.5);
    assert_eq!(pbgi_fast::pbgi(inf, 1.0, 1.0), inf);
    assert_eq!(pbgi_fast::pbgi(-inf, 1.0, 1.0), -inf);
    assert!(pbgi_fast::pbgi(inf, inf, 1.0).is_nan());
    assert!(pbgi_fast::pbgi(-inf, 1.0, inf).is_nan());
    assert!(pbgi_fast::pbgi(0.0, inf, inf).is_nan());
    assert_eq!(pbgi_fast::pbgi(-inf, inf, 1.0), -inf);
    assert_eq!(pbgi_fast::pbgi(inf, 1.0, inf), inf);
    assert!(pbgi_fast::pbgi(nan, 0.0, 1.0).is_nan());
    assert!(pbgi_fast::pbgi(0.0, 0.0, -1.0).is_nan());
    assert!(pbgi_fast::pbgi(0.0, -inf, 1.0).is_nan());
}

/// `μ - σ·√(2·ln(σ/c))` evaluated in MPFR (300 bits) and rounded to f64.
fn small_cost_in_mpfr(mu: f64, sigma: f64, cost: f64) -> f64 {
    use pbgi_reference::Float;
    let q = Float::with_val(300, sigma) / Float::with_val(300, cost);
    let t = (q.ln() * 2u32).sqrt();
    (Float::with_val(300, mu) - t * Float::with_val(300, sigma)).to_f64()
}

#[test]
fn pbgi_small_cost_against_the_formula_in_mpfr() {
    // ln(σ/c) from q = σ/c as a double-double: ln_1p(q - 1) for q < 2 (q - 1 exact), ln q +
    // q_lo/q up to 1.8e19, ln q beyond, ln σ - ln c where q overflows; within 2 ulp of
    // |μ| + σ·√(2 ln(σ/c)) (the documented bound).
    for (mu, sigma, cost) in [
        (0.0, 1.0, 1.0 - 2f64.powi(-40)),
        (0.5, 1.0, 0.9),
        (0.0, 3.0, 1.7),
        (0.0, 1.0, 0.3),
        (-2.0, 7.0, 0.1),
        (0.0, 1.0, 1e-10),
        (0.0, 0.3, 1e-19),
        (0.0, 1.0, 1e-300),
        (1.0, 1e-300, 3e-310),
        (0.0, 1e300, 1e-300),
        (0.0, 1e-10, 5e-324),
        // σ·√(2 ln(σ/c)) overflows, μ - (…) does not.
        (f64::MAX, 1e308, 1.5e307),
    ] {
        let want = small_cost_in_mpfr(mu, sigma, cost);
        let got = pbgi_fast::pbgi_small_cost(mu, sigma, cost);
        let scale = (mu.abs() + (want - mu).abs()).min(f64::MAX);
        assert!(
            (got - want).abs() <= 2.0 * ulp_at(scale),
            "pbgi_small_cost({mu:e}, {sigma:e}, {cost:e}) = {got:e}, MPFR {want:e}"
        );
    }
    // Domain: NaN, σ < 0, cost ≤ 0, cost > σ → NaN; σ = 0 → μ + c; σ = ∞ → -∞.
    let (nan, inf) = (f64::NAN, f64::INFINITY);
    for (mu, sigma, cost) in [
        (nan, 1.0, 0.1),
        (0.0, nan, 0.1),
        (0.0, 1.0, nan),
        (0.0, -1.0, 0.1),
        (0.0, 1.0, 0.0),
        (0.0, 1.0, 2.0),
    ] {
        assert!(pbgi_fast::pbgi_small_cost(mu, sigma, cost).is_nan());
    }
    assert_eq!(pbgi_fast::pbgi_small_cost(1.0, 0.0, 0.5), 1.5);
    assert_eq!(pbgi_fast::pbgi_small_cost(1.0, inf, 0.5), -inf);
    assert_eq!(pbgi_fast::pbgi_small_cost(0.0, 1.0, 1.0), 0.0);
}

#[test]
fn pbgi_with_subnormal_mu_and_offset_adds_them_exactly() {
    // Everything in units of 2^-1074: σ = 10, c = 7, so r = 0.7 and u = 0.5045…; σ·u = 5.045
    // rounds to 5 and μ + 5 = 6 is exact (subnormal sums are), so the kernel is within one unit
    // of the exact g = 6.045 (as the reference's correctly rounded 6 is). Halving first (as
    // where σ·u overflows) would round μ/2 = 1/2 and σu/2 = 5/2 to even: 2·(0 + 2) = 4.
    let unit = f64::from_bits(1);
    let (mu, sigma, cost) = (unit, 10.0 * unit, 7.0 * unit);
    let want = pbgi_reference::pbgi(mu, sigma, cost).unwrap().value;
    assert_eq!(want, 6.0 * unit);
    let got = pbgi_fast::pbgi(mu, sigma, cost);
    assert!(ulps(got, want) <= 1, "pbgi = {got:e}, reference {want:e}");
}

//! `pbgi_fast::pbgi_lognormal` in every regime of its solver with the low parts of `ln E[c]`
//! and `s²/2`, beyond the regular range of σ and `E[c]`, at σ = 0, and at invalid and infinite
//! arguments. Each case is checked against the certified reference (`pbgi_lognormal`) within the
//! documented bound, or against the limits; found by mutation testing
//! (`proofs-notes/mutants.md`).
mod common;
use common::{ulp_at, ulps};

#[test]
fn pbgi_lognormal_far_below_the_smallest_cost_uses_the_large_x_fits() {
    // ln E[c] ≤ -2048 (σ = 1): h(u) = E[c] is solved with x = -u ≥ 63.8 from the fixed point
    // x = √(2(m + ln p(x))), whose x²p(x) comes from the [32, 64) fit just above m = 2048 and
    // the asymptotic fit beyond: each against the reference (4 ulp of |u|, μ = 0).
    for m in [-2049.0, -2060.0, -2100.0, -3000.0, -1e6] {
        let want = pbgi_reference::pbgi_lognormal(0.0, 1.0, m, 0.0)
            .unwrap()
            .value;
        let got = pbgi_fast::pbgi_lognormal(0.0, 1.0, m, 0.0);
        assert!(
            ulps(got, want) <= 4,
            "pbgi_lognormal(0, 1, {m:e}, 0) = {got:e}, reference {want:e}"
        );
    }
}

/// `pbgi_lognormal` within 4 ulp of `|μ| + σ·|u| + E[c]/Φ(u)` of the reference (its
/// documented bound), with `σ·u = g - μ` from the reference's `g`; where `E[c]` is beyond
/// f64, `u ≥ 40` and `g - μ = E[c]` to all digits, so the last term is `|g - μ|`.
fn assert_pbgi_lognormal_near_reference(mu: f64, sigma: f64, m: f64, s: f64) {
    let want = pbgi_reference::pbgi_lognormal(mu, sigma, m, s)
        .unwrap()
        .value;
    let got = pbgi_fast::pbgi_lognormal(mu, sigma, m, s);
    let offset = (want - mu).abs().min(f64::MAX);
    let mean = (m + 0.5 * s * s).exp();
    let cost_term = if mean.is_finite() && sigma > 0.0 {
        let u = (want - mu) / sigma;
        if u < -30.0 {
            // E[c]/Φ(u) = σ·h(u)/Φ(u) < σ/|u| for u < 0 (Mills' ratio), and within u⁻² of it;
            // erfc underflows below u ≈ -38, where E[c]/Φ(u) would be ∞ and the bound vacuous.
            sigma / -u
        } else {
            mean / (0.5 * libm::erfc(-u * core::f64::consts::FRAC_1_SQRT_2))
        }
    } else {
        offset
    };
    let scale = (mu.abs() + offset + cost_term).min(f64::MAX);
    assert!(
        (got - want).abs() <= 4.0 * ulp_at(scale),
        "pbgi_lognormal({mu:e}, {sigma:e}, {m:e}, {s:e}) = {got:e}, reference {want:e}"
    );
}

#[test]
fn pbgi_lognormal_in_and_outside_the_regular_range() {
    // Regular: |ln E[c]| < 700 and σ in [1e-280, 1e280], ln E[c] = m + s²/2 with a low part.
    for (m, s) in [
        (-0.3, 0.7),
        (-5.0, 1.5),
        (1.0, 0.1),
        (-40.0, 3.0),
        (2.5, 1.2),
    ] {
        assert_pbgi_lognormal_near_reference(0.5, 1.0, m, s);
        assert_pbgi_lognormal_near_reference(-2.0, 3.0, m, s);
    }
    // σ outside [1e-280, 1e280] (the index from σ' = σ·2^-k and E[c]·2^-k).
    assert_pbgi_lognormal_near_reference(0.0, 1e-300, -690.0, 0.5);
    assert_pbgi_lognormal_near_reference(0.0, 1e300, 690.0, 0.5);
    assert_pbgi_lognormal_near_reference(1e299, 1e300, 692.0, 1.0);
    // ln E[c] beyond ±700 with σ inside the range: E[c] itself under- or overflows.
    assert_pbgi_lognormal_near_reference(0.0, 1e-305, -703.0, 0.0);
    assert_pbgi_lognormal_near_reference(0.0, 1e305, 705.0, 0.5);
    assert_pbgi_lognormal_near_reference(0.0, 1.0, -800.0, 2.0);
    // E[c]/σ ≥ 40 outside the regular range: g = μ + E[c], also where E[c] alone overflows.
    assert_pbgi_lognormal_near_reference(0.0, 1e-300, -600.0, 0.0);
    assert_pbgi_lognormal_near_reference(-f64::MAX, 1e300, 709.9, 0.0);
    assert_pbgi_lognormal_near_reference(-f64::MAX, 1e300, 709.0, 0.5);
}

#[test]
fn pbgi_lognormal_with_sigma_zero_is_mu_plus_the_mean_cost() {
    // σ = 0: g = μ + E[c] rounded once, also where E[c] alone overflows but μ + E[c] does not.
    assert_pbgi_lognormal_near_reference(1.0, 0.0, 0.25, 0.5);
    assert_pbgi_lognormal_near_reference(2.0, 0.0, 700.5, 0.0);
    assert_pbgi_lognormal_near_reference(-f64::MAX, 0.0, 709.9, 0.0);
    assert_pbgi_lognormal_near_reference(-f64::MAX, 0.0, 709.5, 1.0);
    assert_eq!(
        pbgi_fast::pbgi_lognormal(0.0, 0.0, 800.0, 0.0),
        f64::INFINITY
    );
    assert_eq!(
        pbgi_fast::pbgi_lognormal(-f64::MAX, 0.0, 1e4, 0.0),
        f64::INFINITY
    );
    // Invalid: s < 0, NaN m or s, σ < 0; infinite μ or σ: pbgi's special values for E[c].
    let (nan, inf) = (f64::NAN, f64::INFINITY);
    assert!(pbgi_fast::pbgi_lognormal(0.0, 1.0, 0.0, -1.0).is_nan());
    assert!(pbgi_fast::pbgi_lognormal(0.0, 1.0, 0.0, nan).is_nan());
    assert!(pbgi_fast::pbgi_lognormal(0.0, -1.0, 0.0, 1.0).is_nan());
    assert_eq!(pbgi_fast::pbgi_lognormal(inf, 1.0, 0.0, 1.0), inf);
    assert_eq!(pbgi_fast::pbgi_lognormal(0.0, inf, 0.0, 1.0), -inf);
    assert_eq!(pbgi_fast::pbgi_lognormal(0.0, 1.0, 0.0, 1e200), inf);
}

#[test]
fn pbgi_lognormal_keeps_the_low_part_of_ln_mean_cost_in_every_regime() {
    // ln E[c] = m + s²/2 = ±600.045 is rounded with an error up to 2^-44 absolute, which
    // E[c] = exp(l_hi)·(1 + l_lo) carries as a relative low part of hundreds of its ulps:
    // r = E[c]/σ at 1000 (g = μ + E[c]), 10 (the start u = r), 2 (the fitted start), 0.3 and
    // φ0 (the middle regime's two starts), 1e-5 and 1e-15 (log space; 1e-100 with the small
    // cost, where σ = E[c]/r stays inside [1e-280, 1e280]).
    for (m, s, far) in [(599.9f64, 0.3, 1e-15), (-600.09, 0.3, 1e-100)] {
        let mean = (m + 0.5 * s * s).exp();
        for r in [1000.0, 10.0, 2.0, 0.3, 0.3989, 1e-5, far] {
            assert_pbgi_lognormal_near_reference(0.0, mean / r, m, s);
        }
    }
}

#[test]
fn pbgi_lognormal_keeps_the_low_part_of_half_s_squared() {
    // ln E[c] = m + s²/2 where s²/2 is large and inexact, so its low part (up to half an ulp of
    // s²/2, here up to 5.8e-11 for s²/2 ≈ 1e6) is far above ulp(ln E[c]): E[c] carries it as a
    // relative low part of up to 1e-10. r = E[c]/σ through every regime of the solver, and
    // σ = 1e280 where E[c]/σ underflows (u from ln σ - ln E[c], with ln E[c] = l_hi + l_lo).
    for (m, s) in [(-600.0f64, 34.7), (-1e6, 1413.9)] {
        let mean = (m + 0.5 * s * s).exp();
        for r in [1000.0, 10.0, 2.0, 0.3, 0.3989, 1e-5, 1e-15] {
            assert_pbgi_lognormal_near_reference(0.0, mean / r, m, s);
        }
    }
    assert_pbgi_lognormal_near_reference(0.0, 1e280, -1e6, 1413.9);
    assert_pbgi_lognormal_near_reference(1.0, 1e280, -1e6, 1413.9);
}

#[test]
fn pbgi_lognormal_mean_cost_alone_keeps_its_low_part() {
    // g = μ + E[c] formed as exp(l_hi)·(1 + l_lo), l = 599.9 + 0.045 and -600.09 + 0.045
    // (l_lo up to 2^-44, hundreds of ulps of E[c]): σ = 0, and E[c]/σ ≥ 40 outside the regular
    // range (σ = 1e-300).
    assert_pbgi_lognormal_near_reference(0.0, 0.0, 599.9, 0.3);
    assert_pbgi_lognormal_near_reference(1.0, 0.0, 599.9, 0.3);
    assert_pbgi_lognormal_near_reference(0.0, 1e-300, -600.09, 0.3);
    // The same where E[c] = e^709.445 alone is within a factor 2 of overflowing (formed as
    // 2·(μ/2 + exp(l - ln 2))), σ = 0 and σ = 1e300.
    assert_pbgi_lognormal_near_reference(-f64::MAX, 0.0, 709.4, 0.3);
    assert_pbgi_lognormal_near_reference(-f64::MAX, 1e300, 709.4, 0.3);
}

#[test]
fn pbgi_lognormal_at_the_first_cost_of_the_far_lower_solver() {
    // -ln h(u) = 2048 exactly (σ = 1, μ = 0, ln E[c] = -2048, so g = u): the first point of
    // the fixed-point solver for x = -u ≥ 64 (the fitted starts end at v = √(2m) = 64) and the
    // next double of m. There the solver's own bound applies, ≤ 1 ulp (the roundings of
    // m + ln p(x) and of the square root; four contracting steps leave the start's error below
    // 0.001 ulp): a start 0.45 % off the root leaves 2.3 ulps at m = 2048. The double below
    // 2048 is the last of the fitted start with its Halley step (4 ulp, the public bound).
    for (m, n) in [
        (-2048.0, 1),
        (-(2048f64.next_up()), 1),
        (-(2048f64.next_down()), 4),
    ] {
        let want = pbgi_reference::pbgi_lognormal(0.0, 1.0, m, 0.0)
            .unwrap()
            .value;
        let got = pbgi_fast::pbgi_lognormal(0.0, 1.0, m, 0.0);
        assert!(
            ulps(got, want) <= n,
            "pbgi_lognormal(0, 1, {m:e}, 0) = {got:e}, reference {want:e}"
        );
    }
}

#[test]
fn pbgi_lognormal_with_sigma_zero_and_subnormal_terms_adds_them_exactly() {
    // Units of 2^-1074: μ = 3, E[c] = exp(-744.26) = 1.2 (rounded to 1); μ + 1 = 4 is exact (a
    // subnormal sum), within one unit of the reference's correctly rounded 4. Halving first
    // (as where E[c] alone overflows) would round μ/2 = 1.5 to 2 and E[c]/2 = 0.6 to 1: 6.
    let unit = f64::from_bits(1);
    let (mu, m) = (3.0 * unit, -744.26);
    let want = pbgi_reference::pbgi_lognormal(mu, 0.0, m, 0.0)
        .unwrap()
        .value;
    assert_eq!(want, 4.0 * unit);
    let got = pbgi_fast::pbgi_lognormal(mu, 0.0, m, 0.0);
    assert!(
        ulps(got, want) <= 1,
        "pbgi_lognormal = {got:e}, reference {want:e}"
    );
}

#[test]
fn pbgi_lognormal_nan_mu_or_sigma_is_nan() {
    let nan = f64::NAN;
    assert!(pbgi_fast::pbgi_lognormal(0.0, nan, 0.0, 1.0).is_nan());
    assert!(pbgi_fast::pbgi_lognormal(nan, 1.0, 0.0, 1.0).is_nan());
    assert!(pbgi_fast::pbgi_lognormal(nan, 0.0, 0.0, 1.0).is_nan());
    assert!(pbgi_fast::pbgi_lognormal(0.0, nan, 800.0, 0.0).is_nan());
}

#[test]
fn pbgi_lognormal_infinite_mu_or_sigma_with_a_mean_cost_beyond_f64_follow_the_limits() {
    // E[c] = exp(m + s²/2) is a positive finite cost even where it is beyond f64 (e^710,
    // e^-800): μ = ±∞ gives μ, σ = +∞ gives -∞, as pbgi does for every positive finite cost
    // (a cost rounded to ∞ or 0 would make them NaN).
    let inf = f64::INFINITY;
    for (m, s) in [
        (710.0, 0.0),
        (711.0, 0.0),
        (700.0, 4.0),
        (-800.0, 0.0),
        (-750.0, 1.0),
    ] {
        for sigma in [0.0, 1.0, 1e-300, 1e300] {
            assert_eq!(
                pbgi_fast::pbgi_lognormal(-inf, sigma, m, s),
                -inf,
                "{sigma:e} {m} {s}"
            );
            assert_eq!(
                pbgi_fast::pbgi_lognormal(inf, sigma, m, s),
                inf,
                "{sigma:e} {m} {s}"
            );
        }
        assert_eq!(pbgi_fast::pbgi_lognormal(0.0, inf, m, s), -inf, "{m} {s}");
        assert_eq!(pbgi_fast::pbgi_lognormal(-inf, inf, m, s), -inf, "{m} {s}");
        assert!(
            pbgi_fast::pbgi_lognormal(inf, inf, m, s).is_nan(),
            "{m} {s}"
        );
    }
}

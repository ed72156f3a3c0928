//! `pbgi_fast::log_eipc`, `log_eipc_inv` and `log_eipc_exp` where EI or `EI/c` is not a normal
//! double, where `s²/2` overflows or nearly cancels `m`, and at infinite arguments. Each case is
//! checked against the certified reference or the documented limits and names the branch it
//! reaches; found by mutation testing (`proofs-notes/mutants.md`).
mod common;
use common::{assert_log_eipc_inv_near_reference, ulp, ULP_BEYOND_MAX};

/// `log_eipc` within 4 ulp of `max(|LogEIPC|, 1)` of the reference: its error analysis gives
/// ≤ 2.42 ulp of that wherever `EI/c` is a normal f64 (the documented 4 ulp of
/// `max(|LogEIPC|, |ln c|, 1)` is for the difference form beyond).
fn assert_log_eipc_near_reference(mu: f64, sigma: f64, y: f64, cost: f64) {
    let want = pbgi_reference::log_eipc(mu, sigma, y, cost).unwrap().value;
    let got = pbgi_fast::log_eipc(mu, sigma, y, cost);
    let unit = ulp(want.abs().max(1.0));
    assert!(
        (got - want).abs() <= 4.0 * unit,
        "log_eipc({mu:e}, {sigma:e}, {y:e}, {cost:e}) = {got:e}, reference {want:e}"
    );
}

#[test]
fn log_eipc_where_ei_is_not_normal_but_ei_over_c_is() {
    // EI = σ·h(z) is subnormal or underflows, EI/c is an ordinary number: the problem is
    // rescaled by c's power of two (log_eipc_rescaled) so that the result keeps its own ulps;
    // ln EI - ln c would cancel two terms near -700.
    // z < 0, σ in the kernel's range (EI ≈ e^-710, and EI = 0 in f64 at z = -45).
    for (y, cost) in [
        (-37.5, 1e-300),
        (-37.7, 3e-301),
        (-45.0, 1e-320),
        (-40.1, 7e-310),
    ] {
        assert_log_eipc_near_reference(0.0, 1.0, y, cost);
    }
    // z = -112.6/3 is not a float (its low part moves EI by 2.8e-13 relative).
    assert_log_eipc_near_reference(0.0, 3.0, -112.6, 1e-300);
    assert_log_eipc_near_reference(0.0, 0.7, -26.39, 3e-301);
    // z ≈ -62 with σ ≈ 2.8e306 and c subnormal: EI/c ≈ e^-485 is still normal.
    assert_log_eipc_near_reference(0.0, 2.8e306, -1.74e308, 5e-324);
    assert_log_eipc_near_reference(0.0, 2.85e306, -1.78e308, 1e-323);
    // z < 0 with σ above and below the kernel's range (σ moved by 2^±600 into the exponent).
    assert_log_eipc_near_reference(0.0, 1e300, -5.3e301, 1e-300);
    assert_log_eipc_near_reference(0.0, 3.3e290, -1.75e292, 2e-310);
    assert_log_eipc_near_reference(0.0, 1e-300, -1e-299, 1e-305);
    assert_log_eipc_near_reference(0.0, 7e-290, -9.1e-289, 3e-320);
    // σ beyond the exact products' range (2^996 ≈ 6.7e299, where Dekker's split overflows)
    // and subnormal σ (σ·p·e would lose its digits): the moved power of two keeps the kernel
    // exact.
    assert_log_eipc_near_reference(0.0, 1e305, -5.32e306, 1e-310);
    assert_log_eipc_near_reference(0.0, 1e-318, -3e-318, 1e-310);
    // y + μ overflows, y - μ = 0 does not: EI = σ·h(0) is subnormal.
    assert_log_eipc_near_reference(1e308, 1e-310, 1e308, 1e-300);
    // z ≥ 0 with σ and y - μ subnormal: EI(μ, σ; y) = 2^k·EI(μ/2^k, σ/2^k; y/2^k).
    assert_log_eipc_near_reference(0.0, 1e-320, 1e-320, 1e-310);
    assert_log_eipc_near_reference(3e-321, 2e-321, 5e-321, 3e-315);
    assert_log_eipc_near_reference(0.0, 4e-310, 0.0, 1e-300);
}

#[test]
fn log_eipc_where_ei_over_c_is_not_a_normal_number() {
    // EI normal, EI/c subnormal (c = 1e308): ln of a subnormal ratio would lose its digits.
    assert_log_eipc_near_reference(0.0, 1e-15, 0.0, 1e308);
    assert_log_eipc_near_reference(0.0, 1.0, 0.0, 1e308);
    // EI/c overflows (c subnormal), and EI itself overflows (y - μ = 2e308).
    assert_log_eipc_near_reference(0.0, 1.0, 3.0, 1e-320);
    assert_log_eipc_near_reference(-1e308, 1.0, 1e308, 4.0);
    // EI normal, EI/c beyond f64::MAX with z < 0: the rescaled EI overflows too.
    assert_log_eipc_near_reference(0.0, 1.0, -0.5, 1e-320);
    // z far below -120 (EI ≈ e^-20000, and z² beyond f64 at z = -1e160): the difference form.
    assert_log_eipc_near_reference(0.0, 1.0, -200.0, 1e-300);
    assert_log_eipc_near_reference(0.0, 1.0, -1e12, 1e-300);
    // σ/2^k too small for the rescaled problem (σ' < 1e-289): the difference form.
    assert_log_eipc_near_reference(0.0, 5e-324, 5e-324, 1e-20);
    // The ratio form itself.
    assert_log_eipc_near_reference(0.0, 1.0, -30.0, 1e-200);
    assert_log_eipc_near_reference(2.0, 0.5, 1.0, 3e-4);
}

#[test]
fn log_eipc_inv_and_exp_keep_the_low_part_of_s_squared() {
    // m ∓ s²/2 ≈ 0.3 while m and s²/2 are near 1000: the low part of s²/2 (up to 5.7e-14) is
    // many ulps of the result (≈ -1.22), whose bound is 4 ulp of max(|LogEI|, |m ∓ s²/2|,
    // |result|, 1).
    let s = 44.721_359_549_995_79; // s²/2 ≈ 1000
    for (m, inv) in [(1000.3, true), (-1000.3, false), (999.1, true)] {
        let (got, want) = if inv {
            let want = pbgi_reference::log_eipc_inv(0.0, 1.0, 0.0, m, s)
                .unwrap()
                .value;
            (pbgi_fast::log_eipc_inv(0.0, 1.0, 0.0, m, s), want)
        } else {
            let want = pbgi_reference::log_eipc_exp(0.0, 1.0, 0.0, m, s)
                .unwrap()
                .value;
            (pbgi_fast::log_eipc_exp(0.0, 1.0, 0.0, m, s), want)
        };
        let unit = ulp(want.abs().max(1.0));
        assert!(
            (got - want).abs() <= 4.0 * unit,
            "m = {m}, inv = {inv}: {got:e}, reference {want:e}"
        );
    }
}

#[test]
fn log_eipc_inv_and_exp_with_infinite_arguments_follow_the_limits() {
    use pbgi_fast::{log_eipc_exp, log_eipc_inv};
    let inf = f64::INFINITY;
    // m = ±∞ or s = ∞ with a finite LogEI: LogEI - m ± s²/2.
    assert_eq!(log_eipc_inv(0.0, 1.0, 0.0, inf, 1.0), -inf);
    assert_eq!(log_eipc_inv(0.0, 1.0, 0.0, -inf, 1.0), inf);
    assert_eq!(log_eipc_exp(0.0, 1.0, 0.0, inf, 1.0), -inf);
    assert_eq!(log_eipc_inv(0.0, 1.0, 0.0, 0.0, inf), inf);
    assert_eq!(log_eipc_exp(0.0, 1.0, 0.0, 0.0, inf), -inf);
    // LogEI = -∞ (μ = +∞, EI = 0) with finite m, s: -∞ (s = 0 included).
    assert_eq!(log_eipc_inv(inf, 1.0, 0.0, 0.0, 0.0), -inf);
    assert_eq!(log_eipc_exp(inf, 1.0, 0.0, 0.0, 0.0), -inf);
    assert_eq!(log_eipc_inv(inf, 1.0, 0.0, 0.0, 1.5e154), -inf);
    // LogEI = +∞ (σ = ∞, y = ∞, μ = -∞) with finite m, s: +∞.
    assert_eq!(log_eipc_exp(0.0, inf, 0.0, 0.0, 1.0), inf);
    assert_eq!(log_eipc_exp(0.0, 1.0, inf, 0.0, 1.0), inf);
    assert_eq!(log_eipc_exp(-inf, 1.0, 0.0, 0.0, 1.0), inf);
    assert_eq!(log_eipc_inv(0.0, inf, 0.0, 0.0, 1.0), inf);
}

#[test]
fn log_eipc_inv_and_exp_where_s_squared_overflows() {
    use pbgi_fast::{log_eipc_exp, log_eipc_inv};
    // s²/8 overflows too: the result is beyond ±3·f64::MAX.
    assert_eq!(log_eipc_exp(0.0, 1.0, 0.0, 0.0, 1e200), f64::NEG_INFINITY);
    assert_eq!(log_eipc_inv(0.0, 1.0, 0.0, 0.0, 1e200), f64::INFINITY);
    // LogEI-exp where LogEI and -s²/2 are both below -f64::MAX: -∞ (they add).
    assert_eq!(
        log_eipc_exp(0.0, 1.0, -2e154, 0.0, 2e154),
        f64::NEG_INFINITY
    );
    // s²/2 overflows, the result does not: quartered, against the reference (4 ulp of the
    // largest term, as documented; the terms are beyond f64::MAX).
    let far = Some(ULP_BEYOND_MAX);
    // LogEI ≈ -1.1e308 finite, s²/2 ≈ 1.8e308, m = 5e307.
    assert_log_eipc_inv_near_reference(0.0, 1.0, -1.5e154, 5e307, 1.9e154, far);
    // LogEI = -∞ in f64 (x²/2 just beyond f64::MAX) and s < 2^500: LogEI/4 from the far-left
    // parts; s²/2 ≈ 4.5e300 brings the result back to ≈ -1.7976e308.
    assert_log_eipc_inv_near_reference(0.0, 1.0, -1.896_150_39e154, 0.0, 3e150, far);
    // The same with x = 0x1.6a09e68p512 (26 bits): x²/8 is exact, its low part 0.
    assert_log_eipc_inv_near_reference(0.0, 1.0, -1.896_150_389_128_985_2e154, 0.0, 3e150, far);
    // LogEI-exp with s²/2 ≈ 1.8e308 overflowing and m = -1.5e308: ≈ -3e307.
    let want = pbgi_reference::log_eipc_exp(0.0, 1.0, 0.0, -1.5e308, 1.9e154)
        .unwrap()
        .value;
    let got = log_eipc_exp(0.0, 1.0, 0.0, -1.5e308, 1.9e154);
    assert!(
        (got - want).abs() <= 4.0 * ULP_BEYOND_MAX,
        "log_eipc_exp = {got:e}, reference {want:e}"
    );
}

//! LogEI-inv where `-z²/2` and `s²/2` both lie beyond f64's range and cancel to an ordinary
//! number: the result must be accurate to its own ulps, against the certified reference.
mod common;
use common::{assert_log_eipc_inv_near_reference, ulp, ULP_BEYOND_MAX};
use pbgi_fast::log_eipc_inv;

fn assert_within_4_ulp_of_reference(mu: f64, sigma: f64, y: f64, m: f64, s: f64) {
    let want = pbgi_reference::log_eipc_inv(mu, sigma, y, m, s)
        .unwrap()
        .value;
    let got = log_eipc_inv(mu, sigma, y, m, s);
    assert!(
        (got - want).abs() <= 4.0 * ulp(want),
        "log_eipc_inv({mu:e}, {sigma:e}, {y:e}, {m:e}, {s:e}) = {got:e}, reference {want:e}"
    );
}

#[test]
fn squares_beyond_f64_max_cancel_to_a_small_result() {
    // z = -2e154, s = 2e154: LogEI ≈ -2e308 and s²/2 ≈ 2e308 cancel exactly in the squares,
    // leaving -ln z² - ln √(2π) ≈ -711.5 (the reference's value; the quartered sum returned
    // 2.4e291, the rounding of LogEI/4).
    let want = pbgi_reference::log_eipc_inv(0.0, 1.0, -2e154, 0.0, 2e154)
        .unwrap()
        .value;
    assert!((-712.0..-711.0).contains(&want), "reference {want}");
    assert_within_4_ulp_of_reference(0.0, 1.0, -2e154, 0.0, 2e154);
    // Just above the overflow of z²/2 (z ≈ 1.9e154), and with a z that is not a float.
    assert_within_4_ulp_of_reference(0.0, 1.0, -1.9e154, 0.25, 1.9e154);
    assert_within_4_ulp_of_reference(0.0, 3.0, -6.3e154, -1.0, 2.1e154);
    // Not cancelling: s a little below |z|, the result ≈ -(z² - s²)/2 ≈ -4e306.
    assert_within_4_ulp_of_reference(0.0, 1.0, -2e154, 0.0, 1.99e154);
}

#[test]
fn log_eipc_inv_cancels_huge_terms_through_the_far_left_form() {
    // LogEI < -f64::MAX and s²/2 > f64::MAX, cancelling: -z²/2 + s²/2 + ln σ - ln z² - ln √(2π).
    // x = 2e154: LogEI/4 and s²/8 finite; the documented bound is relative to |LogEI| > MAX.
    let far = Some(ULP_BEYOND_MAX);
    assert_log_eipc_inv_near_reference(0.0, 1.0, -2e154, 0.0, 2e154, far);
    // z = -6.3e154/3 is not a float: its low part matters.
    assert_log_eipc_inv_near_reference(0.0, 3.0, -6.3e154, 0.0, 2.1e154, far);
    // y - μ = -2e308 overflows: the problem is quartered first.
    assert_log_eipc_inv_near_reference(1e308, 1e154, -1e308, 0.0, 2e154, far);
    // x = 1e200: both quarters overflow, (s - x)(s + x)/2 is formed from exact sums, and the
    // result (≈ -921) is accurate to its own ulps.
    assert_log_eipc_inv_near_reference(0.0, 1.0, -1e200, 0.5, 1e200, None);
    assert_log_eipc_inv_near_reference(0.0, 4.0, -4e200, 0.5, 1e200, None);
    assert_log_eipc_inv_near_reference(0.0, 3.0, -3.3e200, 0.5, 1.1e200, far);
    // y - μ = -2^1024 overflows and z = -2^624 exactly: quartered, then the exact form.
    let (big, sigma, x) = (2f64.powi(1023), 2f64.powi(400), 2f64.powi(624));
    assert_log_eipc_inv_near_reference(big, sigma, -big, 0.5, x, None);
}

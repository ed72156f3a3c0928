//! LogEI-inv where `-z²/2` and `s²/2` both lie beyond f64's range and cancel to an ordinary
//! number: the result must be accurate to its own ulps, against the certified reference.
use pbgi_fast::log_eipc_inv;

/// The spacing of f64 values at `v` (finite, normal).
fn ulp(v: f64) -> f64 {
    let a = v.abs();
    f64::from_bits(a.to_bits() + 1) - a
}

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

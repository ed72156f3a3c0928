//! Helpers shared by the fast crate's integration tests: distances in ulps, the spacing of
//! doubles, `h(0)`, and the checks against the certified reference that several files make.
// Each test file uses some of these.
#![allow(dead_code)]

/// Distance in ulps between two finite f64 of the same sign (0 for equal values).
pub fn ulps(a: f64, b: f64) -> u64 {
    (a.to_bits() as i64 - b.to_bits() as i64).unsigned_abs()
}

/// The spacing of f64 values at `v` (finite, normal).
pub fn ulp(v: f64) -> f64 {
    let a = v.abs();
    f64::from_bits(a.to_bits() + 1) - a
}

/// The spacing of f64 values at `|v|` (`2^(e-52)` for `|v|` in `[2^e, 2^(e+1))`, finite also at
/// `f64::MAX`; the smallest subnormal below `2^-1022`).
pub fn ulp_at(v: f64) -> f64 {
    let power = f64::from_bits(v.abs().to_bits() & 0x7ff0_0000_0000_0000);
    (power * 2f64.powi(-52)).max(f64::from_bits(1))
}

/// `1/√(2π) = h(0)`, correctly rounded.
pub const H0: f64 = 0.398_942_280_401_432_7;

/// ulp of a magnitude beyond `f64::MAX` (as the accuracy scan: the ulp of `f64::MAX`, `2^971`).
pub const ULP_BEYOND_MAX: f64 = 1.995_840_309_534_719_8e292;

/// `got` within `n` ulps of the reference's correctly rounded LogEI.
pub fn assert_log_ei_near_reference(mu: f64, sigma: f64, y: f64, n: u64) {
    let want = pbgi_reference::log_ei(mu, sigma, y).unwrap().value;
    let got = pbgi_fast::log_ei(mu, sigma, y);
    assert!(
        ulps(got, want) <= n,
        "log_ei({mu:e}, {sigma:e}, {y:e}) = {got:e}, reference {want:e}"
    );
}

/// `LogEIPC-inv` against the reference: within 4 ulps of `scale` (its documented bound: 4 ulp
/// of `max(|LogEI|, |m - s²/2|, |result|)`); `scale = None` asks for 4 ulps of the result.
pub fn assert_log_eipc_inv_near_reference(
    mu: f64,
    sigma: f64,
    y: f64,
    m: f64,
    s: f64,
    scale: Option<f64>,
) {
    let want = pbgi_reference::log_eipc_inv(mu, sigma, y, m, s)
        .unwrap()
        .value;
    let got = pbgi_fast::log_eipc_inv(mu, sigma, y, m, s);
    let ok = match scale {
        None => ulps(got, want) <= 4,
        Some(unit) => (got - want).abs() <= 4.0 * unit,
    };
    assert!(
        ok,
        "log_eipc_inv({mu:e}, {sigma:e}, {y:e}, {m:e}, {s:e}) = {got:e}, reference {want:e}"
    );
}

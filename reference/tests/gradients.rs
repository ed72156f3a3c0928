//! Source of truth: the certified values themselves, through convexity. A convex function's
//! derivative lies between its backward and forward secant slopes, `(f(a) - f(a-δ))/δ ≤ f'(a) ≤
//! (f(a+δ) - f(a))/δ` (reversed for a concave one), and the certified enclosures of the values
//! turn that into a rigorous bracket that each certified derivative must meet:
//! * `EI(μ, σ; y) = σ·h((y - μ)/σ)` is jointly convex in `(μ, σ)` (the perspective of the convex
//!   `h`);
//! * `LogEI` is concave in `μ` (`h` is log-concave);
//! * PBGI is concave in `(σ, c)`: its hypograph `{t ≤ g} = {EI(μ, σ; t) ≤ c}` is convex because
//!   EI is convex in `(σ, t)` and increasing in `t`.
//!
//! The brackets are narrow (relative width ~1e-6 at the chosen steps), so a wrong formula, a
//! wrong sign or a wrong branch fails them. Also: the `σ = 0` conventions and errors of the
//! rustdoc, and `Certified::lower_f64`/`upper_f64`.

use pbgi_reference::{
    ei, ei_grad, log_ei, log_ei_grad, log_ndtr, pbgi, pbgi_grad, Certified, Error, Float,
};
use rug::float::Round;

const P: u32 = 300;

/// `[lo, hi]` bounds of `(f(b) - f(a))/(b - a)` for `a < b` from certified values.
fn secant(fa: &Certified, fb: &Certified, a: f64, b: f64) -> (Float, Float) {
    let step = Float::with_val(P, b) - Float::with_val(P, a);
    let lo = Float::with_val_round(P, &fb.lower - &fa.upper, Round::Down).0;
    let hi = Float::with_val_round(P, &fb.upper - &fa.lower, Round::Up).0;
    (
        Float::with_val_round(P, &lo / &step, Round::Down).0,
        Float::with_val_round(P, &hi / &step, Round::Up).0,
    )
}

/// Checks `d` against the secant bracket around `a` of a convex (`convex = true`) or concave
/// function `f`, and that the bracket is narrow enough (relative `rel`) to mean something.
fn check_derivative(
    what: &str,
    d: &Certified,
    a: f64,
    step: f64,
    convex: bool,
    rel: f64,
    f: impl Fn(f64) -> Result<Certified, Error>,
) {
    let (am, ap) = (a - step, a + step);
    let (fm, f0, fp) = (f(am).unwrap(), f(a).unwrap(), f(ap).unwrap());
    let (back_lo, back_hi) = secant(&fm, &f0, am, a);
    let (fwd_lo, fwd_hi) = secant(&f0, &fp, a, ap);
    // convex: back ≤ f' ≤ fwd; concave: fwd ≤ f' ≤ back.
    let (below, above) = if convex {
        (back_lo, fwd_hi)
    } else {
        (fwd_lo, back_hi)
    };
    assert!(
        d.upper >= below && d.lower <= above,
        "{what}: derivative [{}, {}] outside the secant bracket [{below:e}, {above:e}]",
        d.lower_decimal(20),
        d.upper_decimal(20)
    );
    let width = Float::with_val(64, &above - &below).to_f64();
    assert!(
        width <= rel * d.value.abs(),
        "{what}: secant bracket [{below:e}, {above:e}] too wide for {:e}",
        d.value
    );
}

/// `(μ, σ, y)` over the regimes of `z = (y - μ)/σ`: -30, -5, -1.5, -0.2, 0, 0.7, 4, and 3 with
/// `|μ| = 1e5·σ`.
const EI_CASES: [(f64, f64, f64); 8] = [
    (30.0, 1.0, 0.0),
    (0.0, 2.0, -10.0),
    (1.0, 0.5, 0.25),
    (0.0, 1.0, -0.2),
    (3.0, 0.7, 3.0),
    (-2.0, 1.0, -1.3),
    (0.0, 0.25, 1.0),
    (-1e3, 1e-2, -999.97),
];

/// A step small enough for the secants to agree to about 1e-7 relative: the derivatives vary
/// on the scale `σ/(1 + z²)`.
fn step_for(mu: f64, sigma: f64, y: f64) -> f64 {
    let z = (y - mu) / sigma;
    1e-7 * sigma / (1.0 + z * z)
}

#[test]
fn ei_grad_lies_between_secants_of_the_convex_ei() {
    for (mu, sigma, y) in EI_CASES {
        let g = ei_grad(mu, sigma, y).unwrap();
        let at = format!("ei_grad({mu}, {sigma}, {y})");
        let step = step_for(mu, sigma, y);
        check_derivative(&format!("{at}.d_mu"), &g.d_mu, mu, step, true, 1e-5, |m| {
            ei(m, sigma, y)
        });
        check_derivative(
            &format!("{at}.d_sigma"),
            &g.d_sigma,
            sigma,
            step,
            true,
            1e-5,
            |s| ei(mu, s, y),
        );
    }
}

#[test]
fn log_ei_grad_d_mu_lies_between_secants_of_the_concave_log_ei() {
    for (mu, sigma, y) in EI_CASES {
        let g = log_ei_grad(mu, sigma, y).unwrap();
        check_derivative(
            &format!("log_ei_grad({mu}, {sigma}, {y}).d_mu"),
            &g.d_mu,
            mu,
            step_for(mu, sigma, y),
            false,
            1e-5,
            |m| log_ei(m, sigma, y),
        );
    }
}

#[test]
fn log_ei_grad_d_sigma_is_d_ei_over_ei() {
    // ∂ ln EI/∂σ = (∂EI/∂σ)/EI, both sides certified: the enclosures must overlap.
    for (mu, sigma, y) in EI_CASES {
        let (g, d, e) = (
            log_ei_grad(mu, sigma, y).unwrap().d_sigma,
            ei_grad(mu, sigma, y).unwrap().d_sigma,
            ei(mu, sigma, y).unwrap(),
        );
        let lo = Float::with_val_round(P, &d.lower / &e.upper, Round::Down).0;
        let hi = Float::with_val_round(P, &d.upper / &e.lower, Round::Up).0;
        assert!(
            g.lower <= hi && g.upper >= lo,
            "log_ei_grad({mu}, {sigma}, {y}).d_sigma [{}, {}] vs [{lo:e}, {hi:e}]",
            g.lower_decimal(20),
            g.upper_decimal(20)
        );
    }
}

/// `(μ, σ, c)` over the solver's regimes: `u ≈ -37, -8, -2, -0.5, 0.3, 2, 10`.
const PBGI_CASES: [(f64, f64, f64); 8] = [
    (0.0, 1.0, 1e-300),
    (1.5, 2.0, 1e-14),
    (-3.0, 0.5, 4e-3),
    (0.0, 1.0, 0.2),
    (10.0, 3.0, 1.5),
    (0.0, 1.0, 2.0),
    (-1e3, 1e-2, 1e-3),
    (2.0, 0.25, 0.1),
];

#[test]
fn pbgi_grad_lies_between_secants_of_the_concave_index() {
    for (mu, sigma, cost) in PBGI_CASES {
        let g = pbgi_grad(mu, sigma, cost).unwrap();
        let at = format!("pbgi_grad({mu}, {sigma}, {cost})");
        assert_eq!(g.d_mu.value, 1.0, "{at}.d_mu");
        assert!(g.d_mu.lower == 1 && g.d_mu.upper == 1, "{at}.d_mu exact");
        check_derivative(
            &format!("{at}.d_cost"),
            &g.d_cost,
            cost,
            1e-7 * cost,
            false,
            1e-4,
            |c| pbgi(mu, sigma, c),
        );
        check_derivative(
            &format!("{at}.d_sigma"),
            &g.d_sigma,
            sigma,
            1e-7 * sigma,
            false,
            1e-4,
            |s| pbgi(mu, s, cost),
        );
    }
}

fn is_point(c: &Certified, v: f64) -> bool {
    c.value.to_bits() == v.to_bits() && c.lower == v && c.upper == v
}

#[test]
fn sigma_zero_gradients_follow_the_documented_conventions() {
    // EI = max(y - μ, 0): ∂/∂μ = -1 above, 0 below; ∂/∂σ (one-sided) = 0.
    let g = ei_grad(1.0, 0.0, 3.0).unwrap();
    assert!(is_point(&g.d_mu, -1.0) && is_point(&g.d_sigma, 0.0));
    let g = ei_grad(3.0, 0.0, 1.0).unwrap();
    assert!(is_point(&g.d_mu, 0.0) && is_point(&g.d_sigma, 0.0));
    // LogEI = ln(y - μ): ∂/∂μ = -1/(y - μ) = -1/3 correctly rounded.
    let g = log_ei_grad(1.0, 0.0, 4.0).unwrap();
    assert_eq!(g.d_mu.value, -1.0 / 3.0);
    let (lo3, hi3) = (
        Float::with_val(P, &g.d_mu.lower * 3u32),
        Float::with_val(P, &g.d_mu.upper * 3u32),
    );
    assert!(lo3 <= -1 && -1 <= hi3, "-1/3 enclosed");
    assert!(is_point(&g.d_sigma, 0.0));
    // PBGI = μ + c: (1, 0, 1).
    let g = pbgi_grad(2.0, 0.0, 0.5).unwrap();
    assert!(is_point(&g.d_mu, 1.0) && is_point(&g.d_sigma, 0.0) && is_point(&g.d_cost, 1.0));
}

#[test]
fn derivatives_that_do_not_exist_are_errors() {
    let not_differentiable = |r: Result<_, Error>, function: &str| match r {
        Err(Error::NotDifferentiable { function: f, .. }) => assert_eq!(f, function),
        Err(e) => panic!("{function}: expected NotDifferentiable, got {e}"),
        Ok(_) => panic!("{function}: expected NotDifferentiable, got a value"),
    };
    not_differentiable(ei_grad(2.0, 0.0, 2.0).map(|_| ()), "ei_grad");
    not_differentiable(log_ei_grad(2.0, 0.0, 2.0).map(|_| ()), "log_ei_grad");
    not_differentiable(log_ei_grad(2.0, 0.0, 1.0).map(|_| ()), "log_ei_grad");
    let message = ei_grad(0.0, 0.0, 0.0).unwrap_err().to_string();
    assert!(message.contains("kink"), "{message}");
}

#[test]
fn negative_results_below_every_double_round_to_minus_zero() {
    // Φ(-40) ≈ 4e-350, ln Φ(40) ≈ -4e-350, φ(u)/Φ(u) at u ≈ 30 ≈ 1.5e-196 (a normal double).
    let g = ei_grad(0.0, 1.0, -40.0).unwrap();
    assert!(g.d_mu.value == 0.0 && g.d_mu.value.is_sign_negative());
    assert!(g.d_sigma.value == 0.0 && g.d_sigma.value.is_sign_positive());
    let l = log_ndtr(40.0).unwrap();
    assert!(l.value == 0.0 && l.value.is_sign_negative() && l.upper < 0);
    let far = log_ndtr(1e10).unwrap();
    assert!(far.value == 0.0 && far.value.is_sign_negative());
    let g = pbgi_grad(0.0, 1.0, 1e10).unwrap();
    assert!(g.d_sigma.value == 0.0 && g.d_sigma.value.is_sign_negative());
    assert_eq!(g.d_cost.value, 1.0);
}

#[test]
fn f64_bounds_round_outward() {
    // A point enclosure: both bounds are the value.
    let e = ei(0.0, 0.0, 0.5).unwrap();
    assert_eq!((e.lower_f64(), e.upper_f64()), (0.5, 0.5));
    // A typical value: the two f64 bounds bracket it, one ulp apart at most on each side.
    let e = ei(0.0, 1.0, 0.0).unwrap();
    assert!(e.lower_f64() < e.upper_f64());
    assert!(e.lower_f64() <= e.value && e.value <= e.upper_f64());
    assert!(e.lower_f64() <= e.lower && e.upper <= e.upper_f64());
    // Below every double: [0, 2^-1074].
    let e = ei(0.0, 1.0, -40.0).unwrap();
    assert_eq!((e.lower_f64(), e.upper_f64()), (0.0, f64::from_bits(1)));
    // Beyond f64's range: the bound toward zero is ±MAX, the other ±inf.
    let l = log_ndtr(-1e300).unwrap();
    assert_eq!(l.value, f64::NEG_INFINITY);
    assert_eq!(
        (l.lower_f64(), l.upper_f64()),
        (f64::NEG_INFINITY, -f64::MAX)
    );
    // A negative value below every double: [-2^-1074, -0].
    let l = log_ndtr(40.0).unwrap();
    assert_eq!(l.lower_f64(), -f64::from_bits(1));
    assert!(l.upper_f64() == 0.0 && l.upper_f64().is_sign_negative());
    // -inf exactly (LogEI with EI = 0): both bounds -inf.
    let l = log_ei(1.0, 0.0, 0.5).unwrap();
    assert_eq!(
        (l.lower_f64(), l.upper_f64()),
        (f64::NEG_INFINITY, f64::NEG_INFINITY)
    );
}

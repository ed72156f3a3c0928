//! Gradients against central differences of the certified reference (MPFR enclosures of
//! relative width 2^-100, so the difference quotient is limited only by its O(δ²) truncation),
//! and against the reference's certified gradients (`pbgi_reference::ei_grad`, `log_ei_grad`,
//! `pbgi_grad`) over every branch of the fast code, with the documented special values.
mod common;
use common::{ulp_at, H0};
use pbgi_reference::{Certified, Error, Float};

const PREC: u32 = 300;

fn mid(c: &Certified) -> Float {
    Float::with_val(PREC, &c.lower + &c.upper) / 2
}

/// Central difference of `f` in one argument: `(f(a+) - f(a-))/(a+ - a-)` with `a± = a ± step`
/// rounded to f64 (the quotient uses the exact f64 step).
fn central(a: f64, step: f64, f: impl Fn(f64) -> Result<Certified, Error>) -> f64 {
    let (ap, am) = (a + step, a - step);
    let (fp, fm) = (mid(&f(ap).unwrap()), mid(&f(am).unwrap()));
    let step = Float::with_val(PREC, ap) - Float::with_val(PREC, am);
    ((fp - fm) / step).to_f64()
}

fn close(got: f64, want: f64, rel: f64) -> bool {
    (got - want).abs() <= rel * want.abs()
}

/// (μ, σ, c) over the solver's regimes: u ≈ -37, -8, -2, -0.5, 0.3, 2, 10.
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
fn pbgi_grad_matches_reference_differences() {
    for &(mu, sigma, cost) in &PBGI_CASES {
        let g = pbgi_fast::pbgi_grad(mu, sigma, cost);
        let dc = central(cost, 1e-7 * cost, |c| pbgi_reference::pbgi(mu, sigma, c));
        let ds = central(sigma, 1e-7 * sigma, |s| pbgi_reference::pbgi(mu, s, cost));
        assert!(
            close(g.d_cost, dc, 1e-8),
            "d_cost at ({mu}, {sigma}, {cost}): {} vs {dc}",
            g.d_cost
        );
        assert!(
            close(g.d_sigma, ds, 1e-8),
            "d_sigma at ({mu}, {sigma}, {cost}): {} vs {ds}",
            g.d_sigma
        );
        assert_eq!(g.d_mu, 1.0);
    }
}

/// (μ, σ, y) with z ≈ -30, -5, -1.5, -0.2, 0.7, 4.
const EI_CASES: [(f64, f64, f64); 6] = [
    (30.0, 1.0, 0.0),
    (0.0, 2.0, -10.0),
    (1.0, 0.5, 0.25),
    (0.0, 1.0, -0.2),
    (-1.0, 1e-3, -0.9993),
    (0.0, 0.25, 1.0),
];

#[test]
fn ei_and_log_ei_grads_match_reference_differences() {
    for &(mu, sigma, y) in &EI_CASES {
        let g = pbgi_fast::ei_grad(mu, sigma, y);
        let lg = pbgi_fast::log_ei_grad(mu, sigma, y);
        // Differentiate through y (EI depends on y - μ only, and μ may be 0).
        let h = 1e-7 * sigma;
        let dy = central(y, h, |yy| pbgi_reference::ei(mu, sigma, yy));
        let ds = central(sigma, h, |s| pbgi_reference::ei(mu, s, y));
        let ldy = central(y, h, |yy| pbgi_reference::log_ei(mu, sigma, yy));
        let lds = central(sigma, h, |s| pbgi_reference::log_ei(mu, s, y));
        assert!(
            close(g.d_mu, -dy, 1e-8),
            "ei d_mu at ({mu}, {sigma}, {y}): {} vs {}",
            g.d_mu,
            -dy
        );
        assert!(
            close(g.d_sigma, ds, 1e-8),
            "ei d_sigma at ({mu}, {sigma}, {y}): {} vs {ds}",
            g.d_sigma
        );
        assert!(
            close(lg.d_mu, -ldy, 1e-8),
            "log_ei d_mu at ({mu}, {sigma}, {y}): {} vs {}",
            lg.d_mu,
            -ldy
        );
        assert!(
            close(lg.d_sigma, lds, 1e-8),
            "log_ei d_sigma at ({mu}, {sigma}, {y}): {} vs {lds}",
            lg.d_sigma
        );
    }
}

#[test]
fn log_ei_grad_is_finite_where_ei_underflows() {
    // z = -60: EI = 0 in f64, LogEI ≈ -1804; ∂/∂μ = -Φ/(σh) ≈ -z·(1 + …) > 0 in magnitude.
    let g = pbgi_fast::log_ei_grad(60.0, 1.0, 0.0);
    let dy = central(0.0, 1e-7, |yy| pbgi_reference::log_ei(60.0, 1.0, yy));
    assert!(close(g.d_mu, -dy, 1e-6), "{} vs {}", g.d_mu, -dy);
}

#[test]
fn sigma_zero_gradients_are_the_one_sided_limits() {
    let g = pbgi_fast::pbgi_grad(1.0, 0.0, 0.5);
    assert_eq!((g.value, g.d_mu, g.d_sigma, g.d_cost), (1.5, 1.0, 0.0, 1.0));
    let e = pbgi_fast::ei_grad(0.0, 0.0, 2.0);
    assert_eq!((e.value, e.d_mu, e.d_sigma), (2.0, -1.0, 0.0));
}

/// A gradient column within its documented bound of the certified, correctly rounded one:
/// relative `1e-15·(1 + z²)` (`z`, or `u`, rounded before `φ`, `Φ`, `h` are formed; `|z|` capped
/// at 40, beyond which the conditioning stops growing: `conformance/src/tolerances.rs`) plus one
/// ulp for the rounding of the reference. Infinite and zero references are matched exactly.
fn assert_gradient_near(what: &str, got: f64, want: f64, z: f64) {
    if want == 0.0 || want.is_infinite() {
        assert_eq!(got, want, "{what}: {got:e}, reference {want:e}");
        return;
    }
    let zc = z.abs().min(40.0);
    let tol = 1e-15 * (1.0 + zc * zc) * want.abs() + ulp_at(want);
    assert!(
        (got - want).abs() <= tol,
        "{what}: {got:e}, reference {want:e} (z = {z:e})"
    );
}

#[test]
fn ei_and_log_ei_gradients_over_their_branches_against_the_certified_ones() {
    // z = (y - μ)/σ on both sides of each branch point: z < -1 (Φ from the tail ratio p) and
    // z ≥ -1 (erfc), for LogEI z below -1e8 (the series x + 2/x, x² + 3), z above 37 with a
    // subnormal σ (φ/h as three factors), z above 1e8 (-1/(y - μ)), and y - μ overflowing.
    let cases: [(f64, f64, f64); 23] = [
        (1.0, 1.0, 0.0),
        (1.0, 1.0, 0.0 - 1e-9),
        (1.0, 1.0, 1e-9),
        (0.0, 1.0, -1.5),
        (0.0, 2.0, -10.0),
        (0.0, 1.0, -30.0),
        (0.0, 1.0, -37.0),
        (0.0, 1.0, 0.0),
        (0.0, 0.5, 2.5),
        (0.0, 1.0, 36.9),
        (0.0, 1.0, 37.5),
        (0.0, 1e-300, 4e-299),
        (0.0, 1e-320, 5e-319),
        (0.0, 1e-10, -1.0),
        (0.0, 1.0, -2e8),
        // Beyond x = 1.3e154 p(x) is 0 in f64 (x² overflows), so only the series gives Φ/h;
        // LogEI itself is -∞ in f64 there, its derivatives are not.
        (0.0, 1.0, -1e200),
        (0.0, 1.0, -5e7),
        (0.0, 1e-300, 1e-290),
        (0.0, 1.0, 2e8),
        (-1e308, 1e308, 1e308),
        (1e308, 1e308, -1e308),
        (-1e308, 1e-300, 1e308),
        (1.5, 1e-3, 1.5),
    ];
    for (mu, sigma, y) in cases {
        let z = (0.5 * y - 0.5 * mu) / sigma * 2.0;
        let want = pbgi_reference::ei_grad(mu, sigma, y).unwrap();
        let got = pbgi_fast::ei_grad(mu, sigma, y);
        let at = format!("ei_grad({mu:e}, {sigma:e}, {y:e})");
        assert_gradient_near(&format!("{at}.d_mu"), got.d_mu, want.d_mu.value, z);
        assert_gradient_near(&format!("{at}.d_sigma"), got.d_sigma, want.d_sigma.value, z);
        let want = pbgi_reference::log_ei_grad(mu, sigma, y).unwrap();
        let got = pbgi_fast::log_ei_grad(mu, sigma, y);
        let at = format!("log_ei_grad({mu:e}, {sigma:e}, {y:e})");
        assert_gradient_near(&format!("{at}.d_mu"), got.d_mu, want.d_mu.value, z);
        assert_gradient_near(&format!("{at}.d_sigma"), got.d_sigma, want.d_sigma.value, z);
    }
}

#[test]
fn pbgi_gradient_over_its_branches_against_the_certified_one() {
    // u < -1 (the tail ratio; 1/Φ(u) = ratio·√(2π)·e^{x²/2} up to its overflow near u = -37.5)
    // and u ≥ -1 (erfc), with σ and c of every size.
    let cases: [(f64, f64, f64); 12] = [
        (0.0, 1.0, 0.083),
        (0.0, 1.0, 0.084),
        (0.0, 1.0, 0.3),
        (1.0, 2.0, 5.0),
        (0.0, 1.0, 1e-5),
        (0.0, 1.0, 1e-100),
        (0.0, 1.0, 1e-300),
        (0.0, 1e10, 1e-300),
        (-2.0, 1e-300, 1e-305),
        (0.0, 1e300, 1e280),
        (5.0, 3.0, 60.0),
        (0.0, 1.0, 1e-320),
    ];
    for (mu, sigma, cost) in cases {
        let want = pbgi_reference::pbgi_grad(mu, sigma, cost).unwrap();
        let value = pbgi_reference::pbgi(mu, sigma, cost).unwrap().value;
        let u = (value - mu) / sigma;
        let got = pbgi_fast::pbgi_grad(mu, sigma, cost);
        let at = format!("pbgi_grad({mu:e}, {sigma:e}, {cost:e})");
        assert_eq!(got.d_mu, 1.0, "{at}");
        assert_gradient_near(&format!("{at}.d_sigma"), got.d_sigma, want.d_sigma.value, u);
        assert_gradient_near(&format!("{at}.d_cost"), got.d_cost, want.d_cost.value, u);
    }
}

#[test]
fn gradients_at_special_values_are_the_documented_limits() {
    let (nan, inf) = (f64::NAN, f64::INFINITY);
    let phi0 = H0;
    let e = |mu, sigma, y| {
        let g = pbgi_fast::ei_grad(mu, sigma, y);
        (g.d_mu, g.d_sigma)
    };
    // σ = 0: y > μ, y < μ, y = μ; σ = ∞; y - μ = ±∞ (μ or y infinite).
    assert_eq!(e(0.0, 0.0, 2.0), (-1.0, 0.0));
    assert_eq!(e(0.0, 0.0, -2.0), (0.0, 0.0));
    assert_eq!(e(1.0, 0.0, 1.0), (-0.5, phi0));
    assert_eq!(e(0.0, inf, 1.0), (-0.5, phi0));
    assert_eq!(e(0.0, 1.0, inf), (-1.0, 0.0));
    assert_eq!(e(-inf, 1.0, 0.0), (-1.0, 0.0));
    assert_eq!(e(inf, 1.0, 0.0), (0.0, 0.0));
    assert_eq!(e(0.0, 1.0, -inf), (0.0, 0.0));
    // The zero limits of ∂/∂μ are +0 (assert_eq! alone does not see the sign of a zero), as in
    // the reference's σ = 0 limit; a finite far-left z, where Φ(z) underflows, gives -Φ(z) = -0.
    for (mu, sigma, y) in [(0.0, 0.0, -2.0), (inf, 1.0, 0.0), (0.0, 1.0, -inf)] {
        let (d_mu, _) = e(mu, sigma, y);
        assert!(
            d_mu == 0.0 && d_mu.is_sign_positive(),
            "ei_grad({mu}, {sigma}, {y})"
        );
    }
    let sigma_zero = pbgi_reference::ei_grad(0.0, 0.0, -2.0).unwrap();
    assert_eq!(sigma_zero.d_mu.value.to_bits(), 0.0f64.to_bits());
    let far_left = pbgi_reference::ei_grad(0.0, 1.0, -40.0).unwrap();
    assert_eq!(
        e(0.0, 1.0, -40.0).0.to_bits(),
        far_left.d_mu.value.to_bits()
    );
    assert_eq!(far_left.d_mu.value.to_bits(), (-0.0f64).to_bits());
    let (a, b) = e(nan, 1.0, 0.0);
    assert!(a.is_nan() && b.is_nan());
    let (a, b) = e(0.0, -1.0, 0.0);
    assert!(a.is_nan() && b.is_nan());
    // LogEI: σ = 0 gives (-1/(y - μ), 0) for y > μ (also where y - μ overflows) and (-∞, +∞)
    // for y ≤ μ; infinite arguments give NaN derivatives.
    let l = |mu, sigma, y| {
        let g = pbgi_fast::log_ei_grad(mu, sigma, y);
        (g.d_mu, g.d_sigma)
    };
    assert_eq!(l(1.0, 0.0, 5.0), (-0.25, 0.0));
    let far = pbgi_reference::log_ei_grad(-1e308, 0.0, 1e308).unwrap();
    assert_eq!(l(-1e308, 0.0, 1e308), (far.d_mu.value, 0.0));
    assert_eq!(l(1.0, 0.0, 1.0), (-inf, inf));
    assert_eq!(l(1.0, 0.0, -1.0), (-inf, inf));
    for (mu, sigma, y) in [
        (0.0, inf, 1.0),
        (inf, 1.0, 0.0),
        (0.0, 1.0, inf),
        (nan, 1.0, 0.0),
    ] {
        let (a, b) = l(mu, sigma, y);
        assert!(a.is_nan() && b.is_nan(), "log_ei_grad({mu}, {sigma}, {y})");
    }
    // PBGI: σ = 0 gives (1, 0, 1); infinite or invalid arguments NaN derivatives.
    let g = pbgi_fast::pbgi_grad(-3.0, 0.0, 2.0);
    assert_eq!(
        (g.value, g.d_mu, g.d_sigma, g.d_cost),
        (-1.0, 1.0, 0.0, 1.0)
    );
    for (mu, sigma, cost) in [
        (inf, 1.0, 1.0),
        (0.0, inf, 1.0),
        (0.0, 1.0, inf),
        (nan, 1.0, 1.0),
        (0.0, -1.0, 1.0),
        (0.0, 1.0, 0.0),
    ] {
        let g = pbgi_fast::pbgi_grad(mu, sigma, cost);
        assert!(
            g.d_mu.is_nan() && g.d_sigma.is_nan() && g.d_cost.is_nan(),
            "pbgi_grad({mu}, {sigma}, {cost})"
        );
    }
}

#[test]
fn log_ei_gradient_series_branch_with_sigma_far_from_one() {
    // z < -1e8: ∂/∂σ = x·(x/σ) + 3/σ and ∂/∂μ = -(x + 2/x)/σ. With σ = 1 (the cases above) `/σ`
    // and `·σ` agree; σ = 1e10 makes the `3/σ` term's placement visible (3σ would dominate), and
    // at σ = 1e100, z = -1e180, x² overflows while x²/σ = 1e260 does not.
    let cases: [(f64, f64, f64); 3] = [
        (0.0, 1e10, -2e18),
        (0.0, 1e-10, -3e-2),
        (0.0, 1e100, -1e280),
    ];
    for (mu, sigma, y) in cases {
        let z = (y - mu) / sigma;
        let want = pbgi_reference::log_ei_grad(mu, sigma, y).unwrap();
        let got = pbgi_fast::log_ei_grad(mu, sigma, y);
        let at = format!("log_ei_grad({mu:e}, {sigma:e}, {y:e})");
        assert_gradient_near(&format!("{at}.d_mu"), got.d_mu, want.d_mu.value, z);
        assert_gradient_near(&format!("{at}.d_sigma"), got.d_sigma, want.d_sigma.value, z);
    }
}

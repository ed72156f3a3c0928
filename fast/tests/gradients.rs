//! Gradients against central differences of the certified reference (MPFR enclosures of
//! relative width 2^-100, so the difference quotient is limited only by its O(δ²) truncation).
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

//! Source of truth: bounds that follow from MATH.md's properties of `h` alone, at the edges of
//! f64's range. For `u ≥ 0`, `h(u) - u = h(-u) ∈ (0, h(0)]`, so the PBGI root of
//! `h(u) = c/σ ≥ h(0)` satisfies `μ + c - σ·h(0) ≤ g < μ + c`; for `c/σ ≤ 1e-300`,
//! `u < -37` (since `h(-37) ≈ 1.5e-301`).

use pbgi_reference::{ei, h, ln_h, log_ei, pbgi, pbgi_lognormal, Float};

fn big(decimal: &str) -> Float {
    Float::with_val(64, Float::parse(decimal).unwrap())
}

#[test]
fn pbgi_overflows_to_infinity_correctly() {
    // g ≥ 1e308 + 1e308 - 0.4·1e308 > 2^1024: +inf.
    let g = pbgi(1e308, 1e308, 1e308).unwrap();
    assert_eq!(g.value, f64::INFINITY);
    assert!(g.lower > Float::with_val(53, 1.6e308) && g.upper < big("2e308"));
    // g = -1e308 + 1e308·u with u < -37: -inf.
    let g = pbgi(-1e308, 1e308, 1e-300).unwrap();
    assert_eq!(g.value, f64::NEG_INFINITY);
    assert!(g.upper < big("-3.8e309"));
    // Log-normal cost e^(1e10) ≫ 2^1024: +inf, with a tight enclosure around the cost.
    let g = pbgi_lognormal(0.0, 1.0, 1e10, 0.0).unwrap();
    assert_eq!(g.value, f64::INFINITY);
}

#[test]
fn pbgi_far_below_every_double_rounds_to_minus_zero() {
    // μ + c = 0 exactly and c/σ = 1.7e608: g = -σ·h(-u) with u ≈ 1.7e608, i.e. about
    // -1e-300·e^(-1.4e1217): negative, far below 2^-1074.
    let g = pbgi(-1.7e308, 1e-300, 1.7e308).unwrap();
    assert!(g.value == 0.0 && g.value.is_sign_negative());
    assert!(g.upper <= 0 && g.lower >= -(Float::with_val(53, 1) >> 1099u32));
}

#[test]
fn subnormal_scales() {
    // σ = c = 2^-1074: h(u) = 1 gives u ∈ [1 - h(0), 1), so g ∈ [0.6·2^-1074, 2^-1074): rounds up.
    let g = pbgi(0.0, 5e-324, 5e-324).unwrap();
    assert_eq!(g.value, 5e-324);
    // EI with σ = 2^-1074 and y - μ = 1e308: z = 2e631, EI = y - μ + (far below range).
    assert_eq!(ei(0.0, 5e-324, 1e308).unwrap().value, 1e308);
}

#[test]
fn beyond_mpfr_underflow_stays_certified() {
    // h(-1e10) = e^(-5e19)·…: below MPFR's range; the enclosure is [0, tiny], value 0, while
    // ln h stays accurate (≈ -5e19).
    let r = h(-1e10).unwrap();
    assert!(r.value == 0.0 && r.lower == 0 && r.upper > 0);
    // ln h(-x) = -x²/2 - ln√(2π) - 2 ln x + O(1/x²) = -5e19 - 46.97…; the ulp of 5e19 is 8192.
    assert_eq!(ln_h(-1e10).unwrap().value, -5e19);
    // LogEI with z = -4e631 is about -8.2e1262: finite in MPFR, -inf in f64.
    let l = log_ei(1e308, 5e-324, -1e308).unwrap();
    assert!(l.value == f64::NEG_INFINITY && l.lower.is_finite() && l.upper < big("-8e1262"));
}

/// The double nearest to `base + offset·2^-300` (a point strictly beside `base`, far closer
/// than any ulp): how a value that exceeds (or falls short of) `base` by a negligible,
/// strictly positive amount rounds, even when `base` is a midpoint between doubles.
fn rounding_beside(base: &Float, above: bool) -> f64 {
    let nudge = Float::with_val(64, base.abs_ref()) >> 300u32;
    let p = base.prec() + 320;
    if above {
        Float::with_val(p, base + &nudge).to_f64()
    } else {
        Float::with_val(p, base - &nudge).to_f64()
    }
}

/// `a + b` exactly (2200 bits cover the sum of any two doubles).
fn exact_sum(a: f64, b: f64) -> Float {
    let (a, b) = (Float::with_val(53, a), Float::with_val(53, b));
    Float::with_val(2200, &a + &b)
}

#[test]
fn tails_below_the_working_precision_round_the_right_way() {
    // EI = (y - μ) + σ·h(-z) with z ≈ 2e212: strictly above y - μ = 1.25698369669408382…,
    // which is exactly a midpoint between two doubles.
    let (mu, sigma, y) = (-2.0, 5.890000927280528e-213, -7.430163033059162e-1);
    let d = exact_sum(y, -mu);
    assert_ne!(
        rounding_beside(&d, true),
        rounding_beside(&d, false),
        "d is a midpoint"
    );
    assert_eq!(ei(mu, sigma, y).unwrap().value, rounding_beside(&d, true));
    // LogEI with y - μ = 1: ln(1 + σ·h(-z)), positive and far below every double: +0.
    let l = log_ei(-2.0, 6.740941368701589e-208, -1.0).unwrap();
    assert!(l.value == 0.0 && l.value.is_sign_positive() && l.lower >= 0);
    // PBGI = μ + c - σ·h(-u) with u ≈ 3.9e199 and ≈ 370: strictly below μ + c, a midpoint.
    for (mu, sigma, cost) in [
        (7.284675706604119e-1, 2.5942215894748545e-200, 1.0),
        (1.4537705547425928e1, 8.109683199856256e-3, 3.0),
    ] {
        let m = exact_sum(mu, cost);
        assert_ne!(
            rounding_beside(&m, true),
            rounding_beside(&m, false),
            "mu + c is a midpoint"
        );
        let g = pbgi(mu, sigma, cost).unwrap();
        assert_eq!(
            g.value,
            rounding_beside(&m, false),
            "pbgi({mu}, {sigma}, {cost})"
        );
        assert!(g.upper <= m);
    }
}

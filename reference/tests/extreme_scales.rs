//! Source of truth: bounds that follow from MATH.md's properties of `h` alone, at the edges of
//! f64's range. For `u ≥ 0`, `h(u) - u = h(-u) ∈ (0, h(0)]`, so the PBGI root of
//! `h(u) = c/σ ≥ h(0)` satisfies `μ + c - σ·h(0) ≤ g < μ + c`; for `c/σ ≤ 1e-300`,
//! `u < -37` (since `h(-37) ≈ 1.5e-301`). Values below every double or next to the overflow
//! threshold `T = 2^1024 - 2^970`, known in closed form (LogEIPC's forms at `σ = 0`, `ln(1 + t)`
//! with `t > 0`) or bracketed by values of `h` (mpmath), round by the side they lie on: the sign
//! of a zero, `±f64::MAX` or `±∞` (cases found by mutation testing, `proofs-notes/mutants.md`).

use pbgi_reference::{
    ei, h, ln_h, log_ei, log_eipc, log_eipc_exp, log_eipc_inv, pbgi, pbgi_bisection_with,
    pbgi_lognormal, Accuracy, Float,
};

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

#[test]
fn a_zero_value_has_the_sign_of_the_exact_value() {
    // σ = 0, y - μ = 1: LogEIPC-exp = ln 1 - (m + s²/2) = -s²/2 and LogEIPC-inv = +s²/2, here
    // ∓2^-1201 exactly (a point enclosure), below every double: correctly rounded, -0 and +0.
    let s = 2f64.powi(-600);
    let tiny = Float::with_val(53, 1) >> 1201u32;
    let exp = log_eipc_exp(0.0, 0.0, 1.0, 0.0, s).unwrap();
    assert_eq!(exp.value.to_bits(), (-0.0f64).to_bits());
    assert!(exp.lower == exp.upper && exp.lower == -tiny.clone());
    let inv = log_eipc_inv(0.0, 0.0, 1.0, 0.0, s).unwrap();
    assert_eq!(inv.value.to_bits(), 0.0f64.to_bits());
    assert!(inv.lower == inv.upper && inv.lower == tiny);
    // σ = 2^-40, y - μ = 1, m = s = 0: both forms are ln EI = ln(1 + t), t = σ·h(-2^40) > 0,
    // positive and below every double (t ≈ e^(-2^79)): +0. The enclosure's lower end is
    // `0 - 0` rounded down, which is -0 in MPFR, and open (the exact value exceeds it).
    // (No `{:?}` of the enclosure in the messages: its upper end's exponent is near -2^79.)
    for (name, r) in [
        (
            "exp",
            log_eipc_exp(0.0, 2f64.powi(-40), 1.0, 0.0, 0.0).unwrap(),
        ),
        (
            "inv",
            log_eipc_inv(0.0, 2f64.powi(-40), 1.0, 0.0, 0.0).unwrap(),
        ),
        ("c = 1", log_eipc(0.0, 2f64.powi(-40), 1.0, 1.0).unwrap()),
    ] {
        assert_eq!(r.value.to_bits(), 0.0f64.to_bits(), "{name}: {}", r.value);
        assert!(r.lower <= 0 && r.upper > 0, "{name}");
    }
}

#[test]
fn values_next_to_the_overflow_threshold_round_by_the_side_they_lie_on() {
    // T = 2^1024 - 2^970, the midpoint between f64::MAX and 2^1024: T itself rounds to
    // infinity (ties to even), every real of smaller magnitude to ±f64::MAX. With y - μ = 1,
    // m = (2^53 - 2^28 - 3)·2^970 and s = (2^26 + 1)·2^486, m + s²/2 = T exactly, so
    // LogEIPC-exp = -T with σ = 0, and -T + ln(1 + t) with σ = 2^-40 (t = σ·h(-2^40) > 0, an
    // open lower end at -T); LogEIPC-inv with -m: +T and T + ln(1 + t).
    let m = (2f64.powi(53) - 2f64.powi(28) - 3.0) * 2f64.powi(970);
    let s = (2f64.powi(26) + 1.0) * 2f64.powi(486);
    let t = (Float::with_val(64, 1) << 1024u32) - (Float::with_val(64, 1) << 970u32);
    let sigma = 2f64.powi(-40);
    let point = log_eipc_exp(0.0, 0.0, 1.0, m, s).unwrap();
    assert_eq!(point.value, f64::NEG_INFINITY);
    assert!(point.lower == point.upper && point.lower == -t.clone());
    let open = log_eipc_exp(0.0, sigma, 1.0, m, s).unwrap();
    assert_eq!(open.value, -f64::MAX);
    assert!(open.lower == -t.clone() && open.upper > -t.clone());
    let point = log_eipc_inv(0.0, 0.0, 1.0, -m, s).unwrap();
    assert_eq!(point.value, f64::INFINITY);
    assert!(point.lower == point.upper && point.lower == t);
    let open = log_eipc_inv(0.0, sigma, 1.0, -m, s).unwrap();
    assert_eq!(open.value, f64::INFINITY);
    assert!(open.lower == t && open.upper > t);
}

#[test]
fn a_positive_pbgi_below_half_the_smallest_subnormal_is_plus_zero() {
    // μ = 0, σ = 2^-1073, c = 2^-1074: the root is σ·u* with h(u*) = c/σ = 1/2, and
    // h(0) = 0.3989… < 1/2 < h(1/4) = 0.5363… (mpmath), so 0 < u* < 1/4 and
    // 0 < PBGI < 2^-1075: correctly rounded, +0.
    let (sigma, cost) = (2f64.powi(-1073), 2f64.powi(-1074));
    let half_tiny = Float::with_val(53, 1) >> 1075u32;
    for r in [
        pbgi(0.0, sigma, cost).unwrap(),
        pbgi_bisection_with(0.0, sigma, cost, &Accuracy::default()).unwrap(),
    ] {
        assert_eq!(r.value.to_bits(), 0.0f64.to_bits());
        assert!(r.lower > 0 && r.upper < half_tiny);
    }
}

#[test]
fn pbgi_next_to_minus_f64_max_rounds_by_the_overflow_threshold() {
    // c/σ = 1e-10: the root u* of h(u) = 1e-10 lies in (-6.25, -6) (h(-6.25) = 3.1e-11,
    // h(-6) = 1.6e-10, mpmath), so PBGI = -f64::MAX + σ·u*. With σ = 2^960 that is within
    // 6.25·2^960 < 2^970 of -f64::MAX, above -T (T = 2^1024 - 2^970, the midpoint between
    // f64::MAX and 2^1024): -f64::MAX. With σ = 2^968 it is beyond -f64::MAX - 6·2^968 < -T:
    // -inf.
    for (sigma, expected) in [
        (2f64.powi(960), -f64::MAX),
        (2f64.powi(968), f64::NEG_INFINITY),
    ] {
        let cost = sigma * 1e-10;
        for r in [
            pbgi(-f64::MAX, sigma, cost).unwrap(),
            pbgi_bisection_with(-f64::MAX, sigma, cost, &Accuracy::default()).unwrap(),
        ] {
            assert_eq!(r.value, expected, "σ = {sigma:e}");
        }
    }
}

//! Source of truth: exact rational arithmetic (`rug::Rational`) and MATH.md's bound
//! `h(u) - u = h(-u) ∈ (0, h(0)]` for `u ≥ 0`. For `c/σ ≥ h(0)` the PBGI root is
//! `g* = μ + c - σ·h(-u*)` with `u* > 0`, so `μ + c - σ·h(0) ≤ g* < μ + c`: strictly below
//! `μ + c`. When `μ + c` is exactly the midpoint of two adjacent doubles and `σ·h(-u*)` is far
//! below half an ulp (here `c/σ ≥ 50`, so `σ·h(-u*) < σ·φ(50)/50² ≈ 1e-546·σ`), `g*` rounds to
//! the double below. Plain interval arithmetic cannot decide `EI(μ + c) ≷ c` (the difference is
//! `σ·h(-u*) ≈ e^(-u*²/2)`); the solver's comparison decides it from the exact part
//! `g - μ - c = 0` (proof notes §6).

use pbgi_reference::{ei, pbgi, pbgi_lognormal, Float};
use rug::Rational;

fn rational(x: f64) -> Rational {
    Rational::from_f64(x).expect("finite")
}

/// The adjacent doubles `(v, w)` whose exact midpoint is `m`, if `m` is such a midpoint.
fn midpoint_neighbours(m: &Rational) -> Option<(f64, f64)> {
    // 2200 bits hold the sum of any two doubles exactly.
    let exact = Float::with_val(2200, m);
    let (v, w) = (
        exact.to_f64_round(rug::float::Round::Down),
        exact.to_f64_round(rug::float::Round::Up),
    );
    let mid = (rational(v) + rational(w)) / 2u32;
    (v != w && v.is_finite() && w.is_finite() && mid == *m).then_some((v, w))
}

/// Checks `pbgi(μ, σ, c)` for `μ + c` an exact midpoint and `c/σ ≥ 50` against the exact
/// facts above: the value is the double below `μ + c`, and the enclosure lies above that double
/// and below `μ + c`, and meets `[μ + c - σ·h(0), μ + c]` (with `h(0) < 0.4`).
fn check_rounds_down(mu: f64, sigma: f64, cost: f64) {
    let m = rational(mu) + rational(cost);
    let (below, above) =
        midpoint_neighbours(&m).unwrap_or_else(|| panic!("{mu} + {cost} is not a midpoint"));
    let g = pbgi(mu, sigma, cost).unwrap_or_else(|e| panic!("pbgi({mu}, {sigma}, {cost}): {e}"));
    assert_eq!(g.value, below, "pbgi({mu:e}, {sigma:e}, {cost:e})");
    assert_eq!((rational(below) + rational(above)) / 2u32, m);
    assert!(g.lower <= g.upper, "pbgi({mu:e}, {sigma:e}, {cost:e})");
    assert!(
        g.upper <= m,
        "pbgi({mu:e}, {sigma:e}, {cost:e}): upper above mu + c"
    );
    assert!(
        g.lower > below,
        "pbgi({mu:e}, {sigma:e}, {cost:e}): lower below the value"
    );
    let floor = m.clone() - rational(sigma) * Rational::from((2, 5));
    assert!(
        g.upper >= floor,
        "pbgi({mu:e}, {sigma:e}, {cost:e}): misses [mu + c - 0.4σ, mu + c]"
    );
}

#[test]
fn reviewer_case_rounds_below_the_midpoint() {
    // c/σ ≈ 267: σ·h(-u*) ≈ e^(-35600), and μ + c is exactly a midpoint.
    check_rounds_down(
        1.2878036073968913,
        0.0013442922119871188,
        0.35895802502773255,
    );
    assert_eq!(
        pbgi(
            1.2878036073968913,
            0.0013442922119871188,
            0.35895802502773255
        )
        .unwrap()
        .value,
        1.6467616324246237
    );
}

#[test]
fn ei_with_a_large_standardised_improvement_is_decided() {
    // y - μ = 3700 = 1e4·σ: EI = 3700 + σ·h(-1e4), the tail e^(-5e7) far below any ulp.
    let r = ei(817.6391672580974, 0.37, 4517.639167258098).unwrap();
    let d = rational(4517.639167258098) - rational(817.6391672580974);
    assert!(r.lower >= d && r.lower <= r.upper);
    // EI exceeds d by a positive amount far below 2^-300·d: it rounds like d + 2^-300·d (the
    // upper neighbour if d is a midpoint).
    let nudged = Float::with_val(2400, &d) * (Rational::from(1) + (Rational::from(1) >> 300u32));
    assert_eq!(r.value, nudged.to_f64());
}

/// SplitMix64: a seeded, dependency-free generator (the sweep is reproducible).
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn uniform(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A 53-bit significand in `[2^52, 2^53)`.
    fn significand(&mut self) -> u64 {
        (1u64 << 52) | (self.next() >> 12)
    }
}

#[test]
fn seeded_sweep_of_midpoint_ties_rounds_down() {
    // big = M_b·2^(e+k), small = ±M_s·2^e with the low k bits of M_s equal to 10…0: then
    // big + small = (M_b·2^k ± M_s)·2^e, a midpoint whenever that integer has 53 + k bits
    // (checked exactly; other draws are skipped). The cost is whichever of the two is positive
    // (μ takes the other role), so μ and c have different exponents; σ = c/r with
    // r = 10^U(log10 50, 300).
    let mut rng = SplitMix64(0x5EED_2026_1122_0140);
    let mut checked = 0;
    let mut draws = 0;
    while checked < 400 {
        draws += 1;
        assert!(draws < 4000, "too few midpoint draws ({checked})");
        let k = 1 + (rng.next() % 12) as i32;
        let e = (rng.next() % 161) as i32 - 80 - 52;
        let big_sig = rng.significand();
        let low = 1u64 << (k - 1);
        let small_sig = (rng.significand() & !((1u64 << k) - 1)) | low;
        let big = big_sig as f64 * 2f64.powi(e + k);
        let small = small_sig as f64 * 2f64.powi(e);
        let cost_is_big = rng.next().is_multiple_of(2);
        let mu_negative = rng.next().is_multiple_of(4);
        let (mu, cost) = if cost_is_big {
            (if mu_negative { -small } else { small }, big)
        } else {
            (if mu_negative { -big } else { big }, small)
        };
        let ratio = 10f64.powf(50f64.log10() + rng.uniform() * (300.0 - 50f64.log10()));
        let sigma = cost / ratio;
        if sigma == 0.0 || midpoint_neighbours(&(rational(mu) + rational(cost))).is_none() {
            continue;
        }
        check_rounds_down(mu, sigma, cost);
        checked += 1;
    }
}

#[test]
fn lognormal_unit_mean_cost_at_a_midpoint_rounds_down() {
    // m + s²/2 = 0 exactly, so E[c] = 1 is a point enclosure; μ + 1 = 2^53 + 1 is the midpoint
    // of 2^53 and 2^53 + 2, and c/σ = 1000: the root is below it and rounds to 2^53.
    let mu = 2f64.powi(53);
    let m = rational(mu) + Rational::from(1);
    for (m_ln, s) in [(0.0, 0.0), (-0.5, 1.0), (-0.125, 0.5)] {
        let g = pbgi_lognormal(mu, 1e-3, m_ln, s).unwrap();
        assert_eq!(g.value, mu, "m = {m_ln}, s = {s}");
        assert!(g.lower > mu && g.lower <= g.upper && g.upper <= m);
    }
}

//! High-precision integration of survival functions for the normal-box expectations: a
//! tanh-sinh (double-exponential) *estimate* with an error estimate, and a *certified*
//! enclosure from the same evaluations.
//!
//! Method. `∫_a^b f = r ∫_{-∞}^{∞} f(m + r·tanh(π/2·sinh t))·(π/2)·cosh t / cosh²(π/2·sinh t) dt`
//! with `m = (a+b)/2`, `r = (b-a)/2`, by the trapezoidal rule with step `2^-l`, `l = 1, 2, …`,
//! truncated where the weight drops below `2^-(PREC+8)`. For a function analytic on a
//! neighbourhood of `[a, b]` the error decreases roughly like `exp(-c/h)` — each level about
//! doubles the correct digits — so the difference between the last two levels is a (generous)
//! *estimate* of the error of the last one, not a proof. The callers split their integrals at
//! every kink and jump so each piece is analytic.
//!
//! Scale and translation invariance. Nothing here depends on the units of `t`: the stopping
//! test is relative to `∫|f|` (never to 1), the nodes `m ± r·x` are formed at
//! `PREC + log2(|m|/r)` bits so that a piece far from the origin keeps its full relative
//! resolution, and the endpoints `m`, `r` are formed exactly. Integrating `f(t/s)` over
//! `[s·a, s·b]` gives `s` times the result for every `s > 0`.
//!
//! Certified enclosure. For an integrand that is non-increasing and log-concave on `[a, b)`
//! (every survival function `P(W > t)` of a log-concave law, and products of them: the normal
//! survival function, the KWW integrand between breakpoints, `1 - Φ(t)^N`), the evaluations
//! `f(t_0 = a) ≥ f(t_1) ≥ …` at the sorted nodes bound the integral on each gap
//! `[t_k, t_{k+1}]`:
//! - below by the chord of `ln f` (concavity): `Δ·L(f_k, f_{k+1})`, `L` the logarithmic mean;
//! - above by `Δ·f_k` (monotonicity) and by the extensions of the neighbouring chords of
//!   `ln f` (concavity: a secant extended beyond its interval lies above the function).
//!
//! Each evaluation is trusted to relative error `2^-EVALUATION_ERROR_BITS` (lower values are
//! decreased and upper values increased by that much before use), and the sums are widened by
//! a relative `2^-SUM_SLACK_BITS` for the roundings here. The enclosure is second order in the
//! node spacing (relative width `1e-9` to `4e-7` at level 10 on the test instances); the estimate is far sharper.
use rug::float::{Constant, Round};
use rug::Float;
use std::sync::OnceLock;

/// Working precision (bits) of the quadrature.
pub const PREC: u32 = 128;
/// Deepest level (step `2^-MAX_LEVEL`).
pub const MAX_LEVEL: u32 = 8;
/// Deepest level to which the nodes are refined for the certified enclosure when the estimate
/// has converged earlier (the enclosure's width falls by about 4 per level).
pub const ENCLOSURE_LEVEL: u32 = 10;
/// Relative error trusted for each integrand evaluation (callers guarantee it).
pub const EVALUATION_ERROR_BITS: u32 = 110;
/// Relative widening of the enclosure for the roundings of its own arithmetic.
const SUM_SLACK_BITS: u32 = 100;
/// Largest extra precision spent on locating nodes far from the origin.
const MAX_EXTRA_BITS: u32 = 1 << 16;

/// A quadrature result: an estimate, its error estimate, and a certified enclosure.
#[derive(Clone, Debug)]
pub struct Quadrature {
    /// The integral at the deepest level reached.
    pub value: Float,
    /// `|I_l - I_{l-1}|` at that level (an estimate; see the module docs).
    pub error_estimate: Float,
    /// Certified lower bound (for a non-increasing, log-concave integrand).
    pub lower: Float,
    /// Certified upper bound (same condition).
    pub upper: Float,
}

fn weight_and_offset(t: &Float) -> (Float, Float) {
    let half_pi = Float::with_val(PREC, Constant::Pi) / 2u32;
    let u = Float::with_val(PREC, t.sinh_ref()) * &half_pi;
    let cosh_u = Float::with_val(PREC, u.cosh_ref());
    let weight = half_pi * Float::with_val(PREC, t.cosh_ref()) / cosh_u.square();
    let offset = u.tanh();
    (weight, offset)
}

/// Nodes `(weight, offset)` of each level, shared by every integral: level 0 holds
/// `t = 0, 1, 2, …`, level `l ≥ 1` the odd multiples of `2^-l`, each list cut where the weight
/// drops below `2^-(PREC+8)`.
fn node_table() -> &'static [Vec<(Float, Float)>] {
    static TABLE: OnceLock<Vec<Vec<(Float, Float)>>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let negligible = Float::with_val(PREC, 1) >> (PREC + 8);
        (0..=MAX_LEVEL.max(ENCLOSURE_LEVEL))
            .map(|level| {
                let h = Float::with_val(PREC, 1) >> level;
                let (first, step) = if level == 0 { (0u32, 1u32) } else { (1, 2) };
                let mut nodes = Vec::new();
                let mut k = first;
                loop {
                    let (w, x) = weight_and_offset(&Float::with_val(PREC, &h * k));
                    if w < negligible {
                        break;
                    }
                    nodes.push((w, x));
                    k += step;
                }
                nodes
            })
            .collect()
    })
}

/// Binary exponent of `x` (`None` for zero).
fn exponent(x: &Float) -> Option<i32> {
    x.get_exp()
}

/// `a - b` without rounding (enough bits for both operands' full width).
pub fn exact_difference(a: &Float, b: &Float) -> Float {
    let spread = match (exponent(a), exponent(b)) {
        (Some(x), Some(y)) => x.abs_diff(y),
        _ => 0,
    };
    let prec = a.prec().max(b.prec()) + spread.min(MAX_EXTRA_BITS) + 2;
    Float::with_val(prec, a - b)
}

/// `a + b` without rounding (as [`exact_difference`]).
pub fn exact_sum(a: &Float, b: &Float) -> Float {
    let spread = match (exponent(a), exponent(b)) {
        (Some(x), Some(y)) => x.abs_diff(y),
        _ => 0,
    };
    let prec = a.prec().max(b.prec()) + spread.min(MAX_EXTRA_BITS) + 2;
    Float::with_val(prec, a + b)
}

/// `∫_a^b f(x) dx` for `a < b` finite; `f ≥ 0` non-increasing and log-concave on `[a, b)`,
/// evaluated to relative error `2^-EVALUATION_ERROR_BITS` (for the enclosure; the estimate
/// needs only analyticity). The estimate stops when two successive levels differ by less than
/// `2^-tolerance_bits · ∫|f|`, or at [`MAX_LEVEL`]; the nodes are then refined, up to
/// `enclosure_level` (at most [`ENCLOSURE_LEVEL`]), until the enclosure is no wider than
/// `enclosure_target` (pass `+∞` for no refinement, e.g. for a first pass that finds the scale
/// of a sum of pieces).
pub fn integrate_survival<F: FnMut(&Float) -> Float>(
    mut f: F,
    a: &Float,
    b: &Float,
    tolerance_bits: u32,
    enclosure_level: u32,
    enclosure_target: &Float,
) -> Quadrature {
    let r = Float::with_val(PREC, exact_difference(b, a) / 2u32);
    let m = exact_sum(a, &r);
    // Nodes m ± r·x keep PREC bits relative to r however far m is from the origin.
    let extra = match (exponent(&m), exponent(&r)) {
        (Some(em), Some(er)) if em > er => (em - er) as u32,
        _ => 0,
    };
    let node_prec = PREC + extra.min(MAX_EXTRA_BITS) + 8;
    let table = node_table();
    // Every evaluation: (position, value), for the enclosure.
    let mut points: Vec<(Float, Float)> = Vec::new();
    let mut evaluate = |position: Float, points: &mut Vec<(Float, Float)>| -> Float {
        let value = f(&position);
        points.push((position, value.clone()));
        value
    };
    let mut sum = Float::with_val(PREC, 0);
    let mut abs_sum = Float::with_val(PREC, 0);
    let mut add_level =
        |level: usize, sum: &mut Float, abs_sum: &mut Float, points: &mut Vec<(Float, Float)>| {
            for (w, x) in &table[level] {
                if x.is_zero() {
                    let v = evaluate(m.clone(), points);
                    *abs_sum += Float::with_val(PREC, w * &v).abs();
                    *sum += Float::with_val(PREC, w * &v);
                    continue;
                }
                let rx = Float::with_val(PREC, &r * x);
                let right = evaluate(Float::with_val(node_prec, &m + &rx), points);
                let left = evaluate(Float::with_val(node_prec, &m - &rx), points);
                let both = Float::with_val(PREC, &right + &left);
                *abs_sum += Float::with_val(PREC, right.abs() + left.abs()) * w;
                *sum += both * w;
            }
        };
    add_level(0, &mut sum, &mut abs_sum, &mut points);
    let mut h = Float::with_val(PREC, 1);
    let mut previous = Float::with_val(PREC, &sum * &h) * &r;
    let mut error = Float::with_val(PREC, f64::INFINITY);
    let mut reached = 0;
    for level in 1..=MAX_LEVEL as usize {
        h >>= 1;
        add_level(level, &mut sum, &mut abs_sum, &mut points);
        reached = level;
        let current = Float::with_val(PREC, &sum * &h) * &r;
        error = Float::with_val(PREC, &current - &previous).abs();
        previous = current;
        let scale = Float::with_val(PREC, &abs_sum * &h) * &r;
        if error <= (scale >> tolerance_bits) {
            break;
        }
    }
    evaluate(a.clone(), &mut points);
    let target = enclosure_target;
    let last_level = enclosure_level.min(ENCLOSURE_LEVEL) as usize;
    let (mut lower, mut upper) = enclosure(&points, a, b);
    for level in reached + 1..=last_level {
        if Float::with_val(PREC, &upper - &lower) <= *target {
            break;
        }
        for (_, x) in &table[level] {
            if x.is_zero() {
                continue;
            }
            let rx = Float::with_val(PREC, &r * x);
            evaluate(Float::with_val(node_prec, &m + &rx), &mut points);
            evaluate(Float::with_val(node_prec, &m - &rx), &mut points);
        }
        (lower, upper) = enclosure(&points, a, b);
    }
    Quadrature {
        value: previous,
        error_estimate: error,
        lower,
        upper,
    }
}

/// Precision of the enclosure's own arithmetic (its width is far above `2^-BOUND_PREC`).
const BOUND_PREC: u32 = 64;
/// Relative widening of each term of the enclosure, covering the roundings of [`BOUND_PREC`]
/// arithmetic and of the f64 `ln_1p`/`expm1` (a few ulp) in [`log_mean_factor`].
const TERM_SLACK: f64 = 1.0 / (1u64 << 46) as f64;

/// One evaluation as `[lo, hi]` at [`BOUND_PREC`] bits: the value widened by the trusted
/// relative error and rounded outward.
fn widened(v: &Float) -> (Float, Float) {
    let slack = Float::with_val(PREC, v >> EVALUATION_ERROR_BITS);
    let lo = Float::with_val_round(BOUND_PREC, v - &slack, Round::Down).0;
    let hi = Float::with_val_round(BOUND_PREC, v + &slack, Round::Up).0;
    (lo.max(&Float::new(BOUND_PREC)), hi)
}

/// `expm1(e)/e` (`1` at `e = 0`): the logarithmic mean of `1` and `exp(e)`, so that the
/// integral of `y·exp(e·s/Δ)` over `s ∈ [0, Δ]` is `Δ·y·log_mean_factor(e)`. `None` when not
/// finite.
fn log_mean_factor(e: f64) -> Option<f64> {
    // An infinite `e` would give a factor of 0 (or ∞) and an infinite slack in [`term`].
    if !e.is_finite() {
        return None;
    }
    let factor = if e == 0.0 { 1.0 } else { e.exp_m1() / e };
    factor.is_finite().then_some(factor)
}

/// `ln(x/y)` in f64, `None` when `x/y` leaves f64's normal range or either is 0.
///
/// `ln_1p(ratio - 1)` keeps the relative accuracy near `ratio = 1`, where `ln` would cancel;
/// far from 1 the subtraction itself loses `ratio` (below about `2^-53` it gives exactly `-1`,
/// so `-∞`), and `ln` is the accurate form.
fn log_ratio(x: &Float, y: &Float) -> Option<f64> {
    if x.is_zero() || y.is_zero() {
        return None;
    }
    let ratio = Float::with_val(BOUND_PREC, x / y).to_f64();
    if !ratio.is_normal() {
        return None;
    }
    Some(if (0.5..=2.0).contains(&ratio) {
        (ratio - 1.0).ln_1p()
    } else {
        ratio.ln()
    })
}

/// `Δ·y·factor` at [`BOUND_PREC`] bits, widened by the term slack (and the exponent's own
/// relative error, `|e|` ulps) in direction `round`.
fn term(delta: &Float, y: &Float, factor: f64, e: f64, round: Round) -> Float {
    let slack = TERM_SLACK * (1.0 + e.abs());
    let widen = if round == Round::Up {
        1.0 + slack
    } else {
        1.0 - slack
    };
    let product = Float::with_val_round(BOUND_PREC, delta * y, round).0;
    Float::with_val_round(BOUND_PREC, product * (factor * widen), round).0
}

/// The certified enclosure of the integral over `[a, b)` from evaluations at points of
/// `[a, b)` (module docs). Outermost nodes that rounded onto `b` (or beyond an end) belong to the
/// neighbouring piece and are left out.
///
/// With `lo_k ≤ f(t_k) ≤ hi_k`, on a gap of width `Δ` the chord of `ln f` integrates to
/// `Δ·lo_{k+1}·expm1(e)/e` with `e = ln(lo_k/lo_{k+1})`; the extension of the left neighbour's
/// chord, through `(t_{k-1}, ln lo_{k-1})` and `(t_k, ln hi_k)`, is `ln hi_k` plus
/// `e = (Δ/gap)·ln(hi_k/lo_{k-1})` at the gap's right end, integrating to
/// `Δ·hi_k·expm1(e)/e`; the right neighbour's, extended leftwards, symmetrically.
fn enclosure(evaluations: &[(Float, Float)], a: &Float, b: &Float) -> (Float, Float) {
    let mut points: Vec<&(Float, Float)> = evaluations
        .iter()
        .filter(|(t, _)| t >= a && t < b)
        .collect();
    points.sort_by(|p, q| p.0.partial_cmp(&q.0).expect("finite nodes"));
    points.dedup_by(|p, q| p.0 == q.0);
    let bounds: Vec<(Float, Float)> = points.iter().map(|(_, v)| widened(v)).collect();
    let n = points.len();
    // Gaps rounded down (for lower bounds) and up (for upper bounds).
    let gap = |k: usize, round: Round| -> Float {
        let right = if k + 1 < n { &points[k + 1].0 } else { b };
        Float::with_val_round(BOUND_PREC, right - &points[k].0, round).0
    };
    let mut lower = Float::with_val(PREC, 0);
    let mut upper = Float::with_val(PREC, 0);
    for k in 0..n {
        let delta_down = gap(k, Round::Down);
        let delta_up = gap(k, Round::Up);
        if k + 1 < n {
            let (lo_here, lo_next) = (&bounds[k].0, &bounds[k + 1].0);
            let chord = log_ratio(lo_next, lo_here)
                .and_then(|e| log_mean_factor(e).map(|f| (e, f)))
                .map(|(e, f)| term(&delta_down, lo_here, f, e, Round::Down));
            // The monotone bound Δ·lo_{k+1} when the chord cannot be formed.
            lower += chord.unwrap_or_else(|| term(&delta_down, lo_next, 1.0, 0.0, Round::Down));
        }
        let mut best = term(&delta_up, &bounds[k].1, 1.0, 0.0, Round::Up);
        if k >= 1 {
            let left_gap = gap(k - 1, Round::Down);
            let ratio = Float::with_val(BOUND_PREC, &delta_up / &left_gap).to_f64();
            if let Some(e) = log_ratio(&bounds[k].1, &bounds[k - 1].0).map(|l| l * ratio) {
                if let Some(f) = log_mean_factor(e) {
                    best.min_mut(&term(&delta_up, &bounds[k].1, f, e, Round::Up));
                }
            }
        }
        if k + 2 < n {
            let right_gap = gap(k + 1, Round::Down);
            let ratio = Float::with_val(BOUND_PREC, &delta_up / &right_gap).to_f64();
            if let Some(e) = log_ratio(&bounds[k + 1].1, &bounds[k + 2].0).map(|l| l * ratio) {
                // The line rises by e from t_{k+1} back to t_k: the integral is that of
                // hi_{k+1}·exp(e·s/Δ) over s ∈ [0, Δ].
                if let Some(f) = log_mean_factor(e) {
                    best.min_mut(&term(&delta_up, &bounds[k + 1].1, f, e, Round::Up));
                }
            }
        }
        upper += best;
    }
    let lower_slack = Float::with_val(PREC, &lower >> SUM_SLACK_BITS);
    let upper_slack = Float::with_val(PREC, &upper >> SUM_SLACK_BITS);
    (lower - lower_slack, upper + upper_slack)
}

/// `1/√2` to `bits` bits (cached at the largest precision asked for so far on this thread).
fn frac_1_sqrt_2(bits: u32) -> Float {
    thread_local! {
        static CACHE: std::cell::RefCell<Float> = std::cell::RefCell::new(Float::new(2));
    }
    CACHE.with(|cache| {
        let mut cached = cache.borrow_mut();
        if cached.prec() < bits {
            *cached = Float::with_val(bits + 64, 2).sqrt().recip();
        }
        Float::with_val(bits, &*cached)
    })
}

/// `P(N(mean, sd²) > t) = erfc((t - mean)/(sd·√2))/2`, relative error below `2^-(PREC+4)`.
///
/// `erfc` amplifies a relative error `δ` of its argument `z` into about `2z²·δ`, so the argument
/// is formed with `2·log2(|z|+2) + 12` extra bits (MPFR's `erfc` is correctly rounded). The
/// difference `t - mean` is rounded once, relative to itself, so the result depends only on
/// `(t - mean)/sd`: the same at every scale and location.
pub fn normal_survival(mean: &Float, sd: &Float, t: &Float) -> Float {
    let rough = Float::with_val(53, t - mean) / sd;
    let magnitude = rough.to_f64().abs().min(1e300) + 2.0;
    let extra = 2 * (magnitude.log2().ceil() as u32) + 12;
    let wp = PREC + extra;
    let z = Float::with_val(wp, t - mean) / sd * frac_1_sqrt_2(wp);
    Float::with_val(PREC, z.erfc() / 2u32)
}

//! High-precision one-dimensional integration for the normal-box expectations: tanh-sinh
//! (double-exponential) quadrature in MPFR.
//!
//! Method. `∫_a^b f = r ∫_{-∞}^{∞} f(m + r·tanh(π/2·sinh t))·(π/2)·cosh t / cosh²(π/2·sinh t) dt`
//! with `m = (a+b)/2`, `r = (b-a)/2`, by the trapezoidal rule with step `2^-l`, `l = 1, 2, …`,
//! truncated where the weight drops below `2^-PREC` (the integrands here are bounded by 1).
//! For a function analytic on a neighbourhood of `[a, b]` the error decreases roughly like
//! `exp(-c/h)` — each level about doubles the correct digits — so the difference between the
//! last two levels is a (generous) *estimate* of the error of the last one, not a proof. The
//! callers split their integrals at every kink and jump so each piece is analytic.
use rug::float::Constant;
use rug::Float;
use std::sync::OnceLock;

/// Working precision (bits) of the quadrature.
pub const PREC: u32 = 128;
/// Deepest level (step `2^-MAX_LEVEL`).
pub const MAX_LEVEL: u32 = 8;

/// A quadrature result and its error estimate (difference of the last two levels).
#[derive(Clone, Debug)]
pub struct Quadrature {
    /// The integral at the deepest level reached.
    pub value: Float,
    /// `|I_l - I_{l-1}|` at that level (an estimate; see the module docs).
    pub error_estimate: Float,
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
        (0..=MAX_LEVEL)
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

/// `∫_a^b f(x) dx` by tanh-sinh; stops when two successive levels differ by less than
/// `2^-tolerance_bits · max(1, |I|)` or at [`MAX_LEVEL`]. `a < b` finite.
pub fn integrate<F: FnMut(&Float) -> Float>(
    mut f: F,
    a: &Float,
    b: &Float,
    tolerance_bits: u32,
) -> Quadrature {
    let m = Float::with_val(PREC, a + b) / 2u32;
    let r = Float::with_val(PREC, b - a) / 2u32;
    let table = node_table();
    let mut sum = Float::with_val(PREC, 0);
    let mut add_level = |level: usize, sum: &mut Float| {
        for (w, x) in &table[level] {
            if x.is_zero() {
                *sum += Float::with_val(PREC, w * f(&m));
                continue;
            }
            let rx = Float::with_val(PREC, &r * x);
            let right = f(&Float::with_val(PREC, &m + &rx));
            let left = f(&Float::with_val(PREC, &m - &rx));
            *sum += Float::with_val(PREC, right + left) * w;
        }
    };
    add_level(0, &mut sum);
    let mut h = Float::with_val(PREC, 1);
    let mut previous = Float::with_val(PREC, &sum * &h) * &r;
    let mut error = Float::with_val(PREC, f64::INFINITY);
    for level in 1..=MAX_LEVEL as usize {
        h >>= 1;
        add_level(level, &mut sum);
        let current = Float::with_val(PREC, &sum * &h) * &r;
        error = Float::with_val(PREC, &current - &previous).abs();
        previous = current;
        let scale = Float::with_val(PREC, previous.abs_ref()).max(&Float::with_val(PREC, 1));
        if error < (scale >> tolerance_bits) {
            break;
        }
    }
    Quadrature {
        value: previous,
        error_estimate: error,
    }
}

/// `P(N(mean, sd²) > t) = erfc((t - mean)/(sd·√2))/2`, relative error below `2^-(PREC+4)`.
///
/// `erfc` amplifies a relative error `δ` of its argument `z` into about `2z²·δ`, so the argument
/// is formed with `2·log2(|z|+2) + 12` extra bits (MPFR's `erfc` is correctly rounded).
pub fn normal_survival(mean: &Float, sd: &Float, t: &Float) -> Float {
    let rough = Float::with_val(53, t - mean) / sd;
    let magnitude = rough.to_f64().abs().min(1e300) + 2.0;
    let extra = 2 * (magnitude.log2().ceil() as u32) + 12;
    let wp = PREC + extra;
    let sqrt2 = Float::with_val(wp, 2).sqrt();
    let z = Float::with_val(wp, t - mean) / sd / sqrt2;
    Float::with_val(PREC, z.erfc() / 2u32)
}

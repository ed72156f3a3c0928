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

/// Working precision (bits) of the quadrature.
pub const PREC: u32 = 192;
/// Deepest level (step `2^-MAX_LEVEL`).
pub const MAX_LEVEL: u32 = 9;

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
    let negligible = Float::with_val(PREC, 1) >> (PREC + 8);
    // Sum of weight·(f(m + r·x) + f(m - r·x)) over the nodes t = k·h of the current level.
    let sum_over = |t: &Float, f: &mut F| -> Option<Float> {
        let (w, x) = weight_and_offset(t);
        if w < negligible {
            return None;
        }
        let rx = Float::with_val(PREC, &r * &x);
        let right = f(&Float::with_val(PREC, &m + &rx));
        let left = f(&Float::with_val(PREC, &m - &rx));
        Some(w * (right + left))
    };
    let (w0, _) = weight_and_offset(&Float::with_val(PREC, 0));
    let mut sum = w0 * f(&m);
    let mut h = Float::with_val(PREC, 1);
    let mut k = 1u32;
    loop {
        let t = Float::with_val(PREC, &h * k);
        match sum_over(&t, &mut f) {
            Some(s) => sum += s,
            None => break,
        }
        k += 1;
    }
    let mut previous = Float::with_val(PREC, &sum * &h) * &r;
    let mut error = Float::with_val(PREC, f64::INFINITY);
    for _level in 1..=MAX_LEVEL {
        h >>= 1;
        // New nodes are the odd multiples of the new step.
        let mut k = 1u32;
        loop {
            let t = Float::with_val(PREC, &h * k);
            match sum_over(&t, &mut f) {
                Some(s) => sum += s,
                None => break,
            }
            k += 2;
        }
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

/// `P(N(mean, sd²) > t) = erfc((t - mean)/(sd·√2))/2` at [`PREC`] bits (relative error a few
/// units in the last place: MPFR's erfc is correctly rounded, plus three roundings).
pub fn normal_survival(mean: &Float, sd: &Float, t: &Float) -> Float {
    let sqrt2 = Float::with_val(PREC, 2).sqrt();
    let z = Float::with_val(PREC, t - mean) / sd / sqrt2;
    z.erfc() / 2u32
}

//! Enclosures of the lower tail `h(-x) = φ(x) - x·Q(x)`, `x ≥ 0`, `Q(x) = P(Z > x)`
//! (MATH.md, "Gaussian building blocks"), in linear and logarithmic form.
//!
//! Every other quantity reduces to this one: `h(z) = h(-|z|) + max(z, 0)`, because
//! `h(z) - h(-z) = E[z - Z] = z`. Working on the lower tail keeps every formula free of the
//! cancellation in `z·Φ(z) + φ(z)` for `z ≫ 0`.
//!
//! Two certified methods:
//! * **erfc form** `φ(x) - x·erfc(x/√2)/2` with directed rounding; the subtraction cancels about
//!   `2·log2 x` bits (`h(-x) ≈ φ(x)/x²`), which the working precision adds back.
//! * **asymptotic series** `h(-x)/φ(x) = Σ_{k≥1} (-1)^{k+1} (2k-1)!!/x^{2k}` with a rigorous
//!   remainder: integrating by parts, `h(-x)/φ(x) = S_n + (-1)^n·E_n`, `0 < E_n < (2n+1)!!/x^{2n+2}`
//!   for every `n ≥ 1` and `x > 0`, so for even `n` the value lies in `(S_n, S_n + a_{n+1})`.
//!   Used when few terms suffice; evaluated in log space so it never underflows.

use crate::interval::{down, log2_abs, sqrt_2, sqrt_2pi, up, Interval};
use rug::Float;

/// Precision lost to cancellation in the erfc form at `x`: about `2·log2 x` bits.
pub(crate) fn cancellation_bits(x: &Float) -> u32 {
    (2 * log2_abs(x)).clamp(0, 200) as u32
}

/// Number of series terms (even) giving relative remainder below `2^-(p+4)` at `x`, if the
/// series is usable there (terms still decreasing fast).
fn series_terms(x: &Float, p: u32) -> Option<u32> {
    let log2_x2 = 2.0 * (log2_abs(x) as f64 - 1.0);
    if log2_x2 < 8.0 {
        return None;
    }
    let mut log2_ratio = 0.0;
    let mut n = 0u32;
    // a_{n+1}/a_1 = Π_{k=1..n} (2k+1)/x²
    while log2_ratio > -(f64::from(p) + 4.0) || n % 2 == 1 {
        n += 1;
        let step = f64::from(2 * n + 1).log2() - log2_x2;
        if step > -1.0 || n > 120 {
            return None;
        }
        log2_ratio += step;
    }
    Some(n)
}

/// `h(-x)/φ(x)` enclosed by the alternating asymptotic series with `n` (even) terms.
fn series_ratio(x: &Float, n: u32, p: u32) -> Interval {
    // Operands are always references, so each operation is rounded once, in the stated direction.
    let (x2_lo, x2_hi) = (down(p, x.square_ref()), up(p, x.square_ref()));
    let inv_x2 = Interval {
        lo: down(p, x2_hi.recip_ref()),
        hi: up(p, x2_lo.recip_ref()),
    };
    let mut term = inv_x2.clone(); // a_1 = 1/x²
    let mut sum = Interval {
        lo: Float::with_val(p, 0),
        hi: Float::with_val(p, 0),
    };
    for k in 1..=n {
        sum = if k % 2 == 1 {
            Interval {
                lo: down(p, &sum.lo + &term.lo),
                hi: up(p, &sum.hi + &term.hi),
            }
        } else {
            Interval {
                lo: down(p, &sum.lo - &term.hi),
                hi: up(p, &sum.hi - &term.lo),
            }
        };
        // a_{k+1} = a_k·(2k+1)/x²
        let f = 2 * k + 1;
        let (t_lo, t_hi) = (down(p, &term.lo * f), up(p, &term.hi * f));
        term = Interval {
            lo: down(p, &t_lo * &inv_x2.lo),
            hi: up(p, &t_hi * &inv_x2.hi),
        };
    }
    // n even: h/φ ∈ (S_n, S_n + a_{n+1}).
    Interval {
        hi: up(p, &sum.hi + &term.hi),
        lo: sum.lo,
    }
}

/// `ln φ(x) = -x²/2 - ln √(2π)` enclosed.
fn ln_phi(x: &Float, p: u32) -> Interval {
    let s = sqrt_2pi(p).ln(p);
    let half_x2_hi = up(p, x.square_ref()) >> 1u32;
    let half_x2_lo = down(p, x.square_ref()) >> 1u32;
    Interval {
        lo: -up(p, &half_x2_hi + &s.hi),
        hi: -down(p, &half_x2_lo + &s.lo),
    }
}

/// `h(-x)` by the erfc form at working precision `wp`; `x ≥ 0` exact.
fn h_neg_erfc(x: &Float, wp: u32) -> Interval {
    let x2 = Interval {
        lo: down(wp, x.square_ref()),
        hi: up(wp, x.square_ref()),
    };
    let e = Interval {
        lo: down(wp, -(x2.hi >> 1u32)),
        hi: up(wp, -(x2.lo >> 1u32)),
    }
    .exp(wp);
    let phi = e.div_nonneg(&sqrt_2pi(wp), wp);
    let r2 = sqrt_2(wp);
    let t = Interval {
        lo: down(wp, x / &r2.hi),
        hi: up(wp, x / &r2.lo),
    };
    // erfc is decreasing; Q = erfc/2 exactly.
    let q = Interval {
        lo: down(wp, t.hi.erfc_ref()) >> 1u32,
        hi: up(wp, t.lo.erfc_ref()) >> 1u32,
    };
    let (xq_hi, xq_lo) = (up(wp, x * &q.hi), down(wp, x * &q.lo));
    let lo = down(wp, &phi.lo - &xq_hi);
    let hi = up(wp, &phi.hi - &xq_lo);
    // h(-x) > 0: a negative lower end carries no information.
    let lo = if lo.is_sign_negative() {
        Float::with_val(wp, 0)
    } else {
        lo
    };
    Interval { lo, hi }
}

/// Enclosure of `h(-x)`, `x ≥ 0` exact, with relative width about `2^-p` (may underflow to
/// `[0, tiny]` only beyond MPFR's exponent range, `x ≳ 2.5e9`).
pub(crate) fn h_neg(x: &Float, p: u32) -> Interval {
    match series_terms(x, p) {
        Some(n) => {
            let wp = p + 16;
            ln_phi(x, wp)
                .add(&series_ratio(x, n, wp).ln(wp), wp)
                .exp(wp)
        }
        None => h_neg_erfc(x, p + cancellation_bits(x) + 16),
    }
}

/// Enclosure of `ln h(-x)`, `x ≥ 0` exact, with absolute width about `2^-p·max(1, |ln h|)`.
pub(crate) fn ln_h_neg(x: &Float, p: u32) -> Interval {
    match series_terms(x, p) {
        Some(n) => {
            let wp = p + 16;
            ln_phi(x, wp).add(&series_ratio(x, n, wp).ln(wp), wp)
        }
        None => {
            let wp = p + cancellation_bits(x) + 16;
            h_neg_erfc(x, wp).ln(wp)
        }
    }
}

//! Enclosures of the lower tail `h(-x) = φ(x) - x·Q(x)`, `x ≥ 0`, `Q(x) = P(Z > x)`
//! (MATH.md, "Gaussian building blocks"), in linear and logarithmic form, over an interval of
//! `x` (every bound below is monotone in `x`, and each end uses the worst end of `x`).
//!
//! Every other quantity reduces to this one: `h(z) = h(-|z|) + max(z, 0)`, because
//! `h(z) - h(-z) = E[z - Z] = z`. Working on the lower tail avoids the cancellation in
//! `z·Φ(z) + φ(z)` for `z ≫ 0`. Three certified methods, chosen by `x` and the precision:
//!
//! * **Taylor series** (`x ≤ 4`): `Φ(x) = 1/2 + φ(x)·S(x)`, `S(x) = Σ_{n≥0} x^{2n+1}/(2n+1)!!`
//!   (positive terms), so `h(-x) = φ(x)·(1 + x·S(x)) - x/2`. Once `2n+3 ≥ 2x²` the term ratio
//!   `x²/(2n+3)` is `≤ 1/2`, so the tail is at most twice the first omitted term. The final
//!   subtraction loses `log2(x/(2h(-x))) ≤ 18.1` bits for `x ≤ 4` (the maximum, at `x = 4`),
//!   which the 24 guard bits of the working precision add back.
//! * **Continued fraction** (`x > 4`): with `I_n(x) = ∫_x^∞ (t-x)^n/n!·φ(t) dt` (`I_{-1} = φ`,
//!   `I_0 = Q`, `I_1 = h(-x)`), integration by parts gives `I_{n-1} = x·I_n + (n+1)·I_{n+1}`,
//!   so `r_n = I_n/I_{n-1} > 0` satisfies `r_n = 1/(x + (n+1)·r_{n+1})` and
//!   `h(-x)/φ(x) = r_0·r_1 = 1/(1 + x/r_1)`. Since `0 < r_{N+1} ≤ 1/x`, running the recurrence
//!   down from `[0, 1/x]` encloses `r_1` (each step is decreasing in `r`); no cancellation.
//! * **Asymptotic series** (large `x`): `h(-x)/φ(x) = Σ_{k≥1} (-1)^{k+1} (2k-1)!!/x^{2k}`; by
//!   the same integration by parts `h(-x)/φ(x) = S_n + (-1)^n·E_n` with
//!   `0 < E_n < (2n+1)!!/x^{2n+2}` for every `n ≥ 1`, so for even `n` the value lies in
//!   `(S_n, S_n + a_{n+1})`. Evaluated in log space, so `ln h` never underflows.
//!
//! The same methods give the Mills ratio `Q(x)/φ(x)` ([`tail_ratios`]), hence `Q`, `ln Q` and
//! `Φ` for `ln Φ` and the gradients.

use crate::interval::{down, exponent, ln_sqrt_2pi, log2_abs, sqrt_2pi, up, Interval};
use rug::float::Round;
use rug::ops::{AddAssignRound, DivAssignRound, MulAssignRound};
use rug::Float;

/// The method for `h(-x)` on an interval of `x`.
enum Method {
    Taylor,
    ContinuedFraction,
    /// Asymptotic series with this (even) number of terms.
    Asymptotic(u32),
}

fn method(x: &Interval, p: u32) -> Method {
    if let Some(n) = asymptotic_terms(&x.lo, p) {
        Method::Asymptotic(n)
    } else if x.hi <= 4 {
        Method::Taylor
    } else {
        Method::ContinuedFraction
    }
}

/// Number of asymptotic terms (even) giving relative remainder below `2^-(p+4)` at `x`, if the
/// series can reach that there (terms still shrinking by at least half).
fn asymptotic_terms(x: &Float, p: u32) -> Option<u32> {
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
        if step > -1.0 || n > 200 {
            return None;
        }
        log2_ratio += step;
    }
    Some(n)
}

/// `x²` enclosed (`x ≥ 0`).
fn square(x: &Interval, p: u32) -> Interval {
    Interval {
        lo: down(p, x.lo.square_ref()),
        hi: up(p, x.hi.square_ref()),
    }
}

/// `φ(x) = exp(-x²/2)/√(2π)` enclosed (`x ≥ 0`, `φ` decreasing), relative width about `2^-p`
/// plus the effect of the width of `x`.
pub(crate) fn phi(x: &Interval, p: u32) -> Interval {
    // exp turns the absolute error of x²/2 into a relative one: carry x² with 2·log2(x) more
    // bits (beyond x = 2^34, φ is below MPFR's range anyway).
    let wp = p + 2 * log2_abs(&x.hi).clamp(0, 34) as u32;
    let x2 = square(x, wp);
    let e = Interval {
        lo: down(wp, -(x2.hi >> 1u32)),
        hi: up(wp, -(x2.lo >> 1u32)),
    }
    .exp(p);
    e.div_nonneg(&sqrt_2pi(p), p)
}

/// `ln φ(x) = -x²/2 - ln √(2π)` enclosed.
pub(crate) fn ln_phi(x: &Interval, p: u32) -> Interval {
    let s = ln_sqrt_2pi(p);
    let x2 = square(x, p);
    let (half_hi, half_lo) = (x2.hi >> 1u32, x2.lo >> 1u32);
    Interval {
        lo: -up(p, &half_hi + &s.hi),
        hi: -down(p, &half_lo + &s.lo),
    }
}

/// `S(x) = Σ_{n≥0} x^{2n+1}/(2n+1)!!` enclosed (`0 ≤ x ≤ 4`), the tail bounded by twice the
/// first omitted term, working precision `wp`.
fn taylor_sum(x: &Interval, wp: u32) -> Interval {
    let x2 = square(x, wp);
    let (mut s_lo, mut s_hi) = (Float::new(wp), Float::new(wp));
    // t_0 = x; in-place directed operations keep the loop free of allocations.
    let (mut t_lo, mut t_hi) = (down(wp, &x.lo), up(wp, &x.hi));
    let ratio_small_from = (2.0 * x2.hi.to_f64()).ceil();
    let mut n = 0u32;
    loop {
        // Stop once the ratio of later terms is ≤ 1/2 and the tail (≤ 2·t_n) is below
        // 2^-(wp+2) of the sum (t_n < 2^e_t ≤ 2^(e_s-wp-3) ≤ s·2^-(wp+2)).
        if f64::from(2 * n + 3) >= ratio_small_from {
            match (exponent(&t_hi), exponent(&s_lo)) {
                (None, _) => break,
                (Some(et), Some(es)) if et <= es - i64::from(wp) - 3 => break,
                _ => {}
            }
        }
        s_lo.add_assign_round(&t_lo, Round::Down);
        s_hi.add_assign_round(&t_hi, Round::Up);
        // t_{n+1} = t_n·x²/(2n+3)
        t_lo.mul_assign_round(&x2.lo, Round::Down);
        t_lo.div_assign_round(2 * n + 3, Round::Down);
        t_hi.mul_assign_round(&x2.hi, Round::Up);
        t_hi.div_assign_round(2 * n + 3, Round::Up);
        n += 1;
    }
    t_hi.mul_assign_round(2u32, Round::Up);
    s_hi.add_assign_round(&t_hi, Round::Up);
    Interval { lo: s_lo, hi: s_hi }
}

/// `h(-x) = φ(x)·(1 + x·S(x)) - x/2` by the Taylor series (`x ≤ 4`), working precision `wp`.
fn taylor(x: &Interval, wp: u32) -> Interval {
    let Interval { lo: s_lo, hi: s_hi } = taylor_sum(x, wp);
    let f = phi(x, wp);
    let (xs_lo, xs_hi) = (down(wp, &x.lo * &s_lo), up(wp, &x.hi * &s_hi));
    let (one_lo, one_hi) = (down(wp, &xs_lo + 1u32), up(wp, &xs_hi + 1u32));
    let (a_lo, a_hi) = (down(wp, &f.lo * &one_lo), up(wp, &f.hi * &one_hi));
    let (half_x_hi, half_x_lo) = (up(wp, &x.hi >> 1u32), down(wp, &x.lo >> 1u32));
    let lo = down(wp, &a_lo - &half_x_hi);
    // h(-x) > 0: a non-positive lower end carries no information.
    let lo = if lo.is_sign_negative() {
        Float::with_val(wp, 0)
    } else {
        lo
    };
    Interval {
        lo,
        hi: up(wp, &a_hi - &half_x_lo),
    }
}

/// `h(-x)/φ(x)` by the continued fraction (`x > 0`), with `n` levels, working precision `wp`.
fn continued_fraction_ratio(x: &Interval, n: u32, wp: u32) -> Interval {
    let (x_lo, x_hi) = (down(wp, &x.lo), up(wp, &x.hi));
    // r_{n+1} ∈ (0, 1/x]
    let (mut r_lo, mut r_hi) = (Float::new(wp), up(wp, x_lo.recip_ref()));
    for k in (1..=n).rev() {
        // r_k = 1/(x + (k+1)·r_{k+1}), decreasing in x and in r_{k+1}: the new lower end comes
        // from the old upper end and vice versa (computed in place, then swapped).
        r_hi.mul_assign_round(k + 1, Round::Up);
        r_hi.add_assign_round(&x_hi, Round::Up);
        r_hi.recip_round(Round::Down);
        r_lo.mul_assign_round(k + 1, Round::Down);
        r_lo.add_assign_round(&x_lo, Round::Down);
        r_lo.recip_round(Round::Up);
        std::mem::swap(&mut r_lo, &mut r_hi);
    }
    // h/φ = 1/(1 + x/r_1), increasing in r_1, decreasing in x
    let (q_lo, q_hi) = (up(wp, &x_hi / &r_lo), down(wp, &x_lo / &r_hi));
    let (d_hi, d_lo) = (up(wp, &q_lo + 1u32), down(wp, &q_hi + 1u32));
    Interval {
        lo: down(wp, d_hi.recip_ref()),
        hi: up(wp, d_lo.recip_ref()),
    }
}

/// Continued fraction levels for relative truncation error about `2^-p` at `x ≥ 4`
/// (an estimate; the caller checks the width and doubles it if needed).
fn continued_fraction_levels(x: &Float, p: u32) -> u32 {
    let x = x.to_f64().max(1.0);
    let q = 0.4 * f64::from(p) / x;
    (q * q + f64::from(p) / 4.0).ceil() as u32 + 4
}

/// `h(-x)/φ(x)` by the continued fraction, refined until its relative width is `≤ 2^-p`.
fn continued_fraction(x: &Interval, p: u32) -> Interval {
    let mut n = continued_fraction_levels(&x.lo, p);
    loop {
        let wp = p + 16 + (32 - n.leading_zeros());
        let q = continued_fraction_ratio(x, n, wp);
        let width = up(64, &q.hi - &q.lo);
        if n > 1 << 16 || width <= Float::with_val(64, &q.lo >> p) {
            return q;
        }
        n *= 2;
    }
}

/// `h(-x)/φ(x)` by the asymptotic series with `n` (even) terms.
fn asymptotic_ratio(x: &Interval, n: u32, p: u32) -> Interval {
    let (x2_lo, x2_hi) = (down(p, x.lo.square_ref()), up(p, x.hi.square_ref()));
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

/// Enclosure of `h(-x)` over `x` (`0 ≤ x.lo`), relative width about `2^-p` plus the effect of
/// the width of `x`. Underflows to `[0, tiny]` only beyond MPFR's exponent range (`x ≳ 2.5e9`).
pub(crate) fn h_neg(x: &Interval, p: u32) -> Interval {
    let wp = p + 24;
    match method(x, p) {
        Method::Taylor => taylor(x, wp),
        Method::ContinuedFraction => {
            let q = continued_fraction(x, wp);
            phi(x, wp).mul_nonneg(&q, wp)
        }
        Method::Asymptotic(n) => ln_phi(x, wp)
            .add(&asymptotic_ratio(x, n, wp).ln(wp), wp)
            .exp(wp),
    }
}

/// Enclosure of `ln h(-x)` over `x` (`0 ≤ x.lo`); finite for every finite `x`.
pub(crate) fn ln_h_neg(x: &Interval, p: u32) -> Interval {
    let wp = p + 24;
    match method(x, p) {
        Method::Taylor => taylor(x, wp).ln(wp),
        Method::ContinuedFraction => ln_phi(x, wp).add(&continued_fraction(x, wp).ln(wp), wp),
        Method::Asymptotic(n) => ln_phi(x, wp).add(&asymptotic_ratio(x, n, wp).ln(wp), wp),
    }
}

/// The two ratios of the upper tail to the density, enclosed over `x` (`0 ≤ x.lo`):
/// `q = h(-x)/φ(x)` and the Mills ratio `r = Q(x)/φ(x)`, `Q(x) = P(Z > x)`. Neither
/// underflows, so every quantity of the tail can be formed from them and `φ` (or `ln φ`):
/// `h(-x) = φ·q`, `Q = φ·r`, `Φ(-x)/h(-x) = r/q`, `φ(x)/Q(x) = 1/r`.
pub(crate) struct TailRatios {
    pub q: Interval,
    pub r: Interval,
}

/// [`TailRatios`] at working precision `p + 24`, relative width about `2^-p` plus the effect of
/// the width of `x`.
///
/// For `x ≤ 4` from the Taylor sum: `q = 1 + x·S - x/(2φ)` (loses ≤ 18.1 bits at `x = 4`),
/// `r = 1/(2φ) - S` (loses ≤ 14 bits); both covered by the 24 guard bits. Otherwise `q` by the
/// continued fraction or the asymptotic series and `r = (1 - q)/x` (from `h(-x) = φ - x·Q`),
/// with `q < 1/(1 + x²) < 1/17`: no cancellation.
pub(crate) fn tail_ratios(x: &Interval, p: u32) -> TailRatios {
    let wp = p + 24;
    let non_negative = |v: Float| {
        if v.is_sign_negative() {
            Float::with_val(wp, 0)
        } else {
            v
        }
    };
    let q = match method(x, p) {
        Method::Taylor => {
            let s = taylor_sum(x, wp);
            let f = phi(x, wp);
            // x/(2φ) and 1/(2φ) are increasing in x (φ decreasing).
            let (half_inv_lo, half_inv_hi) = (
                down(wp, f.hi.recip_ref()) >> 1u32,
                up(wp, f.lo.recip_ref()) >> 1u32,
            );
            let (xs_lo, xs_hi) = (down(wp, &x.lo * &s.lo), up(wp, &x.hi * &s.hi));
            let (xh_lo, xh_hi) = (down(wp, &x.lo * &half_inv_lo), up(wp, &x.hi * &half_inv_hi));
            let q = Interval {
                lo: non_negative(down(wp, &down(wp, &xs_lo + 1u32) - &xh_hi)),
                hi: up(wp, &up(wp, &xs_hi + 1u32) - &xh_lo),
            };
            let r = Interval {
                lo: non_negative(down(wp, &half_inv_lo - &s.hi)),
                hi: up(wp, &half_inv_hi - &s.lo),
            };
            return TailRatios { q, r };
        }
        Method::ContinuedFraction => continued_fraction(x, wp),
        Method::Asymptotic(n) => asymptotic_ratio(x, n, wp),
    };
    // r = (1 - q)/x, decreasing in q and in x.
    let r = Interval {
        lo: down(wp, &down(wp, 1u32 - &q.hi) / &x.hi),
        hi: up(wp, &up(wp, 1u32 - &q.lo) / &x.lo),
    };
    TailRatios { q, r }
}

/// `Q(x) = P(Z > x)` enclosed over `x` (`0 ≤ x.lo`). Underflows to `[0, tiny]` only beyond
/// MPFR's exponent range (`x ≳ 2.5e9`).
pub(crate) fn upper_tail(x: &Interval, p: u32) -> Interval {
    let wp = p + 24;
    phi(x, wp).mul_nonneg(&tail_ratios(x, p).r, wp)
}

/// `ln Q(x) = ln φ(x) + ln r(x)` enclosed over `x` (`0 ≤ x.lo`); finite for every finite `x`.
pub(crate) fn ln_upper_tail(x: &Interval, p: u32) -> Interval {
    let wp = p + 24;
    ln_phi(x, wp).add(&tail_ratios(x, p).r.ln(wp), wp)
}

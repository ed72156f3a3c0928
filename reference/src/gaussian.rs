//! Enclosures of the lower tail `h(-x) = φ(x) - x·Q(x)`, `x ≥ 0`, `Q(x) = P(Z > x)`
//! (MATH.md, "Gaussian building blocks"), in linear and logarithmic form, over an interval of
//! `x` (every bound below is monotone in `x`, and each end uses the worst end of `x`).
//!
//! Every other quantity reduces to this one: `h(z) = h(-|z|) + max(z, 0)`, because
//! `h(z) - h(-z) = E[z - Z] = z`. Working on the lower tail avoids the cancellation in
//! `z·Φ(z) + φ(z)` for `z ≫ 0`. Three certified methods, chosen by `x` and the precision:
//!
//! * **Taylor series** (`x ≤ 6`): `Φ(x) = 1/2 + φ(x)·S(x)`, `S(x) = Σ_{n≥0} x^{2n+1}/(2n+1)!!`
//!   (positive terms), so `h(-x) = φ(x)·(1 + x·S(x)) - x/2`. Once `2n+3 ≥ 2x²` the term ratio
//!   `x²/(2n+3)` is `≤ 1/2`, so the tail is at most twice the first omitted term. The final
//!   subtraction loses `log2(x/(2h(-x)))` bits (18.1 at `x = 4`, 34.2 at `x = 6`), which the
//!   guard bits of the working precision add back.
//! * **Continued fraction** (`x > 6`): with `I_n(x) = ∫_x^∞ (t-x)^n/n!·φ(t) dt` (`I_{-1} = φ`,
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

use crate::arith::interval::{ln_sqrt_2pi, log2_abs, with_sqrt_2pi, Interval};
use crate::arith::mpfr::{down, exponent, up};
use crate::arith::short_float::Short;
use crate::arith::wide_float::{Direction, Wide};
use rug::float::Round;
use rug::ops::{AddAssignRound, AssignRound, DivAssignRound, MulAssignRound, Pow, SubAssignRound};
use rug::Float;

/// The method for `h(-x)` on an interval of `x`.
enum Method {
    Taylor,
    ContinuedFraction,
    /// Asymptotic series with this (even) number of terms.
    Asymptotic(u32),
}

fn method(x: &Interval, p: u32) -> Method {
    method_from(log2_abs(&x.lo), x.hi <= TAYLOR_MAX, p)
}

/// [`method`] from `log2_abs(x.lo)` and whether `x.hi ≤ TAYLOR_MAX`.
fn method_from(log2_x_lo: i64, taylor_reaches: bool, p: u32) -> Method {
    if let Some(n) = asymptotic_terms(log2_x_lo, p) {
        Method::Asymptotic(n)
    } else if taylor_reaches {
        Method::Taylor
    } else {
        Method::ContinuedFraction
    }
}

/// The Taylor form serves `x ≤ 6`: from `x = 4` to 6 it costs a fraction of the continued
/// fraction (which needs about `(0.4·p/x)² + p/4` levels) at the price of more guard bits.
pub(crate) const TAYLOR_MAX: f64 = 6.0;

/// Working precision of `method` at `x` for a target `p`: 24 guard bits, and for the Taylor form
/// beyond `x = 4` the bits its final subtraction loses beyond 18
/// (`log2(x/(2h(-x))) ≈ x²/(2 ln 2) + 3·log2(x) + 0.33`, 34.2 at `x = 6`). Only the width of the
/// enclosures depends on it, never their soundness.
fn working_precision(method: &Method, x: &Interval, p: u32) -> u32 {
    working_precision_from(method, x.hi.to_f64(), p)
}

/// [`working_precision`] from `x.hi` rounded to the nearest f64.
fn working_precision_from(method: &Method, x: f64, p: u32) -> u32 {
    if !matches!(method, Method::Taylor) || x <= 4.0 {
        return p + 24;
    }
    let loss = x * x / (2.0 * std::f64::consts::LN_2) + 3.0 * x.log2() + 0.33;
    p + 24 + (loss - 18.0).ceil().max(0.0) as u32 + 2
}

/// Number of asymptotic terms (even) giving relative remainder below `2^-(p+4)` at `x`, if the
/// series can reach that there (terms still shrinking by at least half); from
/// `log2_x = log2_abs(x)`.
fn asymptotic_terms(log2_x: i64, p: u32) -> Option<u32> {
    let log2_x2 = 2.0 * (log2_x as f64 - 1.0);
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
    // -x²/2 enclosed: halving and negating the ends of x² (precision wp) are exact, so they are
    // done in place.
    let Interval {
        lo: mut half_lo,
        hi: mut half_hi,
    } = square(x, wp);
    half_lo >>= 1u32;
    half_hi >>= 1u32;
    let mut e = Interval {
        lo: -half_hi,
        hi: -half_lo,
    }
    .exp(p);
    with_sqrt_2pi(p, |s| {
        if e.lo.prec() == p && e.hi.prec() == p {
            // Interval::div_nonneg in place (the same roundings at p bits).
            e.lo.div_assign_round(&s.hi, Round::Down);
            e.hi.div_assign_round(&s.lo, Round::Up);
            e
        } else {
            e.div_nonneg(s, p)
        }
    })
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

/// `S(x) = Σ_{n≥0} x^{2n+1}/(2n+1)!!` enclosed (`0 ≤ x ≤ 6`), working precision `wp`.
///
/// One chain of terms at `x.lo`, every operation rounded down, gives the lower end `s̃`; the upper
/// end is `ρ^(2N+1)·(s̃ + 2·t̃_N)/(1 - K·ε)` (`ρ = x.hi/x.lo`, `N` terms summed, `t̃_N` the first
/// omitted one, `K = 4N + 1` roundings per term at most, `ε = 2^(1-wp)`): half the operations of
/// two chains (proof note §4.1a). A point `x = 0` is exact; an interval reaching down to 0 (no
/// finite `ρ`) takes [`taylor_sum_two_chains`].
fn taylor_sum(x: &Interval, wp: u32) -> Interval {
    taylor_sum_with(x, wp, true)
}

/// [`taylor_sum`], its loop on [`Short`] floats where `wp ≤ 128` if `short_loop` (the same
/// results bit for bit; `false` is the MPFR loop alone, which tests compare against).
fn taylor_sum_with(x: &Interval, wp: u32, short_loop: bool) -> Interval {
    if x.hi.is_zero() {
        return Interval::point(Float::with_val(wp, 0));
    }
    if x.lo.is_zero() {
        return taylor_sum_two_chains(x, wp);
    }
    let w_lo = down(wp, x.lo.square_ref());
    let w_hi = up(64, x.hi.square_ref());
    let mut s = Float::new(wp);
    // t_0 = x; in-place directed operations keep the loop free of allocations.
    let mut t = down(wp, &x.lo);
    let ratio_small_from = (2.0 * w_hi.to_f64_round(Round::Up)).ceil();
    // Enough reciprocals for x ≤ 6 at this precision (more are added if ever needed).
    let mut terms = (wp as usize / 2).max(64);
    let mut n = 0u32;
    // Up to 128 bits the loop runs on two-limb floats, with the same results bit for bit
    // (`arith/short_float.rs`, proof note §4.1b).
    let mut short = (short_loop && wp <= 128)
        .then(|| {
            Some((
                Short::ZERO,
                Short::from_float(&t)?,
                Short::from_float(&w_lo)?,
            ))
        })
        .flatten();
    'chunks: loop {
        let done = with_odd_reciprocals(terms, wp, |reciprocals, short_reciprocals, _| {
            if let Some((s_short, t_short, w)) = short.as_mut() {
                let run = taylor_terms(
                    s_short,
                    t_short,
                    *w,
                    &mut n,
                    short_reciprocals,
                    ratio_small_from,
                    wp,
                );
                if let Some(done) = run {
                    return done;
                }
                // Never (the reciprocals are positive, of precision wp): go on with MPFR.
                s = s_short.to_float(wp);
                t = t_short.to_float(wp);
                short = None;
            }
            while (n as usize) < reciprocals.len() {
                // Stop once the ratio of later terms (at x.hi) is ≤ 1/2 and the tail is far
                // below the sum (the bound below holds wherever the loop stops past that ratio).
                if f64::from(2 * n + 3) >= ratio_small_from {
                    match (exponent(&t), exponent(&s)) {
                        (None, _) => return true,
                        (Some(et), Some(es)) if et <= es - i64::from(wp) - 3 => return true,
                        _ => {}
                    }
                }
                s.add_assign_round(&t, Round::Down);
                // t_{n+1} = t_n·x²·(1/(2n+3)), the reciprocal rounded down once per precision
                // and cached: a product costs a third of MPFR's division by an integer.
                t.mul_assign_round(&w_lo, Round::Down);
                t.mul_assign_round(&reciprocals[n as usize], Round::Down);
                n += 1;
            }
            false
        });
        if done {
            break 'chunks;
        }
        terms *= 2;
    }
    if let Some((s_short, t_short, _)) = short {
        // s and t have precision wp: written in place.
        s_short.store(&mut s);
        t_short.store(&mut t);
    }
    let hi = taylor_upper_end(x, &s, t, n, wp);
    Interval { lo: s, hi }
}

/// The upper end of [`taylor_sum`] from the loop's results (`s` = s̃, `t` = t̃_N, `n` = N):
/// `ρ^(2N+1)·(s̃ + 2t̃_N)/(1 - Kε)` rounded up (proof note §4.1a, step 6), formed in place in
/// `t`'s float (precision `wp`).
fn taylor_upper_end(x: &Interval, s: &Float, t: Float, n: u32, wp: u32) -> Float {
    // Each term t̃_k (k ≤ N = n) is its exact value at x.lo times (1 - ε)^j for some
    // j ≤ 4k + 1 (x.lo and x.lo² rounded once each, then k products by x.lo², k reciprocals and
    // k products by them), and reaches s̃ through at most N - k additions:
    // s̃ ≥ (1 - ε)^K·S_N(x.lo), K = 4N + 1.
    let k = 4 * u64::from(n) + 1;
    // At precision wp: the factor's distance from 1 is a few thousand units of 2^-wp.
    let mut factor = rounding_factor(k, wp);
    // t_k(x.hi) = ρ^(2k+1)·t_k(x.lo) ≤ ρ^(2N+1)·t_k(x.lo) for k ≤ N (ρ = 1 + δ ≥ 1), and
    // ρ^m ≤ e^(mδ) ≤ 1 + 2mδ while mδ ≤ 1 (convexity of exp on [0, 1], e < 3): no power.
    let m = 2 * n + 1;
    // m_delta = RU(RU(RU(x.hi - x.lo)/x.lo)·m) at 64 bits, in place.
    let mut m_delta = up(64, &x.hi - &x.lo);
    m_delta.div_assign_round(&x.lo, Round::Up);
    m_delta.mul_assign_round(m, Round::Up);
    let growth = if m_delta <= 1u32 {
        let mut g = Float::with_val(wp, &m_delta << 1u32);
        g.add_assign_round(1u32, Round::Up);
        g
    } else {
        let rho = up(wp, &x.hi / &x.lo);
        up(wp, (&rho).pow(m))
    };
    factor.mul_assign_round(&growth, Round::Up);
    // hi = RU(RU(s + RU(2t))·factor), in t's place (t has precision wp).
    let mut hi = t;
    hi.mul_assign_round(2u32, Round::Up);
    hi.add_assign_round(s, Round::Up);
    hi.mul_assign_round(&factor, Round::Up);
    hi
}

/// The operations of [`taylor_sum`]'s loop on integer floats that compute them exactly as MPFR
/// does: [`Short`] (`wp ≤ 128`) and [`Wide`] (`wp ≤ 192`).
trait TermFloat: Copy {
    fn exponent(self) -> Option<i64>;
    /// `RD_wp(self + o)`.
    fn add_down(self, o: Self, wp: u32) -> Self;
    /// `RD_wp(self·o)`.
    fn mul_down(self, o: Self, wp: u32) -> Self;
    /// The precision `wp` in the form the operations on positive numbers take it.
    type Keep: Copy;
    fn keep(wp: u32) -> Self::Keep;
    /// The exponent of a positive number (as [`TermFloat::exponent`]).
    fn exponent_positive(self) -> i64;
    /// `RD_wp(self + o)` for positive `self`, `o` (`keep` from `wp`).
    fn add_down_positive(self, o: Self, keep: Self::Keep) -> Self;
    /// `RD_wp(self·o)` for positive `self`, `o` (`keep` from `wp`).
    fn mul_down_positive(self, o: Self, keep: Self::Keep) -> Self;
}

impl TermFloat for Short {
    fn exponent(self) -> Option<i64> {
        Short::exponent(self)
    }
    fn add_down(self, o: Short, wp: u32) -> Short {
        Short::add_down(self, o, wp)
    }
    fn mul_down(self, o: Short, wp: u32) -> Short {
        Short::mul_down(self, o, wp)
    }
    type Keep = u128;
    #[inline(always)]
    fn exponent_positive(self) -> i64 {
        self.parts().1
    }
    fn keep(wp: u32) -> u128 {
        crate::arith::short_float::mask(wp)
    }
    #[inline(always)]
    fn add_down_positive(self, o: Short, keep: u128) -> Short {
        Short::add_down_positive(self, o, keep)
    }
    #[inline(always)]
    fn mul_down_positive(self, o: Short, keep: u128) -> Short {
        Short::mul_down_positive(self, o, keep)
    }
}

impl TermFloat for Wide {
    fn exponent(self) -> Option<i64> {
        Wide::exponent(self)
    }
    fn add_down(self, o: Wide, wp: u32) -> Wide {
        self.add(o, wp, Direction::Down)
    }
    fn mul_down(self, o: Wide, wp: u32) -> Wide {
        self.mul(o, wp, Direction::Down)
    }
    type Keep = (u64, u128);
    #[inline(always)]
    fn exponent_positive(self) -> i64 {
        Wide::exponent_positive(self)
    }
    fn keep(wp: u32) -> (u64, u128) {
        crate::arith::wide_float::keep_masks(wp)
    }
    #[inline(always)]
    fn add_down_positive(self, o: Wide, keep: (u64, u128)) -> Wide {
        Wide::add_down_positive(self, o, keep)
    }
    #[inline(always)]
    fn mul_down_positive(self, o: Wide, keep: (u64, u128)) -> Wide {
        Wide::mul_down_positive(self, o, keep)
    }
}

/// The loop of [`taylor_sum`] on [`Short`] floats (`wp ≤ 128`) or [`Wide`] floats (`wp ≤ 192`):
/// the same stopping test and the same three operations rounded toward −∞ (`s += t`,
/// `t ·= x.lo²`, `t ·= RD(1/(2n+3))`), which these floats compute exactly as MPFR does. Returns
/// whether the sum is complete (else the reciprocals ran out), or `None` if a reciprocal is not
/// available in this form (never within the precisions above).
fn taylor_terms<T: TermFloat>(
    s: &mut T,
    t: &mut T,
    w: T,
    n: &mut u32,
    reciprocals: &[Option<T>],
    ratio_small_from: f64,
    wp: u32,
) -> Option<bool> {
    taylor_terms_positive(s, t, w, n, reciprocals, ratio_small_from, wp)
}

/// [`taylor_terms`] written once for both float types, each operation through [`TermFloat`].
fn taylor_terms_generic<T: TermFloat>(
    s: &mut T,
    t: &mut T,
    w: T,
    n: &mut u32,
    reciprocals: &[Option<T>],
    ratio_small_from: f64,
    wp: u32,
) -> Option<bool> {
    while (*n as usize) < reciprocals.len() {
        if f64::from(2 * *n + 3) >= ratio_small_from {
            match (t.exponent(), s.exponent()) {
                (None, _) => return Some(true),
                (Some(et), Some(es)) if et <= es - i64::from(wp) - 3 => return Some(true),
                _ => {}
            }
        }
        let r = reciprocals[*n as usize]?;
        *s = s.add_down(*t, wp);
        *t = t.mul_down(w, wp).mul_down(r, wp);
        *n += 1;
    }
    Some(false)
}

/// [`taylor_terms`] as [`taylor_terms_generic`], the same operations in the same order with the
/// same results, in fewer instructions: a zero `t` or `w` (never in [`taylor_sum`]) takes
/// [`taylor_terms_generic`]; a zero `s` (the first term) takes one step of it; after that `s`,
/// `t` and `w` are positive (sums and products of positive numbers rounded down stay positive:
/// no exponent range), so the operations skip their tests for zero
/// ([`Short::add_down_positive`], [`Short::mul_down_positive`] and their [`Wide`] forms, the
/// mask of `wp` bits formed once), and the stopping test reduces to its exponent comparison once `2n + 3 ≥
/// ratio_small_from`, which stays true as `n` grows (the loop runs in two phases: before, no
/// stopping test; after, no comparison of `2n + 3`).
fn taylor_terms_positive<T: TermFloat>(
    s: &mut T,
    t: &mut T,
    w: T,
    n: &mut u32,
    reciprocals: &[Option<T>],
    ratio_small_from: f64,
    wp: u32,
) -> Option<bool> {
    if t.exponent().is_none() || w.exponent().is_none() {
        return taylor_terms_generic(s, t, w, n, reciprocals, ratio_small_from, wp);
    }
    if s.exponent().is_none() {
        // One step of the generic loop: its stopping test cannot end the sum here (t > 0 and
        // s = 0), and its sum makes s positive.
        let Some(&r) = reciprocals.get(*n as usize) else {
            return Some(false);
        };
        let r = r?;
        *s = s.add_down(*t, wp);
        *t = t.mul_down(w, wp).mul_down(r, wp);
        *n += 1;
    }
    let keep = T::keep(wp);
    let (mut s_, mut t_, mut k) = (*s, *t, *n as usize);
    // One term: s += t, t ·= w, t ·= r, each rounded down at wp bits.
    #[inline(always)]
    fn step<T: TermFloat>(s: &mut T, t: &mut T, w: T, r: T, keep: T::Keep) {
        *s = s.add_down_positive(*t, keep);
        *t = t.mul_down_positive(w, keep).mul_down_positive(r, keep);
    }
    let mut result = Some(false);
    // Before the term ratio at x.hi is ≤ 1/2: no stopping test.
    while k < reciprocals.len() && f64::from(2 * k as u32 + 3) < ratio_small_from {
        let Some(r) = reciprocals[k] else {
            result = None;
            break;
        };
        step(&mut s_, &mut t_, w, r, keep);
        k += 1;
    }
    if result.is_some() {
        // From there on: the exponent test of the generic loop (both numbers positive).
        let guard = i64::from(wp) + 3;
        for r in &reciprocals[k..] {
            if t_.exponent_positive() <= s_.exponent_positive() - guard {
                result = Some(true);
                break;
            }
            let Some(r) = *r else {
                result = None;
                break;
            };
            step(&mut s_, &mut t_, w, r, keep);
            k += 1;
        }
    }
    *s = s_;
    *t = t_;
    *n = k as u32;
    result
}

/// `RU(1/RD(1 - k·2^(1-wp)))` at `wp` bits, the factor of [`taylor_sum`]'s upper end for
/// `k = 4N + 1` roundings (cached per thread: it depends on `k` and `wp` only, and costs a
/// division).
fn rounding_factor(k: u64, wp: u32) -> Float {
    with_rounding_factor(k, wp, Float::clone)
}

/// Runs `f` on [`rounding_factor`]`(k, wp)`, borrowed from the per-thread cache where it is
/// there (no copy).
fn with_rounding_factor<T>(k: u64, wp: u32, f: impl FnOnce(&Float) -> T) -> T {
    // Per precision (at most 16 kept), a table indexed by k (a hash of the key would cost
    // about as much as the rest of the upper end).
    thread_local! {
        static FACTORS: std::cell::RefCell<Vec<(u32, Vec<Option<Float>>)>> =
            const { std::cell::RefCell::new(Vec::new()) };
    }
    let compute = || {
        // At precision wp: the factor's distance from 1 is a few thousand units of 2^-wp.
        let k_eps = Float::with_val(64, k) >> (wp - 1);
        let shrink = down(wp, 1u32 - &k_eps);
        up(wp, shrink.recip_ref())
    };
    let index = match usize::try_from(k) {
        Ok(index) if index < 1 << 16 => index,
        _ => return f(&compute()),
    };
    FACTORS.with(|cache| {
        let mut cache = cache.borrow_mut();
        let at = match cache.iter().position(|(p, _)| *p == wp) {
            Some(at) => at,
            None => {
                if cache.len() >= 16 {
                    cache.remove(0);
                }
                cache.push((wp, Vec::new()));
                cache.len() - 1
            }
        };
        let table = &mut cache[at].1;
        if table.len() <= index {
            table.resize(index + 1, None);
        }
        f(table[index].get_or_insert_with(compute))
    })
}

thread_local! {
    /// `RD(1/(2n+3))` for `n = 0, 1, …`, per working precision (a few precisions recur).
    static ODD_RECIPROCALS: std::cell::RefCell<Vec<OddReciprocals>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// The cached reciprocals of one working precision, as MPFR floats and (for `wp ≤ 128`,
/// `wp ≤ 192`) the same numbers as [`Short`] and [`Wide`] floats, read once.
struct OddReciprocals {
    wp: u32,
    floats: Vec<Float>,
    shorts: Vec<Option<Short>>,
    wides: Vec<Option<Wide>>,
}

/// Runs `f` with the table `RD_wp(1/(2n+3))`, `n < terms`, as MPFR floats, as [`Short`]
/// floats (`None` above 128 bits) and as [`Wide`] floats (`None` above 192 bits) (computed once
/// per thread and precision; at most 16 precisions are kept).
fn with_odd_reciprocals<T>(
    terms: usize,
    wp: u32,
    f: impl FnOnce(&[Float], &[Option<Short>], &[Option<Wide>]) -> T,
) -> T {
    ODD_RECIPROCALS.with(|cache| {
        let mut cache = cache.borrow_mut();
        let at = match cache.iter().position(|table| table.wp == wp) {
            Some(at) => at,
            None => {
                if cache.len() >= 16 {
                    cache.remove(0);
                }
                cache.push(OddReciprocals {
                    wp,
                    floats: Vec::new(),
                    shorts: Vec::new(),
                    wides: Vec::new(),
                });
                cache.len() - 1
            }
        };
        let table = &mut cache[at];
        while table.floats.len() < terms {
            let odd = 2 * table.floats.len() as u32 + 3;
            // The quotient must be rounded once, downward: an owned `Float / u32` would round
            // to nearest first and `down` could then only keep that value.
            let r = down(wp, &Float::with_val(wp, 1) / odd);
            table
                .shorts
                .push((wp <= 128).then(|| Short::from_float(&r)).flatten());
            table.wides.push(Wide::from_float(&r));
            table.floats.push(r);
        }
        f(
            &table.floats[..terms],
            &table.shorts[..terms],
            &table.wides[..terms],
        )
    })
}

/// [`taylor_sum`] by two chains of terms, at `x.lo` rounded down and at `x.hi` rounded up, the
/// tail bounded by twice the first omitted term (for an interval of `x` reaching 0; also the
/// independent evaluation the one-chain form is tested against).
fn taylor_sum_two_chains(x: &Interval, wp: u32) -> Interval {
    let x2 = square(x, wp);
    let (mut s_lo, mut s_hi) = (Float::new(wp), Float::new(wp));
    let (mut t_lo, mut t_hi) = (down(wp, &x.lo), up(wp, &x.hi));
    let ratio_small_from = (2.0 * x2.hi.to_f64_round(Round::Up)).ceil();
    let mut n = 0u32;
    loop {
        if f64::from(2 * n + 3) >= ratio_small_from {
            match (exponent(&t_hi), exponent(&s_lo)) {
                (None, _) => break,
                (Some(et), Some(es)) if et <= es - i64::from(wp) - 3 => break,
                _ => {}
            }
        }
        s_lo.add_assign_round(&t_lo, Round::Down);
        s_hi.add_assign_round(&t_hi, Round::Up);
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

/// `h(-x) = φ(x)·(1 + x·S(x)) - x/2` by the Taylor series (`x ≤ 6`), working precision `wp`.
fn taylor(x: &Interval, wp: u32) -> Interval {
    if let Some((lo, hi)) = taylor_wide(x, wp) {
        return Interval {
            lo: lo.to_float(wp),
            hi: hi.to_float(wp),
        };
    }
    taylor_from(x, &taylor_sum(x, wp), &phi(x, wp), wp)
}

/// [`taylor`] on [`Wide`] floats (proof note §9b): [`taylor_sum`], [`phi`] and [`taylor_from`]
/// as the same operations on the same operands with the same roundings and target precisions,
/// each computed exactly as MPFR rounds it (`arith/wide_float.rs`), so the same ends bit for
/// bit; the loop on [`Short`] floats for `wp ≤ 128`, on [`Wide`] floats up to 192 bits.
/// `None` (then the MPFR forms run) unless `wp ≤ 192`, `0 < x.lo` and both ends of `x` have at
/// most 192 bits, and wherever a step leaves what the integer forms cover (an `x` interval so
/// wide that the upper end's growth factor is a true power, an `exp` the fixed-point form does
/// not decide, `x²` beyond an f64, …).
fn taylor_wide(x: &Interval, wp: u32) -> Option<(Wide, Wide)> {
    taylor_wide_from(Wide::from_float(&x.lo)?, Wide::from_float(&x.hi)?, wp)
}

/// [`h_neg`] on [`Wide`] ends of `x` (`x_lo ≤ x_hi`) where it takes the Taylor form and
/// [`taylor_wide`] answers: the same method and working precision `wp` (from the same
/// quantities: `log2_abs(x.lo)`, `x.hi ≤ 6`, `x.hi` rounded to the nearest f64), hence the same
/// enclosure, as `(lo, hi, wp)`; `None` otherwise.
pub(crate) fn h_neg_wide(x_lo: Wide, x_hi: Wide, p: u32) -> Option<(Wide, Wide, u32)> {
    let taylor_max = Wide::from_integer([TAYLOR_MAX as u64, 0, 0], 0, 64, Direction::Down);
    let method = method_from(x_lo.exponent().unwrap_or(0), x_hi <= taylor_max, p);
    if !matches!(method, Method::Taylor) {
        return None;
    }
    let wp = working_precision_from(&method, x_hi.to_f64_nearest()?, p);
    let (lo, hi) = taylor_wide_from(x_lo, x_hi, wp)?;
    Some((lo, hi, wp))
}

/// [`taylor_wide`] from the ends of `x`.
fn taylor_wide_from(x_lo: Wide, x_hi: Wide, wp: u32) -> Option<(Wide, Wide)> {
    if wp > 192 {
        return None;
    }
    if x_lo.is_zero() {
        return None;
    }
    let s = taylor_sum_wide(x_lo, x_hi, wp)?;
    let f = phi_wide(x_lo, x_hi, wp)?;
    taylor_from_wide((x_lo, x_hi), s, f, wp)
}

/// [`taylor_sum`] on [`Wide`] floats (`0 < x_lo ≤ x_hi`, `wp ≤ 192`): the loop as in
/// [`taylor_sum_with`] (on [`Short`] floats for `wp ≤ 128`), `x.lo²`, `x.hi²` and the upper end
/// as in [`taylor_upper_end`].
fn taylor_sum_wide(x_lo: Wide, x_hi: Wide, wp: u32) -> Option<(Wide, Wide)> {
    use Direction::{Down, Up};
    let w_lo = x_lo.mul(x_lo, wp, Down);
    // MPFR's RU_53(RU_64(x.hi²)).
    let ratio_small_from = (2.0 * x_hi.mul(x_hi, 64, Up).to_f64_up()?).ceil();
    let t = x_lo.round(wp, Down);
    let (s, t, n) = if wp <= 128 {
        // The loop on two-limb floats (§4.1b).
        let (s, t, n) = taylor_loop(
            Short::ZERO,
            t.to_short()?,
            w_lo.to_short()?,
            ratio_small_from,
            wp,
            |_, shorts, _| shorts,
        )?;
        (Wide::from_short(s), Wide::from_short(t), n)
    } else {
        taylor_loop(Wide::ZERO, t, w_lo, ratio_small_from, wp, |_, _, wides| {
            wides
        })?
    };
    // The upper end, as in `taylor_upper_end`: RU(RU(s + 2t)·RU(factor·growth)).
    let factor = with_rounding_factor(4 * u64::from(n) + 1, wp, Wide::from_float)?;
    let factor = if x_hi == x_lo {
        // m_delta = 0: growth = 1, and factor·1 is exact.
        factor
    } else {
        // m_delta = RU_64(RU_64(RU_64(x.hi - x.lo)/x.lo)·m) ≤ 2^(e_d - e_lo + 1 + bits(m)):
        // each rounding up to 64 bits stays at or below the power of two above its argument
        // (x.hi - x.lo < 2^e_d, x.lo ≥ 2^(e_lo - 1), m < 2^bits(m)). Where that makes
        // 0 < 2·m_delta ≤ 2^(1-wp), growth = RU_wp(1 + RN_wp(2·m_delta)) is the float just above 1;
        // elsewhere m_delta is formed as there (for wp ≥ 64, where RN_wp(2·m_delta) is exact).
        let m = 2 * n + 1;
        let d = x_hi.sub(x_lo, 64, Up)?;
        let bound = d.exponent()? - x_lo.exponent()? + 1 + i64::from(32 - m.leading_zeros());
        let growth = if bound < 1 - i64::from(wp) {
            Wide::one_plus_ulp(wp)
        } else {
            let m = Wide::from_integer([u64::from(m), 0, 0], 0, 64, Down);
            let m_delta = d.div(x_lo, 64, Up)?.mul(m, 64, Up);
            if m_delta > Wide::ONE || wp < 64 {
                return None;
            }
            Wide::ONE.add(m_delta.times_pow2(1), wp, Up)
        };
        factor.mul(growth, wp, Up)
    };
    let hi = t.times_pow2(1).add(s, wp, Up).mul(factor, wp, Up);
    Some((s, hi))
}

/// [`taylor_sum`]'s loop from `s`, `t` with `w = RD(x.lo²)` on integer floats, the reciprocals
/// taken from the table by `pick`: `(s̃, t̃_N, N)`, or `None` if a reciprocal is missing.
fn taylor_loop<T: TermFloat>(
    mut s: T,
    mut t: T,
    w: T,
    ratio_small_from: f64,
    wp: u32,
    pick: impl for<'a> Fn(&'a [Float], &'a [Option<Short>], &'a [Option<Wide>]) -> &'a [Option<T>],
) -> Option<(T, T, u32)> {
    let mut n = 0u32;
    let mut terms = (wp as usize / 2).max(64);
    while !with_odd_reciprocals(terms, wp, |floats, shorts, wides| {
        taylor_terms(
            &mut s,
            &mut t,
            w,
            &mut n,
            pick(floats, shorts, wides),
            ratio_small_from,
            wp,
        )
    })? {
        terms *= 2;
    }
    Some((s, t, n))
}

/// [`phi`] on [`Wide`] floats (`0 < x_lo ≤ x_hi`, `wp ≤ 192`): `x²` at `wp + 2·log2(x)` bits,
/// `RD(exp(-x.hi²/2))` by the fixed-point exponential (`arith/fixed_exp.rs`), the upper end as in
/// [`Interval::exp`], the quotients by `√(2π)` as in [`phi`].
fn phi_wide(x_lo: Wide, x_hi: Wide, wp: u32) -> Option<(Wide, Wide)> {
    use Direction::{Down, Up};
    let wide_wp = wp + 2 * x_hi.exponent()?.clamp(0, 34) as u32;
    if wide_wp > 192 {
        return None;
    }
    // -x²/2 enclosed: [-half_hi, -half_lo].
    let half_hi = x_hi.mul(x_hi, wide_wp, Up).times_pow2(-1);
    let half_lo = x_lo.mul(x_lo, wide_wp, Down).times_pow2(-1);
    // Interval::exp: lo = RD(exp(-half_hi)), inexact, so hi starts at the next float above.
    let lo = crate::arith::fixed_exp::exp_neg_down(half_hi, wp)?;
    let mut hi = lo.next_up(wp);
    if half_hi != half_lo {
        // δ = RU_64(-half_lo - (-half_hi)) > 0; growth = RU(1 + 2δ) at max(wp, 64) bits.
        let delta = half_hi.sub(half_lo, 64, Up)?;
        if delta > Wide::ONE {
            return None;
        }
        let growth = Wide::ONE.add(delta.times_pow2(1), wp.max(64), Up);
        hi = hi.mul(growth, wp, Up);
    }
    let (s_lo, s_hi) = with_sqrt_2pi(wp, |s| {
        Some((Wide::from_float(&s.lo)?, Wide::from_float(&s.hi)?))
    })?;
    Some((lo.div(s_hi, wp, Down)?, hi.div(s_lo, wp, Up)?))
}

/// [`taylor_from`] on [`Wide`] floats: `lo = RD(RD(RD(RD(x.lo·s.lo) + 1)·f.lo) - RU(x.hi/2))`
/// (zero where not positive, as there), `hi = RU(RU(RU(RU(x.hi·s.hi) + 1)·f.hi) - RD(x.lo/2))`
/// (`None` where not positive: MPFR's form handles it).
fn taylor_from_wide(
    (x_lo, x_hi): (Wide, Wide),
    (s_lo, s_hi): (Wide, Wide),
    (f_lo, f_hi): (Wide, Wide),
    wp: u32,
) -> Option<(Wide, Wide)> {
    use Direction::{Down, Up};
    let lo = x_lo
        .mul(s_lo, wp, Down)
        .add(Wide::ONE, wp, Down)
        .mul(f_lo, wp, Down);
    let lo = lo
        .sub(x_hi.times_pow2(-1).round(wp, Up), wp, Down)
        .unwrap_or(Wide::ZERO);
    let hi = x_hi
        .mul(s_hi, wp, Up)
        .add(Wide::ONE, wp, Up)
        .mul(f_hi, wp, Up);
    let hi = hi.sub(x_lo.times_pow2(-1).round(wp, Down), wp, Up)?;
    Some((lo, hi))
}

/// [`taylor`] from the enclosures `s` of `S(x)` and `f` of `φ(x)`.
fn taylor_from(x: &Interval, s: &Interval, f: &Interval, wp: u32) -> Interval {
    // Each end is one chain of operations at wp bits, in place (the same roundings of the same
    // operations as forming every intermediate as a new float): lo = RD(RD(RD(RD(x.lo·s.lo) + 1)
    // ·f.lo) - RU(x.hi/2)), hi = RU(RU(RU(RU(x.hi·s.hi) + 1)·f.hi) - RD(x.lo/2)).
    let mut lo = down(wp, &x.lo * &s.lo);
    lo.add_assign_round(1u32, Round::Down);
    lo.mul_assign_round(&f.lo, Round::Down);
    let mut half_x = up(wp, &x.hi >> 1u32);
    lo.sub_assign_round(&half_x, Round::Down);
    let mut hi = up(wp, &x.hi * &s.hi);
    hi.add_assign_round(1u32, Round::Up);
    hi.mul_assign_round(&f.hi, Round::Up);
    half_x.assign_round(&x.lo >> 1u32, Round::Down);
    hi.sub_assign_round(&half_x, Round::Up);
    // h(-x) > 0: a non-positive lower end carries no information.
    if lo.is_sign_negative() {
        lo = Float::with_val(wp, 0);
    }
    Interval { lo, hi }
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

/// Continued fraction levels for relative truncation error about `2^-p` at `x ≥ 6`
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
    let method = method(x, p);
    let wp = working_precision(&method, x, p);
    match method {
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

/// `h(-x)` with `Q(x) = P(Z > x)` and `φ(x)` beside it, enclosed over `x` (`0 ≤ x.lo`) from one
/// evaluation of the series: where the PBGI solver evaluates `EI`, it also needs the slope
/// `Φ` and the curvature `φ` (`h' = Φ`, `h'' = φ`).
pub(crate) struct TailWithDensity {
    /// `h(-x)`, the same enclosure as [`h_neg`].
    pub h: Interval,
    /// `Q(x)`.
    pub upper_tail: Interval,
    /// `φ(x)`.
    pub phi: Interval,
}

/// [`TailWithDensity`] at target precision `p` (relative widths about `2^-p`, `Q`'s less the
/// bits its own formula loses: `Q = 1/2 - φ·S` loses `log2(1/(2Q))`, 14 bits at `x = 4`,
/// 29 at `x = 6`, inside the Taylor form's guard bits; otherwise `Q = φ·(1 - q)/x` with
/// `q = h(-x)/φ(x) < 1/37`, no cancellation, as in [`tail_ratios`]).
pub(crate) fn h_neg_with_density(x: &Interval, p: u32) -> TailWithDensity {
    let method = method(x, p);
    let wp = working_precision(&method, x, p);
    let f = phi(x, wp);
    let (h, q) = match method {
        Method::Taylor => {
            let s = taylor_sum(x, wp);
            let h = taylor_from(x, &s, &f, wp);
            // Φ(x) = 1/2 + φ(x)·S(x), so Q = 1/2 - φ·S (both factors non-negative).
            let (fs_lo, fs_hi) = (down(wp, &f.lo * &s.lo), up(wp, &f.hi * &s.hi));
            let lo = down(wp, 0.5f64 - &fs_hi);
            let upper_tail = Interval {
                lo: if lo.is_sign_negative() {
                    Float::with_val(wp, 0)
                } else {
                    lo
                },
                hi: up(wp, 0.5f64 - &fs_lo),
            };
            return TailWithDensity {
                h,
                upper_tail,
                phi: f,
            };
        }
        Method::ContinuedFraction => {
            let q = continued_fraction(x, wp);
            (f.mul_nonneg(&q, wp), q)
        }
        Method::Asymptotic(n) => {
            let q = asymptotic_ratio(x, n, wp);
            let h = ln_phi(x, wp).add(&q.ln(wp), wp).exp(wp);
            (h, q)
        }
    };
    // Q = φ·r with r = (1 - q)/x, decreasing in q and in x.
    let r = Interval {
        lo: down(wp, &down(wp, 1u32 - &q.hi) / &x.hi),
        hi: up(wp, &up(wp, 1u32 - &q.lo) / &x.lo),
    };
    TailWithDensity {
        h,
        upper_tail: f.mul_nonneg(&r, wp),
        phi: f,
    }
}

/// Enclosure of `ln h(-x)` over `x` (`0 ≤ x.lo`); finite for every finite `x`.
pub(crate) fn ln_h_neg(x: &Interval, p: u32) -> Interval {
    let method = method(x, p);
    let wp = working_precision(&method, x, p);
    match method {
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

/// [`TailRatios`] at working precision `p + 24` (more for the Taylor form beyond `x = 4`),
/// relative width about `2^-p` plus the effect of the width of `x`.
///
/// For `x ≤ 6` from the Taylor sum: `q = 1 + x·S - x/(2φ)` (loses 18.1 bits at `x = 4`, 34.2 at
/// `x = 6`), `r = 1/(2φ) - S` (loses fewer: 14 at `x = 4`); covered by the guard bits of
/// [`working_precision`]. Otherwise `q` by the continued fraction or the asymptotic series and
/// `r = (1 - q)/x` (from `h(-x) = φ - x·Q`), with `q < 1/(1 + x²) < 1/37`: no cancellation.
pub(crate) fn tail_ratios(x: &Interval, p: u32) -> TailRatios {
    let method = method(x, p);
    let wp = working_precision(&method, x, p);
    let non_negative = |v: Float| {
        if v.is_sign_negative() {
            Float::with_val(wp, 0)
        } else {
            v
        }
    };
    let q = match method {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every cached `RD(1/(2k+3))` is the largest `wp`-bit float at or below `1/(2k+3)`:
    /// `r·odd ≤ 1 < (r + ulp)·odd`, both products exact at `wp + 32` bits.
    #[test]
    fn odd_reciprocals_are_rounded_down() {
        for wp in [53, 64, 103, 127, 128, 129, 200, 256] {
            with_odd_reciprocals(200, wp, |floats, _, _| {
                for (k, r) in floats.iter().enumerate() {
                    let odd = 2 * k as u32 + 3;
                    assert_eq!(r.prec(), wp);
                    let below = Float::with_val(wp + 32, r * odd);
                    let mut next = r.clone();
                    next.next_up();
                    let above = Float::with_val(wp + 32, &next * odd);
                    assert!(below <= 1u32 && above > 1u32, "wp {wp}, 1/{odd}: {r}");
                }
            });
        }
    }

    /// `x ∈ [lo, hi]` at `prec` bits, `hi = lo·(1 + width·2^-prec)` rounded up (a point for
    /// width 0).
    fn interval_at(x: f64, prec: u32, width: u32) -> Interval {
        let lo = Float::with_val(prec, x);
        let mut grow = Float::with_val(prec + 64, width) >> prec;
        grow += 1u32;
        let hi = if width == 0 {
            lo.clone()
        } else {
            up(prec, &lo * &grow)
        };
        Interval { lo, hi }
    }

    /// `h(-x)`, `Q(x)` and `φ(x)` from one evaluation: `h` is [`h_neg`]'s enclosure, and `Q`, `φ`
    /// contain the values at both ends of `x` from MPFR's `erfc` and `exp` at 1200 bits (the
    /// closed forms `Q = erfc(x/√2)/2`, `φ = exp(-x²/2)/√(2π)`, errors far below the widths),
    /// and `Q`'s relative width is below `2^-(p-32)` (its loss at `x = 6` is 29 bits), on a grid
    /// across the three methods (Taylor to 6, continued fraction, asymptotic series), for
    /// points and intervals of `x`.
    #[test]
    fn tail_with_density_encloses_q_and_phi() {
        let mut xs: Vec<f64> = (0..=96).map(|k| f64::from(k) / 8.0).collect();
        xs.extend([
            1e-300, 1e-5, 0.3, 3.999, 4.001, 5.999, 6.001, 20.0, 38.5, 1e3, 1e8,
        ]);
        let closed = |x: &Float| {
            let x = Float::with_val(1200, x);
            let sqrt2 = Float::with_val(1200, 2).sqrt();
            let q = Float::with_val(1200, &x / &sqrt2).erfc() >> 1u32;
            let two_pi = Float::with_val(1200, rug::float::Constant::Pi) << 1u32;
            let half_square = Float::with_val(1200, x.square_ref()) >> 1u32;
            let f = Float::with_val(1200, (-half_square).exp_ref()) / two_pi.sqrt();
            (q, f)
        };
        let inside = |v: &Float, iv: &Interval| iv.lo <= *v && *v <= iv.hi;
        for &x in &xs {
            for p in [64, 104, 200] {
                for width in [0, 1 << 10] {
                    let iv = interval_at(x, p + 60, width);
                    let t = h_neg_with_density(&iv, p);
                    let h = h_neg(&iv, p);
                    assert!(
                        t.h.lo == h.lo && t.h.hi == h.hi,
                        "x = {x}, p = {p}: h differs"
                    );
                    for end in [&iv.lo, &iv.hi] {
                        let (q, f) = closed(end);
                        assert!(
                            inside(&q, &t.upper_tail),
                            "x = {x}, p = {p}, width {width}: Q = {q:.30e} outside [{}, {}]",
                            t.upper_tail.lo,
                            t.upper_tail.hi
                        );
                        assert!(inside(&f, &t.phi), "x = {x}, p = {p}: φ = {f:.30e} outside");
                    }
                    if width == 0 && !t.upper_tail.lo.is_zero() {
                        let w = up(64, &t.upper_tail.hi - &t.upper_tail.lo);
                        let scale = Float::with_val(64, &t.upper_tail.lo >> (p - 32));
                        assert!(w <= scale, "x = {x}, p = {p}: Q too wide");
                    }
                }
            }
        }
    }

    /// The previous form of [`taylor_upper_end`], every intermediate a new float.
    fn taylor_upper_end_allocating(x: &Interval, s: &Float, t: &Float, n: u32, wp: u32) -> Float {
        let k = 4 * u64::from(n) + 1;
        let mut factor = rounding_factor(k, wp);
        let m = 2 * n + 1;
        let delta = up(64, &up(64, &x.hi - &x.lo) / &x.lo);
        let m_delta = up(64, &delta * m);
        let growth = if m_delta <= 1u32 {
            let mut g = Float::with_val(wp, &m_delta << 1u32);
            g.add_assign_round(1u32, Round::Up);
            g
        } else {
            let rho = up(wp, &x.hi / &x.lo);
            up(wp, (&rho).pow(m))
        };
        factor.mul_assign_round(&growth, Round::Up);
        let mut t = t.clone();
        t.mul_assign_round(2u32, Round::Up);
        let mut hi = up(wp, s + &t);
        hi.mul_assign_round(&factor, Round::Up);
        hi
    }

    /// The previous form of [`taylor_from`], every intermediate a new float.
    fn taylor_from_allocating(x: &Interval, s: &Interval, f: &Interval, wp: u32) -> Interval {
        let (xs_lo, xs_hi) = (down(wp, &x.lo * &s.lo), up(wp, &x.hi * &s.hi));
        let (one_lo, one_hi) = (down(wp, &xs_lo + 1u32), up(wp, &xs_hi + 1u32));
        let (a_lo, a_hi) = (down(wp, &f.lo * &one_lo), up(wp, &f.hi * &one_hi));
        let (half_x_hi, half_x_lo) = (up(wp, &x.hi >> 1u32), down(wp, &x.lo >> 1u32));
        let lo = down(wp, &a_lo - &half_x_hi);
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

    /// The previous form of [`phi`], every intermediate a new float.
    fn phi_allocating(x: &Interval, p: u32) -> Interval {
        let wp = p + 2 * log2_abs(&x.hi).clamp(0, 34) as u32;
        let x2 = square(x, wp);
        let e = Interval {
            lo: down(wp, -(x2.hi >> 1u32)),
            hi: up(wp, -(x2.lo >> 1u32)),
        }
        .exp(p);
        with_sqrt_2pi(p, |s| e.div_nonneg(s, p))
    }

    /// The in-place forms of the Taylor path (`taylor_upper_end`, `taylor_from`, `phi`) perform
    /// the same MPFR operations with the same roundings as their previous forms, which formed
    /// every intermediate as a new float: bit-identical results (value, sign and precision) on
    /// a grid and random `x` in `[0, 6]`, points and intervals up to `2^20` units wide, `wp`
    /// from 16 to 300, and arbitrary sums, terms and term counts for the upper end.
    #[test]
    fn in_place_taylor_steps_are_the_allocating_ones_bit_for_bit() {
        use rand::{Rng, SeedableRng};
        crate::arith::mpfr::widen_exponent_range();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(23);
        let mut xs: Vec<f64> = (0..=768).map(|k| f64::from(k) / 128.0).collect();
        xs.extend((0..2000).map(|_| rng.gen_range(0.0..6.0)));
        xs.extend([1e-300, 1e-20, 1e-3]);
        let same = |a: &Float, b: &Float| {
            a.prec() == b.prec() && a.is_sign_negative() == b.is_sign_negative() && a == b
        };
        for (i, &x) in xs.iter().enumerate() {
            let wps: &[u32] = if i % 5 == 0 {
                &[16, 53, 64, 100, 127, 128, 129, 160, 300]
            } else {
                &[127]
            };
            for &wp in wps {
                for width in [0, 1, 1 << 20] {
                    let iv = interval_at(x, 157, width);
                    let (a, b) = (phi(&iv, wp), phi_allocating(&iv, wp));
                    assert!(
                        same(&a.lo, &b.lo) && same(&a.hi, &b.hi),
                        "phi, x = {x}, {wp}"
                    );
                    if iv.lo.is_zero() {
                        continue;
                    }
                    let s = taylor_sum(&iv, wp);
                    let (a, b) = (
                        taylor_from(&iv, &s, &a, wp),
                        taylor_from_allocating(&iv, &s, &b, wp),
                    );
                    assert!(
                        same(&a.lo, &b.lo) && same(&a.hi, &b.hi),
                        "taylor_from, x = {x}, {wp}"
                    );
                    let n = rng.gen_range(0..400u32);
                    let t = down(wp, &s.lo * rng.gen_range(1e-40..1.0f64));
                    let a = taylor_upper_end(&iv, &s.lo, t.clone(), n, wp);
                    let b = taylor_upper_end_allocating(&iv, &s.lo, &t, n, wp);
                    assert!(same(&a, &b), "upper end, x = {x}, wp = {wp}, n = {n}");
                }
            }
        }
    }

    /// The Taylor sum with its loop on two-limb floats is the MPFR loop's, bit for bit (both
    /// ends, same precision), at every working precision up to 128 (and 129, where the MPFR loop
    /// runs in both): a grid over `(0, 6]` every 1/256 with points and intervals of `x` of
    /// widths up to 2^20 units at 157 bits (the precision `x` is carried at), plus seeded random
    /// `x` in `(0, 6]` and tiny `x`.
    #[test]
    fn short_loop_is_the_mpfr_loop_bit_for_bit() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let mut xs: Vec<f64> = (1..=1536).map(|k| f64::from(k) / 256.0).collect();
        xs.extend((0..3000).map(|_| rng.gen_range(0.0..6.0)));
        xs.extend([1e-300, 1e-20, 1e-3, 2.5f64.sqrt(), 3.999_999_999]);
        let same = |a: &Float, b: &Float| a.prec() == b.prec() && a == b;
        for (i, &x) in xs.iter().enumerate() {
            let wps: &[u32] = if i % 7 == 0 {
                &[16, 33, 64, 65, 100, 127, 128, 129]
            } else {
                &[127]
            };
            for &wp in wps {
                for width in [0, 1, 1 << 20] {
                    let iv = interval_at(x, 157, width);
                    let fast = taylor_sum_with(&iv, wp, true);
                    let mpfr = taylor_sum_with(&iv, wp, false);
                    assert!(
                        same(&fast.lo, &mpfr.lo) && same(&fast.hi, &mpfr.hi),
                        "x = {x}, wp = {wp}, width {width}: [{}, {}] ≠ [{}, {}]",
                        fast.lo,
                        fast.hi,
                        mpfr.lo,
                        mpfr.hi
                    );
                }
            }
        }
    }

    /// [`taylor_terms_positive`] leaves the state where [`taylor_terms_generic`] leaves it (`s`,
    /// `t`, `n` and the answer), from random states, on [`Short`] floats (`wp` 1 to 128) and
    /// [`Wide`] floats (`wp` 1 to 192, mostly above 128): `s` zero or not, `t` or `w` zero, a
    /// reciprocal missing, tables that run out, `n` starting inside the table, and every
    /// `ratio_small_from` side of the phase boundary.
    #[test]
    fn positive_terms_are_the_generic_terms() {
        use rand::{Rng, SeedableRng};
        use std::fmt::Debug;
        /// Both loops from the same state: the same state after, and the answer.
        fn same_run<T: TermFloat + PartialEq + Debug>(
            (s0, t0, w, n0): (T, T, T, u32),
            table: &[Option<T>],
            ratio: f64,
            wp: u32,
        ) -> Option<bool> {
            let (mut s1, mut t1, mut n1) = (s0, t0, n0);
            let (mut s2, mut t2, mut n2) = (s0, t0, n0);
            let a = taylor_terms_generic(&mut s1, &mut t1, w, &mut n1, table, ratio, wp);
            let b = taylor_terms_positive(&mut s2, &mut t2, w, &mut n2, table, ratio, wp);
            assert_eq!(
                (a, s1, t1, n1),
                (b, s2, t2, n2),
                "wp {wp}, n0 {n0}, ratio {ratio}"
            );
            a
        }
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(12);
        // Answers seen (two-limb, three-limb): complete, table ran out, reciprocal missing.
        let mut seen = [[0u32; 3]; 2];
        // A random positive float of `wp` bits, exponent `e`, as `(mantissa limbs, e)`.
        let random = |rng: &mut rand_chacha::ChaCha8Rng, wide: bool, wp: u32, e: i64| {
            let m = [
                rng.gen::<u64>(),
                rng.gen::<u64>(),
                rng.gen::<u64>() | 1 << 63,
            ];
            let m = if wide { m } else { [0, m[1], m[2]] };
            Wide::from_integer(m, e - 192, wp, Direction::Down)
        };
        for i in 0..40_000 {
            let wide = i % 2 == 1;
            let wp = match (wide, i % 8) {
                (false, 0) => 128,
                (false, 2) => 127,
                (false, _) => rng.gen_range(1..=128),
                (true, 1) => 192,
                (true, 3) => rng.gen_range(1..=128),
                (true, _) => rng.gen_range(129..=192),
            };
            let len = rng.gen_range(0..80);
            // Shrinking like 1/(2k+3), with random mantissas.
            let mut table: Vec<Option<Wide>> = (0..len)
                .map(|k| {
                    let e = -8 - (k as i64 + 1).ilog2() as i64;
                    Some(random(&mut rng, wide, wp, e))
                })
                .collect();
            if i % 5 == 0 && len > 0 {
                let k = rng.gen_range(0..len);
                table[k] = None;
            }
            let mut pick = |zero: bool| {
                if zero {
                    Wide::ZERO
                } else {
                    let e = rng.gen_range(-6..=6);
                    random(&mut rng, wide, wp, e)
                }
            };
            let state = (pick(i % 3 == 0), pick(i % 101 == 0), pick(i % 103 == 0));
            let n0 = if i % 4 < 2 {
                0
            } else {
                rng.gen_range(0..=len as u32)
            };
            let ratio = f64::from(rng.gen_range(0..100u32));
            let ratio = if i % 7 == 0 { ratio + 0.5 } else { ratio };
            let answer = if wide {
                same_run((state.0, state.1, state.2, n0), &table, ratio, wp)
            } else {
                let short = |x: Wide| x.to_short().unwrap();
                let table: Vec<Option<Short>> = table.iter().map(|r| r.map(short)).collect();
                let state = (short(state.0), short(state.1), short(state.2), n0);
                same_run(state, &table, ratio, wp)
            };
            seen[usize::from(wide)][match answer {
                Some(true) => 0,
                Some(false) => 1,
                None => 2,
            }] += 1;
        }
        assert!(
            seen.iter().flatten().all(|&c| c > 500),
            "answers seen: {seen:?}"
        );
    }

    /// The Taylor form on [`Wide`] floats is the MPFR form's, bit for bit: the sum (against the
    /// MPFR loop alone), `φ` and `h(-x)` (both ends, value, sign and precision), at working
    /// precisions up to 192 (the loop on two-limb floats up to 128, on three-limb floats beyond), on a grid over `(0, 6]` every 1/256 and seeded random `x`,
    /// points and intervals of widths up to 2^20 units at 157 bits, a few units at 192 and 90
    /// bits, and intervals of relative width 2^-40 to 1/2 (where it forms the growth factor
    /// `1 + 2mδ` or declines), plus tiny `x`; and it answers on nearly every
    /// narrow case (`x` carried with more bits than `wp`, `64 ≤ wp ≤ 150`).
    #[test]
    fn wide_taylor_is_the_mpfr_taylor_bit_for_bit() {
        use rand::{Rng, SeedableRng};
        crate::arith::mpfr::widen_exponent_range();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(41);
        let mut xs: Vec<f64> = (1..=1536).map(|k| f64::from(k) / 256.0).collect();
        xs.extend((0..3000).map(|_| rng.gen_range(0.0..6.0)));
        xs.extend([1e-300, 1e-20, 1e-3, 2.5f64.sqrt(), 3.999_999_999]);
        let same = |a: &Float, b: &Float| {
            a.prec() == b.prec() && a.is_sign_negative() == b.is_sign_negative() && a == b
        };
        let (mut narrow, mut answered) = (0, 0);
        for (i, &x) in xs.iter().enumerate() {
            let wps: &[u32] = if i % 7 == 0 {
                &[
                    16, 33, 53, 64, 65, 100, 103, 127, 128, 129, 142, 150, 191, 192,
                ]
            } else if i % 7 == 1 {
                &[142]
            } else {
                &[127]
            };
            for &wp in wps {
                for (prec, width) in [(157, 0), (157, 1), (157, 1 << 20), (192, 3), (90, 1)] {
                    let iv = interval_at(x, prec, width);
                    let (Some(x_lo), Some(x_hi)) =
                        (Wide::from_float(&iv.lo), Wide::from_float(&iv.hi))
                    else {
                        continue;
                    };
                    if let Some((lo, hi)) = taylor_sum_wide(x_lo, x_hi, wp) {
                        let mpfr = taylor_sum_with(&iv, wp, false);
                        assert!(
                            same(&lo.to_float(wp), &mpfr.lo) && same(&hi.to_float(wp), &mpfr.hi),
                            "sum, x = {x}, wp = {wp}, width {width}"
                        );
                    }
                    if let Some((lo, hi)) = phi_wide(x_lo, x_hi, wp) {
                        let mpfr = phi(&iv, wp);
                        assert!(
                            same(&lo.to_float(wp), &mpfr.lo) && same(&hi.to_float(wp), &mpfr.hi),
                            "phi, x = {x}, wp = {wp}, width {width}"
                        );
                    }
                    let wide = taylor_wide(&iv, wp);
                    let mpfr =
                        taylor_from(&iv, &taylor_sum_with(&iv, wp, false), &phi(&iv, wp), wp);
                    if let Some((lo, hi)) = wide {
                        assert!(
                            same(&lo.to_float(wp), &mpfr.lo) && same(&hi.to_float(wp), &mpfr.hi),
                            "h, x = {x}, wp = {wp}, width {width}: [{}, {}] ≠ [{}, {}]",
                            lo.to_float(wp),
                            hi.to_float(wp),
                            mpfr.lo,
                            mpfr.hi
                        );
                    }
                    let t = taylor(&iv, wp);
                    assert!(same(&t.lo, &mpfr.lo) && same(&t.hi, &mpfr.hi));
                    // x carried with more bits than wp (as callers do).
                    if (64..=150).contains(&wp)
                        && prec > wp
                        && width <= 3
                        && (1e-3..=6.0).contains(&x)
                    {
                        narrow += 1;
                        answered += usize::from(wide.is_some());
                    }
                }
            }
        }
        assert!(
            answered * 100 >= narrow * 99,
            "answered {answered} of {narrow}"
        );
        // Wide intervals (relative widths 2^-1 to 2^-40): the growth factor 1 + 2mδ formed as
        // MPFR forms it, or a true power (mδ > 1), where the wide form declines.
        let mut declined = 0;
        for &x in &[0.01, 0.5, 1.0, 2.0, 3.0, 4.0] {
            for shift in [1u32, 4, 12, 20, 40] {
                for wp in [64, 127, 142] {
                    let lo = Float::with_val(150, x);
                    let hi = Float::with_val(150, &lo + &(Float::with_val(64, x) >> shift));
                    let iv = Interval { lo, hi };
                    let mpfr =
                        taylor_from(&iv, &taylor_sum_with(&iv, wp, false), &phi(&iv, wp), wp);
                    match taylor_wide(&iv, wp) {
                        Some((lo, hi)) => assert!(
                            same(&lo.to_float(wp), &mpfr.lo) && same(&hi.to_float(wp), &mpfr.hi),
                            "x = {x}(1 + 2^-{shift}), wp = {wp}"
                        ),
                        None => declined += 1,
                    }
                }
            }
        }
        assert!(declined > 0);
    }

    /// The one-chain Taylor sum contains the two-chain sum evaluated far more precisely (a
    /// narrow enclosure of the exact `S` over the same `x`), is tight, and agrees with the
    /// two-chain sum at the same precision to within their widths. Deterministic grid over
    /// `[0, 6]` (every 1/64, plus landmarks), widths of `x` from 0 to 2^20 units.
    #[test]
    fn one_chain_taylor_sum_encloses_the_two_chain_sum() {
        let mut xs: Vec<f64> = (0..=256).map(|k| f64::from(k) / 64.0).collect();
        xs.extend([
            1e-300,
            1e-20,
            1e-3,
            0.1,
            1.0 / 3.0,
            2.5f64.sqrt(),
            3.999_999_999,
        ]);
        for &x in &xs {
            for wp in [64, 128, 152, 184, 536] {
                for width in [0, 1, 1 << 20] {
                    let iv = interval_at(x, wp + 40, width);
                    let fast = taylor_sum(&iv, wp);
                    let exact = taylor_sum_two_chains(&iv, wp + 300);
                    assert!(
                        fast.lo <= exact.lo && exact.hi <= fast.hi,
                        "x = {x}, wp = {wp}, width {width}: [{}, {}] misses [{}, {}]",
                        fast.lo,
                        fast.hi,
                        exact.lo,
                        exact.hi
                    );
                    if x > 0.0 {
                        // Relative width at most 2^-(wp-16): tight enough for every caller.
                        let w = up(64, &fast.hi - &fast.lo);
                        let scale = Float::with_val(64, &fast.lo >> (wp - 16));
                        assert!(w <= scale, "x = {x}, wp = {wp}, width {width}: too wide");
                    }
                }
            }
        }
        // Wide intervals (relative widths 2^-12 to 1/2), where ρ^(2N+1) is a true power.
        for &x in &[0.01, 0.5, 1.0, 2.0, 3.0, 4.0] {
            for wp in [64, 152] {
                for shift in [1u32, 4, 12] {
                    let lo = Float::with_val(wp + 40, x);
                    let hi = Float::with_val(wp + 40, &lo + &(Float::with_val(64, x) >> shift));
                    let iv = Interval { lo, hi };
                    let fast = taylor_sum(&iv, wp);
                    let exact = taylor_sum_two_chains(&iv, wp + 300);
                    assert!(
                        fast.lo <= exact.lo && exact.hi <= fast.hi,
                        "[{x}, {x}(1 + 2^-{shift})], wp = {wp}: [{}, {}] misses [{}, {}]",
                        fast.lo,
                        fast.hi,
                        exact.lo,
                        exact.hi
                    );
                }
            }
        }
    }
}

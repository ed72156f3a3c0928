//! `ln Φ(x)`, the logarithm of the standard normal distribution function, on the whole f64
//! line (SciPy's `log_ndtr`; MATH.md, "Gaussian building blocks": `Φ = h'`).

use crate::arith::interval::Interval;
use crate::arith::mpfr::{down, up, widen_exponent_range};
use crate::certified::{Accuracy, Certified, Error};
use crate::certify::{exact, negated, series_accuracy, ziv};
use crate::gaussian::{ln_upper_tail, upper_tail};
use crate::input::finite;

/// `-ln Φ(x) = -ln(1 - Q(x)) > 0` for `x > 0` enclosed: MPFR's `log1p` of `-Q`, so the
/// result keeps its relative accuracy however small `Q(x)` is (no `ln` of a number near 1).
fn minus_ln_cdf_upper(x: &Interval, p: u32) -> Interval {
    let q = upper_tail(x, p);
    let (minus_q_lo, minus_q_hi) = (-q.hi, -q.lo);
    // ln(1 - Q) is decreasing in Q; its negation is increasing.
    Interval {
        lo: -up(p, minus_q_hi.ln_1p_ref()),
        hi: -down(p, minus_q_lo.ln_1p_ref()),
    }
}

/// `ln Φ(x)`, `Φ(x) = P(Z ≤ x)`, `Z ~ N(0, 1)`; SciPy's `scipy.special.log_ndtr`.
///
/// # Domain
/// `x` finite (NaN or ±inf is [`Error::InvalidInput`] naming `"x"`). The result is finite for
/// every finite `x` and `< 0`: `ln Φ(x) ≈ -x²/2 - ln(-x√(2π))` as `x → -∞` (rounds to `-inf`
/// in f64 only below about `-1.9e154`), `ln Φ(0) = -ln 2`, and `ln Φ(x) ≈ -φ(x)/x` as
/// `x → +∞`, which rounds to `-0.0` beyond `x ≈ 38.5` (never to `+0`: the exact value is
/// negative). Beyond `x ≈ 2.5e9` the enclosure is `[-tiny, 0]` with `tiny` below MPFR's range.
///
/// # Accuracy
/// Certified enclosure (`lower ≤ ln Φ(x) ≤ upper`), `value` correctly rounded (0 ULP); against
/// mpmath in `tests/mpmath_data.rs`, against MPFR's `erfc` closed form in
/// `tests/two_formulas.rs`.
///
/// # Regimes
/// With `t = |x|` and `Q(t) = P(Z > t)`: `x ≤ 0`: `ln Q(t) = ln φ(t) + ln r(t)` with the Mills
/// ratio `r = Q/φ` (Taylor series for `t ≤ 4`, else `r = (1 - h(-t)/φ(t))/t` from the continued
/// fraction or the asymptotic series), never underflowing; `x > 0`: `log1p(-Q(x))`, no
/// cancellation. Proofs in `proofs-notes/reference-certification.md` (§4.4).
pub fn log_ndtr(x: f64) -> Result<Certified, Error> {
    log_ndtr_with(x, &Accuracy::default())
}

/// [`log_ndtr`] with an explicit precision policy.
pub fn log_ndtr_with(x: f64, acc: &Accuracy) -> Result<Certified, Error> {
    let x = finite("x", x)?;
    widen_exponent_range();
    let t = Interval::point(exact(x.abs()));
    let acc = &series_accuracy(acc);
    if x > 0.0 {
        // ln Φ(x) < 0 strictly: certify its negation, whose zero rounds the right way.
        return ziv("log_ndtr", acc, |p| minus_ln_cdf_upper(&t, p).into()).map(negated);
    }
    ziv("log_ndtr", acc, |p| ln_upper_tail(&t, p).into())
}

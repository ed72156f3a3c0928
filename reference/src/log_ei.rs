//! `LogEI = ln EI` (MATH.md, "Expected improvement"), and the logarithmic enclosure shared
//! with `ln h` and LogEIPC: `ln EI - ln c` with the cost divided out exactly where it can be.

use crate::arith::interval::{ln_point, Interval};
use crate::arith::mpfr::{down, up, widen_exponent_range};
use crate::arith::wide_float::Direction;
use crate::certified::{Accuracy, Certified, Error};
use crate::certify::{
    exact, first_precision, is_tight, rounds_to_one_f64, series_accuracy, ziv, Enclosure,
};
use crate::ei::{
    distance, distance_bits, ei_centred, ei_enclosure, exact_difference, tail_enclosure,
    CENTRED_BITS,
};
use crate::gaussian::{h_neg, ln_h_neg, TAYLOR_MAX};
use crate::input::{finite, non_negative};
use rug::float::Round;
use rug::ops::AddAssignRound;
use rug::Float;

/// `ln EI` enclosed for `σ > 0`, `d = y - μ` exact. For `d ≤ 0` it is `ln σ + ln h(-x)`,
/// evaluated in log space so it stays finite far below MPFR's (and f64's) range.
pub(crate) fn ln_ei_enclosure(d: &Float, sigma: &Float, p: u32) -> Interval {
    if d.is_sign_positive() && !d.is_zero() {
        return ei_enclosure(d, sigma, p).ln(p);
    }
    let x = distance(d, sigma, p + distance_bits(d, sigma));
    if x.hi <= TAYLOR_MAX {
        // The Taylor form's σ·h(-x) (≥ 2^-1074·h(-6)) is far inside MPFR's range: one
        // logarithm of EI instead of ln h(-x) + ln σ.
        let h = h_neg(&x, p);
        let ei = Interval {
            lo: down(p, &h.lo * sigma),
            hi: up(p, &h.hi * sigma),
        };
        return ei.ln(p);
    }
    let ln_h = ln_h_neg(&x, p);
    let ln_sigma = ln_point(sigma, p);
    ln_h.add(&ln_sigma, p)
}

/// `ln EI - ln c` where `ln c` is given as an enclosure, or `ln(EI/c)` when EI and `c` are
/// exact (`σ = 0`), so that an exact zero (`y - μ = c`) is found exactly.
pub(crate) enum LnCost {
    /// The cost itself, an exact f64.
    Exact(Float),
    /// `ln c` as an exact expression `m + k·s²/2` (`k = ±1`), enclosed at each precision.
    LogNormal { m: f64, s: f64, sign: i32 },
}

impl LnCost {
    fn ln_enclosure(&self, p: u32) -> Interval {
        match self {
            LnCost::Exact(c) => ln_point(c, p),
            LnCost::LogNormal { m, s, sign } => {
                let (m, s) = (exact(*m), exact(*s));
                // s² is exact at 106 bits; m ± s²/2 is rounded outward.
                let half_s2 = Float::with_val(106, s.square_ref()) >> 1u32;
                if *sign > 0 {
                    Interval {
                        lo: down(p, &m + &half_s2),
                        hi: up(p, &m + &half_s2),
                    }
                } else {
                    Interval {
                        lo: down(p, &m - &half_s2),
                        hi: up(p, &m - &half_s2),
                    }
                }
            }
        }
    }
}

/// `ln d - ln c` for `d > 0` exact: `ln d`, `ln(d/c)` for an exact cost (so that `d = c` gives
/// exactly 0), or `ln d - (m ± s²/2)`.
fn ln_ratio(d: &Float, cost: &Option<LnCost>, p: u32) -> Interval {
    let ln_d = || ln_point(d, p);
    match cost {
        None => ln_d(),
        Some(LnCost::Exact(c)) => Interval {
            lo: down(p + 8, d / c),
            hi: up(p + 8, d / c),
        }
        .ln(p),
        Some(lc) => ln_d().sub(&lc.ln_enclosure(p), p),
    }
}

/// Enclosure of `ln EI - ln c` (`ln EI` without a cost) at working precision `p`; `d = y - μ`
/// exact, `sigma` exact.
pub(crate) fn log_enclosure(d: &Float, sigma: &Float, cost: &Option<LnCost>, p: u32) -> Enclosure {
    let d_positive = d.is_sign_positive() && !d.is_zero();
    if sigma.is_zero() {
        if !d_positive {
            return Interval::point(Float::with_val(53, f64::NEG_INFINITY)).into();
        }
        return ln_ratio(d, cost, p).into();
    }
    if d_positive {
        // ln EI - ln c = (ln d - ln c) + ln(1 + t/d), t = σ·h(-z) > 0: exact zeros of the
        // first part survive, and a tail below the working precision only adds (0, t/d].
        let base = ln_ratio(d, cost, p);
        let t = tail_enclosure(d, sigma, p);
        let x = Interval {
            lo: down(p, &t.lo / d),
            hi: up(p, &t.hi / d),
        };
        let log1p = x.ln_1p(p);
        let lower_open = x.lo.is_zero() && base.is_point();
        return Enclosure {
            iv: base.add(&log1p, p),
            lower_open,
        };
    }
    let ln_ei = ln_ei_enclosure(d, sigma, p);
    match cost {
        None => ln_ei.into(),
        Some(lc) => ln_ei.sub(&lc.ln_enclosure(p), p).into(),
    }
}

pub(crate) fn log_ei_core(
    function: &'static str,
    mu: f64,
    sigma: f64,
    y: f64,
    cost: Option<LnCost>,
    acc: &Accuracy,
) -> Result<Certified, Error> {
    widen_exponent_range();
    let d = exact_difference(y, mu);
    let sigma = exact(sigma);
    ziv(function, acc, |p| log_enclosure(&d, &sigma, &cost, p))
}

pub(crate) fn check_ei_args(mu: f64, sigma: f64, y: f64) -> Result<(), Error> {
    finite("mu", mu)?;
    non_negative("sigma", sigma)?;
    finite("y", y)?;
    Ok(())
}

/// `LogEI(μ, σ; y) = ln EI(μ, σ; y)` (MATH.md, "Expected improvement").
///
/// # Domain
/// As [`crate::ei`]. The exact value and the enclosure are finite wherever `EI > 0`, also far
/// below f64's range (`ln σ + ln h(z)`, `ln h(z) ≈ -z²/2`); the correctly rounded `value` is
/// finite where that exact value is `≥ -(2^1024 - 2^970)` (the rounding boundary of
/// `-f64::MAX`) and `-inf` below, i.e. for `|z|` beyond about `1.896e154` (`σ = 1`: exactly
/// `z < -1.8961503816218352e154`, as [`crate::ln_h`]), inside the tested `|z| ≤ 1e300`.
/// Exactly `-inf` (value, lower and upper) where `EI = 0` (`σ = 0`, `y ≤ μ`).
///
/// # Accuracy
/// Certified enclosure, `value` correctly rounded; against mpmath in `tests/mpmath_data.rs`.
///
/// # Example
/// `LogEI(0, 1; 0) = ln h(0) = -ln √(2π) = -0.91893853320467274…` (closed form), correctly
/// rounded:
/// ```
/// let r = pbgi_reference::log_ei(0.0, 1.0, 0.0).unwrap();
/// assert_eq!(r.value, -0.9189385332046728);
/// ```
pub fn log_ei(mu: f64, sigma: f64, y: f64) -> Result<Certified, Error> {
    log_ei_with(mu, sigma, y, &Accuracy::default())
}

/// [`log_ei`] with an explicit precision policy.
pub fn log_ei_with(mu: f64, sigma: f64, y: f64, acc: &Accuracy) -> Result<Certified, Error> {
    check_ei_args(mu, sigma, y)?;
    if let Some(c) = log_ei_by_centres(mu, sigma, y, acc) {
        return Ok(c);
    }
    log_ei_core("log_ei", mu, sigma, y, None, &series_accuracy(acc))
}

/// `ln EI` for `σ > 0` (also `ln h(z) = ln EI(0, 1; z)`) from EI's centred enclosure (`ei::ei_centred`, relative width at most
/// `2^-116`, `|z| ≤ 8`) where it decides it: `enclosure_bits ≤ 110`, and
/// `[RD(ln lo), RU(ln lo) + RU_64(RU_64(hi - lo)/lo)]` at 128 bits (as `Interval::ln`: `ln` is
/// increasing and `ln hi ≤ ln lo + (hi - lo)/lo`; the quotient on [`Wide`](crate::arith::wide_float::Wide) floats) rounds to one
/// double and meets the width target (it does not where `|ln EI|` is below about `2^-16`);
/// `None` otherwise (the Ziv loop then runs). The value is the Ziv loop's (correct rounding is
/// unique). The work counter records the Ziv loop's first precision. Proof note §4.5 step 11;
/// checked against the Ziv loop at 200 bits by `tests::centred_front_door_is_the_ziv_loop`.
pub(crate) fn log_ei_by_centres(mu: f64, sigma: f64, y: f64, acc: &Accuracy) -> Option<Certified> {
    if acc.enclosure_bits > CENTRED_BITS || !(sigma > 0.0) {
        return None;
    }
    widen_exponent_range();
    let (lo, hi) = ei_centred(y, mu, sigma)?;
    let mut ln = ln_point(&lo.to_float(128), 128);
    if let Some(width) = hi.sub(lo, 64, Direction::Up) {
        let relative = width.div(lo, 64, Direction::Up)?;
        ln.hi.add_assign_round(&relative.to_float(64), Round::Up);
    }
    let value = rounds_to_one_f64(&ln)?;
    if !is_tight(&ln, acc.enclosure_bits) {
        return None;
    }
    crate::work::working(first_precision(&series_accuracy(acc)));
    Some(Certified {
        value,
        lower: ln.lo,
        upper: ln.hi,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// The front door's result against the Ziv loop's at 200 bits (which the front door does
    /// not serve): the same value bit for bit, the new enclosure contains the 200-bit one and
    /// meets the default width target, on 100 000 BO-like points (`σ = 10^U(-2, 2)`,
    /// `μ = U(-1, 1)`, `z ~ N(0, 2²)`, `y = μ + zσ`) and stress sets: scales from `10^-300` to
    /// `10^300`, `y = μ`, `|z|` at and around 6 and 8, EI near 1 (`ln EI` near 0), subnormal and tiny
    /// EI. It answers on all but a few of the points with `|z| < 7.99` and `|ln EI| > 2^-10`.
    #[test]
    fn centred_front_door_is_the_ziv_loop() {
        widen_exponent_range();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(76);
        let forced = Accuracy {
            enclosure_bits: 200,
            ..Accuracy::default()
        };
        let mut points = crate::test_points::bo_like_and_scaled(&mut rng, 100_000, 20_000);
        for _ in 0..4_000 {
            // EI near 1: σ = 1, y - μ = 1 - h(-z)-ish, and tiny σ (subnormal EI).
            let z = rng.gen_range(-0.5..0.5);
            points.push((0.0, rng.gen_range(2.0..3.0), z));
            points.push((0.0, 1.0, 1.0 - 0.0833 + rng.gen_range(-1e-6..1e-6)));
            points.push((0.0, 1e-315, rng.gen_range(-3.0..3.0) * 1e-315));
        }
        let (mut eligible, mut answered) = (0usize, 0usize);
        for &(mu, sigma, y) in &points {
            let new = log_ei(mu, sigma, y).unwrap();
            let old = log_ei_with(mu, sigma, y, &forced).unwrap();
            let at = format!("log_ei({mu:e}, {sigma:e}, {y:e})");
            assert_eq!(new.value.to_bits(), old.value.to_bits(), "{at}");
            assert!(new.lower <= old.lower && old.upper <= new.upper, "{at}");
            assert!(
                crate::certify::is_tight(
                    &Interval {
                        lo: new.lower.clone(),
                        hi: new.upper.clone()
                    },
                    100
                ),
                "{at}"
            );
            let centred = log_ei_by_centres(mu, sigma, y, &Accuracy::default());
            if let Some(c) = &centred {
                assert_eq!(c.value.to_bits(), new.value.to_bits());
            }
            let z = ((y - mu) / sigma).abs();
            if z < 7.99 && old.value.abs() > 1.0 / 1024.0 {
                eligible += 1;
                answered += usize::from(centred.is_some());
            }
        }
        println!("answered {answered} of {eligible}");
        assert!(answered * 1000 >= eligible * 999 && eligible > 100_000);
    }
}

//! Certified comparisons `EI(μ, σ; g) ≷ c` at exact points `g`, for `σ > 0` (proof note §6):
//! the one question PBGI's bisection and Newton brackets, the standardized index and the
//! stopping rule ask of EI. `EI(μ, σ; ·)` is strictly increasing, so
//! the answer tells on which side of `g` the index `EI(μ, σ; g) = c` lies; the working precision
//! is raised until the enclosure of `EI - c` excludes 0, and kept for the next comparison.

use crate::arith::interval::{exact_sum, Interval};
use crate::arith::mpfr::widen_exponent_range;
use crate::certified::{Accuracy, Error};
use crate::certify::exact;
use crate::ei::tail_enclosure;
use rug::Float;

/// Decides `EI(μ, σ; g) > c` for every `c` in the cost enclosure (`Some(true)`), or
/// `EI(μ, σ; g) < c` for every such `c` (`Some(false)`), at working precision `p`.
fn exceeds_at(mu: &Float, sigma: &Float, g: &Float, cost: &Interval, p: u32) -> Option<bool> {
    crate::work::comparison(p);
    let minus_mu = Float::with_val(mu.prec(), -mu);
    let d = exact_sum(&[g, &minus_mu]);
    // EI = max(d, 0) + σ·h(-|d|/σ), the second term strictly positive.
    let base = if d.is_sign_positive() {
        d.clone()
    } else {
        Float::with_val(53, 0)
    };
    if base > cost.hi {
        // Decided without forming base - c (whose exact span could be huge for tiny costs).
        return Some(true);
    }
    let (minus_c_hi, minus_c_lo) = (
        Float::with_val(cost.hi.prec(), -&cost.hi),
        Float::with_val(cost.lo.prec(), -&cost.lo),
    );
    let r_lo = exact_sum(&[&base, &minus_c_hi]);
    if !r_lo.is_sign_negative() || r_lo.is_zero() {
        return Some(true);
    }
    let r_hi = exact_sum(&[&base, &minus_c_lo]);
    let tail = tail_enclosure(&d, sigma, p);
    // EI - c ∈ [r_lo + tail.lo, r_hi + tail.hi]; MPFR compares exactly.
    if tail.lo > Float::with_val(r_lo.prec(), -&r_lo) {
        Some(true)
    } else if tail.hi < Float::with_val(r_hi.prec(), -&r_hi) {
        Some(false)
    } else {
        None
    }
}

/// Certified comparisons with a sticky working precision.
pub(crate) struct Comparer<'a> {
    /// `μ`, exact.
    pub(crate) mu: Float,
    /// `σ > 0`, exact.
    pub(crate) sigma: Float,
    /// The cost `c`, an enclosure with exact ends.
    pub(crate) cost: &'a Interval,
    /// The largest working precision, bits.
    pub(crate) cap: u32,
    /// The working precision, bits: kept between comparisons, doubled when one is undecided.
    pub(crate) p: u32,
    /// The public function to name in [`Error::PrecisionExhausted`].
    pub(crate) function: &'static str,
}

impl Comparer<'_> {
    /// `EI(μ, σ; g) > c`, raising the precision until decided (up to the cap).
    pub(crate) fn exceeds(&mut self, g: &Float) -> Result<bool, Error> {
        loop {
            if let Some(answer) = exceeds_at(&self.mu, &self.sigma, g, self.cost, self.p) {
                return Ok(answer);
            }
            if self.p >= self.cap {
                return Err(Error::PrecisionExhausted {
                    function: self.function,
                    max_bits: self.cap,
                });
            }
            self.p = self.p.saturating_mul(2).min(self.cap);
        }
    }
}

/// Certified `EI(μ, σ; y) > cost` for `σ > 0` (the bisection's test), raising the precision up
/// to `acc.max_bits`.
pub(crate) fn ei_exceeds_cost(
    mu: f64,
    sigma: f64,
    y: f64,
    cost: f64,
    acc: &Accuracy,
) -> Result<bool, Error> {
    widen_exponent_range();
    let cost = Interval::point(exact(cost));
    let mut cmp = Comparer {
        mu: exact(mu),
        sigma: exact(sigma),
        cost: &cost,
        cap: acc.max_bits,
        p: acc.start_bits.max(32).min(acc.max_bits),
        function: "stop_decision",
    };
    cmp.exceeds(&exact(y))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stopping rule's certified test `EI(μ, σ; y) > c` on both sides: `EI(1, 2^-410; 1) =
    /// 2^-410·h(0) < 2^-400` and `EI(0, 1; 1) = h(1) = φ(1) + Φ(1) = 1.0833… > 1/2`; and where
    /// `y - μ` alone exceeds `c` (`EI > y - μ = 2 > 1`).
    #[test]
    fn the_certified_test_of_the_stopping_rule() {
        let acc = Accuracy::default();
        assert!(!ei_exceeds_cost(1.0, 2f64.powi(-410), 1.0, 2f64.powi(-400), &acc).unwrap());
        assert!(ei_exceeds_cost(0.0, 1.0, 1.0, 0.5, &acc).unwrap());
        assert!(!ei_exceeds_cost(0.0, 1.0, 1.0, 1.1, &acc).unwrap());
        assert!(ei_exceeds_cost(-1.0, 1e-3, 1.0, 1.0, &acc).unwrap());
    }
}

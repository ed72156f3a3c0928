//! What every function of the crate returns: a [`Certified`] result (the contract of the crate
//! root's documentation) or an [`Error`]; the precision policy [`Accuracy`]; and the stopping
//! rule's [`Candidate`].
use crate::arith;
use rug::Float;

/// A certified result: `lower ≤ exact ≤ upper`, `value = RNE(exact)`.
///
/// `value` need not lie in `[lower, upper]` (it is the nearest double, the enclosure is much
/// tighter). An end may sit exactly on a rounding midpoint between two doubles only where the
/// exact value is known to be strictly on `value`'s side of it (`EI > y - μ`; PBGI's bracket
/// ends are certified points, never the root).
///
/// # Example
/// `EI(0, 1; 0) = 1/√(2π) = 0.398942280401432677939946…` (closed form): the value, bounds as
/// doubles rounded outward, and bounds as decimals rounded outward.
/// ```
/// let r = pbgi_reference::ei(0.0, 1.0, 0.0).unwrap();
/// assert_eq!(r.value, 0.3989422804014327);
/// assert!(r.lower_f64() <= r.value && r.value <= r.upper_f64());
/// assert_eq!(r.lower_decimal(20), "3.9894228040143267793e-1");
/// assert_eq!(r.upper_decimal(20), "3.9894228040143267794e-1");
/// ```
#[derive(Clone, Debug)]
pub struct Certified {
    /// The exact value correctly rounded to f64 (ties to even). May be ±inf or 0 when the
    /// exact value is outside f64's range.
    pub value: f64,
    /// Certified lower bound of the exact value.
    pub lower: Float,
    /// Certified upper bound of the exact value.
    pub upper: Float,
}

impl Certified {
    /// `lower` as a decimal string with `digits` significant digits, rounded toward −∞ (so the
    /// printed number is still a lower bound), as `d.ddd…e±N` with trailing zeros kept. `inf`,
    /// `-inf`, `0` are printed as such.
    pub fn lower_decimal(&self, digits: usize) -> String {
        arith::decimal_digits::decimal(&self.lower, digits, rug::float::Round::Down)
    }

    /// `upper` as a decimal string with `digits` significant digits, rounded toward +∞.
    pub fn upper_decimal(&self, digits: usize) -> String {
        arith::decimal_digits::decimal(&self.upper, digits, rug::float::Round::Up)
    }

    /// [`Certified::lower_decimal`]'s text (ASCII) appended to `out`, with no string of its
    /// own (`pbgi eval` writes it straight into its output row).
    pub fn push_lower_decimal(&self, digits: usize, out: &mut Vec<u8>) {
        arith::decimal_digits::push_decimal(&self.lower, digits, rug::float::Round::Down, out);
    }

    /// [`Certified::upper_decimal`]'s text (ASCII) appended to `out`.
    pub fn push_upper_decimal(&self, digits: usize, out: &mut Vec<u8>) {
        arith::decimal_digits::push_decimal(&self.upper, digits, rug::float::Round::Up, out);
    }

    /// [`Certified::push_lower_decimal`]'s text, `separator`, then
    /// [`Certified::push_upper_decimal`]'s text, appended to `out` (the same bytes); returns
    /// where the upper bound's text begins. Cheaper than the two calls where the ends share their
    /// leading digits: the upper end's then come from the lower end's.
    pub fn push_ends_decimal(&self, digits: usize, separator: u8, out: &mut Vec<u8>) -> usize {
        arith::decimal_digits::push_decimal_pair(&self.lower, &self.upper, digits, separator, out)
    }

    /// `lower` rounded toward −∞ to f64: `lower_f64() ≤ exact`. May be `-inf` (the exact value
    /// is below `-f64::MAX`, or the enclosure is the point `-inf`); `-0.0` never stands for a
    /// negative bound (a negative `lower` above `-2^-1074` gives `-2^-1074`).
    pub fn lower_f64(&self) -> f64 {
        arith::mpfr::widen_exponent_range();
        self.lower.to_f64_round(rug::float::Round::Down)
    }

    /// `upper` rounded toward +∞ to f64: `exact ≤ upper_f64()`. May be `+inf` (the exact value
    /// is above `f64::MAX`); a positive `upper` below `2^-1074` gives `2^-1074`.
    pub fn upper_f64(&self) -> f64 {
        arith::mpfr::widen_exponent_range();
        self.upper.to_f64_round(rug::float::Round::Up)
    }

    /// `(lower.to_f64(), upper.to_f64())`: both ends rounded to the nearest f64 (ties to even),
    /// MPFR's doubles, read from the ends' limbs where an end has at most 192 bits and rounds to
    /// a normal double or zero (`Wide::to_f64_nearest`), else by MPFR. (`pbgi eval` checks that
    /// `value` lies between them.)
    pub fn nearest_ends(&self) -> (f64, f64) {
        (nearest_f64(&self.lower), nearest_f64(&self.upper))
    }

    /// `lower ≤ x ≤ upper` (exact comparison of the f64 `x` with the bounds).
    pub fn contains(&self, x: f64) -> bool {
        arith::mpfr::widen_exponent_range();
        !x.is_nan() && self.lower <= x && x <= self.upper
    }

    /// `lower ≤ x ≤ upper` for an MPFR float `x` (exact comparison).
    pub fn contains_float(&self, x: &Float) -> bool {
        arith::mpfr::widen_exponent_range();
        !x.is_nan() && self.lower <= *x && *x <= self.upper
    }
}

/// `x.to_f64()` (round to nearest, ties to even): from the three-limb form of `|x|` where it
/// answers (`arith::wide_float::nearest_f64`), else by MPFR.
fn nearest_f64(x: &Float) -> f64 {
    arith::wide_float::nearest_f64(x).unwrap_or_else(|| {
        arith::mpfr::widen_exponent_range();
        x.to_f64()
    })
}

/// Why a reference computation produced no result.
#[derive(Clone, Debug, PartialEq)]
pub enum Error {
    /// An input is NaN, infinite or outside the function's domain.
    InvalidInput {
        /// Name of the offending argument (`"sigma"`, `"cost"`, ...).
        name: &'static str,
        /// The value given.
        value: f64,
        /// What was wrong with it.
        reason: &'static str,
    },
    /// The precision cap was reached before the result could be certified.
    PrecisionExhausted {
        /// Function that gave up.
        function: &'static str,
        /// The cap, in bits.
        max_bits: u32,
    },
    /// The derivative asked for does not exist at this input (e.g. EI's `∂/∂μ` at `σ = 0`,
    /// `y = μ`, where `max(y - μ, 0)` has a kink).
    NotDifferentiable {
        /// Function whose derivative was asked for.
        function: &'static str,
        /// Why it does not exist there.
        reason: &'static str,
    },
    /// A candidate passed to [`stop_decision`] is invalid.
    InvalidCandidate {
        /// Its position in the slice.
        index: usize,
        /// What is wrong with it.
        error: Box<Error>,
    },
    /// The two certified forms of the stopping rule disagreed for a candidate (never expected:
    /// it would reveal a bug; reported instead of a panic).
    RuleDisagreement {
        /// Its position in the slice.
        index: usize,
    },
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::InvalidInput {
                name,
                value,
                reason,
            } => write!(f, "invalid {name} = {value}: {reason}"),
            Error::PrecisionExhausted { function, max_bits } => {
                write!(
                    f,
                    "{function}: result not certified within {max_bits} bits of working precision"
                )
            }
            Error::NotDifferentiable { function, reason } => {
                write!(f, "{function}: not differentiable here: {reason}")
            }
            Error::InvalidCandidate { index, error } => write!(f, "candidate {index}: {error}"),
            Error::RuleDisagreement { index } => {
                write!(
                    f,
                    "candidate {index}: the PBGI and LogEIPC forms of the stopping rule disagree"
                )
            }
        }
    }
}

impl std::error::Error for Error {}

/// Working-precision policy of the Ziv loop.
#[derive(Clone, Copy, Debug)]
pub struct Accuracy {
    /// First working precision, bits. EI, LogEI, `h`, `ln h` and `ln Φ` start at
    /// `min(start_bits, enclosure_bits + 3)` instead (their series then run within MPFR's
    /// two-limb fast paths and usually settle there).
    pub start_bits: u32,
    /// Give up (with [`Error::PrecisionExhausted`]) beyond this precision, bits.
    pub max_bits: u32,
    /// Minimum relative width target of the returned enclosure, bits (the loop continues past
    /// correct rounding until the enclosure is at least this tight).
    pub enclosure_bits: u32,
}

impl Default for Accuracy {
    /// Start at 128 bits, give up beyond 8192 bits, enclosures of relative width `≤ 2^-100`.
    fn default() -> Self {
        Accuracy {
            start_bits: 128,
            max_bits: 8192,
            enclosure_bits: 100,
        }
    }
}

/// One candidate point for the stopping rule: posterior `N(mu, sigma²)` and cost `cost > 0`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate {
    /// Posterior mean.
    pub mu: f64,
    /// Posterior standard deviation, `≥ 0`.
    pub sigma: f64,
    /// Evaluation cost (already scaled by `λ`), `> 0`.
    pub cost: f64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// [`Certified::nearest_ends`] gives MPFR's `to_f64` of each end, bit for bit: random
    /// floats of 1 to 250 bits from `2^-1100` to `2^1100` (subnormal and overflowing results
    /// included), exact ties between two doubles (a double plus half its last place, at 54 to
    /// 192 bits) and their neighbours, both signs, zeros, infinities and exponents far outside
    /// f64's range.
    #[test]
    fn nearest_ends_are_mpfrs() {
        arith::mpfr::widen_exponent_range();
        let mut rng = ChaCha8Rng::seed_from_u64(53);
        let mut values = Vec::new();
        for _ in 0..100_000 {
            let prec = rng.gen_range(1..=250u32);
            let mut f = Float::with_val(prec, rng.gen::<u128>() | 1);
            f *= Float::with_val(prec, rng.gen::<u128>() | 1);
            let e = rng.gen_range(-1100..=1100) - f.get_exp().unwrap_or(0);
            f <<= e;
            values.push(f);
        }
        for _ in 0..20_000 {
            let d = f64::from_bits(rng.gen_range(1..0x7fef_ffff_ffff_ffffu64));
            let prec = rng.gen_range(54..=192u32);
            let half = Float::with_val(prec, d.next_up()) - Float::with_val(prec, d);
            let mut tie = Float::with_val(prec, d) + (half >> 1u32);
            values.push(tie.clone());
            tie.next_up();
            values.push(tie.clone());
            tie.next_down();
            tie.next_down();
            values.push(tie);
        }
        let mut huge = Float::with_val(64, 1);
        huge <<= 4_000_000_000u32;
        values.extend([
            Float::with_val(53, 0.0),
            Float::with_val(53, f64::INFINITY),
            Float::with_val(53, f64::MAX),
            Float::with_val(53, f64::MIN_POSITIVE),
            Float::with_val(53, 5e-324),
            Float::with_val(64, 1) / &huge,
            huge,
        ]);
        for x in values {
            let negated = Float::with_val(x.prec(), -&x);
            let expected = (x.to_f64().to_bits(), negated.to_f64().to_bits());
            let certified = Certified {
                value: 0.0,
                lower: x,
                upper: negated,
            };
            let (low, high) = certified.nearest_ends();
            assert_eq!((low.to_bits(), high.to_bits()), expected, "{certified:?}");
        }
    }
}

//! Certified high-precision reference (MPFR via `rug`) for the quantities in `MATH.md`.
//!
//! Contract (Arb style): every function returns a [`Certified`] whose `[lower, upper]` is
//! guaranteed to contain the exact mathematical value at the given f64 inputs (taken as exact
//! binary numbers), and whose `value` is that exact value correctly rounded to f64 (round to
//! nearest, ties to even). When the working precision cap is reached before the enclosure
//! rounds to a single f64, the function returns [`Error::PrecisionExhausted`] rather than guess.
//!
//! NOTE (skeleton): the bodies below are the agreed API; the implementation lands with issue 2.

pub use rug::Float;

/// A certified result: `lower ≤ exact ≤ upper`, `value = RNE(exact)`.
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
}

/// Working-precision policy of the Ziv loop.
#[derive(Clone, Copy, Debug)]
pub struct Accuracy {
    /// First working precision, bits.
    pub start_bits: u32,
    /// Give up (with [`Error::PrecisionExhausted`]) beyond this precision, bits.
    pub max_bits: u32,
    /// Minimum relative width target of the returned enclosure, bits (the loop continues past
    /// correct rounding until the enclosure is at least this tight).
    pub enclosure_bits: u32,
}

/// One candidate point for the stopping rule: posterior `N(mu, sigma²)` and cost `cost > 0`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate {
    pub mu: f64,
    pub sigma: f64,
    pub cost: f64,
}
pub mod pandora;

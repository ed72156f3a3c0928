//! Certified high-precision reference (MPFR via `rug`) for the quantities in `MATH.md`.
//!
//! Contract (Arb style): every function returns a [`Certified`] whose `[lower, upper]` is
//! guaranteed to contain the exact mathematical value at the given f64 inputs (taken as exact
//! binary numbers), and whose `value` is that exact value correctly rounded to f64 (round to
//! nearest, ties to even). When the working precision cap is reached before the enclosure
//! rounds to a single f64, the function returns [`Error::PrecisionExhausted`] rather than guess.
//!
//! Method (details and proofs in `proofs-notes/reference-certification.md`): interval
//! arithmetic with MPFR's directed rounding through every operation (MPFR's `+ − × ÷ √ exp ln`
//! and `π` only; no `erfc`), monotonicity in every interval argument, three certified forms of
//! the lower tail `h(-x)` (Taylor series, continued fraction, asymptotic series with rigorous
//! remainders), MPFR's exponent range widened to its maximum, and a Ziv loop that doubles the
//! working precision until the enclosure rounds to one f64 and meets the width target. EI at
//! the default accuracy first tries a fourth form for `|z| ≤ 8`: centred Taylor expansions on
//! fixed-point integers around `j/128`, from a table of `h(-c)/φ(c)`, `Φ(-c)/φ(c)` and `φ(c)`
//! (generated and checked by a test with MPFR's `erfc` and `exp` at 400 bits). Exact
//! cases (`σ = 0`, `ln 1 = 0`, `exp(0) = 1`, ...) give point enclosures and terminate at once.
//! PBGI is found by certified Newton brackets from `pbgi-fast`'s estimate (one evaluation of `EI`
//! with its slope and curvature: tangent above the root, Taylor bound below), else by bisection
//! with certified comparisons `EI(μ, σ; g) ≷ c`.
//!
//! # Default precision and cost
//! [`Accuracy::default`]: start at 128 bits (103 for EI, LogEI, `h`, `ln h`, `ln Φ`), give up
//! beyond 8192 bits, enclosures of relative width `≤ 2^-100`. One call costs about 5–10 µs
//! (`h`, `ei`, `log_ei`, `pbgi` on ordinary inputs) to tens of µs (gradients, LogEIPC) and, on the
//! bisection's inputs, up to a few milliseconds; measured tables in
//! `proofs-notes/reference-certification.md`
//! (`cargo bench -p pbgi-reference`).
//!
//! # Side effect
//! Every entry point widens MPFR's exponent range of the calling thread to its maximum
//! (`±(2^62 - 1)`, so that `φ(1e8) = e^(-5e15)` is representable) and leaves it so: other MPFR
//! code in that thread then under- or overflows later than with MPFR's default range.
//! [`widen_exponent_range`] does it alone, for code that reads the crate's enclosures back
//! (their ends may lie far outside the default range).
//!
//! # Functions
//! Values: [`h`](h()), [`ln_h`], [`log_ndtr`](log_ndtr()) (`ln Φ`), [`ei`](ei()),
//! [`log_ei`](log_ei()), [`log_eipc`](log_eipc()), [`log_eipc_inv`], [`log_eipc_exp`],
//! [`pbgi`](pbgi()), [`pbgi_lognormal`]; gradients (one
//! [`Certified`] per partial derivative): [`ei_grad`], [`log_ei_grad`], [`pbgi_grad`]; the
//! stopping rule [`stop_decision`]. Each has a `*_with` form taking an [`Accuracy`].
//!
//! # Verification
//! `tests/mpmath_data.rs`: 1489 rows (every value function, `ln Φ` and each gradient field)
//! across the domain against mpmath at 90 digits, 0 ULP and containment;
//! `tests/two_formulas.rs`: overlap with MPFR's `erfc` closed form and across precisions;
//! `tests/gradients.rs`: gradients between certified secant slopes (convexity);
//! `tests/asymptotic_tails.rs`: both tails against their rigorous asymptotic bounds;
//! `tests/published_values.rs`, `tests/exact_cases.rs`, `tests/stop_rule.rs`,
//! `tests/domain_sweep.rs`, `tests/invalid_input.rs`.

pub use arith::mpfr::widen_exponent_range;
pub use certified::{Accuracy, Candidate, Certified, Error};
pub use rug::Float;

mod arith;
mod certified;
mod certify;
mod ei;
mod ei_comparison;
mod gaussian;
mod gradients;
mod h;
mod h_centres;
mod h_centres_table;
mod input;
mod log_ei;
mod log_eipc;
mod log_ndtr;
mod pbgi;
mod standardized_index;
mod stopping;
#[cfg(test)]
mod test_points;
pub mod work;

pub use ei::{ei, ei_with};
pub use gradients::{
    ei_grad, ei_grad_with, log_ei_grad, log_ei_grad_with, pbgi_grad, pbgi_grad_with, EiGradient,
    PbgiGradient,
};
pub use h::{h, h_with, ln_h, ln_h_with};
pub use log_ei::{log_ei, log_ei_with};
pub use log_eipc::{
    log_eipc, log_eipc_exp, log_eipc_exp_with, log_eipc_inv, log_eipc_inv_with, log_eipc_with,
};
pub use log_ndtr::{log_ndtr, log_ndtr_with};
pub use pbgi::{pbgi, pbgi_bisection_with, pbgi_lognormal, pbgi_lognormal_with, pbgi_with};
pub use stopping::{stop_decision, StopDecision};

pub mod pandora;

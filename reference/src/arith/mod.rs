//! The reference's own fixed-precision arithmetic, under the certified functions: MPFR with
//! directed rounding, and integer arithmetic on two- and three-limb floats that rounds exactly as
//! MPFR does, bit for bit, at a fraction of its cost. Nothing here knows about EI or PBGI; each
//! module's tests check it against MPFR (`proofs-notes/reference-certification.md`).
//!
//! - [`mpfr`]: MPFR's exponent range widened, a float's exponent, one value rounded down or up.
//! - [`limb_memory`]: a per-thread cache of GMP's small limb blocks (memory only).
//! - [`short_float`]: floats of at most 128 bits (two limbs) with MPFR's roundings of `×`, `+`.
//! - [`wide_float`]: floats of at most 192 bits (three limbs) with MPFR's `×`, `+`, `−`, `÷`.
//! - [`fixed_exp`]: `exp v` rounded down for `v < 0`, by 192-bit fixed-point arithmetic.
//! - [`fixed_ln`]: `ln y` and `ln(1 + y)` rounded down, by fixed-point arithmetic.
//! - [`decimal_digits`]: decimal digits of a bound, rounded down or up as `mpfr_get_str` does.
//! - [`interval`]: interval arithmetic `[lo, hi]` on MPFR floats; `π`, `√(2π)`, exact sums.
//!
//! Each module uses only those listed above it (and `crate::work`'s counters; in tests,
//! `crate::test_points`).

pub(crate) mod decimal_digits;
pub(crate) mod fixed_exp;
pub(crate) mod fixed_ln;
pub(crate) mod interval;
pub(crate) mod limb_memory;
pub(crate) mod mpfr;
pub(crate) mod short_float;
pub(crate) mod wide_float;

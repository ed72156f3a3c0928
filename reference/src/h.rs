//! The Gaussian building block `h(z) = z·Φ(z) + φ(z)` and its logarithm (MATH.md, "Gaussian
//! building blocks"), as the special cases `EI(0, 1; z)` and `LogEI(0, 1; z)`.

use crate::certified::{Accuracy, Certified, Error};
use crate::certify::series_accuracy;
use crate::ei::ei_with;
use crate::input::finite;
use crate::log_ei::{log_ei_by_centres, log_ei_core};

/// `h(z) = z·Φ(z) + φ(z) = E[max(z - Z, 0)]` (MATH.md, "Gaussian building blocks"); equals
/// `EI(0, 1; z)`.
///
/// # Domain
/// `z` finite; NaN or ±inf is [`Error::InvalidInput`].
///
/// # Accuracy
/// Certified enclosure, `value` correctly rounded (as [`ei`](crate::ei())). Asymptotic forms checked in
/// `tests/asymptotic_tails.rs`, values against mpmath in `tests/mpmath_data.rs`.
pub fn h(z: f64) -> Result<Certified, Error> {
    h_with(z, &Accuracy::default())
}

/// [`h`] with an explicit precision policy.
pub fn h_with(z: f64, acc: &Accuracy) -> Result<Certified, Error> {
    let z = finite("z", z)?;
    ei_with(0.0, 1.0, z, acc)
}

/// `ln h(z)`, `h(z) = z·Φ(z) + φ(z)` (MATH.md, "Gaussian building blocks"); equals
/// `LogEI(0, 1; z)`.
///
/// # Domain
/// `z` finite (else [`Error::InvalidInput`] for `"z"`). The exact result is finite for every
/// finite `z`, and so is the enclosure; `ln h(z) ≈ -z²/2` as `z → -∞` passes `-f64::MAX`, so the
/// correctly rounded `value` is finite exactly for `z ≥ -1.8961503816218352e154`
/// (`-0x1.6a09e667f3bccp+512`) and `-inf` below it (from `-0x1.6a09e667f3bcdp+512` on, where the
/// exact value is below `-(2^1024 - 2^970)`, the rounding boundary of `-f64::MAX`); pinned in
/// `python/tests/test_domain_boundaries.py`.
///
/// # Accuracy
/// Certified enclosure, `value` correctly rounded; tails in `tests/asymptotic_tails.rs`,
/// values against mpmath in `tests/mpmath_data.rs`.
pub fn ln_h(z: f64) -> Result<Certified, Error> {
    ln_h_with(z, &Accuracy::default())
}

/// [`ln_h`] with an explicit precision policy.
pub fn ln_h_with(z: f64, acc: &Accuracy) -> Result<Certified, Error> {
    finite("z", z)?;
    // At the default accuracy and |z| ≤ 8, LogEI's front door (proof note §4.5 step 11).
    if let Some(c) = log_ei_by_centres(0.0, 1.0, z, acc) {
        return Ok(c);
    }
    log_ei_core("ln_h", 0.0, 1.0, z, None, &series_accuracy(acc))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// `ln h` through LogEI's front door against the Ziv loop at 200 bits: the same value bit
    /// for bit and the 200-bit enclosure inside the new one, on 20 000 random `z ∈ [-9, 9]`,
    /// the integers and halves in that range and `±0`.
    #[test]
    fn ln_h_front_door_is_the_ziv_loop() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(79);
        let forced = Accuracy {
            enclosure_bits: 200,
            ..Accuracy::default()
        };
        let zs = (-18..=18)
            .map(|i| f64::from(i) / 2.0)
            .chain([0.0, -0.0])
            .chain((0..20_000).map(|_| rng.gen_range(-9.0..9.0)));
        for z in zs {
            let (new, old) = (ln_h(z).unwrap(), ln_h_with(z, &forced).unwrap());
            assert_eq!(new.value.to_bits(), old.value.to_bits(), "ln_h({z:e})");
            assert!(
                new.lower <= old.lower && old.upper <= new.upper,
                "ln_h({z:e})"
            );
        }
    }
}

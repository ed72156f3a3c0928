//! `z = (y - μ)/σ` as an unevaluated sum `zhi + zlo`, exact to ~2^-100 relative.
//!
//! `h` amplifies a relative error δ in `z` by about `z²` (at `z = -37`, 0.5 ulp of `z` would
//! cost ~700 ulp of EI), so the rounding of the subtraction and of the division is carried.
use crate::dd::{two_prod, two_sum};

/// `y - μ = dhi + dlo` and `(y - μ)/σ ≈ zhi + zlo`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Standardized {
    pub dhi: f64,
    pub dlo: f64,
    pub zhi: f64,
    pub zlo: f64,
}

/// Precondition: `σ > 0` finite, `y - μ` finite (callers check). `zlo` is only meaningful
/// when `|zhi| ≤ 2^40` (callers use it only for `-60 ≤ zhi < 0`).
#[inline(always)]
pub(crate) fn standardize(mu: f64, sigma: f64, y: f64) -> Standardized {
    let (dhi, dlo) = two_sum(y, -mu);
    let zhi = dhi / sigma;
    // Dekker's product is exact for |σ| ≤ 2^500 and |zhi·σ| ≥ 2^-900; outside, rescale σ and
    // d by the same power of two (exact unless d underflows, which only happens when |z| is
    // far below 2^-60, where zlo is irrelevant).
    let zlo = if (1e-150..=1e150).contains(&sigma) && dhi.abs() >= 1e-250 {
        let (p, e) = two_prod(zhi, sigma);
        (((dhi - p) - e) + dlo) / sigma
    } else {
        let (m, k) = libm::frexp(sigma);
        let dm = libm::scalbn(dhi, -k);
        let dml = libm::scalbn(dlo, -k);
        let (p, e) = two_prod(zhi, m);
        (((dm - p) - e) + dml) / m
    };
    Standardized { dhi, dlo, zhi, zlo }
}

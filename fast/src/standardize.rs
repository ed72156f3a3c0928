//! `z = (y - μ)/σ` as an unevaluated sum `zhi + zlo`, exact to ~2^-100 relative.
//!
//! `h` amplifies a relative error δ in `z` by about `z²` (at `z = -37`, 0.5 ulp of `z` would
//! cost ~700 ulp of EI), so the rounding of the subtraction and of the division is carried.
use crate::dd::{two_prod, two_sum};

/// `y - μ = dhi + dlo` exactly, and `zhi ≈ (y - μ)/σ` (within 2 ulp, with the right sign).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Standardized {
    pub dhi: f64,
    pub dlo: f64,
    pub zhi: f64,
    inv: f64,
    sigma: f64,
}

/// σ range where `1/σ` and Dekker's product `zhi·σ` (|zhi| ≤ 60) are safe.
const SAFE_SIGMA: core::ops::RangeInclusive<f64> = 1e-150..=1e150;

impl Standardized {
    /// Precondition: `σ > 0` finite, `y - μ` finite (callers check).
    #[inline(always)]
    pub(crate) fn new(mu: f64, sigma: f64, y: f64) -> Self {
        let (dhi, dlo) = two_sum(y, -mu);
        if SAFE_SIGMA.contains(&sigma) {
            // One division; zhi's extra rounding is recovered by zlo.
            let inv = 1.0 / sigma;
            Standardized {
                dhi,
                dlo,
                zhi: dhi * inv,
                inv,
                sigma,
            }
        } else {
            Standardized {
                dhi,
                dlo,
                zhi: dhi / sigma,
                inv: 0.0,
                sigma,
            }
        }
    }

    /// `zlo` with `zhi + zlo = (y - μ)/σ` to ~2^-100 relative; meaningful for `|zhi| ≤ 2^40`
    /// (used for `-60 ≤ zhi < 0`).
    #[inline(always)]
    pub(crate) fn zlo(&self) -> f64 {
        if self.inv != 0.0 && self.dhi.abs() >= 1e-250 {
            // dhi - p is exact (Sterbenz: p = fl(zhi·σ) is within 3 ulp of dhi).
            let (p, e) = two_prod(self.zhi, self.sigma);
            (((self.dhi - p) - e) + self.dlo) * self.inv
        } else {
            // Rescale σ and d by the same power of two, so that Dekker's product is exact
            // (d underflowing only happens for |z| far below 2^-60, where zlo is irrelevant).
            let (m, k) = libm::frexp(self.sigma);
            let dm = libm::scalbn(self.dhi, -k);
            let dml = libm::scalbn(self.dlo, -k);
            let (p, e) = two_prod(self.zhi, m);
            (((dm - p) - e) + dml) / m
        }
    }
}

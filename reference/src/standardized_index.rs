//! The standardized index `u = (g - μ)/σ` of PBGI, the root of `h(u) = c/σ`, enclosed from
//! `c/σ` alone (PBGI's gradients need `u` itself, to more digits than `(g - μ)/σ` keeps).

use crate::arith::interval::Interval;
use crate::arith::mpfr::{down, up};
use crate::certified::{Accuracy, Error};
use crate::certify::exact;
use crate::ei_comparison::Comparer;
use crate::pbgi::{solve, solve_near_estimate};
use rug::Float;

/// The standardized index `u = (g - μ)/σ`, the root of `h(u) = c/σ`, enclosed with relative
/// width `≤ 2^-bits` (or absolute width `≤ 2^-1098` when `|u| < 2^-1099`), for `σ > 0`.
///
/// Solved as the index of `EI(0, σ'; g') = c'` with `σ' = σ·2^-k ∈ [1/2, 1)` and `c' = c·2^-k`
/// (exact scalings, so `g' = σ'·u` has the root `u`), then `u = g'/σ'` with outward rounding:
/// `u` is found from `c/σ` alone, never through `(g - μ)/σ`, which would lose the digits of
/// `σ·u` below those of `μ`.
pub(crate) fn standardized_index(
    function: &'static str,
    sigma: f64,
    cost: f64,
    bits: u32,
    acc: &Accuracy,
) -> Result<Interval, Error> {
    let sigma = exact(sigma);
    let k = crate::arith::mpfr::exponent(&sigma).unwrap_or(0);
    // Multiplying by a power of two is exact (MPFR's exponent range is widened).
    let scale = |mut v: Float| -> Float {
        v >>= k as i32;
        v
    };
    let sigma_scaled = scale(sigma);
    let cost_scaled = Interval::point(scale(exact(cost)));
    let inner = Accuracy {
        enclosure_bits: bits,
        ..*acc
    };
    let mut cmp = Comparer {
        mu: Float::with_val(53, 0),
        sigma: sigma_scaled.clone(),
        cost: &cost_scaled,
        cap: acc.max_bits,
        p: acc.start_bits.max(32).min(acc.max_bits),
        function,
    };
    // The fast path when σ' and c' are doubles (c' may leave f64's range: c/σ up to 2^2098).
    let (sigma_f, cost_f) = (sigma_scaled.to_f64(), cost_scaled.lo.to_f64());
    let estimate = if cost_f.is_normal() && cost_scaled.lo == cost_f {
        pbgi_fast::pbgi(0.0, sigma_f, cost_f)
    } else {
        f64::NAN
    };
    let g = match solve_near_estimate(&mut cmp, estimate, &inner) {
        Some(g) => g,
        None => solve(
            function,
            Float::with_val(53, 0),
            sigma_scaled.clone(),
            &cost_scaled,
            acc.max_bits,
            &inner,
        )?,
    };
    let wp = bits + 16;
    Ok(Interval {
        lo: down(wp, &g.lower / &sigma_scaled),
        hi: up(wp, &g.upper / &sigma_scaled),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `standardized_index` meets its documented width: relative `2^-bits` for `u = (g - μ)/σ`
    /// (σ and c scaled by σ's power of two; `u` divided out with outward rounding).
    #[test]
    fn the_standardized_index_meets_its_width() {
        for (sigma, cost, bits) in [(1.0, 0.1, 100), (3.0, 10.0, 150), (0.3, 1e-20, 120)] {
            let u =
                standardized_index("pbgi_grad", sigma, cost, bits, &Accuracy::default()).unwrap();
            let width = Float::with_val(64, &u.hi - &u.lo);
            let limit = Float::with_val(64, u.lo.abs_ref()) >> bits;
            assert!(
                u.lo < u.hi && width <= limit,
                "σ = {sigma}, c = {cost}, {bits} bits: width {width}"
            );
        }
    }
}

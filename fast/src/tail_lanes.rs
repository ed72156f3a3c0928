//! The tail ratio `p(x) = h(-x)/exp(-x²/2)` of `crate::tail` for four lanes: the same table
//! rows, polynomials and operations, in the same order, so each lane has the bits of
//! `crate::tail::p_tail_sq`. Both branches (`x < 8`, `x ≥ 8`) are evaluated only when the
//! lanes need both.
use crate::lanes::{fast_two_sum, two_prod, LaneMask, Lanes, LANES};
use crate::tail_coeffs::{ASYMPTOTIC, SMALL, W16, W32, W8};

/// The tail ratio `p` of `crate::tail::p_tail_sq`, four lanes.
pub(crate) struct TailLanes<V> {
    pub hi: V,
    pub lo: V,
    pub rel: V,
    pub dp: V,
}

/// `crate::tail::p_tail_sq` for `0 ≤ x < 2^16` in every lane (lanes outside may hold anything).
#[inline(always)]
pub(crate) fn p_tail_sq<V: Lanes>(x: V, x2_hi: V, x2_lo: V) -> TailLanes<V> {
    let small = x.lt(8.0);
    let any_small = small.any();
    let all_small = small.all();
    let small_tail = any_small.then(|| p_small(x));
    if all_small {
        return small_tail.expect("computed when any lane is small");
    }
    let large = p_large(x, x2_hi, x2_lo);
    match small_tail {
        None => large,
        Some(s) => TailLanes {
            hi: V::select(small, s.hi, large.hi),
            lo: V::select(small, s.lo, large.lo),
            rel: V::select(small, s.rel, large.rel),
            dp: V::select(small, s.dp, large.dp),
        },
    }
}

/// The `x < 8` branch: row `i = ⌊8x⌋` of `SMALL`, offset from the row's centre.
#[inline(always)]
fn p_small<V: Lanes>(x: V) -> TailLanes<V> {
    let xa = x.to_array();
    let rows: [usize; LANES] = core::array::from_fn(|l| ((xa[l] * 8.0) as usize).min(63));
    let t = x - V::from_array(core::array::from_fn(|l| (rows[l] as f64 + 0.5) * 0.125));
    let c = |k: usize| V::from_array(core::array::from_fn(|l| SMALL[rows[l]][k]));
    let tail = c(2)
        + t * (c(3)
            + t * (c(4)
                + t * (c(5) + t * (c(6) + t * (c(7) + t * (c(8) + t * (c(9) + t * c(10))))))));
    let (hi, lo) = fast_two_sum(c(0), c(1) + t * tail);
    let dp = c(2) + t * (c(3) * 2.0 + t * (c(4) * 3.0 + t * (c(5) * 4.0)));
    TailLanes {
        hi,
        lo,
        rel: V::splat(0.0),
        dp,
    }
}

/// `W8`, `W16`, `W32`, `ASYMPTOTIC` padded with zeros to one length: Horner's scheme over the
/// zero top coefficients (`0 + w·0 = 0`, then `c + w·0 = c`) performs exactly the unpadded
/// polynomial's operations.
const W_LEN: usize = 13;
static W_PADDED: [[f64; W_LEN]; 4] = [pad(&W8), pad(&W16), pad(&W32), pad(&ASYMPTOTIC)];

const fn pad<const N: usize>(c: &[f64; N]) -> [f64; W_LEN] {
    let mut out = [0.0; W_LEN];
    let mut k = 0;
    while k < N {
        out[k] = c[k];
        k += 1;
    }
    out
}

/// The `8 ≤ x < 2^16` branch (`crate::tail::p_tail_sq` with `x2p_large_dd`).
#[inline(always)]
fn p_large<V: Lanes>(x: V, x2_hi: V, x2_lo: V) -> TailLanes<V> {
    let xa = x.to_array();
    let table: [usize; LANES] = core::array::from_fn(|l| {
        let v = xa[l];
        if v < 16.0 {
            0
        } else if v < 32.0 {
            1
        } else if v < 64.0 {
            2
        } else {
            3
        }
    });
    let c = |k: usize| V::from_array(core::array::from_fn(|l| W_PADDED[table[l]][k]));
    let inv = V::splat(1.0) / x2_hi;
    let mut acc = c(W_LEN - 1);
    for k in (2..W_LEN - 1).rev() {
        acc = c(k) + inv * acc;
    }
    let (q_hi, q_lo) = fast_two_sum(c(0), c(1) + inv * acc);
    let (hi, e) = two_prod(q_hi, inv);
    // x < 2^16 here, so x2_hi < 1e200 and the correction r1 is always taken.
    let (a, b) = two_prod(x2_hi, inv);
    let r1 = (V::splat(1.0) - a) - b;
    TailLanes {
        hi,
        lo: e + q_lo * inv,
        rel: r1 - x2_lo * inv,
        dp: hi * (x * inv) * (V::splat(-2.0) + inv * 6.0),
    }
}

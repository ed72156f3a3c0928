//! The tail ratio `p(x) = h(-x)/exp(-x²/2)` of `crate::tail` for a group of lanes: the same table
//! rows, polynomials and operations, in the same order, so each lane has the bits of
//! `crate::tail::p_tail_sq`, with both branches (`x < 8`, `x ≥ 8`) as one polynomial over one
//! table.
use crate::lanes::{fast_two_sum, two_prod, Lanes};
use crate::tail_coeffs::{ASYMPTOTIC, SMALL, W16, W32, W8};

/// The tail ratio `p` of `crate::tail::p_tail_sq`, lane by lane.
pub(crate) struct TailLanes<V> {
    pub hi: V,
    pub lo: V,
    pub rel: V,
    pub dp: V,
}

/// `crate::tail::p_tail_sq` for `0 ≤ x < 2^16` in every lane (lanes outside may hold anything).
///
/// Both branches of the scalar code are one Horner scheme over one table ([`ROWS`]): the
/// `x < 8` rows of `SMALL` in `t = x - centre`, then the rows of `W8`, `W16`, `W32`,
/// `ASYMPTOTIC` in `w = fl(1/x²)`, all padded with zeros at the top to one length (Horner's
/// scheme over zero top coefficients, `0 + v·0 = 0` and then `c + v·0 = c`, performs exactly the
/// unpadded polynomial's operations). So the lanes gather one row each and evaluate one
/// polynomial, whichever branches they take; the `x ≥ 8` parts (a division among them) are
/// computed on every lane and selected, since `x` varies at random from lane to lane.
#[inline(always)]
pub(crate) fn p_tail_sq<const N: usize, V: Lanes<N>>(x: V, x2_hi: V, x2_lo: V) -> TailLanes<V> {
    let small = x.lt(8.0);
    // ⌊8x⌋ in the lanes (x ≥ 0), so that t does not wait for the rows' integer conversion.
    let i = (x * 8.0).trunc();
    let i = V::select(i.le(63.0), i, V::splat(63.0));
    let t = x - (i + 0.5) * 0.125;
    // The row, as an integer-valued f64 in every lane, without branches (x varies at random
    // across lanes): [8, 16) → 64, …, [64, ∞) → 67, and NaN → 64.
    let one = |m| V::select(m, V::splat(1.0), V::splat(0.0));
    let large = ((V::splat(64.0) + one(x.ge(16.0))) + one(x.ge(32.0))) + one(x.ge(64.0));
    // `min` only restates the range (already there); it lets the compiler drop bounds checks.
    let rows = V::select(small, i, large)
        .to_indices()
        .map(|r| &ROWS[r.min(ROWS.len() - 1)]);
    // (No closures around the lane operations: the library functions that would call them are
    // not compiled with the kernel's instruction set, so they would not be inlined.)
    let quads = [
        V::transpose_rows(core::array::from_fn(|l| &rows[l][0])),
        V::transpose_rows(core::array::from_fn(|l| &rows[l][1])),
        V::transpose_rows(core::array::from_fn(|l| &rows[l][2])),
    ];
    let last = V::from_array(core::array::from_fn(|l| rows[l][3][0]));
    let c = |k: usize| if k < 12 { quads[k / 4][k % 4] } else { last };
    let inv = V::splat(1.0) / x2_hi;
    let v = V::select(small, t, inv);
    let mut acc = c(ROW_LEN - 1);
    for k in (2..ROW_LEN - 1).rev() {
        acc = c(k) + v * acc;
    }
    let (q_hi, q_lo) = fast_two_sum(c(0), c(1) + v * acc);
    let dp_small = c(2) + t * (c(3) * 2.0 + t * (c(4) * 3.0 + t * (c(5) * 4.0)));
    let (hi, e) = two_prod(q_hi, inv);
    // x < 2^16 here, so x2_hi < 1e200 and the correction r1 is always taken.
    let (a, b) = two_prod(x2_hi, inv);
    let r1 = (V::splat(1.0) - a) - b;
    TailLanes {
        hi: V::select(small, q_hi, hi),
        lo: V::select(small, q_lo, e + q_lo * inv),
        rel: V::select(small, V::splat(0.0), r1 - x2_lo * inv),
        dp: V::select(
            small,
            dp_small,
            hi * (x * inv) * (V::splat(-2.0) + inv * 6.0),
        ),
    }
}

/// Coefficients per row: the most of `SMALL` (11) and of the `W*` tables (13).
const ROW_LEN: usize = 13;

/// The 64 rows of `SMALL`, then `W8`, `W16`, `W32`, `ASYMPTOTIC`, each padded with zeros to
/// [`ROW_LEN`] and stored as four groups of four (the last holds the 13th coefficient), so
/// that the lanes load four coefficients of a row at once ([`Lanes::transpose_rows`]).
static ROWS: [[[f64; 4]; 4]; 68] = rows();

const fn rows() -> [[[f64; 4]; 4]; 68] {
    let mut out = [[[0.0; 4]; 4]; 68];
    let mut i = 0;
    while i < 64 {
        out[i] = pad(&SMALL[i]);
        i += 1;
    }
    out[64] = pad(&W8);
    out[65] = pad(&W16);
    out[66] = pad(&W32);
    out[67] = pad(&ASYMPTOTIC);
    out
}

const fn pad<const N: usize>(c: &[f64; N]) -> [[f64; 4]; 4] {
    assert!(N <= ROW_LEN);
    let mut out = [[0.0; 4]; 4];
    let mut k = 0;
    while k < N {
        out[k / 4][k % 4] = c[k];
        k += 1;
    }
    out
}

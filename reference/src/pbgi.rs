//! The Pandora's Box Gittins index: the `g` with `EI(μ, σ; g) = c` (MATH.md, "Pandora's Box
//! Gittins index"), found by certified Newton brackets from `pbgi-fast`'s estimate, or else by
//! bisection with certified comparisons.
//!
//! `EI(μ, σ; ·)` is strictly increasing, so one certified comparison `EI(μ, σ; g) ≷ c` at an
//! exact point `g` (`ei_comparison.rs`) tells on which side of `g` the root lies. A bracket `[a, b]` with certified
//! `EI(a) < c < EI(b)` therefore contains the root, whatever happens between `a` and `b`. It is
//! also strictly convex, so one certified evaluation of `EI - c` with its slope and curvature at
//! a point near the root brackets the root on both sides (tangent above, Taylor bound below;
//! proof note §6a).

use crate::arith::interval::{exact_midpoint, exact_sum, Interval};
use crate::arith::mpfr::{down, up, widen_exponent_range};
use crate::certified::{Accuracy, Certified, Error};
use crate::certify::{exact, finish, is_tight, ziv};
use crate::ei::{ei_enclosure, tail_enclosure, tail_with_slope};
use crate::ei_comparison::Comparer;
use crate::input::{finite, non_negative, positive};
use crate::log_ei::ln_ei_enclosure;
use rug::float::Round;
use rug::Float;

/// Ordered integer key of an f64 (adjacent doubles have adjacent keys; ±0 share key 0).
fn key(x: f64) -> i64 {
    let bits = x.to_bits() as i64;
    if bits < 0 {
        -(bits & i64::MAX)
    } else {
        bits
    }
}

fn unkey(k: i64) -> f64 {
    if k < 0 {
        -f64::from_bits(k.unsigned_abs())
    } else {
        f64::from_bits(k as u64)
    }
}

/// `±2^1024`: where `±inf` sits for rounding purposes (RNE overflows at `MAX + ulp/2`, the
/// midpoint between `MAX` and `2^1024`).
fn beyond_max(negative: bool) -> Float {
    let two_1024 = Float::with_val(53, 1) << 1024u32;
    if negative {
        -two_1024
    } else {
        two_1024
    }
}

/// The point of key `k` as an exact float (`±inf` as `±2^1024`).
fn key_point(k: i64) -> Float {
    let x = unkey(k);
    if x.is_infinite() {
        beyond_max(x < 0.0)
    } else {
        exact(x)
    }
}

/// Edge of the rounding cell of the double with key `k` (round to nearest, ties to even): the
/// midpoint to its neighbour below (`upper = false`) or above. Past `±MAX` the cell of `±inf`
/// extends to `±∞`. Whether the edge itself belongs to the cell does not matter: brackets
/// are open at certified points (`EI ≠ c` there).
fn cell_edge(k: i64, upper: bool) -> Float {
    let inf_key = key(f64::INFINITY);
    match (k, upper) {
        (k, true) if k >= inf_key => Float::with_val(53, f64::INFINITY),
        (k, false) if k <= -inf_key => Float::with_val(53, f64::NEG_INFINITY),
        (k, true) => exact_midpoint(&key_point(k), &key_point(k + 1)),
        (k, false) => exact_midpoint(&key_point(k - 1), &key_point(k)),
    }
}

/// The key of the double whose rounding cell contains the open bracket `(a, b)`, if any.
fn common_cell(a: &Float, b: &Float) -> Option<i64> {
    [a.to_f64(), b.to_f64()]
        .into_iter()
        .map(key)
        .find(|&k| cell_edge(k, false) <= *a && *b <= cell_edge(k, true))
}

/// The open bracket `(lo, hi)` (its ends are certified points, never the root) as a result, if
/// it lies in one rounding cell and meets the width target.
fn decided(iv: &Interval, acc: &Accuracy) -> Option<Certified> {
    let k = common_cell(&iv.lo, &iv.hi)?;
    is_tight(iv, acc.enclosure_bits).then(|| Certified {
        value: unkey(k),
        lower: iv.lo.clone(),
        upper: iv.hi.clone(),
    })
}

/// An exact point `μ + σ·u` (the product rounded at 64 bits: only the sum must be exact).
fn offset_point(mu: &Float, sigma: &Float, u: f64) -> Float {
    let step = Float::with_val(64, sigma * u);
    exact_sum(&[mu, &step])
}

/// Initial certified bracket `[a, b]`: `EI(a) < c < EI(b)`.
fn bracket(cmp: &mut Comparer) -> Result<(Float, Float), Error> {
    let (mu, sigma) = (cmp.mu.clone(), cmp.sigma.clone());
    let ln_ratio =
        (Float::with_val(64, cmp.cost.lo.ln_ref()) - Float::with_val(64, sigma.ln_ref())).to_f64();
    let (mut a, mut b);
    let (u0, w);
    if ln_ratio >= 0.4f64.ln() {
        // Root u ≥ 0 (c/σ ≥ h(0) = 0.3989...): u ∈ (c/σ - h(0), c/σ), since h(u) - u = h(-u) ∈ (0, h(0)].
        let minus_shift = Float::with_val(64, &sigma * -0.41);
        a = exact_sum(&[&mu, &cmp.cost.lo, &minus_shift]);
        b = exact_sum(&[&mu, &cmp.cost.hi]);
        (u0, w) = (0.0, 0.5);
    } else {
        let l = -ln_ratio - 0.5 * (2.0 * std::f64::consts::PI).ln();
        // ln h(u) = -u²/2 - ln√(2π) - 2 ln|u| + o(1) for u → -∞ (MATH.md); near 0, h(u) ≈ h(0) + u/2.
        u0 = if l <= 1.0 {
            2.0 * (ln_ratio.exp() - 0.398_942_280_401_432_7)
        } else {
            let mut v = (2.0 * l).sqrt();
            for _ in 0..6 {
                v = (2.0 * (l - 2.0 * v.ln())).max(0.01).sqrt();
            }
            -v
        };
        w = 0.5;
        a = offset_point(&mu, &sigma, u0 - w);
        b = offset_point(&mu, &sigma, u0 + w);
    }
    let mut widen = w;
    while cmp.exceeds(&a)? {
        widen *= 2.0;
        if widen > 1e300 {
            return Err(Error::PrecisionExhausted {
                function: cmp.function,
                max_bits: cmp.cap,
            });
        }
        a = offset_point(&mu, &sigma, u0 - widen);
    }
    let mut widen = w;
    while !cmp.exceeds(&b)? {
        widen *= 2.0;
        if widen > 1e300 {
            return Err(Error::PrecisionExhausted {
                function: cmp.function,
                max_bits: cmp.cap,
            });
        }
        b = offset_point(&mu, &sigma, u0 + widen);
    }
    Ok((a, b))
}

/// A root bracketed within `±2^-1100` (far below the smallest subnormal `2^-1074`) rounds to
/// `±0`; its relative width is not pursued further (a root such as `-σ·h(-1e608)` would need
/// `10^1217` bisection steps). The enclosure is still certified, with absolute width `≤ 2^-1099`.
fn below_every_double(iv: &Interval) -> Option<Certified> {
    let tiny = Float::with_val(53, 1) >> 1100u32;
    let small = |x: &Float| x.clone().abs() <= tiny;
    (small(&iv.lo) && small(&iv.hi)).then(|| Certified {
        value: 0.0,
        lower: iv.lo.clone(),
        upper: iv.hi.clone(),
    })
}

/// Splits the certified bracket `[lo, hi]` at `point` if it lies strictly inside: one
/// certified comparison, after which `[lo, hi]` still brackets the root.
///
/// A nonzero point of magnitude below `2^-1101` (MPFR exponent below -1100) is never tested:
/// that region lies inside the rounding cell of `±0`, where [`below_every_double`] ends the
/// search, and a root estimate there can be astronomically small (`-σ·h(-1e6)` for `μ + c = 0`, about `2^(-7e11)`), whose
/// exact difference `g - μ` would span hundreds of billions of bits.
fn split(cmp: &mut Comparer, lo: &mut Float, hi: &mut Float, point: Float) -> Result<(), Error> {
    let negligible = crate::arith::mpfr::exponent(&point).is_some_and(|e| e < -1100);
    if *lo < point && point < *hi && !negligible {
        if cmp.exceeds(&point)? {
            *hi = point;
        } else {
            *lo = point;
        }
    }
    Ok(())
}

/// An uncertified estimate of `ln EI(μ, σ; g) - ln c` (midpoints of enclosures at `p` bits):
/// only used to propose split points.
fn log_ratio_estimate(cmp: &Comparer, ln_c: &Float, g: &Float, p: u32) -> Float {
    let minus_mu = Float::with_val(cmp.mu.prec(), -&cmp.mu);
    let d = exact_sum(&[g, &minus_mu]);
    // One logarithm of the linear estimate, unless EI is below MPFR's range.
    let ei = ei_enclosure(&d, &cmp.sigma, p);
    let ln_ei = if ei.lo.is_zero() {
        let iv = ln_ei_enclosure(&d, &cmp.sigma, p);
        Float::with_val(p, &iv.lo + &iv.hi) >> 1u32
    } else {
        let mid = Float::with_val(p, &ei.lo + &ei.hi) >> 1u32;
        Float::with_val(p, mid.ln_ref())
    };
    Float::with_val(p + 64, &ln_ei - ln_c)
}

/// For a root with `u > 0` whose tail `σ·h(-u)` is too small for the log-ratio estimates to
/// see: one step of the contraction `g ↦ μ + c - σ·h(-(g - μ)/σ)` (factor `Q(u) < 1/2`) from
/// the bracket's upper end. `None` when that end is not above `μ`.
fn fixed_point_guess(cmp: &Comparer, b: &Float, p: u32) -> Option<Float> {
    let minus_mu = Float::with_val(cmp.mu.prec(), -&cmp.mu);
    let d = exact_sum(&[b, &minus_mu]);
    // (A log-normal cost below 2^-1200 would make μ + c an enormous exact sum; never u > 0.)
    if !d.is_sign_positive()
        || d.is_zero()
        || crate::arith::interval::log2_abs(&cmp.cost.lo) < -1200
    {
        return None;
    }
    let tail = tail_enclosure(&d, &cmp.sigma, p);
    let tail_mid = Float::with_val(p, &tail.lo + &tail.hi) >> 1u32;
    let mu_plus_c = exact_sum(&[&cmp.mu, &cmp.cost.lo]);
    Some(Float::with_val(
        mu_plus_c.prec().max(p),
        &mu_plus_c - &tail_mid,
    ))
}

/// Root estimate by the Illinois variant of regula falsi on `ln EI(g) - ln c` inside the
/// certified bracket `[a, b]`, to relative accuracy about `2^-bits` (not certified: the caller
/// verifies it with certified comparisons).
fn approximate_root(cmp: &Comparer, a: &Float, b: &Float, bits: u32) -> Float {
    let p = bits + 32;
    let ln_c = Float::with_val(p + 32, cmp.cost.lo.ln_ref());
    let (mut lo, mut hi) = (Float::with_val(p, a), Float::with_val(p, b));
    // Full precision from the start: a bracket end evaluated coarsely would keep its error
    // (its value is reused by every later secant step).
    let wp = p;
    let (mut f_lo, mut f_hi) = (
        log_ratio_estimate(cmp, &ln_c, &lo, wp),
        log_ratio_estimate(cmp, &ln_c, &hi, wp),
    );
    let mut x = exact_midpoint(&lo, &hi);
    if !(f_lo.is_finite() && f_hi.is_finite() && f_lo < 0 && f_hi > 0) {
        return fixed_point_guess(cmp, b, p).unwrap_or(x);
    }
    let mut last_side = 0i8;
    for _ in 0..200 {
        // x = hi - f_hi·(hi - lo)/(f_hi - f_lo)
        let slope_inv = Float::with_val(p, &hi - &lo) / Float::with_val(p, &f_hi - &f_lo);
        let next = Float::with_val(p, &hi - Float::with_val(p, &f_hi * &slope_inv));
        if !(next > lo && next < hi) {
            return x;
        }
        let step = Float::with_val(64, &next - &x).abs();
        x = next;
        let scale = Float::with_val(64, x.abs_ref());
        if step <= Float::with_val(64, &scale >> (bits + 4)) {
            return x;
        }
        let f = log_ratio_estimate(cmp, &ln_c, &x, wp);
        if f.is_zero() || !f.is_finite() {
            return x;
        }
        if f < 0 {
            (lo, f_lo) = (x.clone(), f);
            if last_side < 0 {
                f_hi >>= 1;
            }
            last_side = -1;
        } else {
            (hi, f_hi) = (x.clone(), f);
            if last_side > 0 {
                f_lo >>= 1;
            }
            last_side = 1;
        }
    }
    x
}

/// Solves `EI(μ, σ; g) = c` for `σ > 0` and `c` in the exact-endpoint enclosure `cost`.
///
/// Bisection with certified comparisons, whose split points are first proposed by a root
/// estimate (two at the rounding midpoints next to it, two at `±2^-(bits+2)` around it) and
/// otherwise are midpoints: over the ordered f64 bit patterns until two adjacent doubles
/// bracket the root, one comparison at their exact midpoint for the rounding, then MPFR
/// midpoints until the width target is met. Every split keeps a certified bracket.
pub(crate) fn solve(
    function: &'static str,
    mu: Float,
    sigma: Float,
    cost: &Interval,
    cap: u32,
    acc: &Accuracy,
) -> Result<Certified, Error> {
    let mut cmp = Comparer {
        mu,
        sigma,
        cost,
        cap,
        p: acc.start_bits.max(32).min(cap),
        function,
    };
    let (mut a, mut b) = bracket(&mut cmp)?;
    let guess = approximate_root(&cmp, &a, &b, acc.enclosure_bits);

    // Proposed: the rounding midpoints on either side of the estimate's nearest double.
    let k = key(guess.to_f64());
    split(&mut cmp, &mut a, &mut b, cell_edge(k, false))?;
    split(&mut cmp, &mut a, &mut b, cell_edge(k, true))?;
    // Bisection over the ordered f64 bit patterns until the bracket lies in one rounding cell
    // (no step at all when the proposal was right): split at a double strictly inside the
    // bracket while there is one, else at the midpoint of the two doubles around it.
    let value = loop {
        if let Some(k) = common_cell(&a, &b) {
            break unkey(k);
        }
        let (ka, kb) = (
            key(a.to_f64_round(Round::Down)),
            key(b.to_f64_round(Round::Up)),
        );
        let point = if kb - ka >= 2 {
            key_point(ka + (kb - ka) / 2)
        } else {
            exact_midpoint(&key_point(ka), &key_point(kb))
        };
        if !(a < point && point < b) {
            return Err(Error::PrecisionExhausted {
                function,
                max_bits: cap,
            });
        }
        split(&mut cmp, &mut a, &mut b, point)?;
    };
    let (mut lo, mut hi) = (a, b);

    // Proposed: a bracket of relative width 2^-(bits+1) around the estimate. A proposal that
    // cannot be decided (e.g. inside a wide cost enclosure) is skipped: the bracket stays valid.
    let eps = Float::with_val(64, guess.abs_ref()) >> (acc.enclosure_bits + 2);
    let p = acc.enclosure_bits + 64;
    for point in [
        Float::with_val(p, &guess - &eps),
        Float::with_val(p, &guess + &eps),
    ] {
        if decided(
            &Interval {
                lo: lo.clone(),
                hi: hi.clone(),
            },
            acc,
        )
        .is_some()
        {
            break;
        }
        match split(&mut cmp, &mut lo, &mut hi, point) {
            Ok(()) | Err(Error::PrecisionExhausted { .. }) => {}
            Err(e) => return Err(e),
        }
    }

    // Otherwise continue bisecting in MPFR precision until the width target is met.
    let mut steps = 0u32;
    loop {
        let iv = Interval {
            lo: lo.clone(),
            hi: hi.clone(),
        };
        if let Some(mut certified) = decided(&iv, acc).or_else(|| below_every_double(&iv)) {
            certified.value = if value == 0.0 && hi <= 0 { -0.0 } else { value };
            return Ok(certified);
        }
        steps += 1;
        if steps > cap {
            return Err(Error::PrecisionExhausted {
                function,
                max_bits: cap,
            });
        }
        let mid = exact_midpoint(&lo, &hi);
        if cmp.exceeds(&mid)? {
            hi = mid;
        } else {
            lo = mid;
        }
    }
}

/// What one certified Newton evaluation at a point tells about the root.
enum NewtonStep {
    /// A certified open bracket `(lo, hi)` of the root; `residual_limited` when its width is
    /// mostly that of the residual's enclosure (more precision would narrow it).
    Bracket {
        iv: Interval,
        residual_limited: bool,
    },
    /// Only a certified upper bound (the tangent's root): the point was too far from the root
    /// for the curvature bound. The next evaluation starts there.
    Above(Float),
    /// The residual's enclosure contains 0: more precision is needed.
    Undecided,
}

/// One certified evaluation of `f(g) = EI(μ, σ; g) - c` at the exact point `m`, with the slope
/// `f'(m) = Φ(u)` and the curvature `f'' = φ/σ`, turned into a bracket of the root (proof note
/// §6a). `f` is increasing and strictly convex, so:
///
/// * the tangent's root is above the root: `x* < m - f(m)/f'(m)` (`f(m) ≠ 0`);
/// * Taylor's theorem with `f'' ≤ M` on the segment gives `f(m + t) ≤ f(m) + f'(m)·t + M·t²/2`;
///   a `t` where that bound is negative is below the root. `M = 2φ(u_m)/σ` holds while
///   `|u_m|·|t|/σ ≤ 1/2` (`φ(u_m + δ) ≤ φ(u_m)·e^{|u_m||δ|}`, `e^{1/2} < 2`).
///
/// Every bound is computed from the enclosures with directed rounding at `p + 16` bits.
fn newton_step(cmp: &Comparer, m: &Float, p: u32, bits: u32) -> NewtonStep {
    let q = p + 16;
    let minus_mu = Float::with_val(cmp.mu.prec(), -&cmp.mu);
    let d = exact_sum(&[m, &minus_mu]);
    let base = if d.is_sign_positive() {
        d.clone()
    } else {
        Float::with_val(53, 0)
    };
    let at = tail_with_slope(&d, &cmp.sigma, p);
    // f(m) = (max(d, 0) - c) + σ·h(-|u|), each part rounded outward (over the whole cost
    // enclosure: the root is increasing in c, so the bounds below hold for every c in it).
    let f_lo = down(q, &down(q, &base - &cmp.cost.hi) + &at.tail.lo);
    let f_hi = up(q, &up(q, &base - &cmp.cost.lo) + &at.tail.hi);
    // f(m) > 0 also when max(d, 0) ≥ c exactly: the tail σ·h(-|u|) is strictly positive even
    // where its enclosure is [0, tiny] (a root just below μ + c with c/σ beyond about 2^34).
    let above = f_lo.is_sign_positive() && !f_lo.is_zero() || base >= cmp.cost.hi;
    if !(f_lo.is_finite() && f_hi.is_finite()) || (!above && f_hi >= 0) {
        return NewtonStep::Undecided;
    }
    let (slope_lo, slope_hi) = (&at.cdf.lo, &at.cdf.hi);
    if !(slope_lo.is_normal() && slope_lo.is_sign_positive() && slope_hi.is_finite()) {
        return NewtonStep::Undecided;
    }
    // Upper bound: the largest tangent step over the enclosures, -f_lo/Φ_hi (f > 0) or
    // |f_lo|/Φ_lo (f < 0).
    let minus_f_lo = Float::with_val(q, -&f_lo);
    let t_upper = up(q, &minus_f_lo / if above { slope_hi } else { slope_lo });
    let hi = up(q.max(m.prec()) + 8, m + &t_upper);
    // The step where the linear bound f_hi + Φ·t vanishes, moved down by twice the quadratic
    // term (and a few units of the rounding), then verified.
    let minus_f_hi = Float::with_val(q, -&f_hi);
    let t0 = Float::with_val(q, &minus_f_hi / if above { slope_lo } else { slope_hi });
    // Curvature bound over |δu| ≤ reach (assumed |t_lower| ≤ 4|t0|, checked below):
    // f'' = φ(u)/σ with φ(u_m + δ) ≤ φ(u_m)·e^{|u_m||δ|} < 2φ(u_m) while |u_m|·reach ≤ 1/2;
    // farther (u_m large, e.g. a root just below μ + c), φ(u) ≤ φ(max(|u_m| - reach, 0)).
    let reach = up(64, &up(64, t0.abs_ref()) / &cmp.sigma) << 2u32;
    let curvature = if up(64, &at.distance.hi * &reach) <= 0.5f64 {
        up(64, &up(64, &at.density.hi / &cmp.sigma) * 2u32)
    } else {
        let nearest = down(64, &at.distance.lo - &reach);
        // 1/√(2π) < 0.4
        let density = if nearest.is_sign_positive() && !nearest.is_zero() {
            let half_square = down(64, nearest.square_ref()) >> 1u32;
            up(64, &up(64, (-half_square).exp_ref()) * 0.4f64)
        } else {
            Float::with_val(64, 0.4f64)
        };
        up(64, &density / &cmp.sigma)
    };
    let quadratic = up(
        64,
        &up(64, &curvature * &up(64, t0.square_ref())) / slope_lo,
    );
    let mut slack = Float::with_val(64, t0.abs_ref()) >> (q - 8);
    if slack.is_zero() {
        // t0 at the bottom of MPFR's range (a tail enclosed as [0, tiny]).
        slack = Float::with_val(64, t0.abs_ref());
    }
    let t_lower = down(q, &t0 - &up(64, &quadratic + &slack));
    let width_from_residual = up(64, &up(64, &f_hi - &f_lo) / slope_lo);
    let residual_limited = width_from_residual > (Float::with_val(64, m.abs_ref()) >> (bits + 2));
    if !above && !t_lower.is_sign_positive() {
        // f(m) < 0 certified: m itself is below the root.
        let iv = Interval { lo: m.clone(), hi };
        return NewtonStep::Bracket {
            iv,
            residual_limited,
        };
    }
    if up(64, &up(64, t_lower.abs_ref()) / &cmp.sigma) > reach {
        return NewtonStep::Above(hi);
    }
    // f(m + t_lower) ≤ f_hi + Φ·t_lower + (M/2)·t_lower², rounded up; Φ·t ≤ Φ_lo·t for t < 0.
    let slope = if t_lower.is_sign_negative() {
        slope_lo
    } else {
        slope_hi
    };
    let linear = up(q, &up(q, slope * &t_lower) + &f_hi);
    let bound = up(
        q,
        &linear + &(up(64, &curvature * &up(64, t_lower.square_ref())) >> 1u32),
    );
    if !bound.is_sign_negative() || bound.is_zero() {
        return NewtonStep::Above(hi);
    }
    let lo = down(q.max(m.prec()) + 8, m + &t_lower);
    NewtonStep::Bracket {
        iv: Interval { lo, hi },
        residual_limited,
    }
}

/// Working precision of the first Newton evaluation: the target `bits`, a margin (3 bits: the
/// series then run at 127 bits, inside MPFR's two-limb fast paths), and the bits
/// by which the residual's enclosure (absolute width about `T·2^-p`, `T = σ·h(-|u|)` the tail,
/// turned into a width of `g` by `1/Φ(u)`) falls short of `|g|` (estimated in f64 at the
/// estimate `g`; only the cost depends on it).
fn first_precision(cmp: &Comparer, cost: f64, g: f64, bits: u32) -> u32 {
    let (mu, sigma) = (cmp.mu.to_f64(), cmp.sigma.to_f64());
    let d = g - mu;
    // At the root EI = c: the tail is c for d ≤ 0, and (μ + c) - g for d > 0 (μ + c carried
    // as an unevaluated sum, so that a root next to μ + c = 0 keeps its size).
    let tail = if d > 0.0 {
        let sum = mu + cost;
        let (big, small) = if mu.abs() >= cost.abs() {
            (mu, cost)
        } else {
            (cost, mu)
        };
        ((sum - g) + ((big - sum) + small)).abs()
    } else {
        cost
    };
    let cdf = 0.5 * libm::erfc(-(d / sigma) * std::f64::consts::FRAC_1_SQRT_2);
    let shortfall = (tail / (cdf * g.abs())).log2();
    let extra = if shortfall.is_finite() {
        shortfall.clamp(0.0, 4096.0).ceil() as u32
    } else {
        0
    };
    bits + 3 + extra
}

/// The fast path of [`pbgi_with`] (Ziv's strategy): certified Newton brackets
/// ([`newton_step`]) from `pbgi_fast::pbgi`'s estimate, one evaluation of `EI` each; an
/// estimate within a few ULP usually gives a bracket of relative width `2^-bits` at once,
/// otherwise the next evaluation is at the bracket's midpoint (quadratic convergence). A
/// bracket that straddles a rounding midpoint is split there by one certified comparison.
/// `None` (the caller then runs [`solve`]) when the estimate is not finite and normal, when the
/// brackets do not tighten within a few evaluations, or when the precision cap is reached;
/// never an uncertified answer.
pub(crate) fn solve_near_estimate(
    cmp: &mut Comparer,
    estimate: f64,
    acc: &Accuracy,
) -> Option<Certified> {
    if !estimate.is_finite() {
        return None;
    }
    let bits = acc.enclosure_bits;
    let mut p = first_precision(cmp, cmp.cost.lo.to_f64(), estimate, bits).min(cmp.cap);
    let mut m = exact(estimate);
    for _ in 0..8 {
        // A point (or a bracket) within 2^-1101 of 0 means a root in or next to the cell of ±0
        // (and an exact g - μ of up to 2200 bits): that cell is tried directly.
        if !m.is_zero() && in_zero_cell(&m) {
            return zero_cell(cmp);
        }
        crate::work::comparison(p);
        match newton_step(cmp, &m, p, bits) {
            NewtonStep::Undecided => {
                if p >= cmp.cap {
                    return None;
                }
                p = p.saturating_mul(2).min(cmp.cap);
            }
            NewtonStep::Above(hi) => m = Float::with_val(p + 16, &hi),
            NewtonStep::Bracket {
                iv,
                residual_limited,
            } => {
                if in_zero_cell(&iv.lo) && in_zero_cell(&iv.hi) {
                    return zero_cell(cmp);
                }
                if let Some(certified) = decided(&iv, acc) {
                    return Some(signed_zero(certified, &iv));
                }
                if is_tight(&iv, bits) {
                    // Narrower than any rounding cell, but straddling one rounding midpoint.
                    let Interval { mut lo, mut hi } = iv;
                    let k = key(hi.to_f64_round(Round::Down));
                    cmp.p = cmp.p.max(p);
                    split(cmp, &mut lo, &mut hi, cell_edge(k, false)).ok()?;
                    let iv = Interval { lo, hi };
                    return decided(&iv, acc).map(|c| signed_zero(c, &iv));
                }
                if residual_limited {
                    if p >= cmp.cap {
                        return None;
                    }
                    p = p.saturating_mul(2).min(cmp.cap);
                }
                m = Float::with_val(p + 16, &iv.lo + &iv.hi) >> 1u32;
            }
        }
    }
    None
}

/// `|x| < 2^-1101` (0 included; MPFR's exponent `e` has `2^(e-1) ≤ |x| < 2^e`, and the test
/// is `e < -1100`): inside the rounding cell of `±0`, where [`below_every_double`] (which takes
/// brackets within `±2^-1100`) ends the search.
fn in_zero_cell(x: &Float) -> bool {
    crate::arith::mpfr::exponent(x).map_or(x.is_zero(), |e| e < -1100)
}

/// A root within `±2^-1100` (e.g. `-σ·h(-c/σ)` when `μ + c = 0` and `c/σ ≳ 40`), certified by
/// comparisons at `±2^-1100` and at 0 (for the sign of the zero) and returned as by
/// [`below_every_double`]; `None` if a comparison says otherwise or cannot be decided.
fn zero_cell(cmp: &mut Comparer) -> Option<Certified> {
    let edge = Float::with_val(53, 1) >> 1100u32;
    let (mut lo, mut hi) = (Float::with_val(53, -&edge), edge);
    if !cmp.exceeds(&hi).ok()? || cmp.exceeds(&lo).ok()? {
        return None;
    }
    split(cmp, &mut lo, &mut hi, Float::with_val(53, 0)).ok()?;
    let iv = Interval { lo, hi };
    below_every_double(&iv).map(|c| signed_zero(c, &iv))
}

/// A root whose value rounds to 0 is `-0` when the whole bracket is negative. The bracket is
/// open (`lo < root < hi`, see [`NewtonStep::Bracket`] and [`split`]), so `hi ≤ 0` already means
/// a negative root; `certify`'s own `signed_zero` takes closed enclosures and needs `hi < 0`.
fn signed_zero(mut certified: Certified, iv: &Interval) -> Certified {
    if certified.value == 0.0 && iv.hi <= 0 {
        certified.value = -0.0;
    }
    certified
}

/// The Pandora's Box Gittins index `g`: `EI(μ, σ; g) = cost` (MATH.md, "Pandora's Box Gittins
/// index"; the PBGI paper's index in minimisation form).
///
/// # Domain
/// `mu` finite, `sigma ≥ 0` finite, `cost > 0` finite. `sigma = 0` gives `mu + cost` correctly
/// rounded. Results beyond f64's range are ±inf (correctly rounded).
///
/// # Method and accuracy
/// Ziv's strategy: `pbgi_fast::pbgi`'s estimate, then certified Newton brackets, each from one
/// evaluation of `EI - cost` with its slope `Φ` and curvature `φ/σ` (usually one evaluation
/// gives a bracket inside one rounding cell, of relative width `2^-enclosure_bits`; proof note
/// §6a; `pbgi::tests::newton_brackets_contain_the_root`, `tests/pbgi_fast_path.rs`). If that
/// fails: bisection with certified comparisons `EI(μ, σ; g) ≷ cost` (see the module docs and
/// `proofs-notes/reference-certification.md`): a certified bracket from the small- and
/// large-cost asymptotics; split points proposed by a regula-falsi estimate (the rounding-cell
/// edges of its nearest double, then `±2^-(bits+2)` around it), otherwise bisection over the
/// ordered f64 bit patterns until the bracket lies in one rounding cell (one comparison at the
/// exact midpoint of two adjacent doubles decides a close call), then MPFR midpoints until
/// `[lower, upper]` has relative width `2^-enclosure_bits`. Every split is a certified
/// comparison, so `[lower, upper]` always contains the root. Checked against mpmath in
/// `tests/mpmath_data.rs`, against `ei` in `tests/two_formulas.rs`.
///
/// # Cost
/// About 10 µs on ordinary inputs (one evaluation of the series at 127 bits); every call of the
/// domain sweep under 0.25 ms (proof note §9a).
///
/// # Example
/// `PBGI(0, 1, 0.1) = -0.9023463475100345` and `PBGI(μ, 0, c) = μ + c` (MATH.md, "Sanity
/// values"):
/// ```
/// use pbgi_reference::pbgi;
/// assert_eq!(pbgi(0.0, 1.0, 0.1).unwrap().value, -0.9023463475100345);
/// assert_eq!(pbgi(1.0, 0.0, 0.5).unwrap().value, 1.5);
/// ```
pub fn pbgi(mu: f64, sigma: f64, cost: f64) -> Result<Certified, Error> {
    pbgi_with(mu, sigma, cost, &Accuracy::default())
}

/// [`pbgi`] with an explicit precision policy.
pub fn pbgi_with(mu: f64, sigma: f64, cost: f64, acc: &Accuracy) -> Result<Certified, Error> {
    let cost = match checked_arguments(mu, sigma, cost, acc)? {
        Arguments::Exact(certified) => return Ok(certified),
        Arguments::Positive(cost) => cost,
    };
    let mut cmp = Comparer {
        mu: exact(mu),
        sigma: exact(sigma),
        cost: &cost,
        cap: acc.max_bits,
        p: acc.start_bits.max(32).min(acc.max_bits),
        function: "pbgi",
    };
    if let Some(certified) =
        solve_near_estimate(&mut cmp, pbgi_fast::pbgi(mu, sigma, cost.lo.to_f64()), acc)
    {
        return Ok(certified);
    }
    solve("pbgi", exact(mu), exact(sigma), &cost, acc.max_bits, acc)
}

/// [`pbgi_with`] without its fast path: the certified bisection (`solve`, proof note §6) alone (bracket from
/// the asymptotics, regula-falsi proposals, bisection over the ordered doubles). The same
/// contract and the same results as [`pbgi_with`] (`tests/pbgi_fast_path.rs` checks identical
/// values and overlapping enclosures); it exists as the independent path the fast path is tested
/// against, and costs several times more.
pub fn pbgi_bisection_with(
    mu: f64,
    sigma: f64,
    cost: f64,
    acc: &Accuracy,
) -> Result<Certified, Error> {
    match checked_arguments(mu, sigma, cost, acc)? {
        Arguments::Exact(certified) => Ok(certified),
        Arguments::Positive(cost) => {
            solve("pbgi", exact(mu), exact(sigma), &cost, acc.max_bits, acc)
        }
    }
}

/// `pbgi`'s arguments after the domain checks.
enum Arguments {
    /// `σ = 0`: the index is `μ + c`, exactly.
    Exact(Certified),
    /// `σ > 0`: the cost as an exact point enclosure, to be solved for.
    Positive(Interval),
}

/// Checks `pbgi`'s arguments (naming the bad one) and widens MPFR's exponent range; answers
/// `σ = 0` at once.
fn checked_arguments(mu: f64, sigma: f64, cost: f64, acc: &Accuracy) -> Result<Arguments, Error> {
    let mu = finite("mu", mu)?;
    let sigma = non_negative("sigma", sigma)?;
    let cost = positive("cost", cost)?;
    widen_exponent_range();
    let cost = Interval::point(exact(cost));
    if sigma == 0.0 {
        let g = exact_sum(&[&exact(mu), &cost.lo]);
        return ziv("pbgi", acc, |_| Interval::point(g.clone()).into()).map(Arguments::Exact);
    }
    Ok(Arguments::Positive(cost))
}

/// `E[c] = exp(m + s²/2)` enclosed at `p` bits, for `ln c ~ N(m, s²)`.
fn lognormal_mean(m: f64, s: f64, p: u32) -> Result<Interval, Error> {
    let half_s2 = Float::with_val(106, exact(s).square_ref()) >> 1u32;
    let m = exact(m);
    let ln_c = Interval {
        lo: down(p, &m + &half_s2),
        hi: up(p, &m + &half_s2),
    };
    let c = ln_c.exp(p);
    if c.hi.is_infinite() || c.lo.is_zero() {
        let name = if half_s2 > m.clone().abs() { "s" } else { "m" };
        let value = if name == "s" { s } else { m.to_f64() };
        return Err(Error::InvalidInput {
            name,
            value,
            reason: "makes exp(m + s²/2) exceed MPFR's exponent range",
        });
    }
    Ok(c)
}

/// PBGI with a log-normal cost replaced by its mean `E[c] = exp(m + s²/2)` [PBGI paper, B.4;
/// MATH.md, "Unknown (log-normal) costs"]. The cost is enclosed rigorously (never rounded to
/// f64 first); the root is increasing in the cost, so a bracket valid for the whole cost
/// enclosure is certified.
///
/// # Domain
/// `mu` finite, `sigma ≥ 0` finite, `m` finite, `s ≥ 0` finite, `|m + s²/2|` within MPFR's
/// exponent range (about `3e18`; beyond it [`Error::InvalidInput`] names `m` or `s`).
///
/// # Accuracy
/// Certified enclosure, `value` correctly rounded (an outer Ziv loop raises the precision of the
/// cost enclosure); against mpmath in `tests/mpmath_data.rs`. Method as [`pbgi`]: certified
/// Newton brackets from `pbgi_fast::pbgi_lognormal`'s estimate (valid for the whole cost
/// enclosure), else the bisection.
pub fn pbgi_lognormal(mu: f64, sigma: f64, m: f64, s: f64) -> Result<Certified, Error> {
    pbgi_lognormal_with(mu, sigma, m, s, &Accuracy::default())
}

/// [`pbgi_lognormal`] with an explicit precision policy.
pub fn pbgi_lognormal_with(
    mu: f64,
    sigma: f64,
    m: f64,
    s: f64,
    acc: &Accuracy,
) -> Result<Certified, Error> {
    let mu = finite("mu", mu)?;
    let sigma = non_negative("sigma", sigma)?;
    let m = finite("m", m)?;
    let s = non_negative("s", s)?;
    widen_exponent_range();
    let mu_exact = exact(mu);
    // Outer Ziv loop over the precision of the cost enclosure.
    let mut p = acc.start_bits.max(32).min(acc.max_bits.max(32));
    loop {
        let cost = lognormal_mean(m, s, p + 16)?;
        let huge = Float::with_val(53, 1) << 1130u32;
        let attempt = if cost.lo > huge {
            // c > 2^1130: μ + c - σ/√(2π) < g < μ + c with |μ|, σ < 2^1024 give
            // g ∈ [c - 2^1025, c + 2^1024], of relative width < 2^-100 + the cost's: +inf.
            let (below, above) = (
                Float::with_val(53, 1) << 1025u32,
                Float::with_val(53, 1) << 1024u32,
            );
            let iv = Interval {
                lo: down(p, &cost.lo - &below),
                hi: up(p, &cost.hi + &above),
            };
            finish(&iv, acc).ok_or(Error::PrecisionExhausted {
                function: "pbgi_lognormal",
                max_bits: p,
            })
        } else if sigma == 0.0 {
            let iv = Interval {
                lo: down(p, &mu_exact + &cost.lo),
                hi: up(p, &mu_exact + &cost.hi),
            };
            finish(&iv, acc).ok_or(Error::PrecisionExhausted {
                function: "pbgi_lognormal",
                max_bits: p,
            })
        } else {
            let mut cmp = Comparer {
                mu: exact(mu),
                sigma: exact(sigma),
                cost: &cost,
                cap: p,
                p: acc.start_bits.max(32).min(p),
                function: "pbgi_lognormal",
            };
            let estimate = pbgi_fast::pbgi_lognormal(mu, sigma, m, s);
            match solve_near_estimate(&mut cmp, estimate, acc) {
                Some(certified) => Ok(certified),
                None => solve("pbgi_lognormal", exact(mu), exact(sigma), &cost, p, acc),
            }
        };
        match attempt {
            Ok(c) => return Ok(c),
            Err(Error::PrecisionExhausted { .. }) if p < acc.max_bits => {
                p = p.saturating_mul(2).min(acc.max_bits)
            }
            Err(Error::PrecisionExhausted { .. }) => {
                return Err(Error::PrecisionExhausted {
                    function: "pbgi_lognormal",
                    max_bits: acc.max_bits,
                })
            }
            Err(e) => return Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tests' comparer for `(μ, σ, c)`: 128 bits to start, capped at 8192.
    fn comparer(mu: f64, sigma: f64, cost: &Interval) -> Comparer<'_> {
        Comparer {
            mu: exact(mu),
            sigma: exact(sigma),
            cost,
            cap: 8192,
            p: 128,
            function: "pbgi",
        }
    }

    /// Every certified Newton bracket contains the root (enclosed independently by the
    /// bisection to 320 bits), and every tangent-only bound lies above it, from points at
    /// relative distances `2^-2` to `2^-110` on both sides, at three precisions; points at
    /// `2^-30` and `2^-52` (an estimate's usual distance) always give a bracket.
    #[test]
    fn newton_brackets_contain_the_root() {
        let tight = Accuracy {
            enclosure_bits: 320,
            ..Accuracy::default()
        };
        let mut brackets = (0, 0);
        for (mu, sigma, cost) in [
            (0.0, 1.0, 0.1),
            (0.0, 1.0, 1e-4),
            (0.3, 1.2, 0.01),
            (1e6, 1.0, 1e-3),
            (-8.0, 1.0, 8.0),
            (0.0, 1.0, 10.0),
            (0.0, 1.0, 40.0),
            (0.0, 1.0, 1e-300),
            (5.0, 1e-3, 2.0),
            (-1e-290, 1e-300, 3e-290),
        ] {
            let root = pbgi_bisection_with(mu, sigma, cost, &tight).unwrap();
            let cost_iv = Interval::point(exact(cost));
            let cmp = comparer(mu, sigma, &cost_iv);
            let mid = Float::with_val(400, &root.lower + &root.upper) >> 1u32;
            for j in [2u32, 10, 30, 52, 80, 110] {
                for k in [-3i32, -1, 1, 3] {
                    let offset = Float::with_val(64, mid.abs_ref()) * k >> j;
                    let m = Float::with_val(400, &mid + &offset);
                    for p in [64, 104, 200] {
                        let what = format!("pbgi({mu:e}, {sigma:e}, {cost:e}), m = root + {k}·2^-{j}·|root|, p = {p}");
                        match newton_step(&cmp, &m, p, 100) {
                            NewtonStep::Bracket { iv, .. } => {
                                assert!(
                                    iv.lo <= root.lower && root.upper <= iv.hi,
                                    "{what}: [{}, {}] misses the root [{}, {}]",
                                    iv.lo,
                                    iv.hi,
                                    root.lower,
                                    root.upper
                                );
                                if j == 30 || j == 52 {
                                    brackets.0 += 1;
                                }
                            }
                            NewtonStep::Above(hi) => {
                                assert!(root.upper <= hi, "{what}: {hi} is not above the root")
                            }
                            NewtonStep::Undecided => {}
                        }
                        if j == 30 || j == 52 {
                            brackets.1 += 1;
                        }
                    }
                }
            }
        }
        println!(
            "brackets from points at 2^-30 and 2^-52: {} of {}",
            brackets.0, brackets.1
        );
        assert_eq!(brackets.0, brackets.1);
    }

    /// The asymptotic start holds the root at once (one comparison at each end, no widening)
    /// for `c/σ` outside about `[0.053, 0.146]`: `[μ + c - 0.41σ, μ + c]` for `c/σ ≥ 0.4`
    /// (`u* ∈ (c/σ - h(0), c/σ)`), else `μ + σ·(u0 ± 1/2)` from the linear form near 0 or the
    /// small-cost asymptotics. In that band the six iterations of the large-`|u|` form
    /// overshoot (`u0 ≈ -3.35` at `c/σ = 0.1464`, where the root is `-0.69`) and the upper end
    /// widens; the lower end never does (`u0 - 1/2` is below the root on a grid of `ln(c/σ)`
    /// from `ln 0.4` to `-750`, roots from mpmath). Only the cost depends on this: every bracket
    /// end is a certified comparison.
    #[test]
    fn the_asymptotic_bracket_holds_the_root_at_once() {
        for (mu, sigma, cost) in [
            (0.0, 1.0, 1e300),
            (0.0, 1.0, 10.0),
            (0.0, 1.0, 0.4),
            (0.0, 1.0, 0.39),
            (0.0, 1.0, 0.2),
            (0.0, 1.0, 0.15),
            (0.0, 1.0, 0.04),
            (0.0, 1.0, 0.01),
            (0.0, 1.0, 1e-3),
            (0.0, 1.0, 1e-10),
            (0.0, 1.0, 1e-100),
            (0.0, 1.0, 1e-300),
            (1e6, 2.0, 0.02),
            (-3.0, 1e-200, 1e-205),
            (5.0, 1e-3, 2.0),
        ] {
            let cost_iv = Interval::point(exact(cost));
            let mut cmp = comparer(mu, sigma, &cost_iv);
            let ((a, b), work) = crate::work::measure(|| bracket(&mut cmp).unwrap());
            let width = Float::with_val(64, &b - &a) / sigma;
            assert_eq!(
                work.comparisons, 2,
                "pbgi({mu:e}, {sigma:e}, {cost:e}): the start was widened"
            );
            assert!(
                width <= 1.000_000_001,
                "pbgi({mu:e}, {sigma:e}, {cost:e}): bracket of {width} σ"
            );
        }
    }

    /// `zero_cell` answers only for a root within `±2^-1100`: for `(μ, σ) = (0, 1)`, `c = 0.1`
    /// and `c = 1` lie on either side of `h(0) = 0.3989…`, and `h` moves by less than `2^-1100`
    /// over `[-2^-1100, 2^-1100]` (`h' = Φ ≤ 1`), so the roots `u*` have `|u*| > 2^-1100` (they
    /// are about `-0.90` and `+0.90`, mpmath). With `μ = -40`, `σ = 1`, `c = 40` the root is
    /// `-h(-u*)` with `u* ≈ 40`, about `-e^-800/40²`: inside, negative, `-0`.
    #[test]
    fn zero_cell_answers_only_for_a_root_within_it() {
        for cost in [0.1, 1.0] {
            let cost_iv = Interval::point(exact(cost));
            let mut cmp = comparer(0.0, 1.0, &cost_iv);
            assert!(zero_cell(&mut cmp).is_none(), "c = {cost}");
        }
        let cost_iv = Interval::point(exact(40.0));
        let mut cmp = comparer(-40.0, 1.0, &cost_iv);
        let zero = zero_cell(&mut cmp).unwrap();
        assert_eq!(zero.value.to_bits(), (-0.0f64).to_bits());
        assert!(zero.lower < 0 && zero.upper <= 0);
    }

    /// The cell of `±0` ends the search only when both ends of the bracket are within
    /// `2^-1100` of 0 (a bracket reaching beyond may hold a root of either sign, or a
    /// subnormal one).
    #[test]
    fn below_every_double_needs_both_ends_within_2_to_minus_1100() {
        let at = |e: i32| Float::with_val(53, 1) << e;
        let both = Interval {
            lo: -at(-1101),
            hi: at(-1101),
        };
        assert_eq!(below_every_double(&both).unwrap().value, 0.0);
        for iv in [
            Interval {
                lo: -at(-1101),
                hi: at(-1074),
            },
            Interval {
                lo: -at(-1074),
                hi: at(-1101),
            },
        ] {
            assert!(below_every_double(&iv).is_none(), "[{}, {}]", iv.lo, iv.hi);
        }
    }
}

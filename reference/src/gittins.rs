//! The Pandora's Box Gittins index: the `g` with `EI(μ, σ; g) = c` (MATH.md, "Pandora's Box
//! Gittins index"), found by bisection with certified comparisons.
//!
//! `EI(μ, σ; ·)` is strictly increasing, so one certified comparison `EI(μ, σ; g) ≷ c` at an
//! exact point `g` tells on which side of `g` the root lies. A bracket `[a, b]` with certified
//! `EI(a) < c < EI(b)` therefore contains the root, whatever happens between `a` and `b`.

use crate::certify::{exact, finish, ziv};
use crate::ei::tail_enclosure;
use crate::input::{finite, non_negative, positive};
use crate::interval::{down, exact_midpoint, exact_sum, up, widen_exponent_range, Interval};
use crate::{Accuracy, Certified, Error};
use rug::float::Round;
use rug::Float;

/// Decides `EI(μ, σ; g) > c` for every `c` in the cost enclosure (`Some(true)`), or
/// `EI(μ, σ; g) < c` for every such `c` (`Some(false)`), at working precision `p`.
fn exceeds_at(mu: &Float, sigma: &Float, g: &Float, cost: &Interval, p: u32) -> Option<bool> {
    let minus_mu = Float::with_val(mu.prec(), -mu);
    let d = exact_sum(&[g, &minus_mu]);
    // EI = max(d, 0) + σ·h(-|d|/σ), the second term strictly positive.
    let base = if d.is_sign_positive() {
        d.clone()
    } else {
        Float::with_val(53, 0)
    };
    let (minus_c_hi, minus_c_lo) = (
        Float::with_val(cost.hi.prec(), -&cost.hi),
        Float::with_val(cost.lo.prec(), -&cost.lo),
    );
    let r_lo = exact_sum(&[&base, &minus_c_hi]);
    if !r_lo.is_sign_negative() || r_lo.is_zero() {
        return Some(true);
    }
    let r_hi = exact_sum(&[&base, &minus_c_lo]);
    let tail = tail_enclosure(&d, sigma, p);
    // EI - c ∈ [r_lo + tail.lo, r_hi + tail.hi]; MPFR compares exactly.
    if tail.lo > Float::with_val(r_lo.prec(), -&r_lo) {
        Some(true)
    } else if tail.hi < Float::with_val(r_hi.prec(), -&r_hi) {
        Some(false)
    } else {
        None
    }
}

/// Certified comparisons with a sticky working precision.
struct Comparer<'a> {
    mu: Float,
    sigma: Float,
    cost: &'a Interval,
    cap: u32,
    p: u32,
    function: &'static str,
}

impl Comparer<'_> {
    /// `EI(μ, σ; g) > c`, raising the precision until decided (up to the cap).
    fn exceeds(&mut self, g: &Float) -> Result<bool, Error> {
        loop {
            if let Some(answer) = exceeds_at(&self.mu, &self.sigma, g, self.cost, self.p) {
                return Ok(answer);
            }
            if self.p >= self.cap {
                return Err(Error::PrecisionExhausted {
                    function: self.function,
                    max_bits: self.cap,
                });
            }
            self.p = self.p.saturating_mul(2).min(self.cap);
        }
    }
}

/// Certified `EI(μ, σ; y) > cost` for `σ > 0` (the bisection's test), raising the precision up
/// to `acc.max_bits`.
pub(crate) fn ei_exceeds_cost(
    mu: f64,
    sigma: f64,
    y: f64,
    cost: f64,
    acc: &Accuracy,
) -> Result<bool, Error> {
    widen_exponent_range();
    let cost = Interval::point(exact(cost));
    let mut cmp = Comparer {
        mu: exact(mu),
        sigma: exact(sigma),
        cost: &cost,
        cap: acc.max_bits,
        p: acc.start_bits.max(32).min(acc.max_bits),
        function: "stop_decision",
    };
    cmp.exceeds(&exact(y))
}

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

/// Solves `EI(μ, σ; g) = c` for `σ > 0` and `c` in the exact-endpoint enclosure `cost`.
fn solve(
    function: &'static str,
    mu: f64,
    sigma: f64,
    cost: &Interval,
    cap: u32,
    acc: &Accuracy,
) -> Result<Certified, Error> {
    let mut cmp = Comparer {
        mu: exact(mu),
        sigma: exact(sigma),
        cost,
        cap,
        p: acc.start_bits.max(32).min(cap),
        function,
    };
    let (a, b) = bracket(&mut cmp)?;

    // Results beyond ±(MAX + ulp/2) round to ±inf.
    let (inf_lo, inf_hi) = (beyond_max(true), beyond_max(false));
    let (value, mut lo, mut hi) = if b > f64::MAX && !cmp.exceeds(&inf_hi)? {
        (f64::INFINITY, inf_hi, b)
    } else if a < -f64::MAX && cmp.exceeds(&inf_lo)? {
        (f64::NEG_INFINITY, a, inf_lo)
    } else {
        // Bisection over the ordered f64 bit patterns until two adjacent doubles bracket the root.
        let mut ka = key(a.to_f64_round(Round::Down));
        let mut kb = key(b.to_f64_round(Round::Up));
        while kb - ka > 1 {
            let km = ka + (kb - ka) / 2;
            if cmp.exceeds(&key_point(km))? {
                kb = km;
            } else {
                ka = km;
            }
        }
        // The rounding is decided by one comparison at their exact midpoint.
        let (pa, pb) = (key_point(ka), key_point(kb));
        let mid = exact_midpoint(&pa, &pb);
        if cmp.exceeds(&mid)? {
            (unkey(ka), pa, mid)
        } else {
            (unkey(kb), mid, pb)
        }
    };

    // Continue bisecting in MPFR precision until the enclosure meets the width target.
    let mut steps = 0u32;
    loop {
        let iv = Interval {
            lo: lo.clone(),
            hi: hi.clone(),
        };
        if let Some(mut certified) = finish(&iv, acc) {
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

/// The Pandora's Box Gittins index `g`: `EI(μ, σ; g) = cost` (MATH.md, "Pandora's Box Gittins
/// index"; the PBGI paper's index in minimisation form).
///
/// # Domain
/// `mu` finite, `sigma ≥ 0` finite, `cost > 0` finite. `sigma = 0` gives `mu + cost` correctly
/// rounded. Results beyond f64's range are ±inf (correctly rounded).
///
/// # Method and accuracy
/// Bisection with certified comparisons `EI(μ, σ; g) ≷ cost` (see the module docs and
/// `proofs-notes/reference-certification.md`): first over f64 bit patterns until two adjacent
/// doubles bracket the root, then one comparison at their exact midpoint decides the correctly
/// rounded `value`, then bisection in MPFR precision until `[lower, upper]` has relative width
/// `2^-enclosure_bits`. Checked against mpmath in `tests/mpmath_data.rs`.
pub fn pbgi(mu: f64, sigma: f64, cost: f64) -> Result<Certified, Error> {
    pbgi_with(mu, sigma, cost, &Accuracy::default())
}

/// [`pbgi`] with an explicit precision policy.
pub fn pbgi_with(mu: f64, sigma: f64, cost: f64, acc: &Accuracy) -> Result<Certified, Error> {
    let mu = finite("mu", mu)?;
    let sigma = non_negative("sigma", sigma)?;
    let cost = positive("cost", cost)?;
    widen_exponent_range();
    let cost = Interval::point(exact(cost));
    if sigma == 0.0 {
        let g = exact_sum(&[&exact(mu), &cost.lo]);
        return ziv("pbgi", acc, |_| Interval::point(g.clone()));
    }
    solve("pbgi", mu, sigma, &cost, acc.max_bits, acc)
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
/// exponent range (about `3e18`).
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
        let attempt = if sigma == 0.0 {
            let iv = Interval {
                lo: down(p, &mu_exact + &cost.lo),
                hi: up(p, &mu_exact + &cost.hi),
            };
            finish(&iv, acc).ok_or(Error::PrecisionExhausted {
                function: "pbgi_lognormal",
                max_bits: p,
            })
        } else {
            solve("pbgi_lognormal", mu, sigma, &cost, p, acc)
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

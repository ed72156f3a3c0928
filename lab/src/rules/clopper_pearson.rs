//! Clopper–Pearson ("exact") confidence intervals for a binomial proportion, and the level test
//! built on them (Wilson 2024, eq. 6 and eq. 7): PRB's `wilson` protocol.
use statrs::function::beta::checked_beta_reg;

/// Both tails of `Beta(a, b)` at `x`: `(I_x(a, b), 1 − I_x(a, b))`, from `statrs`'s
/// regularised incomplete beta (continued fraction, Numerical Recipes §6.4).
///
/// # Domain
/// `a > 0`, `b > 0` finite, `0 ≤ x ≤ 1`; anything else is an error naming the bad argument.
/// `x = 0` gives `(0, 1)` and `x = 1` gives `(1, 0)` exactly.
///
/// # Accuracy
/// The smaller tail is computed directly (for `x ≥ (a+1)/(a+b+2)` as `I_{1−x}(b, a)`, where
/// `1 − x` is exact for `x ≥ 1/2`), so it is accurate relative to itself; the other is `1 −`
/// it, accurate in absolute terms. The error is dominated by the rounding of the exponent of
/// the front factor `x^a (1−x)^b / B(a, b)`, growing like `ε·E` with
/// `E = |a ln x| + |b ln(1−x)| + lnΓ(a + b)`: checked bound on the small tail, relative error
/// `≤ 1e-14·(100 + E)` (statrs's `ln_gamma` is accurate to ~1e-15 relative, so ~2e-13 absolute
/// at `lnΓ(65)`: ten times `libm::lgamma`'s error), against exact rational binomial sums for integer shapes in
/// `tests/experiment_clopper_pearson.rs` (it prints the worst error as a share of the bound).
pub fn beta_tails(a: f64, b: f64, x: f64) -> Result<(f64, f64), String> {
    if !(a > 0.0 && a.is_finite()) {
        return Err(format!(
            "incomplete beta: shape a = {a} must be positive and finite"
        ));
    }
    if !(b > 0.0 && b.is_finite()) {
        return Err(format!(
            "incomplete beta: shape b = {b} must be positive and finite"
        ));
    }
    if !(0.0..=1.0).contains(&x) {
        return Err(format!("incomplete beta: x = {x} must lie in [0, 1]"));
    }
    if x == 0.0 {
        return Ok((0.0, 1.0));
    }
    if x == 1.0 {
        return Ok((1.0, 0.0));
    }
    let fail = |e: statrs::StatsError| format!("incomplete beta at a = {a}, b = {b}, x = {x}: {e}");
    if x < (a + 1.0) / (a + b + 2.0) {
        let lower = checked_beta_reg(a, b, x).map_err(fail)?;
        Ok((lower, 1.0 - lower))
    } else {
        let upper = checked_beta_reg(b, a, 1.0 - x).map_err(fail)?;
        Ok((1.0 - upper, upper))
    }
}

/// A two-sided confidence interval `[lower, upper] ⊂ [0, 1]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    pub lower: f64,
    pub upper: f64,
}

/// Where a level lies relative to a Clopper–Pearson interval.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LevelSide {
    /// `level < lower`: the proportion exceeds the level (with the interval's confidence).
    Below,
    /// `lower ≤ level ≤ upper`: undecided, more draws needed.
    Inside,
    /// `level > upper`: the proportion is below the level.
    Above,
}

/// The two-sided `1 − risk` Clopper–Pearson interval for `successes` out of `draws`:
/// `lower = B(risk/2; k, n − k + 1)`, `upper = B(1 − risk/2; k + 1, n − k)` where `B(q; a, b)` is
/// the `q`-quantile of `Beta(a, b)` (Wilson 2024, eq. 6; Clopper & Pearson 1934), with
/// `lower = 0` for `k = 0` and `upper = 1` for `k = n`.
///
/// # Domain
/// `draws ≥ 1`, `successes ≤ draws`, `0 < risk < 1`; otherwise an error naming the argument.
///
/// # Accuracy
/// Each bound is the root of `I_p(a, b) = risk/2` (lower) or `I_{1−p}(b, a) = risk/2` (upper),
/// solved by bisection to a relative width of `4ε`, so the bounds carry the incomplete beta's
/// error (see [`beta_tails`]) amplified by the root's conditioning; agreement with a 256-bit MPFR
/// bisection is checked to `1e-10` relative.
/// Checked against R's `binom.test` and closed forms in `tests/experiment_clopper_pearson.rs`.
pub fn clopper_pearson(successes: u64, draws: u64, risk: f64) -> Result<Interval, String> {
    validate(successes, draws, risk)?;
    let (k, n) = (successes as f64, draws as f64);
    let half = 0.5 * risk;
    let lower = if successes == 0 {
        0.0
    } else {
        // Lower tail of Beta(k, n − k + 1) equals risk/2.
        solve_increasing(|p| Ok(beta_tails(k, n - k + 1.0, p)?.0), half)?
    };
    let upper = if successes == draws {
        1.0
    } else {
        // Upper tail of Beta(k + 1, n − k) at p equals risk/2; with q = 1 − p this is the lower
        // tail of Beta(n − k, k + 1) at q, which keeps the small tail accurate.
        1.0 - solve_increasing(|q| Ok(beta_tails(n - k, k + 1.0, q)?.0), half)?
    };
    Ok(Interval { lower, upper })
}

/// Where `level` lies relative to [`clopper_pearson`]`(successes, draws, risk)`, decided without
/// computing the interval: `level < lower ⇔ I_level(k, n−k+1) < risk/2` and
/// `level > upper ⇔ 1 − I_level(k+1, n−k) < risk/2`, because Beta distribution functions are
/// increasing. Both comparisons read the small tail directly, so decisions are exact up to the
/// incomplete beta's relative error. This is the test of Wilson 2024, eq. 7 / Algorithm 2 line 10.
///
/// # Domain
/// As [`clopper_pearson`], plus `0 ≤ level ≤ 1`.
pub fn level_side(successes: u64, draws: u64, risk: f64, level: f64) -> Result<LevelSide, String> {
    validate(successes, draws, risk)?;
    if !(0.0..=1.0).contains(&level) {
        return Err(format!(
            "Clopper–Pearson level test: level = {level} must lie in [0, 1]"
        ));
    }
    let (k, n) = (successes as f64, draws as f64);
    let half = 0.5 * risk;
    if successes > 0 && beta_tails(k, n - k + 1.0, level)?.0 < half {
        return Ok(LevelSide::Below);
    }
    if successes < draws && beta_tails(k + 1.0, n - k, level)?.1 < half {
        return Ok(LevelSide::Above);
    }
    Ok(LevelSide::Inside)
}

fn validate(successes: u64, draws: u64, risk: f64) -> Result<(), String> {
    if draws == 0 {
        return Err("Clopper–Pearson: the number of draws must be at least 1".to_string());
    }
    if successes > draws {
        return Err(format!(
            "Clopper–Pearson: successes = {successes} exceeds draws = {draws}"
        ));
    }
    if !(risk > 0.0 && risk < 1.0) {
        return Err(format!("Clopper–Pearson: risk = {risk} must lie in (0, 1)"));
    }
    Ok(())
}

/// The root in `[0, 1]` of `f(p) = target` for an increasing `f` with `f(0) ≤ target ≤ f(1)`,
/// by bisection until the bracket is `4ε` wide relative to its upper end (or cannot shrink).
fn solve_increasing(f: impl Fn(f64) -> Result<f64, String>, target: f64) -> Result<f64, String> {
    let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
    while hi - lo > 4.0 * f64::EPSILON * hi {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid)? < target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Ok(0.5 * (lo + hi))
}

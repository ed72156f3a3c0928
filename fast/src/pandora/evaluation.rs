//! Expectations of Weitzman's index policy in f64: the expected cost by MATH.md's product
//! formula, and the optimal objective by the Kleinberg–Waggoner–Weyl form.
use super::instance::{Distribution, Instance};
use super::policy::{IndexPolicy, Tie, TieResolver};

/// Expectations of the index policy.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Evaluation {
    /// `E[cost]`.
    pub expected_cost: f64,
    /// `E[best] + E[cost]` (the same for every tie rule: all are optimal).
    pub objective: f64,
    /// `E[best] = objective - expected_cost`.
    pub expected_best: f64,
}

/// Indices (input order) and the opening order (increasing index, near ties treated as ties
/// and opened in input order; see [`IndexPolicy`]).
pub fn policy_order(instance: &Instance) -> (Vec<f64>, Vec<usize>) {
    let policy = IndexPolicy::new(instance);
    (policy.indices().to_vec(), policy.order().to_vec())
}

fn pure_cost(policy: &IndexPolicy<'_>, strict: bool) -> f64 {
    let instance = policy.instance();
    let order = policy.order();
    let mut total = 0.0;
    for (pos, &k) in order.iter().enumerate() {
        if !policy.outside_allows(k, strict) {
            continue;
        }
        let prob: f64 = order[..pos]
            .iter()
            .map(|&j| policy.survival_at_index(j, k, strict))
            .product();
        total += instance.boxes()[k].cost * prob;
    }
    total
}

/// `E[cost] = Σ_k c_k·1{y0 > g_k}·Π_{j<k} P(X_j > g_k)` (`≥` for stop-late; a mixture is the
/// affine combination) in f64 (MATH.md, "Pandora's Box"), for `policy`'s order and
/// comparisons (near ties decided by its resolver).
/// # Accuracy
/// Sums and products of non-negative terms: relative error `≲ 2n·ε` plus that of the
/// survival functions. Measured against the exact rationals in
/// `conformance/tests/pandora_fast_vs_reference.rs`.
pub fn expected_cost_of(policy: &IndexPolicy<'_>, tie: Tie) -> f64 {
    match tie {
        Tie::Early => pure_cost(policy, true),
        Tie::Late => pure_cost(policy, false),
        Tie::Mixture(p) => p * pure_cost(policy, true) + (1.0 - p) * pure_cost(policy, false),
    }
}

/// [`expected_cost_of`] the default policy of `instance` (near ties are ties).
pub fn expected_cost(instance: &Instance, tie: Tie) -> f64 {
    expected_cost_of(&IndexPolicy::new(instance), tie)
}

/// Tanh-sinh nodes `(t, weight)` are generated on the fly; levels until two agree to `1e-14`
/// relative (at most 7 halvings).
fn tanh_sinh<F: Fn(f64) -> f64>(f: F, a: f64, b: f64) -> f64 {
    use std::f64::consts::FRAC_PI_2;
    // Halves before the sum and difference: `a + b` or `b - a` may overflow near ±MAX.
    let m = 0.5 * a + 0.5 * b;
    let r = 0.5 * b - 0.5 * a;
    let node = |t: f64| -> Option<f64> {
        let u = FRAC_PI_2 * t.sinh();
        let w = FRAC_PI_2 * t.cosh() / (u.cosh() * u.cosh());
        if w < 1e-300 || !w.is_finite() {
            return None;
        }
        let x = r * u.tanh();
        Some(w * (f(m + x) + f(m - x)))
    };
    let mut sum = FRAC_PI_2 * f(m);
    let mut k = 1.0;
    while let Some(s) = node(k) {
        sum += s;
        k += 1.0;
    }
    let mut h = 1.0;
    let mut previous = sum * h * r;
    for _ in 0..7 {
        h *= 0.5;
        let mut k = 1.0;
        while let Some(s) = node(k * h) {
            sum += s;
            k += 2.0;
        }
        let current = sum * h * r;
        let done = (current - previous).abs() <= 1e-14 * current.abs().max(1e-300);
        previous = current;
        if done {
            break;
        }
    }
    previous
}

/// Multiples of `σ` from `μ` at which a normal box splits the range of integration (the
/// reference's `NORMAL_SPLITS`).
const NORMAL_SPLITS: [f64; 11] = [-8.0, -4.0, -2.0, -1.0, 0.0, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0];
/// Standard deviations above the mean where the range of integration may end.
const TAIL_SDS: f64 = 40.0;

/// `E[min(y0, min_i max(X_i, g_i))]`, the optimal objective (KWW), in f64:
/// `a + ∫_a^T P(min(y0, min_i κ_i) > t) dt` split at every index, atom and `y0`; pieces are
/// integrated exactly (piecewise constant) for discrete instances and by tanh-sinh otherwise.
/// The range ends at `min(y0, T)` with `T = min_j max(μ_j + 40σ_j, g_j)` over the normal boxes:
/// beyond `T` the integrand is at most `P(X_j > t)`, whose integral is `σ_j·h(40) < σ_j·2^-1150`
/// (the reference's choice); a range up to a far `y0` would leave tanh-sinh a spike of width
/// `σ` in an interval of width `y0`, which it misses. Each normal box also splits the range at
/// `μ + kσ` for `k` in `NORMAL_SPLITS`, where its survival function bends.
/// # Accuracy
/// Measured against the reference quadrature and exact rationals in
/// `conformance/tests/pandora_fast_vs_reference.rs` (≈ 1e-14 relative there).
pub fn kww_objective(instance: &Instance, indices: &[f64]) -> f64 {
    let boxes = instance.boxes();
    let survival = |t: f64| -> f64 {
        boxes
            .iter()
            .zip(indices)
            .map(|(b, &g)| if t < g { 1.0 } else { b.survival(t, true) })
            .product()
    };
    let mut breaks: Vec<f64> = indices.to_vec();
    let mut tail_end: Option<f64> = None;
    for (b, &g) in boxes.iter().zip(indices) {
        match &b.distribution {
            Distribution::Discrete { values, .. } => breaks.extend_from_slice(values),
            Distribution::Normal { mean, sd } => {
                breaks.extend(NORMAL_SPLITS.iter().map(|k| mean + k * sd));
                let reach = (mean + TAIL_SDS * sd).max(g).min(f64::MAX);
                tail_end = Some(tail_end.map_or(reach, |t: f64| t.min(reach)));
            }
        }
    }
    let start = indices
        .iter()
        .copied()
        .chain(instance.outside())
        .fold(f64::INFINITY, f64::min);
    let end = match (instance.outside(), tail_end) {
        (Some(y0), Some(t)) => y0.min(t),
        (Some(y0), None) => y0,
        (None, t) => breaks
            .iter()
            .copied()
            .chain(t)
            .fold(f64::NEG_INFINITY, f64::max),
    };
    breaks.push(start);
    breaks.push(end);
    breaks.retain(|&x| x.is_finite() && x >= start && x <= end);
    breaks.sort_by(f64::total_cmp);
    breaks.dedup();
    let all_discrete = tail_end.is_none();
    let mut value = start;
    for w in breaks.windows(2) {
        value += if all_discrete {
            (w[1] - w[0]) * survival(0.5 * (w[0] + w[1]))
        } else {
            tanh_sinh(survival, w[0], w[1])
        };
    }
    value
}

impl Evaluation {
    /// Expected cost, objective and best value of the index policy under `tie` (near ties are
    /// ties).
    pub fn of(instance: &Instance, tie: Tie) -> Evaluation {
        Self::of_policy(&IndexPolicy::new(instance), tie)
    }

    /// The same, with near ties decided by `resolver`.
    pub fn with_resolver(instance: &Instance, tie: Tie, resolver: &dyn TieResolver) -> Evaluation {
        Self::of_policy(&IndexPolicy::with_resolver(instance, resolver), tie)
    }

    /// The same, for a prepared policy.
    pub fn of_policy(policy: &IndexPolicy<'_>, tie: Tie) -> Evaluation {
        let expected_cost = expected_cost_of(policy, tie);
        let objective = kww_objective(policy.instance(), policy.indices());
        Evaluation {
            expected_cost,
            objective,
            expected_best: objective - expected_cost,
        }
    }
}

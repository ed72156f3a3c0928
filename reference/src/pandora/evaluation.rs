//! Exact expected cost and value of the index policy on discrete instances, by three
//! independent routes that the tests compare:
//!
//! 1. [`evaluate`]: forward propagation of the exact distribution of the best value in hand
//!    through the opening order (follows the policy's definition step by step);
//! 2. [`product_formula_cost`]: MATH.md's product formula
//!    `E[cost] = Σ_k c_k·1{y0 > g_k}·Π_{j<k} P(X_j > g_k)` (with `≥` for stop-late);
//! 3. [`kww_objective`]: the Kleinberg–Waggoner–Weyl form of the optimal value
//!    `E[min(y0, min_i max(X_i, g_i))]`, which equals the policy's `E[best] + E[cost]` exactly
//!    when the policy is optimal (Weitzman).
use super::instance::{Instance, InstanceError};
use super::policy::{not_discrete, IndexPolicy, Tie};
use super::work::{Progress, WorkMeter};
use rug::Rational;
use std::collections::BTreeMap;

/// Exact expectations of one policy run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evaluation {
    /// `E[Σ cost of opened boxes]`.
    pub expected_cost: Rational,
    /// `E[best value in hand when the policy stops]` (the smallest value seen, or `y0`).
    pub expected_best: Rational,
}

impl Evaluation {
    /// The Pandora objective `E[best] + E[cost]` (to be minimised).
    pub fn objective(&self) -> Rational {
        Rational::from(&self.expected_best + &self.expected_cost)
    }

    /// `p·self + (1 - p)·other`, the expectation of a once-per-run mixture.
    pub fn mix(&self, p: &Rational, other: &Evaluation) -> Evaluation {
        let q = Rational::from(1 - p);
        Evaluation {
            expected_cost: Rational::from(p * &self.expected_cost)
                + Rational::from(&q * &other.expected_cost),
            expected_best: Rational::from(p * &self.expected_best)
                + Rational::from(&q * &other.expected_best),
        }
    }
}

/// The best value in hand: a number, or nothing yet (no outside option, no box opened).
/// `Finite < Nothing`, so `min` takes any value over nothing.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Hand {
    Finite(Rational),
    Nothing,
}

fn evaluate_pure(
    instance: &Instance,
    policy: &IndexPolicy,
    stop_at_ties: bool,
    meter: &mut WorkMeter<'_>,
) -> Result<Evaluation, InstanceError> {
    let mut running: BTreeMap<Hand, Rational> = BTreeMap::new();
    let start = instance
        .outside()
        .map_or(Hand::Nothing, |y0| Hand::Finite(y0.clone()));
    running.insert(start, Rational::from(1));
    let mut cost = Rational::new();
    let mut best = Rational::new();
    let steps = policy.order().len();
    for (step, &k) in policy.order().iter().enumerate() {
        let b = &instance.boxes()[k];
        let atoms = b.as_discrete().ok_or_else(|| not_discrete(k))?.atoms();
        let g = &policy.indices()[k];
        let mut next: BTreeMap<Hand, Rational> = BTreeMap::new();
        for (hand, mass) in running {
            let in_hand = match &hand {
                Hand::Finite(m) => Some(m),
                Hand::Nothing => None,
            };
            if !IndexPolicy::opens(in_hand, g, stop_at_ties) {
                if let Some(m) = in_hand {
                    best += Rational::from(m * &mass);
                }
                continue;
            }
            cost += Rational::from(b.cost() * &mass);
            for (x, p) in atoms {
                let after = hand.clone().min(Hand::Finite(x.clone()));
                *next.entry(after).or_default() += Rational::from(&mass * p);
            }
        }
        running = next;
        // Charged per step: the masses carried times their bits (the numbers grow with the
        // boxes opened; their size is the cost of each operation).
        let bits: u64 = running
            .values()
            .map(|m| u64::from(m.numer().significant_bits() + m.denom().significant_bits()))
            .sum();
        meter.charge((bits.max(64) * atoms.len() as u64) as f64, step + 1, steps)?;
    }
    for (hand, mass) in running {
        // Every box has been opened, so something is in hand.
        if let Hand::Finite(m) = hand {
            best += m * mass;
        }
    }
    Ok(Evaluation {
        expected_cost: cost,
        expected_best: best,
    })
}

/// Exact `E[cost]` and `E[best]` of `policy` on a discrete instance under `tie`, by forward
/// propagation of the distribution of the best value in hand.
///
/// # Errors
/// A normal box, or an invalid [`Tie::Mixture`] probability.
/// # Accuracy
/// Exact. Cross-checked against [`product_formula_cost`], [`kww_objective`], the DP optimum
/// and the simulator (`reference/tests/pandora_weitzman.rs`,
/// `conformance/tests/pandora_fast_vs_reference.rs`).
pub fn evaluate(
    instance: &Instance,
    policy: &IndexPolicy,
    tie: &Tie,
) -> Result<Evaluation, InstanceError> {
    evaluate_with(instance, policy, tie, f64::INFINITY, &mut |_| {})
}

/// [`evaluate`] within `max_work` work units (module `work`): each box opened is charged the
/// bits of the probability masses carried times its atoms, and `progress` hears of every box.
///
/// # Errors
/// As [`evaluate`]; the work exceeds `max_work` (field `"limit"`).
pub fn evaluate_with(
    instance: &Instance,
    policy: &IndexPolicy,
    tie: &Tie,
    max_work: f64,
    progress: &mut dyn FnMut(Progress),
) -> Result<Evaluation, InstanceError> {
    tie.validate()?;
    let mut meter = WorkMeter::new("policy evaluation", max_work, progress);
    match tie {
        Tie::Early => evaluate_pure(instance, policy, true, &mut meter),
        Tie::Late => evaluate_pure(instance, policy, false, &mut meter),
        Tie::Mixture(p) => {
            let early = evaluate_pure(instance, policy, true, &mut meter)?;
            let late = evaluate_pure(instance, policy, false, &mut meter)?;
            Ok(early.mix(p, &late))
        }
    }
}

/// `E[cost]` by MATH.md's product formula: box `k` (in policy order) is opened iff
/// `y0 > g_k` and `X_j > g_k` for every earlier `j` (stop-early; `≥` for stop-late);
/// a mixture is the affine combination.
///
/// # Errors
/// A normal box, or an invalid [`Tie::Mixture`] probability.
/// # Accuracy
/// Exact.
pub fn product_formula_cost(
    instance: &Instance,
    policy: &IndexPolicy,
    tie: &Tie,
) -> Result<Rational, InstanceError> {
    tie.validate()?;
    let pure = |strict: bool| -> Result<Rational, InstanceError> {
        let mut total = Rational::new();
        for (pos, &k) in policy.order().iter().enumerate() {
            let g = &policy.indices()[k];
            let outside_allows =
                instance
                    .outside()
                    .map_or(true, |y0| if strict { y0 > g } else { y0 >= g });
            if !outside_allows {
                continue;
            }
            let mut prob = Rational::from(1);
            for &j in &policy.order()[..pos] {
                let d = instance.boxes()[j]
                    .as_discrete()
                    .ok_or_else(|| not_discrete(j))?;
                prob *= d.survival(g, strict);
            }
            total += prob * instance.boxes()[k].cost();
        }
        Ok(total)
    };
    match tie {
        Tie::Early => pure(true),
        Tie::Late => pure(false),
        Tie::Mixture(p) => {
            Ok(Rational::from(p * &pure(true)?) + Rational::from(1 - p) * pure(false)?)
        }
    }
}

/// `E[min(y0, min_i max(X_i, g_i))]` for a discrete instance and any indices `g` (input
/// order): with the true reservation values this is the optimal objective (KWW, Theorem 1;
/// PBGI paper §3.2).
///
/// # Errors
/// A normal box.
/// # Accuracy
/// Exact: `E[W] = w_1 + Σ_l (w_{l+1} - w_l)·P(W > w_l)` over the sorted support of
/// `W = min(y0, min_i κ_i)`, with `P(W > t) = 1{y0 > t}·Π_i P(κ_i > t)`.
pub fn kww_objective(instance: &Instance, indices: &[Rational]) -> Result<Rational, InstanceError> {
    kww_objective_with(instance, indices, f64::INFINITY, &mut |_| {})
}

/// [`kww_objective`] within `max_work` work units (module `work`): each point of the support
/// is charged the boxes times the bits of the survival product it formed, and `progress`
/// hears of every point.
///
/// # Errors
/// As [`kww_objective`]; the work exceeds `max_work` (field `"limit"`).
pub fn kww_objective_with(
    instance: &Instance,
    indices: &[Rational],
    max_work: f64,
    progress: &mut dyn FnMut(Progress),
) -> Result<Rational, InstanceError> {
    let mut capped: Vec<Vec<(Rational, Rational)>> = Vec::new();
    for (i, b) in instance.boxes().iter().enumerate() {
        let d = b.as_discrete().ok_or_else(|| not_discrete(i))?;
        let g = &indices[i];
        let mut atoms = vec![(g.clone(), Rational::new())];
        for (x, p) in d.atoms() {
            if x <= g {
                atoms[0].1 += p;
            } else {
                atoms.push((x.clone(), p.clone()));
            }
        }
        capped.push(atoms);
    }
    let mut support: Vec<Rational> = capped
        .iter()
        .flat_map(|a| a.iter().map(|(x, _)| x.clone()))
        .chain(instance.outside().cloned())
        .collect();
    support.sort();
    support.dedup();
    let survival = |t: &Rational| -> Rational {
        if instance.outside().is_some_and(|y0| y0 <= t) {
            return Rational::new();
        }
        capped
            .iter()
            .map(|atoms| -> Rational { atoms.iter().filter(|(x, _)| x > t).map(|(_, p)| p).sum() })
            .product()
    };
    let mut meter = WorkMeter::new("KWW objective", max_work, progress);
    let boxes = capped.len() as f64;
    let mut expectation = support[0].clone();
    for (k, w) in support.windows(2).enumerate() {
        let s = survival(&w[0]);
        let bits = s.numer().significant_bits() + s.denom().significant_bits();
        expectation += Rational::from(&w[1] - &w[0]) * s;
        meter.charge(boxes * f64::from(bits.max(64)), k + 1, support.len() - 1)?;
    }
    Ok(expectation)
}

/// `E[min(y0, min_i X_i)]` (every box opened; `y0` omitted when absent), exactly.
///
/// # Errors
/// A normal box.
pub fn expected_minimum(instance: &Instance) -> Result<Rational, InstanceError> {
    let mut below = Vec::with_capacity(instance.boxes().len());
    for (i, b) in instance.boxes().iter().enumerate() {
        let d = b.as_discrete().ok_or_else(|| not_discrete(i))?;
        below.push(Rational::from(&d.atoms()[0].0 - 1));
    }
    // With every index below every atom, max(X_i, g_i) = X_i.
    kww_objective(instance, &below)
}

//! Theorem 2 (PBGI paper §3.2 and B.5) for discrete instances, exactly: for an expected
//! budget `B` with `min c < B < Σ c`, a multiplier `λ* > 0` and a randomised tie rule with
//! which the index policy on costs `λ*·c` spends exactly `B` in expectation — hence is optimal
//! for "minimise `E[best]` subject to `E[cost] ≤ B`" (see `proofs-notes/theorem2.md`).
//!
//! Why the answer is a breakpoint. Each index `g_i(λ)` (root of `E[max(g - X_i, 0)] = λ c_i`) is
//! continuous, strictly increasing and piecewise affine in `λ`, with kinks where `g_i` passes
//! one of its own atoms. The policy's behaviour — the opening order and every comparison
//! "best in hand vs. next index" — changes only at *critical* `λ` where some `g_i(λ)` equals an
//! atom of any box or `y0` (`λ = E[max(v - X_i, 0)]/c_i`, rational), or two indices cross
//! (rational: both are affine between consecutive critical points of the first kind). Between
//! consecutive critical points the expected cost is constant. At a critical point `λ_k` the
//! policies that stop at value ties and order tied boxes as just right of `λ_k` (cost
//! `C⁺`) and that continue at ties and order them as just left (cost `C⁻ ≥ C⁺`) are both index
//! policies for costs `λ_k c`, hence both optimal for that cost-per-sample problem; their
//! mixture with probability `α = (C⁻ - B)/(C⁻ - C⁺)` of the first spends exactly `B`.
use super::evaluation::{evaluate, Evaluation};
use super::instance::{Instance, InstanceError};
use super::policy::{not_discrete, IndexPolicy, Tie};
use super::reservation::discrete_reservation_value;
use super::work::{number_bits, Progress, WorkMeter};
use rug::Rational;

/// The index policy at one `λ`, with the order used among tied boxes and the tie rule.
#[derive(Clone, Debug)]
pub struct ScaledPolicy {
    /// The multiplier `λ`.
    pub lambda: Rational,
    /// The policy for costs `λ·c` (indices and opening order).
    pub policy: IndexPolicy,
    /// Stop at value ties (`true`) or continue (`false`).
    pub stop_at_ties: bool,
    /// Exact expected cost (in the original units `c`) and best value.
    pub evaluation: Evaluation,
}

/// Theorem 2's answer for one budget.
#[derive(Clone, Debug)]
pub enum BudgetSolution {
    /// The expected cost equals `B` on a whole open interval `(lower, upper)` of `λ`
    /// (`upper = None`: unbounded); `policy` is the index policy at a point of it, any tie rule.
    Interval {
        lower: Rational,
        upper: Option<Rational>,
        policy: ScaledPolicy,
    },
    /// At the critical `λ*`: run `low_cost` (stop at ties) with probability `alpha`, otherwise
    /// `high_cost` (continue at ties); the mixture spends exactly `B`.
    Breakpoint {
        lambda: Rational,
        alpha: Rational,
        low_cost: ScaledPolicy,
        high_cost: ScaledPolicy,
        /// Expected best value of the mixture (the budget-constrained optimum).
        expected_best: Rational,
    },
    /// The budget does not bind: even as `λ → 0⁺` the index policy (continuing at ties) spends
    /// only `policy.evaluation.expected_cost < B`, and it already attains the smallest possible
    /// `E[best]`, so it is optimal for the budget problem. Theorem 2's conclusion holds: `policy`
    /// is the index policy for costs `policy.lambda · c` with `policy.lambda > 0` (any `λ` below
    /// the first critical point gives the same policy). What fails is the paper's Lemma 9
    /// ("every minimiser `λ*` of the dual is `> 0`"): here the dual's optimum is at `λ = 0`
    /// (in this crate's minimisation form the dual `D(λ) = V*(λc) - λB` is maximised at 0),
    /// because the lemma's premise — at `λ = 0` every optimal policy opens every box — is false;
    /// and no `λ > 0` spends exactly `B`.
    NotBinding { policy: ScaledPolicy },
}

fn budget_error(message: String) -> InstanceError {
    InstanceError {
        box_index: None,
        field: "budget".into(),
        message,
    }
}

/// Indices of all boxes at multiplier `lambda` (`lambda = 0`: the smallest atom, the limit).
fn indices_at(instance: &Instance, lambda: &Rational) -> Vec<Rational> {
    instance
        .boxes()
        .iter()
        .map(|b| {
            let d = b.as_discrete().expect("checked discrete");
            if *lambda == 0 {
                d.atoms()[0].0.clone()
            } else {
                discrete_reservation_value(d, &Rational::from(lambda * b.cost()))
            }
        })
        .collect()
}

/// Every critical `λ > 0` (sorted, distinct): index = atom/`y0`, and index crossings.
///
/// # Errors
/// A normal box.
pub fn critical_lambdas(instance: &Instance) -> Result<Vec<Rational>, InstanceError> {
    let mut progress = |_: Progress| {};
    let mut meter = WorkMeter::new("Theorem 2 budget solve", f64::INFINITY, &mut progress);
    critical_lambdas_metered(instance, &mut meter)
}

/// Rational operations of one policy evaluation with the forward propagation: at most
/// `(distinct hand values + 1)` states times every atom, plus the indices.
fn evaluation_operations(instance: &Instance) -> f64 {
    let atoms: usize = instance
        .boxes()
        .iter()
        .filter_map(|b| b.as_discrete())
        .map(|d| d.atoms().len())
        .sum();
    (atoms as f64 + 2.0) * (atoms as f64 + 2.0)
}

/// [`number_bits`] of the instance with costs `λ·c`.
fn scaled_bits(instance: &Instance, lambda: &Rational) -> f64 {
    let n = instance.boxes().len() as u64;
    (number_bits(instance) + n * u64::from(lambda.denom().significant_bits())) as f64
}

fn critical_lambdas_metered(
    instance: &Instance,
    meter: &mut WorkMeter<'_>,
) -> Result<Vec<Rational>, InstanceError> {
    let mut values: Vec<Rational> = instance.outside().cloned().into_iter().collect();
    for (i, b) in instance.boxes().iter().enumerate() {
        let d = b.as_discrete().ok_or_else(|| not_discrete(i))?;
        values.extend(d.atoms().iter().map(|(x, _)| x.clone()));
    }
    let mut points = Vec::new();
    for b in instance.boxes() {
        let d = b.as_discrete().expect("checked discrete");
        for v in &values {
            let lambda = d.expected_shortfall(v) / b.cost();
            if lambda > 0 {
                points.push(lambda);
            }
        }
    }
    points.sort();
    points.dedup();
    // Between consecutive points every index is affine in λ (and beyond the last one too), so
    // differences of indices are affine there and their roots are found by interpolation.
    let mut crossings = Vec::new();
    let mut left = Rational::new();
    let mut ends: Vec<Option<Rational>> = points.iter().cloned().map(Some).collect();
    ends.push(None);
    let n = instance.boxes().len() as f64;
    let interval_work = (evaluation_operations(instance) + n * n) * number_bits(instance) as f64;
    let intervals = ends.len();
    for (step, right) in ends.into_iter().enumerate() {
        meter.charge(interval_work, step, intervals)?;
        let probe = right.clone().unwrap_or_else(|| Rational::from(&left + 1));
        let g_left = indices_at(instance, &left);
        let g_probe = indices_at(instance, &probe);
        for i in 0..g_left.len() {
            for j in i + 1..g_left.len() {
                let d_left = Rational::from(&g_left[i] - &g_left[j]);
                let d_probe = Rational::from(&g_probe[i] - &g_probe[j]);
                if d_left == 0 || d_left == d_probe {
                    continue;
                }
                // d(λ) is affine from `left` to `probe` (and beyond, on the last interval):
                // d(left + t·(probe - left)) = 0 at t = d_left/(d_left - d_probe).
                let t = &d_left / Rational::from(&d_left - &d_probe);
                let inside = t > 0 && (right.is_none() || t < 1);
                let root = &left + t * Rational::from(&probe - &left);
                if inside {
                    crossings.push(root);
                }
            }
        }
        if let Some(r) = right {
            left = r;
        }
    }
    points.extend(crossings);
    points.sort();
    points.dedup();
    Ok(points)
}

fn scaled(
    instance: &Instance,
    lambda: &Rational,
    order_from: &Rational,
    stop_at_ties: bool,
) -> Result<ScaledPolicy, InstanceError> {
    let policy = IndexPolicy::new(&instance.with_scaled_costs(lambda))?;
    let tie_order = IndexPolicy::new(&instance.with_scaled_costs(order_from))?;
    let policy = policy.with_tie_order(tie_order.order());
    let tie = if stop_at_ties { Tie::Early } else { Tie::Late };
    let evaluation = evaluate(instance, &policy, &tie)?;
    Ok(ScaledPolicy {
        lambda: lambda.clone(),
        policy,
        stop_at_ties,
        evaluation,
    })
}

/// Solves Theorem 2 exactly for a discrete instance and budget `B`, without a work limit.
///
/// # Errors
/// As [`solve_budget_with`].
pub fn solve_budget(
    instance: &Instance,
    budget: &Rational,
) -> Result<BudgetSolution, InstanceError> {
    solve_budget_with(instance, budget, f64::INFINITY, &mut |_| {})
}

/// Solves Theorem 2 exactly for a discrete instance and budget `B`, counting the work as
/// [`super::work`] does (rational operations × [`number_bits`]) and stopping beyond `max_work`;
/// `progress` is told about each critical point examined.
///
/// # Errors
/// A normal box; `B ≤ min c` or `B ≥ Σ c` (the theorem's assumptions); more work than
/// `max_work` (field `"limit"`); an expected cost that does not step down at a critical point
/// as the module docs derive (an internal inconsistency; never observed in the property tests).
/// # Accuracy
/// Exact. Checked against the Lagrangian DP in `reference/tests/pandora_theorem2.rs`.
pub fn solve_budget_with(
    instance: &Instance,
    budget: &Rational,
    max_work: f64,
    progress: &mut dyn FnMut(Progress),
) -> Result<BudgetSolution, InstanceError> {
    let mut meter = WorkMeter::new("Theorem 2 budget solve", max_work, progress);
    let costs: Vec<&Rational> = instance.boxes().iter().map(|b| b.cost()).collect();
    let min_cost = costs.iter().min().expect("non-empty");
    let total: Rational = costs.iter().copied().sum();
    if budget <= *min_cost || *budget >= total {
        return Err(budget_error(format!(
            "Theorem 2 needs min c < B < Σ c; got B = {budget}, min c = {min_cost}, Σ c = {total}"
        )));
    }
    let points = critical_lambdas_metered(instance, &mut meter)?;
    let policy_work =
        |lambda: &Rational| evaluation_operations(instance) * scaled_bits(instance, lambda);
    // Representatives of the open intervals (0, λ_1), (λ_1, λ_2), …, (λ_m, ∞).
    let mut reps = Vec::with_capacity(points.len() + 1);
    let mut left = Rational::new();
    for p in &points {
        reps.push(Rational::from(&left + p) / 2);
        left = p.clone();
    }
    reps.push(Rational::from(&left + 1));
    let interval_policy = |k: usize| scaled(instance, &reps[k], &reps[k], true);

    let first = interval_policy(0)?;
    if first.evaluation.expected_cost < *budget {
        let late = scaled(instance, &reps[0], &reps[0], false)?;
        return Ok(BudgetSolution::NotBinding { policy: late });
    }
    let mut previous_cost = first.evaluation.expected_cost.clone();
    if previous_cost == *budget {
        return Ok(BudgetSolution::Interval {
            lower: Rational::new(),
            upper: points.first().cloned(),
            policy: first,
        });
    }
    for (k, lambda) in points.iter().enumerate() {
        meter.charge(3.0 * policy_work(lambda), k, points.len())?;
        let high = scaled(instance, lambda, &reps[k], false)?;
        let low = scaled(instance, lambda, &reps[k + 1], true)?;
        let (c_high, c_low) = (
            &high.evaluation.expected_cost,
            &low.evaluation.expected_cost,
        );
        let next = interval_policy(k + 1)?;
        let c_next = &next.evaluation.expected_cost;
        // Continuity of the policy at λ_k from each side (module docs), and monotonicity.
        if previous_cost != *c_high || c_low != c_next || c_high < c_low {
            return Err(budget_error(format!(
                "expected cost does not step down at λ = {lambda} as expected: interval \
                 {previous_cost}, left limit {c_high}, right limit {c_low}, interval {c_next}"
            )));
        }
        if c_low <= budget {
            let alpha = if c_high == c_low {
                Rational::from(1)
            } else {
                Rational::from(c_high - budget) / Rational::from(c_high - c_low)
            };
            let mixed = low.evaluation.mix(&alpha, &high.evaluation);
            return Ok(BudgetSolution::Breakpoint {
                lambda: lambda.clone(),
                alpha,
                low_cost: low,
                high_cost: high,
                expected_best: mixed.expected_best,
            });
        }
        if *c_next == *budget {
            return Ok(BudgetSolution::Interval {
                lower: lambda.clone(),
                upper: points.get(k + 1).cloned(),
                policy: next,
            });
        }
        previous_cost = c_next.clone();
    }
    Err(budget_error(format!(
        "expected cost stays above B = {budget} for every λ (cannot happen when B > min c)"
    )))
}

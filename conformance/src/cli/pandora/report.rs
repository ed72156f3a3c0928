//! The JSON report of `pbgi pandora`. Rationals print exactly (`"p/q"`) alongside their
//! correctly rounded f64 decimal.
use super::format::{parse_exact, InstanceFile};
use super::Engine;
use pbgi_reference::pandora::{
    evaluate, kww_objective, solve_budget, solve_dp, Action, BudgetSolution, IndexPolicy,
    Instance, ScaledPolicy, Tie,
};
use rug::{Float, Rational};
use serde_json::{json, Value};

/// The DP runs for discrete instances with at most this many boxes…
pub const DP_MAX_BOXES: usize = 12;
/// …and at most this many table entries.
pub const DP_MAX_STATES: usize = 1 << 20;

/// Parses `--tie`: `early`, `late`, or a stop-early probability (exact, in `[0, 1]`).
///
/// # Errors
/// Anything else.
pub fn parse_tie(text: &str) -> Result<Tie, String> {
    match text {
        "early" => Ok(Tie::Early),
        "late" => Ok(Tie::Late),
        _ => {
            let p = parse_exact(text)
                .map_err(|e| format!("--tie: expected early, late or a probability: {e}"))?;
            let tie = Tie::Mixture(p);
            tie.validate()
                .map_err(|e| format!("--tie: {}", e.message))?;
            Ok(tie)
        }
    }
}

/// `{"exact": "p/q", "decimal": f64}` (decimal correctly rounded to nearest).
pub fn exact(x: &Rational) -> Value {
    json!({
        "exact": x.to_string(),
        "decimal": Float::with_val(53, x).to_f64(),
    })
}

fn tie_json(tie: &Tie) -> Value {
    match tie {
        Tie::Early => json!("early"),
        Tie::Late => json!("late"),
        Tie::Mixture(p) => json!({ "stop_early_probability": exact(p) }),
    }
}

fn action_json(action: &Action, names: &[Option<String>]) -> Value {
    match action {
        Action::Stop => json!("stop"),
        Action::Open(i) => json!({ "open": i, "name": names[*i] }),
    }
}

/// Whether the exact DP is run (discrete, within [`DP_MAX_BOXES`] and [`DP_MAX_STATES`]).
fn dp_size_ok(instance: &Instance) -> bool {
    let n = instance.boxes().len();
    let distinct: usize = instance
        .boxes()
        .iter()
        .filter_map(|b| b.as_discrete())
        .map(|d| d.atoms().len())
        .sum::<usize>()
        + 2;
    instance.is_discrete() && n <= DP_MAX_BOXES && (1usize << n) * distinct <= DP_MAX_STATES
}

fn dp_json(instance: &Instance, names: &[Option<String>], objective: &Rational) -> Value {
    if !dp_size_ok(instance) {
        return json!({ "skipped": format!(
            "not run: needs a discrete instance within {DP_MAX_BOXES} boxes and \
             {DP_MAX_STATES} states") });
    }
    match solve_dp(instance) {
        Err(e) => json!({ "skipped": e.to_string() }),
        Ok(dp) => json!({
            "optimum": exact(dp.optimum()),
            "policy_attains_optimum": dp.optimum() == objective,
            "optimal_first_actions": dp
                .optimal_first_actions()
                .iter()
                .map(|a| action_json(a, names))
                .collect::<Vec<_>>(),
            "states": dp.state_count(),
        }),
    }
}

fn scaled_json(p: &ScaledPolicy, names: &[Option<String>]) -> Value {
    json!({
        "lambda": exact(&p.lambda),
        "tie": if p.stop_at_ties { "early" } else { "late" },
        "policy_order": p.policy.order().iter().map(|&i| json!({
            "box": i,
            "name": names[i],
            "index": exact(&p.policy.indices()[i]),
        })).collect::<Vec<_>>(),
        "expected_cost": exact(&p.evaluation.expected_cost),
        "expected_best": exact(&p.evaluation.expected_best),
    })
}

/// Theorem 2's answer, checked against the DP at `λ*` when the instance is small.
fn budget_json(instance: &Instance, names: &[Option<String>], b: &Rational) -> Result<Value, String> {
    let solution = solve_budget(instance, b).map_err(|e| e.to_string())?;
    let mut out = match &solution {
        BudgetSolution::Breakpoint { lambda, alpha, low_cost, high_cost, expected_best } => json!({
            "kind": "breakpoint",
            "budget": exact(b),
            "lambda": exact(lambda),
            "stop_early_probability": exact(alpha),
            "expected_cost": exact(b),
            "expected_best": exact(expected_best),
            "stop_early_policy": scaled_json(low_cost, names),
            "stop_late_policy": scaled_json(high_cost, names),
        }),
        BudgetSolution::Interval { lower, upper, policy } => json!({
            "kind": "interval",
            "budget": exact(b),
            "lambda_interval": [exact(lower), upper.as_ref().map(exact)],
            "lambda": exact(&policy.lambda),
            "expected_cost": exact(&policy.evaluation.expected_cost),
            "expected_best": exact(&policy.evaluation.expected_best),
            "policy": scaled_json(policy, names),
        }),
        BudgetSolution::NotBinding { policy } => json!({
            "kind": "not_binding",
            "budget": exact(b),
            "note": "no λ > 0 spends B: the index policy as λ → 0⁺ (continuing at ties) already \
                     attains the smallest possible E[best] and spends less than B",
            "expected_cost": exact(&policy.evaluation.expected_cost),
            "expected_best": exact(&policy.evaluation.expected_best),
            "policy": scaled_json(policy, names),
        }),
    };
    let check = match &solution {
        BudgetSolution::Breakpoint { lambda, expected_best, .. } => Some((lambda, expected_best)),
        BudgetSolution::Interval { policy, .. } => {
            Some((&policy.lambda, &policy.evaluation.expected_best))
        }
        BudgetSolution::NotBinding { .. } => None,
    };
    if let Some((lambda, best)) = check {
        let scaled = instance.with_scaled_costs(lambda);
        if dp_size_ok(&scaled) {
            let dp = solve_dp(&scaled).map_err(|e| e.to_string())?;
            let dual = Rational::from(lambda * b);
            let dual = Rational::from(dp.optimum() - &dual);
            out["lagrangian_check"] = json!({
                "dp_optimum_at_lambda": exact(dp.optimum()),
                "dual_value": exact(&dual),
                "mixture_is_budget_optimal": dual == *best,
            });
        }
    }
    Ok(out)
}

fn discrete_reference(
    file: &InstanceFile,
    tie: &Tie,
    budget: Option<Rational>,
) -> Result<Value, String> {
    let instance = &file.instance;
    let policy = IndexPolicy::new(instance).map_err(|e| e.to_string())?;
    let e = evaluate(instance, &policy, tie).map_err(|e| e.to_string())?;
    let kww = kww_objective(instance, policy.indices()).map_err(|e| e.to_string())?;
    let order: Vec<Value> = policy
        .order()
        .iter()
        .map(|&i| {
            json!({
                "box": i,
                "name": file.names[i],
                "cost": exact(instance.boxes()[i].cost()),
                "index": exact(&policy.indices()[i]),
            })
        })
        .collect();
    let mut report = json!({
        "engine": "reference",
        "arithmetic": "exact rationals",
        "tie": tie_json(tie),
        "outside": instance.outside().map(exact),
        "policy_order": order,
        "expected_cost": exact(&e.expected_cost),
        "expected_best": exact(&e.expected_best),
        "expected_objective": exact(&e.objective()),
        "kww_objective": exact(&kww),
        "dp": dp_json(instance, &file.names, &e.objective()),
    });
    if let Some(b) = budget {
        report["budget"] = budget_json(instance, &file.names, &b)?;
    }
    Ok(report)
}

/// The report for one instance file.
///
/// # Errors
/// Instance-level problems (with box and field), or an unsupported combination.
pub fn instance_report(
    path: &str,
    file: &InstanceFile,
    tie: &Tie,
    budget: Option<Rational>,
    engine: Engine,
) -> Result<Value, String> {
    if engine != Engine::Reference {
        return Err("--engine fast: not available in this build".into());
    }
    if !file.instance.is_discrete() {
        return Err("normal boxes: not available in this build (discrete only)".into());
    }
    let mut report = discrete_reference(file, tie, budget)?;
    report["file"] = json!(path);
    Ok(report)
}

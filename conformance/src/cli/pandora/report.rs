//! The JSON report of `pbgi pandora`. Rationals print exactly (`"p/q"`) alongside their
//! correctly rounded f64 decimal.
use super::format::{parse_exact, InstanceFile};
use super::Engine;
use pbgi_reference::pandora::{
    evaluate, kww_objective, solve_dp, Action, IndexPolicy, Instance, Tie,
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

fn dp_json(instance: &Instance, names: &[Option<String>], objective: &Rational) -> Value {
    let n = instance.boxes().len();
    let distinct: usize = instance
        .boxes()
        .iter()
        .filter_map(|b| b.as_discrete())
        .map(|d| d.atoms().len())
        .sum::<usize>()
        + 2;
    if n > DP_MAX_BOXES || (1usize << n) * distinct > DP_MAX_STATES {
        return json!({ "skipped": format!(
            "instance too large for the exact DP ({n} boxes; limits {DP_MAX_BOXES} boxes, \
             {DP_MAX_STATES} states)") });
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
    let report = json!({
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
    if budget.is_some() {
        return Err("--budget: not available in this build".into());
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

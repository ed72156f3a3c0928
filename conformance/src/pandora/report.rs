//! The JSON report of `pbgi pandora`. Rationals print exactly (`"p/q"`) alongside their
//! correctly rounded f64 decimal.
use super::format::{parse_exact, InstanceFile};
use super::ties::ExactTies;
use super::Engine;
use pbgi_fast::pandora as fast;
use pbgi_reference::pandora::work::{MAX_STATES_CEILING, WORK_UNITS_PER_SECOND};
use pbgi_reference::pandora::{
    counterexample, dp_size, evaluate_general_with, evaluate_with, kww_objective_with, nearest_f64,
    quadrature_work, solve_budget_with, solve_dp_with, Action, BudgetSolution, Distribution,
    IndexPolicy, Instance, Progress, ScaledPolicy, Tie, WorkLimits,
};
use rug::float::Round;
use rug::{Float, Rational};
use serde_json::{json, Value};

/// Default largest DP table of `pbgi pandora` (`2^boxes × (hand values + 1)` entries):
/// 12 boxes with 255 distinct values, or 16 boxes with 15.
pub const DEFAULT_MAX_STATES: usize = 1 << 20;

/// Limits of the exact solves and where their progress goes.
pub struct Exact<'a> {
    /// Largest DP table and work (`--max-states`, `--max-work`).
    pub limits: WorkLimits,
    /// Progress of long solves (the tool prints it on standard error).
    pub progress: Box<dyn FnMut(Progress) + 'a>,
}

impl Exact<'static> {
    /// The tool's default limits, no progress display.
    pub fn quiet() -> Self {
        Exact {
            limits: WorkLimits {
                max_states: DEFAULT_MAX_STATES,
                ..WorkLimits::default()
            },
            progress: Box::new(|_| {}),
        }
    }
}

impl Exact<'_> {
    /// Checked limits (`--max-states` at most [`MAX_STATES_CEILING`], `--max-work` a positive
    /// finite number of units), no progress display.
    ///
    /// # Errors
    /// A limit out of range; the message names the flag.
    pub fn with_limits(max_states: usize, max_work: f64) -> Result<Self, String> {
        if max_states > MAX_STATES_CEILING {
            return Err(format!(
                "--max-states: at most {MAX_STATES_CEILING} (a table entry holds a rational), \
                 got {max_states}"
            ));
        }
        if !(max_work > 0.0 && max_work.is_finite()) {
            return Err(format!(
                "--max-work: a positive finite number of units, got {max_work}"
            ));
        }
        Ok(Exact {
            limits: WorkLimits {
                max_states,
                max_work,
            },
            progress: Box::new(|_| {}),
        })
    }
}

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

/// Why the DP of `instance` is not run within `limits` (with the flag that raises the limit),
/// or `None` when it runs.
fn dp_refusal(instance: &Instance, limits: &WorkLimits) -> Option<String> {
    let size = match dp_size(instance) {
        Ok(size) => size,
        Err(_) => return Some("not run: the exact DP needs a discrete instance".into()),
    };
    if size.states > MAX_STATES_CEILING {
        // `size.states` saturates at usize::MAX; the real count is 2^boxes × (values + 1).
        let log10 = size.boxes as f64 * 2f64.log10() + ((size.values + 1) as f64).log10();
        return Some(format!(
            "not run: the exact DP needs 2^{} × {} states (about 1e{:.0}), more than the largest \
             table --max-states allows ({}); the policy's evaluation above does not need it",
            size.boxes,
            size.values + 1,
            log10.floor(),
            MAX_STATES_CEILING
        ));
    }
    if size.states > limits.max_states {
        return Some(format!(
            "not run: the exact DP needs {} states (2^{} subsets of boxes × {} hand values), \
             above the limit of {}; raise it with --max-states {} (at most {})",
            size.states,
            size.boxes,
            size.values + 1,
            limits.max_states,
            size.states.next_power_of_two(),
            MAX_STATES_CEILING
        ));
    }
    if size.work > limits.max_work {
        return Some(format!(
            "not run: the exact DP needs about {:.1e} work units ({} states, numbers of up to {} \
             bits; about {:.0} s here), above the limit of {:.1e}; raise it with --max-work {:.0e}",
            size.work,
            size.states,
            size.number_bits,
            size.work / WORK_UNITS_PER_SECOND,
            limits.max_work,
            10f64.powf(size.work.log10().ceil())
        ));
    }
    None
}

fn dp_json(
    instance: &Instance,
    names: &[Option<String>],
    objective: &Rational,
    exact_solve: &mut Exact<'_>,
) -> Value {
    if let Some(reason) = dp_refusal(instance, &exact_solve.limits) {
        note(&reason);
        return json!({ "skipped": reason });
    }
    match solve_dp_with(instance, &exact_solve.limits, &mut *exact_solve.progress) {
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

/// A one-line note on standard error (ignored if standard error is gone).
fn note(text: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr().lock(), "pbgi pandora: {text}");
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
fn budget_json(
    instance: &Instance,
    names: &[Option<String>],
    b: &Rational,
    exact_solve: &mut Exact<'_>,
) -> Result<Value, String> {
    let solution = solve_budget_with(
        instance,
        b,
        exact_solve.limits.max_work,
        &mut *exact_solve.progress,
    )
    .map_err(|e| {
        if e.field == "limit" {
            format!(
                "--budget: {}; raise the limit with --max-work (about {:.0e} units a second here)",
                e.message, WORK_UNITS_PER_SECOND
            )
        } else {
            format!("--budget: {e}")
        }
    })?;
    let mut out = match &solution {
        BudgetSolution::Breakpoint {
            lambda,
            alpha,
            low_cost,
            high_cost,
            expected_best,
        } => json!({
            "kind": "breakpoint",
            "budget": exact(b),
            "lambda": exact(lambda),
            "stop_early_probability": exact(alpha),
            "expected_cost": exact(b),
            "expected_best": exact(expected_best),
            "stop_early_policy": scaled_json(low_cost, names),
            "stop_late_policy": scaled_json(high_cost, names),
        }),
        BudgetSolution::Interval {
            lower,
            upper,
            policy,
        } => json!({
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
            "note": "no λ > 0 spends exactly B: the index policy for policy.lambda > 0 (the same \
                     for every λ below the first critical point) already attains the smallest \
                     possible E[best] and spends less than B, so it is optimal for the budget \
                     problem (Theorem 2 holds; the dual's optimum is at λ = 0, against Lemma 9)",
            "expected_cost": exact(&policy.evaluation.expected_cost),
            "expected_best": exact(&policy.evaluation.expected_best),
            "policy": scaled_json(policy, names),
        }),
    };
    let check = match &solution {
        BudgetSolution::Breakpoint {
            lambda,
            expected_best,
            ..
        } => Some((lambda, expected_best)),
        BudgetSolution::Interval { policy, .. } => {
            Some((&policy.lambda, &policy.evaluation.expected_best))
        }
        BudgetSolution::NotBinding { .. } => None,
    };
    if let Some((lambda, best)) = check {
        let scaled = instance.with_scaled_costs(lambda);
        out["lagrangian_check"] = match dp_refusal(&scaled, &exact_solve.limits) {
            Some(reason) => {
                note(&reason);
                json!({ "skipped": reason })
            }
            None => {
                let dp = solve_dp_with(&scaled, &exact_solve.limits, &mut *exact_solve.progress)
                    .map_err(|e| e.to_string())?;
                let dual = Rational::from(lambda * b);
                let dual = Rational::from(dp.optimum() - &dual);
                json!({
                    "dp_optimum_at_lambda": exact(dp.optimum()),
                    "dual_value": exact(&dual),
                    "mixture_is_budget_optimal": dual == *best,
                })
            }
        };
    }
    Ok(out)
}

fn discrete_reference(
    file: &InstanceFile,
    tie: &Tie,
    budget: Option<Rational>,
    exact_solve: &mut Exact<'_>,
) -> Result<Value, String> {
    let instance = &file.instance;
    let policy = IndexPolicy::new(instance).map_err(|e| e.to_string())?;
    let max_work = exact_solve.limits.max_work;
    let limit_hint = |e: pbgi_reference::pandora::InstanceError| {
        if e.field == "limit" {
            format!(
                "{}; raise the limit with --max-work (about {:.0e} units a second here)",
                e.message, WORK_UNITS_PER_SECOND
            )
        } else {
            e.to_string()
        }
    };
    let e = evaluate_with(instance, &policy, tie, max_work, &mut *exact_solve.progress)
        .map_err(limit_hint)?;
    let kww = kww_objective_with(
        instance,
        policy.indices(),
        max_work,
        &mut *exact_solve.progress,
    )
    .map_err(limit_hint)?;
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
        "dp": dp_json(instance, &file.names, &e.objective(), exact_solve),
    });
    if let Some(b) = budget {
        report["budget"] = budget_json(instance, &file.names, &b, exact_solve)?;
    }
    Ok(report)
}

/// Most significant digits ever printed for a high-precision number.
const MAX_DIGITS: usize = 30;

/// `count` significant decimal digits of `x` correctly rounded in direction `round`; `"0"` for
/// zero or no digits.
fn digits(x: &Float, count: usize, round: Round) -> String {
    if x.is_zero() || count == 0 {
        return "0".into();
    }
    x.to_string_radix_round(10, Some(count.max(1)), round)
}

/// How many significant digits of `value` an absolute error `error` supports: the last printed
/// digit's unit is at least `error` (at most [`MAX_DIGITS`]). Zero when `|value|` is below
/// `error` or zero: the value is then shown as `0`, which is as close as the error allows.
fn supported_digits(value: &Float, error: &Float) -> usize {
    if value.is_zero() {
        return 0;
    }
    if error.is_zero() {
        return MAX_DIGITS;
    }
    let ratio = Float::with_val(64, value.abs_ref()) / error;
    if ratio < 1 {
        return 0;
    }
    let decades = Float::with_val(64, ratio.log10_ref()).floor().to_f64();
    decades.clamp(1.0, MAX_DIGITS as f64) as usize
}

/// `text` as an f64 (the JSON number that shows the same digits).
fn decimal_of(text: &str) -> Value {
    text.parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .map_or(Value::Null, |v| json!(v))
}

/// An estimate with its error estimate and a certified enclosure: the value printed only to the
/// digits the error estimate supports, the error rounded up to two digits, the bounds rounded
/// outward.
fn estimate_json(value: &Float, error: &Float, lower: &Float, upper: &Float) -> Value {
    let shown = digits(value, supported_digits(value, error), Round::Nearest);
    let error_text = digits(error, 2, Round::Up);
    json!({
        "value": shown,
        "decimal": decimal_of(&shown),
        "error_estimate": error_text,
        "certified_lower": bound_digits(lower, lower, upper, Round::Down),
        "certified_upper": bound_digits(upper, lower, upper, Round::Up),
    })
}

/// `x`, one end of `[lower, upper]`, rounded outward to two digits more than the width supports.
fn bound_digits(x: &Float, lower: &Float, upper: &Float, round: Round) -> String {
    let width = Float::with_val(64, upper - lower);
    let count = (supported_digits(x, &width) + 2).min(MAX_DIGITS);
    digits(x, count, round)
}

/// A certified enclosure: the bounds rounded outward, and the midpoint to the digits its
/// half-width supports.
fn enclosure_json(lower: &Float, upper: &Float) -> Value {
    let prec = lower.prec().max(upper.prec()) + 1;
    let mid = Float::with_val(prec, lower + upper) / 2u32;
    let half_width = Float::with_val(64, upper - lower) / 2u32;
    let shown = digits(&mid, supported_digits(&mid, &half_width), Round::Nearest);
    json!({
        "value": shown,
        "decimal": decimal_of(&shown),
        "lower": bound_digits(lower, lower, upper, Round::Down),
        "upper": bound_digits(upper, lower, upper, Round::Up),
    })
}

fn general_reference(
    file: &InstanceFile,
    tie: &Tie,
    exact_solve: &mut Exact<'_>,
) -> Result<Value, String> {
    let instance = &file.instance;
    let e = evaluate_general_with(
        instance,
        tie,
        &exact_solve.limits,
        &mut *exact_solve.progress,
    )
    .map_err(|e| {
        if e.field == "limit" {
            format!(
                "{}; raise it with --max-work {:.0e}, or use --engine fast",
                e.message,
                10f64.powf(quadrature_work(instance).log10().ceil())
            )
        } else {
            e.to_string()
        }
    })?;
    let order: Vec<Value> = e
        .order
        .iter()
        .map(|&i| {
            let g = &e.indices[i];
            json!({
                "box": i,
                "name": file.names[i],
                "cost": exact(instance.boxes()[i].cost()),
                "index": {
                    "decimal": g.value,
                    "exact": g.exact.as_ref().map(|x| x.to_string()),
                    "lower": digits(&g.lower, MAX_DIGITS, Round::Down),
                    "upper": digits(&g.upper, MAX_DIGITS, Round::Up),
                },
            })
        })
        .collect();
    let (best_lower, best_upper) = e.expected_best_bounds();
    Ok(json!({
        "engine": "reference",
        "arithmetic": "certified indices (MPFR); E[cost] a certified enclosure; objective and \
                       E[best] a certified enclosure (certified_lower, certified_upper) and a \
                       tanh-sinh estimate at 128 bits with an error estimate (not a bound), \
                       printed to the digits the error estimate supports",
        "tie": tie_json(tie),
        "outside": instance.outside().map(exact),
        "normal_parameters_rounded_to_f64": e.rounded_parameters.iter()
            .map(|(i, f)| json!({"box": i, "field": f})).collect::<Vec<_>>(),
        "policy_order": order,
        "expected_cost": enclosure_json(&e.cost_lower, &e.cost_upper),
        "expected_best": estimate_json(&e.expected_best(), &e.expected_best_error(), &best_lower, &best_upper),
        "expected_objective": estimate_json(&e.objective, &e.objective_error, &e.objective_lower, &e.objective_upper),
        "dp": { "skipped": "the exact DP needs a discrete instance" },
    }))
}

/// The instance in f64 (nearest), with the list of inexact conversions.
fn to_fast(file: &InstanceFile) -> Result<(fast::Instance, Vec<Value>), String> {
    let mut inexact = Vec::new();
    let mut convert = |x: &Rational, i: Option<usize>, field: &str| -> f64 {
        let v = nearest_f64(x);
        if Rational::from_f64(v).as_ref() != Some(x) {
            inexact.push(json!({ "box": i, "field": field, "exact": x.to_string() }));
        }
        v
    };
    let mut boxes = Vec::new();
    for (i, b) in file.instance.boxes().iter().enumerate() {
        let cost = convert(b.cost(), Some(i), "cost");
        let fb = match b.distribution() {
            Distribution::Discrete(d) => {
                let values: Vec<f64> = d
                    .atoms()
                    .iter()
                    .map(|(x, _)| convert(x, Some(i), "values"))
                    .collect();
                let probs: Vec<f64> = d
                    .atoms()
                    .iter()
                    .map(|(_, p)| convert(p, Some(i), "probs"))
                    .collect();
                fast::PandoraBox::discrete(cost, &values, &probs, Some(i))
            }
            Distribution::Normal { mean, sd } => {
                let (m, s) = (convert(mean, Some(i), "mean"), convert(sd, Some(i), "sd"));
                fast::PandoraBox::normal(cost, m, s, Some(i))
            }
        };
        boxes.push(fb.map_err(|e| e.to_string())?);
    }
    let outside = file.instance.outside().map(|y| convert(y, None, "outside"));
    let instance = fast::Instance::new(boxes, outside).map_err(|e| e.to_string())?;
    Ok((instance, inexact))
}

fn fast_tie(tie: &Tie) -> fast::Tie {
    match tie {
        Tie::Early => fast::Tie::Early,
        Tie::Late => fast::Tie::Late,
        Tie::Mixture(p) => fast::Tie::Mixture(Float::with_val(53, p).to_f64()),
    }
}

/// Streaming mean and standard error (Welford's update: no cancellation when the values are
/// large and their spread small; memory independent of the number of runs).
#[derive(Default)]
struct RunningMean {
    count: f64,
    mean: f64,
    squares: f64,
}

impl RunningMean {
    fn add(&mut self, x: f64) {
        self.count += 1.0;
        let delta = x - self.mean;
        self.mean += delta / self.count;
        self.squares += delta * (x - self.mean);
    }

    /// `(mean, s/√n)` with the `n − 1` divisor (0 for one run).
    fn mean_and_standard_error(&self) -> (f64, f64) {
        if self.count < 2.0 {
            return (self.mean, 0.0);
        }
        let variance = self.squares / (self.count - 1.0);
        (self.mean, (variance / self.count).sqrt())
    }
}

/// Monte Carlo means (with standard errors) of cost and best value over `runs` simulated runs
/// of the f64 policy, seeded ChaCha8 with `seed`; near ties of the f64 indices are decided by
/// the exact instance ([`ExactTies`]).
///
/// # Errors
/// `runs = 0`, or an instance the f64 crate rejects.
pub fn simulation(file: &InstanceFile, tie: &Tie, runs: u32, seed: u64) -> Result<Value, String> {
    use rand::{Rng, SeedableRng};
    if runs == 0 {
        return Err("--simulate: RUNS must be > 0".into());
    }
    let (instance, _) = to_fast(file)?;
    let ties = ExactTies::new(&file.instance)?;
    let simulator = fast::Simulator::with_resolver(&instance, &ties);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut uniform = || rng.gen::<f64>();
    let (mut cost, mut best) = (RunningMean::default(), RunningMean::default());
    for _ in 0..runs {
        let out = simulator.run(fast_tie(tie), &mut uniform);
        cost.add(out.cost);
        best.add(out.best);
    }
    let (cost, cost_se) = cost.mean_and_standard_error();
    let (best, best_se) = best.mean_and_standard_error();
    Ok(json!({
        "runs": runs,
        "seed": seed,
        "simulator": "pbgi_fast::pandora::Simulator (f64 indices, near ties decided by the exact \
                      instance; ChaCha8)",
        "mean_cost": cost,
        "mean_cost_standard_error": cost_se,
        "mean_best": best,
        "mean_best_standard_error": best_se,
    }))
}

fn fast_report(file: &InstanceFile, tie: &Tie) -> Result<Value, String> {
    let (instance, inexact) = to_fast(file)?;
    let ties = ExactTies::new(&file.instance)?;
    let policy = fast::IndexPolicy::with_resolver(&instance, &ties);
    let e = fast::Evaluation::of_policy(&policy, fast_tie(tie));
    let (indices, order) = (policy.indices(), policy.order());
    Ok(json!({
        "engine": "fast",
        "arithmetic": "f64; comparisons that f64 cannot decide (values within their error \
                       bounds) decided by the exact instance",
        "tie": tie_json(tie),
        "outside": instance.outside(),
        "inputs_rounded_to_f64": inexact,
        "comparisons_decided_exactly": policy.resolved_comparisons(),
        "policy_order": order.iter().map(|&i| json!({
            "box": i,
            "name": file.names[i],
            "cost": instance.boxes()[i].cost,
            "index": indices[i],
        })).collect::<Vec<_>>(),
        "expected_cost": e.expected_cost,
        "expected_best": e.expected_best,
        "expected_objective": e.objective,
        "dp": { "skipped": "the exact DP runs with --engine reference" },
    }))
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
    exact_solve: &mut Exact<'_>,
) -> Result<Value, String> {
    if budget.is_some() && (engine != Engine::Reference || !file.instance.is_discrete()) {
        return Err("--budget needs a discrete instance and --engine reference".into());
    }
    let mut report = match engine {
        Engine::Fast => fast_report(file, tie)?,
        Engine::Reference if file.instance.is_discrete() => {
            discrete_reference(file, tie, budget, exact_solve)?
        }
        Engine::Reference => general_reference(file, tie, exact_solve)?,
    };
    report["file"] = json!(path);
    Ok(report)
}

/// The report of `--counterexample EPS,DELTA`.
///
/// # Errors
/// A malformed specification or invalid `ε`, `δ`.
pub fn counterexample_report(spec: &str) -> Result<Value, String> {
    let (eps, delta) = spec
        .split_once(',')
        .ok_or_else(|| format!("--counterexample: expected EPS,DELTA, got {spec:?}"))?;
    let eps = parse_exact(eps.trim()).map_err(|e| format!("--counterexample EPS: {e}"))?;
    let delta = parse_exact(delta.trim()).map_err(|e| format!("--counterexample DELTA: {e}"))?;
    let c = counterexample(&eps, &delta).map_err(|e| format!("--counterexample: {e}"))?;
    // 1/√(2π) at 128 bits (relative error below 2^-126) and the ratio's enclosure and estimate.
    let once = &c.expensive_once_value;
    let once_slack = Float::with_val(once.prec(), once >> 120u32);
    let once_lower = Float::with_val(once.prec(), once - &once_slack);
    let once_upper = Float::with_val(once.prec(), once + &once_slack);
    let (ei_lower, ei_upper) = (&c.ei_per_cost_bounds.0, &c.ei_per_cost_bounds.1);
    let ratio_lower = Float::with_val_round(128, &once_lower / ei_upper, Round::Down).0;
    let ratio_upper = Float::with_val_round(128, &once_upper / ei_lower, Round::Up).0;
    // Relative error estimate of the ratio = that of the value (the numerator is exact to 2^-120).
    let ratio_error = Float::with_val(128, &c.ratio * &c.ei_per_cost_error) / &c.ei_per_cost_value;
    Ok(json!({
        "counterexample": "Astudillo et al., supplement Theorem 1 (EI-per-cost), maximisation form",
        "convention": "rewards f (maximised); in this project's minimisation the loss is -f, \
                       boxes keep their (symmetric) distributions, y0 = -f(0) = 0 and each \
                       value V below is the improvement y0 - E[best loss]",
        "epsilon": exact(&eps),
        "delta": exact(&delta),
        "budget": exact(&Rational::from(1 + &delta)),
        "cheap_boxes_K": c.cheap_boxes.to_string(),
        "opened_by_ei_per_cost_N": c.opened_by_ei_per_cost.to_string(),
        "ei_per_cost_value": estimate_json(&c.ei_per_cost_value, &c.ei_per_cost_error, ei_lower, ei_upper),
        "expensive_once_value": enclosure_json(&once_lower, &once_upper),
        "ratio": estimate_json(&c.ratio, &ratio_error, &ratio_lower, &ratio_upper),
        "gittins": {
            "indices_at_lambda_1_min_form": { "cheap": c.indices_at_unit_lambda.0, "expensive": c.indices_at_unit_lambda.1 },
            "stops_at_once_at_lambda_1": c.indices_at_unit_lambda.0 >= 0.0
                && c.indices_at_unit_lambda.1 >= 0.0,
            "lambda_switch": c.lambda_switch,
            "first_choice": "the expensive box for every λ < lambda_switch (then the hard budget is \
                             spent and the reward is E[Z+]); a cheap box for λ above it",
        },
    }))
}

//! The raw runs of an experiment: `runs.csv` (every run × rule) and `trajectories.csv`
//! (every run's regret and cost after each evaluation, at full precision), written by every
//! run and every shard and read back by `pbgi merge`.
use super::summary::{setting_label, HINDSIGHT};
use crate::experiment::study::settings;
use crate::experiment::{ExperimentConfig, ExperimentResults, RunResult};
use crate::study::output::{csv_document, field, line_of, read_csv, read_csv_groups, Files};
use std::path::Path;

/// Columns of `runs.csv`: one row per run and rule (and the run's Hindsight row).
pub const RUNS_HEADER: [&str; 10] = [
    "cost",
    "lambda",
    "acquisition",
    "sample",
    "rule",
    "stop",
    "fired",
    "simple_regret",
    "cumulative_cost",
    "regret",
];

/// Columns of `trajectories.csv`: one row per run and evaluation.
pub const TRAJECTORY_HEADER: [&str; 6] = [
    "cost",
    "lambda",
    "acquisition",
    "sample",
    "simple_regret",
    "cumulative_cost",
];

/// `runs.csv` (every run × rule: τ, fired, regret at τ; plus the run's Hindsight row) and
/// `trajectories.csv` (every run's simple regret and cumulative cost after each evaluation, at
/// full precision: with `runs.csv` it is everything `pbgi merge` needs).
pub fn raw_files(results: &ExperimentResults, initial_points: usize) -> Result<Files, String> {
    let mut runs = Vec::new();
    let mut trajectories = Vec::new();
    for run in &results.runs {
        let (cost, lambda) = setting_label(results, run.setting);
        let lambda_exact = format!("{:e}", results.settings[run.setting].lambda);
        let acquisition = results.acquisitions[run.acquisition].key().to_string();
        let hindsight = run.hindsight_stop(initial_points);
        let entries = results
            .rules
            .iter()
            .enumerate()
            .map(|(i, name)| (name.as_str(), run.stop[i], run.fired[i].to_string()))
            .chain(std::iter::once((HINDSIGHT, hindsight, String::new())));
        for (rule, t, fired) in entries {
            runs.push(vec![
                cost.clone(),
                lambda.clone(),
                acquisition.clone(),
                run.sample.to_string(),
                rule.to_string(),
                t.to_string(),
                fired,
                format!("{:e}", run.simple_regret[t - 1]),
                format!("{:e}", run.cumulative_cost[t - 1]),
                format!("{:e}", run.regret_at(t)),
            ]);
        }
        for (regret, spent) in run.simple_regret.iter().zip(&run.cumulative_cost) {
            trajectories.push(vec![
                cost.clone(),
                lambda_exact.clone(),
                acquisition.clone(),
                run.sample.to_string(),
                format!("{regret:e}"),
                format!("{spent:e}"),
            ]);
        }
    }
    Ok(vec![
        ("runs.csv".to_string(), csv_document(&RUNS_HEADER, &runs)?),
        (
            "trajectories.csv".to_string(),
            csv_document(&TRAJECTORY_HEADER, &trajectories)?,
        ),
    ])
}

/// Reads a directory's `runs.csv` and `trajectories.csv` back into runs, which must belong to
/// `config` (same settings, acquisitions, rules, cap); errors name the file, line and column.
pub fn read_raw(
    config: &ExperimentConfig,
    rules: &[String],
    dir: &Path,
) -> Result<Vec<RunResult>, String> {
    let settings = settings(config);
    let cap = config.max_evals;
    let path = dir.join("trajectories.csv");
    let groups = read_csv_groups(
        &path,
        &TRAJECTORY_HEADER,
        cap,
        &format!("runs of {cap} evaluations"),
    )?;
    let mut runs = Vec::new();
    for chunk in &groups {
        let first = &chunk[0];
        let line = line_of(first);
        let lambda: f64 = field(&path, first, &TRAJECTORY_HEADER, 1)?;
        let setting = settings
            .iter()
            .position(|s| Some(s.cost.key()) == first.get(0) && s.lambda == lambda)
            .ok_or_else(|| {
                format!(
                    "{}: line {line}: setting not in the configuration",
                    path.display()
                )
            })?;
        let acquisition = config
            .acquisitions
            .iter()
            .position(|a| Some(a.key()) == first.get(2))
            .ok_or_else(|| {
                format!(
                    "{}: line {line}: acquisition not in the configuration",
                    path.display()
                )
            })?;
        let sample: usize = field(&path, first, &TRAJECTORY_HEADER, 3)?;
        let mut simple_regret = Vec::with_capacity(cap);
        let mut cumulative_cost = Vec::with_capacity(cap);
        for record in chunk {
            if record.get(0) != first.get(0)
                || record.get(1) != first.get(1)
                || record.get(2) != first.get(2)
                || record.get(3) != first.get(3)
            {
                let line = line_of(record);
                return Err(format!(
                    "{}: line {line}: a run is cut short",
                    path.display()
                ));
            }
            simple_regret.push(field(&path, record, &TRAJECTORY_HEADER, 4)?);
            cumulative_cost.push(field(&path, record, &TRAJECTORY_HEADER, 5)?);
        }
        runs.push(RunResult {
            setting,
            sample,
            acquisition,
            simple_regret,
            cumulative_cost,
            stop: Vec::with_capacity(rules.len()),
            fired: Vec::with_capacity(rules.len()),
        });
    }
    let path = dir.join("runs.csv");
    let records = read_csv(&path, &RUNS_HEADER)?;
    let per_run = rules.len() + 1;
    if records.len() != runs.len() * per_run {
        return Err(format!(
            "{}: {} rows, expected {} (runs) × {per_run} (rules and Hindsight)",
            path.display(),
            records.len(),
            runs.len()
        ));
    }
    for (run, chunk) in runs.iter_mut().zip(records.chunks(per_run)) {
        for (record, rule) in chunk.iter().zip(rules) {
            let line = line_of(record);
            let sample: usize = field(&path, record, &RUNS_HEADER, 3)?;
            if record.get(4) != Some(rule.as_str()) || sample != run.sample {
                return Err(format!(
                    "{}: line {line}: expected rule {rule} of sample {}",
                    path.display(),
                    run.sample
                ));
            }
            run.stop.push(field(&path, record, &RUNS_HEADER, 5)?);
            run.fired.push(field(&path, record, &RUNS_HEADER, 6)?);
        }
    }
    Ok(runs)
}

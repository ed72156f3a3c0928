//! The raw runs of an experiment: `runs.csv` (every run × rule), `trajectories.csv` (every
//! run's regret and cost after each evaluation, at full precision) and `statistic.csv` (every
//! run's PBGI/LogEIPC statistic at each check, raw and moving-averaged, at full precision),
//! written by every run and every shard and read back by `pbgi merge`.
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

/// Columns of `statistic.csv`: one row per run and check `t = initial_points, …, cap`.
pub const STATISTIC_HEADER: [&str; 7] = [
    "cost",
    "lambda",
    "acquisition",
    "sample",
    "t",
    "statistic",
    "moving_average",
];

/// The moving average over `window` checks of a run's statistic, as the PBGI/LogEIPC rule
/// computes it (`pbgi_fast::StoppingHelper`, exact sums): `None` until the window is full and
/// everywhere when `window = 1` (no average is set).
pub fn moving_averages(statistic: &[f64], window: usize) -> Result<Vec<Option<f64>>, String> {
    if window <= 1 {
        return Ok(vec![None; statistic.len()]);
    }
    let mut helper = pbgi_fast::StoppingHelper::new(0, 1, window)
        .map_err(|e| format!("rules.pbgi_logeipc.moving_average: {e}"))?;
    Ok(statistic
        .iter()
        .map(|&s| {
            helper.observe(s);
            helper.moving_average()
        })
        .collect())
}

/// `runs.csv` (every run × rule: τ, fired, regret at τ; plus the run's Hindsight row),
/// `trajectories.csv` (every run's simple regret and cumulative cost after each evaluation, at
/// full precision: with `runs.csv` it is everything the summaries need) and `statistic.csv`
/// (every run's PBGI/LogEIPC statistic at each check `t`, with its moving average over the
/// window of `[rules.pbgi_logeipc]`, empty until the window is full or when none is set).
pub fn raw_files(config: &ExperimentConfig, results: &ExperimentResults) -> Result<Files, String> {
    let initial_points = config.initial_points;
    let window = config.traced_statistic()?.1;
    let mut runs = Vec::new();
    let mut trajectories = Vec::new();
    let mut statistics = Vec::new();
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
        let averages = moving_averages(&run.statistic, window)?;
        for (k, (value, average)) in run.statistic.iter().zip(averages).enumerate() {
            statistics.push(vec![
                cost.clone(),
                lambda_exact.clone(),
                acquisition.clone(),
                run.sample.to_string(),
                (initial_points + k).to_string(),
                format!("{value:e}"),
                average.map_or(String::new(), |m| format!("{m:e}")),
            ]);
        }
    }
    let mut files = vec![
        ("runs.csv".to_string(), csv_document(&RUNS_HEADER, &runs)?),
        (
            "trajectories.csv".to_string(),
            csv_document(&TRAJECTORY_HEADER, &trajectories)?,
        ),
    ];
    if has_statistic(results) {
        files.push((
            "statistic.csv".to_string(),
            csv_document(&STATISTIC_HEADER, &statistics)?,
        ));
    }
    Ok(files)
}

/// Whether the runs carry the traced statistic (every run does, except those merged from
/// shards written before the trace existed).
pub fn has_statistic(results: &ExperimentResults) -> bool {
    results.runs.iter().any(|r| !r.statistic.is_empty())
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
            statistic: Vec::new(),
        });
    }
    read_statistic(config, &mut runs, dir)?;
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

/// Reads a directory's `statistic.csv` into `runs` (read from `trajectories.csv`, in the same
/// order): each run's checks `t = initial_points, …, cap`, in order; the moving averages are
/// recomputed from the statistic when the files are written, so they are not read. A
/// directory without the file (written before the trace existed) leaves the statistics empty.
fn read_statistic(
    config: &ExperimentConfig,
    runs: &mut [RunResult],
    dir: &Path,
) -> Result<(), String> {
    let path = dir.join("statistic.csv");
    if !path.exists() {
        // A shard written before the statistic was traced: its runs carry none (`merge`
        // accepts that only if no shard has one, and then writes no statistic files).
        return Ok(());
    }
    let checks = config.max_evals + 1 - config.initial_points;
    let groups = read_csv_groups(
        &path,
        &STATISTIC_HEADER,
        checks,
        &format!("runs of {checks} checks"),
    )?;
    if groups.len() != runs.len() {
        return Err(format!(
            "{}: {} runs, but trajectories.csv holds {}",
            path.display(),
            groups.len(),
            runs.len()
        ));
    }
    let settings = settings(config);
    for (run, chunk) in runs.iter_mut().zip(&groups) {
        let setting = &settings[run.setting];
        let acquisition = config.acquisitions[run.acquisition].key();
        for (k, record) in chunk.iter().enumerate() {
            let line = line_of(record);
            let lambda: f64 = field(&path, record, &STATISTIC_HEADER, 1)?;
            let sample: usize = field(&path, record, &STATISTIC_HEADER, 3)?;
            let t: usize = field(&path, record, &STATISTIC_HEADER, 4)?;
            if record.get(0) != Some(setting.cost.key())
                || lambda != setting.lambda
                || record.get(2) != Some(acquisition)
                || sample != run.sample
                || t != config.initial_points + k
            {
                return Err(format!(
                    "{}: line {line}: expected check t = {} of the run ({}, λ {}, {acquisition}, \
                     sample {}) of trajectories.csv",
                    path.display(),
                    config.initial_points + k,
                    setting.cost.key(),
                    setting.lambda,
                    run.sample
                ));
            }
            run.statistic
                .push(field(&path, record, &STATISTIC_HEADER, 5)?);
        }
    }
    Ok(())
}

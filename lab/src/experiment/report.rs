//! Summaries of an experiment: per (setting, acquisition, rule) the mean cost-adjusted regret
//! ± 2 standard errors, the mean stopping time, the share of runs that hit the cap, ranks; the
//! regret-versus-iteration curves; the files of an output directory (tables, CSV, figures, and
//! the raw runs from which `pbgi merge` rebuilds everything), and the on-screen table. No file
//! carries a timing.
use super::config::ExperimentConfig;
use super::run::RunResult;
use super::study::{settings, ExperimentResults};
use crate::study::config::{format_number, to_toml};
use crate::study::output::{csv_document, field, read_csv, Files};
use crate::study::plot::{regret_figure, Marker, RegretPanel};
use crate::study::shard::{Manifest, Shard, StudyKind, MANIFEST};
use crate::study::stats::Estimate;
use std::fmt::Write as _;
use std::path::Path;

/// Name of the per-run hindsight-optimal stopping rule (a lower bound for every rule).
pub const HINDSIGHT: &str = "Hindsight";
/// Name of the best fixed stopping time in hindsight (chosen per setting and acquisition from
/// the mean curve: a lower bound for fixed-iteration stopping).
pub const HINDSIGHT_FIXED: &str = "Hindsight-fixed";

/// One row of the summary.
#[derive(Clone, Debug, PartialEq)]
pub struct SummaryRow {
    pub setting: usize,
    pub acquisition: usize,
    /// Rule name, or [`HINDSIGHT`] / [`HINDSIGHT_FIXED`].
    pub rule: String,
    /// Whether this row is an oracle (hindsight) rather than a stopping rule.
    pub oracle: bool,
    pub runs: usize,
    pub mean_regret: f64,
    /// Two standard errors of the mean regret.
    pub two_se_regret: f64,
    /// Mean over runs of (this row's regret − the run's hindsight regret), paired.
    pub mean_excess: f64,
    pub two_se_excess: f64,
    /// Mean over runs of (this row's regret − the reference rule's regret on the same run),
    /// paired; the reference is the first selected rule (PBGI/LogEIPC when selected).
    pub mean_vs_reference: f64,
    pub two_se_vs_reference: f64,
    pub mean_stop: f64,
    pub two_se_stop: f64,
    /// Share of runs in which the rule did not fire before the cap (stopping time = cap).
    /// For oracles: the share whose chosen time is the cap.
    pub cap_share: f64,
    /// Rank by mean regret among the stopping rules for this setting and acquisition (1 = best;
    /// 0 for oracles).
    pub rank_in_acquisition: usize,
    /// Rank among all acquisition × rule pairs of the setting (0 for oracles).
    pub rank_in_setting: usize,
}

/// Mean cost-adjusted regret curve of one (setting, acquisition): entry `t − 1` is
/// `(mean, 2·SE)` over seeds of the regret when always stopping after `t` evaluations.
#[derive(Clone, Debug, PartialEq)]
pub struct Curve {
    pub setting: usize,
    pub acquisition: usize,
    pub points: Vec<(f64, f64)>,
}

/// Mean and two standard errors (`+∞` for a single value).
fn mean_two_se(values: &[f64]) -> (f64, f64) {
    let e = Estimate::of(values);
    (e.mean, e.two_se())
}

/// The runs of one (setting, acquisition), in seed order.
fn runs_of(results: &ExperimentResults, setting: usize, acquisition: usize) -> Vec<&RunResult> {
    results
        .runs
        .iter()
        .filter(|r| r.setting == setting && r.acquisition == acquisition)
        .collect()
}

/// Regret-versus-iteration curves for every (setting, acquisition).
pub fn curves(results: &ExperimentResults) -> Vec<Curve> {
    let mut out = Vec::new();
    for setting in 0..results.settings.len() {
        for acquisition in 0..results.acquisitions.len() {
            let runs = runs_of(results, setting, acquisition);
            let cap = runs.first().map_or(0, |r| r.simple_regret.len());
            let points = (1..=cap)
                .map(|t| mean_two_se(&runs.iter().map(|r| r.regret_at(t)).collect::<Vec<_>>()))
                .collect();
            out.push(Curve {
                setting,
                acquisition,
                points,
            });
        }
    }
    out
}

/// The summary rows: every rule, then [`HINDSIGHT`] and [`HINDSIGHT_FIXED`], for every
/// (setting, acquisition), with ranks filled in.
pub fn summarize(results: &ExperimentResults, initial_points: usize) -> Vec<SummaryRow> {
    let curves = curves(results);
    let mut rows = Vec::new();
    for setting in 0..results.settings.len() {
        for acquisition in 0..results.acquisitions.len() {
            let runs = runs_of(results, setting, acquisition);
            let cap = runs.first().map_or(0, |r| r.simple_regret.len());
            let hindsight: Vec<usize> = runs
                .iter()
                .map(|r| r.hindsight_stop(initial_points))
                .collect();
            let hindsight_regret: Vec<f64> = runs
                .iter()
                .zip(&hindsight)
                .map(|(r, &t)| r.regret_at(t))
                .collect();
            // Rules are stored in selection order; the first is the paired reference.
            let reference_regret: Vec<f64> = runs.iter().map(|r| r.regret_at(r.stop[0])).collect();
            let mut push = |rule: String, oracle: bool, stops: Vec<usize>, capped: Vec<bool>| {
                let regret: Vec<f64> = runs
                    .iter()
                    .zip(&stops)
                    .map(|(r, &t)| r.regret_at(t))
                    .collect();
                let excess: Vec<f64> = regret
                    .iter()
                    .zip(&hindsight_regret)
                    .map(|(a, b)| a - b)
                    .collect();
                let stops_f: Vec<f64> = stops.iter().map(|&t| t as f64).collect();
                let (mean_regret, two_se_regret) = mean_two_se(&regret);
                let (mean_excess, two_se_excess) = mean_two_se(&excess);
                let versus: Vec<f64> = regret
                    .iter()
                    .zip(&reference_regret)
                    .map(|(a, b)| a - b)
                    .collect();
                let (mean_vs_reference, two_se_vs_reference) = mean_two_se(&versus);
                let (mean_stop, two_se_stop) = mean_two_se(&stops_f);
                rows.push(SummaryRow {
                    setting,
                    acquisition,
                    rule,
                    oracle,
                    runs: runs.len(),
                    mean_regret,
                    two_se_regret,
                    mean_excess,
                    two_se_excess,
                    mean_vs_reference,
                    two_se_vs_reference,
                    mean_stop,
                    two_se_stop,
                    cap_share: capped.iter().filter(|&&c| c).count() as f64
                        / capped.len().max(1) as f64,
                    rank_in_acquisition: 0,
                    rank_in_setting: 0,
                });
            };
            for (i, name) in results.rules.iter().enumerate() {
                let stops = runs.iter().map(|r| r.stop[i]).collect();
                let capped = runs.iter().map(|r| !r.fired[i]).collect();
                push(name.clone(), false, stops, capped);
            }
            let at_cap = hindsight.iter().map(|&t| t == cap).collect();
            push(HINDSIGHT.to_string(), true, hindsight.clone(), at_cap);
            let curve = &curves[setting * results.acquisitions.len() + acquisition];
            let best_fixed = (initial_points..=cap)
                .min_by(|&a, &b| curve.points[a - 1].0.total_cmp(&curve.points[b - 1].0))
                .unwrap_or(cap);
            push(
                format!("{HINDSIGHT_FIXED} (t={best_fixed})"),
                true,
                vec![best_fixed; runs.len()],
                vec![best_fixed == cap; runs.len()],
            );
        }
    }
    assign_ranks(&mut rows);
    rows
}

/// Ranks by mean regret (ties share the better rank's order of appearance).
fn assign_ranks(rows: &mut [SummaryRow]) {
    let rank_by = |rows: &mut [SummaryRow],
                   same_group: &dyn Fn(&SummaryRow, &SummaryRow) -> bool,
                   acquisition_level: bool| {
        for i in 0..rows.len() {
            if rows[i].oracle {
                continue;
            }
            let rank = 1 + rows
                .iter()
                .filter(|o| {
                    !o.oracle && same_group(o, &rows[i]) && o.mean_regret < rows[i].mean_regret
                })
                .count();
            if acquisition_level {
                rows[i].rank_in_acquisition = rank;
            } else {
                rows[i].rank_in_setting = rank;
            }
        }
    };
    rank_by(
        rows,
        &|a, b| a.setting == b.setting && a.acquisition == b.acquisition,
        true,
    );
    rank_by(rows, &|a, b| a.setting == b.setting, false);
}

/// `cost`, `λ` label of a setting for tables.
fn setting_label(results: &ExperimentResults, setting: usize) -> (String, String) {
    let s = &results.settings[setting];
    (s.cost.key().to_string(), format_number(s.lambda))
}

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
    let records = read_csv(&path, &TRAJECTORY_HEADER)?;
    if records.len() % cap != 0 {
        return Err(format!(
            "{}: {} rows is not a whole number of runs of {cap} evaluations",
            path.display(),
            records.len()
        ));
    }
    let mut runs = Vec::new();
    for chunk in records.chunks(cap) {
        let first = &chunk[0];
        let line = first.position().map_or(0, |p| p.line());
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
                let line = record.position().map_or(0, |p| p.line());
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
            let line = record.position().map_or(0, |p| p.line());
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

/// `summary.csv` and `curves.csv`.
fn summary_files(
    results: &ExperimentResults,
    rows: &[SummaryRow],
    curves: &[Curve],
) -> Result<Files, String> {
    let reference = results.rules.first().cloned().unwrap_or_default();
    let summary: Vec<Vec<String>> = rows
        .iter()
        .map(|row| {
            let (cost, lambda) = setting_label(results, row.setting);
            vec![
                cost,
                lambda,
                results.acquisitions[row.acquisition].key().to_string(),
                row.rule.clone(),
                row.oracle.to_string(),
                row.runs.to_string(),
                format!("{:e}", row.mean_regret),
                format!("{:e}", row.two_se_regret),
                format!("{:e}", row.mean_excess),
                format!("{:e}", row.two_se_excess),
                reference.clone(),
                format!("{:e}", row.mean_vs_reference),
                format!("{:e}", row.two_se_vs_reference),
                format!("{}", row.mean_stop),
                format!("{}", row.two_se_stop),
                format!("{}", row.cap_share),
                row.rank_in_acquisition.to_string(),
                row.rank_in_setting.to_string(),
            ]
        })
        .collect();
    let mut curve_rows = Vec::new();
    for curve in curves {
        let (cost, lambda) = setting_label(results, curve.setting);
        for (i, (mean, two_se)) in curve.points.iter().enumerate() {
            curve_rows.push(vec![
                cost.clone(),
                lambda.clone(),
                results.acquisitions[curve.acquisition].key().to_string(),
                (i + 1).to_string(),
                format!("{mean:e}"),
                format!("{two_se:e}"),
            ]);
        }
    }
    Ok(vec![
        (
            "summary.csv".to_string(),
            csv_document(
                &[
                    "cost",
                    "lambda",
                    "acquisition",
                    "rule",
                    "oracle",
                    "runs",
                    "mean_regret",
                    "two_se_regret",
                    "mean_excess_over_hindsight",
                    "two_se_excess",
                    "reference_rule",
                    "mean_minus_reference",
                    "two_se_minus_reference",
                    "mean_stop",
                    "two_se_stop",
                    "cap_share",
                    "rank_in_acquisition",
                    "rank_in_setting",
                ],
                &summary,
            )?,
        ),
        (
            "curves.csv".to_string(),
            csv_document(
                &[
                    "cost",
                    "lambda",
                    "acquisition",
                    "t",
                    "mean_regret",
                    "two_se_regret",
                ],
                &curve_rows,
            )?,
        ),
    ])
}

/// The figure of one setting: a panel per acquisition.
pub fn setting_figure(
    results: &ExperimentResults,
    rows: &[SummaryRow],
    curves: &[Curve],
    setting: usize,
) -> Result<String, String> {
    let (cost, lambda) = setting_label(results, setting);
    let n_acq = results.acquisitions.len();
    let panels: Vec<RegretPanel> = (0..n_acq)
        .map(|a| RegretPanel {
            title: results.acquisitions[a].label().to_string(),
            curve: curves[setting * n_acq + a].points.clone(),
            markers: rows
                .iter()
                .filter(|r| r.setting == setting && r.acquisition == a)
                .map(|r| Marker {
                    label: r.rule.split(" (").next().unwrap_or(&r.rule).to_string(),
                    x: r.mean_stop,
                    x_err: r.two_se_stop,
                    y: r.mean_regret,
                    y_err: r.two_se_regret,
                })
                .collect(),
        })
        .collect();
    regret_figure(
        &format!(
            "{cost} cost, λ = {lambda}: cost-adjusted simple regret vs. stopping time (mean ± 2SE)"
        ),
        &panels,
    )
}

/// Everything an output directory holds, in the order it is written, and the on-screen table.
pub fn report_files(
    config: &ExperimentConfig,
    results: &ExperimentResults,
) -> Result<(String, Files), String> {
    let rows = summarize(results, config.initial_points);
    let curves = curves(results);
    let table = summary_table(results, &rows, config.samples);
    let mut files = raw_files(results, config.initial_points)?;
    files.extend(summary_files(results, &rows, &curves)?);
    for setting in 0..results.settings.len() {
        let (cost, lambda) = setting_label(results, setting);
        files.push((
            format!("regret_{cost}_lambda_{lambda}.svg"),
            setting_figure(results, &rows, &curves, setting)?.into_bytes(),
        ));
    }
    files.push(("summary.txt".to_string(), table.clone().into_bytes()));
    files.push((
        "comparison.md".to_string(),
        comparison_markdown(results, &rows, config.samples).into_bytes(),
    ));
    files.push((
        "config.toml".to_string(),
        to_toml(&config.effective()?)?.into_bytes(),
    ));
    Ok((table, files))
}

/// The files of one shard: the raw runs, the configuration and the manifest.
pub fn shard_files(
    config: &ExperimentConfig,
    results: &ExperimentResults,
    shard: Shard,
) -> Result<Files, String> {
    let manifest = Manifest {
        study: StudyKind::Experiment,
        shard: shard.to_string(),
    };
    let mut files = raw_files(results, config.initial_points)?;
    files.push((
        "config.toml".to_string(),
        to_toml(&config.effective()?)?.into_bytes(),
    ));
    files.push((MANIFEST.to_string(), to_toml(&manifest)?.into_bytes()));
    Ok(files)
}

/// Merges shard directories (already checked to be a complete set with one configuration):
/// the on-screen table and the files, byte for byte those of the unsplit run.
pub fn merge(config: &ExperimentConfig, dirs: &[&Path]) -> Result<(String, Files), String> {
    config.validate()?;
    let rules = super::study::rule_names(&config.rule_factories()?);
    let mut runs = Vec::new();
    for dir in dirs {
        runs.extend(read_raw(config, &rules, dir)?);
    }
    runs.sort_by_key(|r| (r.setting, r.sample, r.acquisition));
    let expected = settings(config).len() * config.samples * config.acquisitions.len();
    if runs.len() != expected
        || runs.windows(2).any(|w| {
            (w[0].setting, w[0].sample, w[0].acquisition)
                == (w[1].setting, w[1].sample, w[1].acquisition)
        })
    {
        return Err(format!(
            "the shards hold {} runs, not the {expected} distinct runs of the configuration",
            runs.len()
        ));
    }
    let results = ExperimentResults {
        settings: settings(config),
        acquisitions: config.acquisitions.clone(),
        rules,
        runs,
    };
    report_files(config, &results)
}

/// The on-screen summary: per setting, a table with one row per rule and one column per
/// acquisition; each cell is `mean regret ± 2SE  [rank]  mean τ  cap share`. Below each table,
/// the best acquisition × rule pair.
pub fn summary_table(results: &ExperimentResults, rows: &[SummaryRow], samples: usize) -> String {
    let mut out = String::new();
    let rule_width = rows
        .iter()
        .map(|r| r.rule.chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    let cell_width = 38;
    for setting in 0..results.settings.len() {
        let (cost, lambda) = setting_label(results, setting);
        let _ = writeln!(out, "\n{cost} cost, λ = {lambda} ({samples} samples): cost-adjusted regret ± 2SE [rank], mean τ, capped");
        let _ = write!(out, "{:<rule_width$}", "rule");
        for name in &results.acquisitions {
            let _ = write!(out, " | {:<cell_width$}", name.label());
        }
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "{}",
            "-".repeat(rule_width + results.acquisitions.len() * (cell_width + 3))
        );
        let setting_rows: Vec<&SummaryRow> = rows.iter().filter(|r| r.setting == setting).collect();
        let n_rows = setting_rows.len() / results.acquisitions.len().max(1);
        for i in 0..n_rows {
            let first = setting_rows[i];
            let label = if first.oracle {
                first.rule.split(" (").next().unwrap_or(&first.rule)
            } else {
                &first.rule
            };
            let _ = write!(out, "{label:<rule_width$}");
            for a in 0..results.acquisitions.len() {
                let row = setting_rows[a * n_rows + i];
                let rank = if row.oracle {
                    "    ".to_string()
                } else {
                    format!("[{}]", row.rank_in_acquisition)
                };
                let cell = format!(
                    "{:.4}±{:.4} {rank:<4} τ {:>5.1} {:>3.0}%",
                    row.mean_regret,
                    row.two_se_regret,
                    row.mean_stop,
                    100.0 * row.cap_share
                );
                let _ = write!(out, " | {cell:<cell_width$}");
            }
            let _ = writeln!(out);
        }
        if let Some(best) = setting_rows
            .iter()
            .filter(|r| r.rank_in_setting == 1)
            .min_by(|a, b| a.mean_regret.total_cmp(&b.mean_regret))
        {
            let _ = writeln!(
                out,
                "best pair: {} + {} ({:.4} ± {:.4})",
                results.acquisitions[best.acquisition].label(),
                best.rule,
                best.mean_regret,
                best.two_se_regret
            );
        }
    }
    out
}

/// `mean±spread` with 3 significant digits of the mean (4 below 0.1) and the spread to the
/// same decimal place, as the comparison tables print them.
fn mean_pm(mean: f64, spread: f64) -> String {
    if !mean.is_finite() || mean == 0.0 {
        return format!("{mean}±{spread}");
    }
    let digits = if mean.abs() < 0.1 { 4 } else { 3 };
    let magnitude = mean.abs().log10().floor() as i32;
    let decimals = (digits - 1 - magnitude).max(0) as usize;
    format!("{mean:.decimals$}±{spread:.decimals$}")
}

/// `comparison.md`: per cost function, a Markdown table with one row per rule (and the
/// Hindsight lower bound) and one column per matched acquisition (PBGI, LogEIPC; the others
/// when those are absent) and `λ`. A cell is `mean ± 2SE [rank among the rules for that
/// acquisition]`, the best rule of the column in bold, then the mean stopping time and the
/// share of runs that hit the cap when above 0. This is the README's comparison table.
pub fn comparison_markdown(
    results: &ExperimentResults,
    rows: &[SummaryRow],
    samples: usize,
) -> String {
    use crate::acquisitions::AcquisitionName;
    let matched: Vec<usize> = results
        .acquisitions
        .iter()
        .enumerate()
        .filter(|(_, a)| matches!(a, AcquisitionName::Pbgi | AcquisitionName::LogEipc))
        .map(|(i, _)| i)
        .collect();
    let columns_acq: Vec<usize> = if matched.is_empty() {
        (0..results.acquisitions.len()).collect()
    } else {
        matched
    };
    let mut costs: Vec<crate::study::config::CostName> = Vec::new();
    for s in &results.settings {
        if !costs.contains(&s.cost) {
            costs.push(s.cost);
        }
    }
    let mut out = String::new();
    for cost in costs {
        let settings: Vec<usize> = (0..results.settings.len())
            .filter(|&i| results.settings[i].cost == cost)
            .collect();
        let _ = writeln!(
            out,
            "\n{} cost ({samples} samples): cost-adjusted simple regret, mean ± 2SE [rank among \
             rules for the acquisition], mean stopping time τ, share of runs capped\n",
            cost.key()
        );
        let mut header = String::from("| rule |");
        let mut rule_line = String::from("|---|");
        let mut columns = Vec::new();
        for &setting in &settings {
            for &a in &columns_acq {
                let _ = write!(
                    header,
                    " {}, λ={} |",
                    results.acquisitions[a].label(),
                    format_number(results.settings[setting].lambda)
                );
                rule_line.push_str("---|");
                columns.push((setting, a));
            }
        }
        let _ = writeln!(out, "{header}\n{rule_line}");
        let names: Vec<String> = rows
            .iter()
            .filter(|r| r.setting == settings[0] && r.acquisition == columns_acq[0])
            .filter(|r| !r.rule.starts_with(HINDSIGHT_FIXED))
            .map(|r| r.rule.clone())
            .collect();
        for name in names {
            let label = if name == HINDSIGHT {
                "Hindsight (lower bound)".to_string()
            } else {
                name.clone()
            };
            let _ = write!(out, "| {label} |");
            for &(setting, a) in &columns {
                let Some(row) = rows
                    .iter()
                    .find(|r| r.setting == setting && r.acquisition == a && r.rule == name)
                else {
                    out.push_str(" – |");
                    continue;
                };
                let value = mean_pm(row.mean_regret, row.two_se_regret);
                let cell = if row.oracle {
                    value
                } else if row.rank_in_acquisition == 1 {
                    format!("**{value}** [1]")
                } else {
                    format!("{value} [{}]", row.rank_in_acquisition)
                };
                let capped = if row.cap_share > 0.0 {
                    format!(" {:.0}%", 100.0 * row.cap_share)
                } else {
                    String::new()
                };
                let _ = write!(out, " {cell} τ{:.1}{capped} |", row.mean_stop);
            }
            out.push('\n');
        }
    }
    out
}

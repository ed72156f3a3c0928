//! Summaries of an experiment: per (setting, acquisition, rule) the mean cost-adjusted regret
//! ± 2 standard errors, the mean stopping time, the share of runs that hit the cap, ranks; the
//! regret-versus-iteration curves; CSV files and the on-screen table.
use super::run::{ExperimentResults, RunResult};
use super::sample_stats::mean_and_standard_error;
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

/// Mean and two standard errors (0 for a single value).
fn mean_two_se(values: &[f64]) -> (f64, f64) {
    mean_and_standard_error(values).map_or((f64::NAN, f64::NAN), |(m, se)| (m, 2.0 * se))
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
    (s.cost.clone(), format!("{}", s.lambda))
}

/// Writes `runs.csv`, `summary.csv` and `curves.csv` into `dir` (which must exist).
pub fn write_csv(
    dir: &Path,
    results: &ExperimentResults,
    rows: &[SummaryRow],
    curves: &[Curve],
    initial_points: usize,
) -> Result<(), String> {
    let open = |name: &str| {
        let path = dir.join(name);
        csv::Writer::from_path(&path).map_err(|e| format!("cannot create {}: {e}", path.display()))
    };
    fn fail(name: &'static str) -> impl Fn(csv::Error) -> String {
        move |e| format!("cannot write {name}: {e}")
    }

    let mut w = open("runs.csv")?;
    w.write_record([
        "cost",
        "lambda",
        "acquisition",
        "seed",
        "rule",
        "stop",
        "fired",
        "simple_regret",
        "cumulative_cost",
        "regret",
    ])
    .map_err(fail("runs.csv"))?;
    for run in &results.runs {
        let (cost, lambda) = setting_label(results, run.setting);
        let hindsight = run.hindsight_stop(initial_points);
        let entries = results
            .rules
            .iter()
            .enumerate()
            .map(|(i, name)| (name.as_str(), run.stop[i], run.fired[i].to_string()))
            .chain(std::iter::once((HINDSIGHT, hindsight, String::new())));
        for (rule, t, fired) in entries {
            w.write_record([
                cost.clone(),
                lambda.clone(),
                results.acquisitions[run.acquisition].clone(),
                run.seed.to_string(),
                rule.to_string(),
                t.to_string(),
                fired,
                format!("{:e}", run.simple_regret[t - 1]),
                format!("{:e}", run.cumulative_cost[t - 1]),
                format!("{:e}", run.regret_at(t)),
            ])
            .map_err(fail("runs.csv"))?;
        }
    }
    w.flush()
        .map_err(|e| format!("cannot write runs.csv: {e}"))?;

    let mut w = open("summary.csv")?;
    w.write_record([
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
    ])
    .map_err(fail("summary.csv"))?;
    for row in rows {
        let (cost, lambda) = setting_label(results, row.setting);
        w.write_record([
            cost,
            lambda,
            results.acquisitions[row.acquisition].clone(),
            row.rule.clone(),
            row.oracle.to_string(),
            row.runs.to_string(),
            format!("{:e}", row.mean_regret),
            format!("{:e}", row.two_se_regret),
            format!("{:e}", row.mean_excess),
            format!("{:e}", row.two_se_excess),
            results.rules.first().cloned().unwrap_or_default(),
            format!("{:e}", row.mean_vs_reference),
            format!("{:e}", row.two_se_vs_reference),
            format!("{}", row.mean_stop),
            format!("{}", row.two_se_stop),
            format!("{}", row.cap_share),
            row.rank_in_acquisition.to_string(),
            row.rank_in_setting.to_string(),
        ])
        .map_err(fail("summary.csv"))?;
    }
    w.flush()
        .map_err(|e| format!("cannot write summary.csv: {e}"))?;

    let mut w = open("curves.csv")?;
    w.write_record([
        "cost",
        "lambda",
        "acquisition",
        "t",
        "mean_regret",
        "two_se_regret",
    ])
    .map_err(fail("curves.csv"))?;
    for curve in curves {
        let (cost, lambda) = setting_label(results, curve.setting);
        for (i, (mean, two_se)) in curve.points.iter().enumerate() {
            w.write_record([
                cost.clone(),
                lambda.clone(),
                results.acquisitions[curve.acquisition].clone(),
                (i + 1).to_string(),
                format!("{mean:e}"),
                format!("{two_se:e}"),
            ])
            .map_err(fail("curves.csv"))?;
        }
    }
    w.flush()
        .map_err(|e| format!("cannot write curves.csv: {e}"))
}

/// The on-screen summary: per setting, a table with one row per rule and one column per
/// acquisition; each cell is `mean regret ± 2SE  [rank]  mean τ  cap share`. Below each table,
/// the best acquisition × rule pair.
pub fn summary_table(results: &ExperimentResults, rows: &[SummaryRow], seeds: usize) -> String {
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
        let _ = writeln!(out, "\n{cost} cost, λ = {lambda} ({seeds} seeds): cost-adjusted regret ± 2SE [rank], mean τ, capped");
        let _ = write!(out, "{:<rule_width$}", "rule");
        for name in &results.acquisitions {
            let _ = write!(out, " | {name:<cell_width$}");
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
                results.acquisitions[best.acquisition],
                best.rule,
                best.mean_regret,
                best.two_se_regret
            );
        }
    }
    out
}

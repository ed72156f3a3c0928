//! The experiment's tables: `summary.csv` and `curves.csv`, and the on-screen summary (also
//! `summary.txt`).
use super::summary::{setting_label, Curve, SummaryRow};
use crate::experiment::ExperimentResults;
use crate::study::output::{csv_document, Files};
use std::fmt::Write as _;

/// `summary.csv` and `curves.csv`.
pub(super) fn summary_files(
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

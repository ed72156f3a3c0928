//! `comparison.md`: the comparison table (docs/results/experiment-paper-1d.md), per cost function.
use super::summary::{SummaryRow, HINDSIGHT, HINDSIGHT_FIXED};
use crate::acquisitions::AcquisitionName;
use crate::experiment::ExperimentResults;
use crate::study::config::{format_number, CostName};
use std::fmt::Write as _;

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
/// share of runs that hit the cap when above 0. This is the comparison table of docs/results/experiment-paper-1d.md.
pub fn comparison_markdown(
    results: &ExperimentResults,
    rows: &[SummaryRow],
    samples: usize,
) -> String {
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
    let mut costs: Vec<CostName> = Vec::new();
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

//! The experiment's statistics: per (setting, acquisition, rule) the mean cost-adjusted regret
//! ± 2 standard errors, the paired excess over the run's hindsight-optimal stop and over the
//! reference rule, the mean stopping time, the share of runs that hit the cap and the ranks;
//! and the regret-versus-iteration curves.
use crate::experiment::{ExperimentResults, RunResult};
use crate::study::config::format_number;
use crate::study::stats::Estimate;

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
pub(super) fn setting_label(results: &ExperimentResults, setting: usize) -> (String, String) {
    let s = &results.settings[setting];
    (s.cost.key().to_string(), format_number(s.lambda))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::Setting;
    use crate::study::config::CostName;

    /// One setting, one acquisition, one rule, two runs of cap 3, values exact in binary.
    /// Run A: regret + cost = 3.5, 3, 2.5; the rule stops at 2 (3), hindsight at 3 (2.5).
    /// Run B: regret + cost = 3, 3, 4; the rule stops at 1 (3), hindsight at 1 (3).
    fn results() -> ExperimentResults {
        let run = |sample, simple_regret: [f64; 3], cumulative_cost: [f64; 3], stop| RunResult {
            setting: 0,
            sample,
            acquisition: 0,
            simple_regret: simple_regret.to_vec(),
            cumulative_cost: cumulative_cost.to_vec(),
            stop: vec![stop],
            fired: vec![true],
            statistic: Vec::new(),
        };
        ExperimentResults {
            settings: vec![Setting {
                cost: CostName::Linear,
                lambda: 0.5,
            }],
            acquisitions: vec![crate::acquisitions::AcquisitionName::Pbgi],
            rules: vec!["Rule".into()],
            runs: vec![
                run(0, [3.0, 2.0, 1.0], [0.5, 1.0, 1.5], 2),
                run(1, [2.0, 1.0, 1.0], [1.0, 2.0, 3.0], 1),
            ],
        }
    }

    #[test]
    fn summary_matches_hand_computed_values() {
        let rows = summarize(&results(), 1);
        assert_eq!(rows.len(), 3);
        let rule = &rows[0];
        assert_eq!(
            (rule.rule.as_str(), rule.oracle, rule.runs),
            ("Rule", false, 2)
        );
        // Regrets 3 and 3: mean 3, no spread.
        assert_eq!((rule.mean_regret, rule.two_se_regret), (3.0, 0.0));
        // Excess over hindsight 0.5 and 0: mean 0.25, s = √0.125, 2·s/√2 = 0.5.
        assert_eq!((rule.mean_excess, rule.two_se_excess), (0.25, 0.5));
        // The rule is its own reference.
        assert_eq!(
            (rule.mean_vs_reference, rule.two_se_vs_reference),
            (0.0, 0.0)
        );
        // Stops 2 and 1: mean 1.5, s = √0.5, 2·s/√2 = 1.
        assert_eq!((rule.mean_stop, rule.two_se_stop), (1.5, 1.0));
        assert_eq!(
            (
                rule.cap_share,
                rule.rank_in_acquisition,
                rule.rank_in_setting
            ),
            (0.0, 1, 1)
        );
        let hindsight = &rows[1];
        assert_eq!(
            (hindsight.rule.as_str(), hindsight.oracle),
            (HINDSIGHT, true)
        );
        // Regrets 2.5 and 3; stops 3 (the cap) and 1.
        assert_eq!((hindsight.mean_regret, hindsight.mean_stop), (2.75, 2.0));
        assert_eq!(
            (hindsight.cap_share, hindsight.rank_in_acquisition),
            (0.5, 0)
        );
        // Mean curve 3.25, 3, 3.25: the best fixed time is 2, with regrets 3 and 3.
        let fixed = &rows[2];
        assert_eq!(fixed.rule, format!("{HINDSIGHT_FIXED} (t=2)"));
        assert_eq!(
            (fixed.mean_regret, fixed.mean_stop, fixed.cap_share),
            (3.0, 2.0, 0.0)
        );
    }

    #[test]
    fn curves_average_regret_plus_cost_at_every_time() {
        let curves = curves(&results());
        assert_eq!(curves.len(), 1);
        let means: Vec<f64> = curves[0].points.iter().map(|p| p.0).collect();
        assert_eq!(means, [3.25, 3.0, 3.25]);
        // At t = 2 both runs have 3: no spread.
        assert_eq!(curves[0].points[1].1, 0.0);
    }
}

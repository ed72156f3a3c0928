//! The experiment's figures: per setting, the mean regret curve of each acquisition with every
//! rule's mean stopping time and regret marked.
use super::summary::{setting_label, Curve, SummaryRow};
use crate::experiment::ExperimentResults;
use crate::study::plot::{regret_figure, Marker, RegretPanel};

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

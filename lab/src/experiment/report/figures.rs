//! The experiment's figures: per setting, the mean regret curve of each acquisition with every
//! rule's mean stopping time and regret marked, and the PBGI/LogEIPC statistic per check of a
//! few samples, raw and moving-averaged (the stopping paper's Fig. 6).
use super::raw::moving_averages;
use super::summary::{setting_label, Curve, SummaryRow};
use crate::acquisitions::AcquisitionName;
use crate::experiment::{ExperimentConfig, ExperimentResults};
use crate::rules::pbgi_logeipc::StopForm;
use crate::study::plot::{
    interval_figure, line_figure, regret_figure, ForestRow, LinePanel, LineSeries, Marker,
    RegretPanel,
};
use crate::study::stats::Estimate;

/// Where the statistic figures cut LogEIPC off (values below are drawn at it).
const LOG_EIPC_FLOOR: f64 = -20.0;

/// How many samples the statistic figures show (the lowest sample indices of the results).
pub const STATISTIC_SAMPLES_SHOWN: usize = 3;

/// The statistic figure of one setting (the stopping paper's Fig. 6): a panel per
/// acquisition, and for each of the first [`STATISTIC_SAMPLES_SHOWN`] samples the raw
/// PBGI/LogEIPC statistic at every check (thin) and its moving average (thick, where a window
/// is set and full); the rule signals at or below the dashed line at 0.
pub fn statistic_figure(
    config: &ExperimentConfig,
    results: &ExperimentResults,
    setting: usize,
) -> Result<String, String> {
    let (cost, lambda) = setting_label(results, setting);
    let (form, window) = config.traced_statistic()?;
    let mut shown: Vec<usize> = results
        .runs
        .iter()
        .filter(|r| r.setting == setting)
        .map(|r| r.sample)
        .collect();
    shown.sort_unstable();
    shown.dedup();
    shown.truncate(STATISTIC_SAMPLES_SHOWN);
    let mut panels = Vec::new();
    for (a, acquisition) in results.acquisitions.iter().enumerate() {
        let mut series = Vec::new();
        for (k, &sample) in shown.iter().enumerate() {
            let Some(run) = results
                .runs
                .iter()
                .find(|r| r.setting == setting && r.acquisition == a && r.sample == sample)
            else {
                continue;
            };
            let t = |i: usize| (config.initial_points + i) as f64;
            series.push(LineSeries {
                label: format!("sample {sample}, raw"),
                color: k,
                thick: false,
                points: run
                    .statistic
                    .iter()
                    .enumerate()
                    .map(|(i, &v)| (t(i), v))
                    .collect(),
            });
            if window > 1 {
                let averages = moving_averages(&run.statistic, window)?;
                series.push(LineSeries {
                    label: format!("sample {sample}, mean of {window}"),
                    color: k,
                    thick: true,
                    points: averages
                        .iter()
                        .enumerate()
                        .map(|(i, m)| (t(i), m.unwrap_or(f64::NAN)))
                        .collect(),
                });
            }
        }
        panels.push(LinePanel {
            title: panel_title(config, *acquisition),
            series,
        });
    }
    // LogEIPC plunges once EI underflows (−∞ when no point is left): drawn at −20 (EI below
    // e⁻²⁰ of the cost). The PBGI form is in the objective's units: drawn as it is.
    let (statistic, floor, clipped) = match form {
        StopForm::LogEipc => (
            "max LogEIPC",
            Some(LOG_EIPC_FLOOR),
            ", drawn at −20 below it",
        ),
        StopForm::Pbgi => ("y* − min PBGI", None, ""),
    };
    line_figure(
        &format!(
            "{cost} cost{}, λ = {lambda}: the PBGI/LogEIPC statistic ({statistic}{clipped}) per \
             check; stop at or below 0",
            cost_note(config)
        ),
        "evaluations t",
        statistic,
        0.0,
        floor,
        &panels,
    )
}

/// The figure of one setting: a panel per acquisition.
pub fn setting_figure(
    config: &ExperimentConfig,
    results: &ExperimentResults,
    rows: &[SummaryRow],
    curves: &[Curve],
    setting: usize,
) -> Result<String, String> {
    let (cost, lambda) = setting_label(results, setting);
    let n_acq = results.acquisitions.len();
    let panels: Vec<RegretPanel> = (0..n_acq)
        .map(|a| RegretPanel {
            title: panel_title(config, results.acquisitions[a]),
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
            "{cost} cost{}, λ = {lambda}: cost-adjusted simple regret vs. stopping time (mean ± \
             2SE)",
            cost_note(config)
        ),
        &panels,
    )
}

/// A panel's title: the acquisition, and under an unknown cost its log-normal form.
fn panel_title(config: &ExperimentConfig, acquisition: AcquisitionName) -> String {
    match (config.cost_model.is_unknown(), acquisition) {
        (true, AcquisitionName::Pbgi) => "PBGI with E[c]".into(),
        (true, AcquisitionName::LogEipc) => match config.cost_model.logeipc.as_str() {
            "inv" => "LogEIPC-inv".into(),
            _ => "LogEIPC-exp".into(),
        },
        _ => acquisition.label().to_string(),
    }
}

/// `" (unknown: a GP on ln c)"` under an unknown cost, else nothing.
fn cost_note(config: &ExperimentConfig) -> &'static str {
    match config.cost_model.is_unknown() {
        true => " (unknown: a GP on ln c)",
        false => "",
    }
}

/// The figure of a configuration's rule variants (`[rules."<key>@<label>"]` beside
/// `[rules.<key>]`, e.g. App. C.2's check order, Fig. 11): per setting and acquisition, the
/// paired difference of cost-adjusted regret at the stopping times, variant − rule, with its
/// 95% interval, on a linear axis. `None` without variants.
pub fn variants_figure(
    config: &ExperimentConfig,
    results: &ExperimentResults,
) -> Result<Option<String>, String> {
    let pairs = config.rule_variants()?;
    if pairs.is_empty() {
        return Ok(None);
    }
    let mut rows = Vec::new();
    for &(variant, rule) in &pairs {
        for setting in 0..results.settings.len() {
            let (cost, lambda) = setting_label(results, setting);
            for a in 0..results.acquisitions.len() {
                let differences: Vec<f64> = results
                    .runs
                    .iter()
                    .filter(|r| r.setting == setting && r.acquisition == a)
                    .map(|r| r.regret_at(r.stop[variant]) - r.regret_at(r.stop[rule]))
                    .collect();
                let estimate = Estimate::of(&differences);
                let name = match pairs.len() {
                    1 => String::new(),
                    _ => format!(" · {}", results.rules[variant]),
                };
                rows.push(ForestRow {
                    label: format!(
                        "{cost}, λ = {lambda} · {}{name}",
                        panel_title(config, results.acquisitions[a])
                    ),
                    value: estimate.mean,
                    lower: estimate.lower_95(),
                    upper: estimate.upper_95(),
                });
            }
        }
    }
    let title = match pairs.as_slice() {
        [(variant, rule)] => format!(
            "{} − {}: paired difference of cost-adjusted regret (mean, 95% interval)",
            results.rules[*variant], results.rules[*rule]
        ),
        _ => "Each rule variant − its rule: paired difference of cost-adjusted regret (mean, \
              95% interval)"
            .to_string(),
    };
    interval_figure(&title, "regret difference", &rows, 0.0, true).map(Some)
}

//! Each rule's wall time per check (the stopping paper's Fig. 10): a measurement, so it is
//! written apart from the results (`pbgi experiment --timings DIR`), never into an output or a
//! shard directory, whose files must not depend on the machine, its load or the thread count.
use super::summary::setting_label;
use crate::experiment::{ExperimentResults, RuleTimes};
use crate::study::output::{csv_document, Files};
use crate::study::plot::{interval_figure, ForestRow};
use crate::study::stats::Estimate;

/// Columns of `rule_timings.csv`: one row per setting, acquisition and rule, pooled over the
/// samples (`seconds` is the total, `us_per_check` the total over the checks).
pub const TIMING_HEADER: [&str; 8] = [
    "cost",
    "lambda",
    "acquisition",
    "rule",
    "runs",
    "checks",
    "seconds",
    "us_per_check",
];

/// `rule_timings.csv`, `rule_timings.md` and `rule_timings.svg` from the times of every run
/// (in the order of `results.runs`). The figure and the table's 95% intervals pool every
/// setting: per (acquisition, rule), the mean over runs of each run's time per check.
pub fn timing_files(results: &ExperimentResults, times: &[RuleTimes]) -> Result<Files, String> {
    if times.len() != results.runs.len() {
        return Err(format!(
            "{} runs but {} timings",
            results.runs.len(),
            times.len()
        ));
    }
    let mut rows = Vec::new();
    for setting in 0..results.settings.len() {
        let (cost, lambda) = setting_label(results, setting);
        for (a, acquisition) in results.acquisitions.iter().enumerate() {
            for (k, rule) in results.rules.iter().enumerate() {
                let (mut runs, mut checks, mut seconds) = (0usize, 0usize, 0.0f64);
                for (run, time) in results.runs.iter().zip(times) {
                    if run.setting == setting && run.acquisition == a {
                        runs += 1;
                        checks += time.checks.get(k).copied().unwrap_or(0);
                        seconds += time.seconds.get(k).copied().unwrap_or(0.0);
                    }
                }
                rows.push(vec![
                    cost.clone(),
                    lambda.clone(),
                    acquisition.key().to_string(),
                    rule.clone(),
                    runs.to_string(),
                    checks.to_string(),
                    format!("{seconds:e}"),
                    format!("{:e}", per_check_us(seconds, checks)),
                ]);
            }
        }
    }
    let mut forest = Vec::new();
    let mut markdown = String::from(
        "# Each rule's wall time per check\n\nA measurement (machine, load and thread count \
         enter it): mean over runs of each run's time per check, with a 95% interval, every \
         setting pooled. On the continuous cube a step's optimum of a statistic is found once \
         and cached, so the first rule to ask for it pays for it.\n\n\
         | acquisition | rule | runs | checks | µs per check | 95% interval |\n\
         |---|---|---:|---:|---:|---|\n",
    );
    for (a, acquisition) in results.acquisitions.iter().enumerate() {
        for (k, rule) in results.rules.iter().enumerate() {
            let per_run: Vec<f64> = results
                .runs
                .iter()
                .zip(times)
                .filter(|(run, _)| run.acquisition == a)
                .filter_map(|(_, time)| {
                    let checks = time.checks.get(k).copied().unwrap_or(0);
                    let seconds = time.seconds.get(k).copied().unwrap_or(0.0);
                    (checks > 0).then(|| per_check_us(seconds, checks))
                })
                .collect();
            let checks: usize = times
                .iter()
                .zip(&results.runs)
                .filter(|(_, run)| run.acquisition == a)
                .map(|(time, _)| time.checks.get(k).copied().unwrap_or(0))
                .sum();
            let estimate = Estimate::of(&per_run);
            markdown.push_str(&format!(
                "| {} | {rule} | {} | {checks} | {:.3} | [{:.3}, {:.3}] |\n",
                acquisition.label(),
                per_run.len(),
                estimate.mean,
                estimate.lower_95(),
                estimate.upper_95()
            ));
            forest.push(ForestRow {
                label: format!("{} · {rule}", acquisition.label()),
                value: estimate.mean,
                lower: estimate.lower_95(),
                upper: estimate.upper_95(),
            });
        }
    }
    let figure = interval_figure(
        "Each rule's wall time per check (mean over runs, 95% interval; a measurement)",
        "µs per check (log axis)",
        &forest,
        f64::NAN,
        false,
    )?;
    Ok(vec![
        (
            "rule_timings.csv".to_string(),
            csv_document(&TIMING_HEADER, &rows)?,
        ),
        ("rule_timings.md".to_string(), markdown.into_bytes()),
        ("rule_timings.svg".to_string(), figure.into_bytes()),
    ])
}

/// Microseconds per check (NaN without checks).
fn per_check_us(seconds: f64, checks: usize) -> f64 {
    match checks {
        0 => f64::NAN,
        n => seconds * 1e6 / n as f64,
    }
}

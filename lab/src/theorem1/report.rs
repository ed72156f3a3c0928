//! The reports of `pbgi validate`: the on-screen table, `validate.md` (with the margin's
//! decomposition), `validate.csv`, the raw per-run file `runs.csv` (from which `pbgi merge`
//! rebuilds everything), and the forest plot of the costs. No file carries a timing, so an output
//! directory depends on the configuration only, never on the machine or `--threads`.
use super::config::Config;
use super::study::{
    aggregate, ConfigReport, RunSummary, SampleResult, Study, Verdict, STEP1_TOLERANCE,
};
use crate::bo::EndReason;
use crate::study::config::{format_number, to_toml};
use crate::study::output::{csv_document, field, line_of, read_csv_groups, Files};
use crate::study::plot::{forest_figure, ForestRow, HistogramPanel};
use crate::study::shard::{read_shards, shard_directory, Shard, StudyKind};
use crate::study::stats::Estimate;
use std::fmt::Write as _;
use std::path::Path;

/// `mean ± 95% half-width` with `digits` decimals.
fn pm(e: &Estimate, digits: usize) -> String {
    format!("{:.*} ± {:.*}", digits, e.mean, digits, e.half_width_95())
}

/// The on-screen table, one row per configuration.
pub fn text_table(reports: &[ConfigReport]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:<16} {:>6} {:<8} {:>3} {:>17} {:>17} {:>17} {:>6} {:>7} {:>17} {:>6}  verdict",
        "cost",
        "λ",
        "acq",
        "thm",
        "E[cost]",
        "C + U",
        "margin",
        "ratio",
        "E[τ]",
        "regret+cost",
        "capped"
    );
    for r in reports {
        let _ = writeln!(
            s,
            "{:<16} {:>6} {:<8} {:>3} {:>17} {:>17} {:>17} {:>5.1}% {:>7.1} {:>17} {:>6}  {}",
            r.config.cost_name.key(),
            format_number(r.config.lambda),
            r.config.acquisition.label(),
            if r.within_theorem { "yes" } else { "no" },
            pm(&r.cost, 4),
            pm(&r.bound, 4),
            pm(&r.margin, 4),
            100.0 * r.cost.mean / r.bound.mean,
            r.stopping_time.mean,
            pm(&r.adjusted_regret, 4),
            r.capped,
            r.verdict.label()
        );
    }
    s
}

/// The table of `validate.md`, with the margin's decomposition.
pub fn markdown_table(reports: &[ConfigReport]) -> String {
    let mut s = String::from(
        "| cost | λ | acq | thm | E[cost] | C + U | margin | cost/(C+U) | E[τ] | \
         regret+cost (eq. 2) | simple regret | step-1 slack | martingale | start | capped | verdict |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for r in reports {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {:.1}% | {:.1} | {} | {} | {} | {} | {} | {}/{} | {} |",
            r.config.cost_name.key(),
            format_number(r.config.lambda),
            r.config.acquisition.label(),
            if r.within_theorem { "yes" } else { "no" },
            pm(&r.cost, 4),
            pm(&r.bound, 4),
            pm(&r.margin, 4),
            100.0 * r.cost.mean / r.bound.mean,
            r.stopping_time.mean,
            pm(&r.adjusted_regret, 4),
            pm(&r.simple_regret, 4),
            pm(&r.step1_slack, 4),
            pm(&r.martingale, 4),
            pm(&r.start, 4),
            r.capped,
            r.samples,
            r.verdict.label()
        );
    }
    s
}

/// The verdict paragraph under the tables.
pub fn verdict_summary(reports: &[ConfigReport]) -> String {
    let theorem: Vec<&ConfigReport> = reports.iter().filter(|r| r.within_theorem).collect();
    let count = |v: Verdict| theorem.iter().filter(|r| r.verdict == v).count();
    let tightest = theorem
        .iter()
        .max_by(|a, b| (a.cost.mean / a.bound.mean).total_cmp(&(b.cost.mean / b.bound.mean)));
    let shortfalls: usize = theorem.iter().map(|r| r.step1_shortfalls).sum();
    let u = reports.first().map(|r| r.u);
    let mut s = String::new();
    if let Some(u) = u {
        let _ = writeln!(s, "U = μ - E[min f] = {} (95% CI, same samples)", pm(&u, 4));
    }
    let _ = writeln!(
        s,
        "Theorem 1 (E[cost] ≤ C + U), {} configurations in the theorem's setting: \
         held with 95% confidence in {}, tight (interval contains 0) in {}, VIOLATED in {}, \
         inconclusive because of capped runs in {}.",
        theorem.len(),
        count(Verdict::Held),
        count(Verdict::Tight),
        count(Verdict::Violated),
        count(Verdict::Capped)
    );
    if let Some(t) = tightest {
        let _ = writeln!(
            s,
            "Tightest: {} cost, λ = {}, {}: E[cost] = {} vs C + U = {} ({:.1}% of the bound).",
            t.config.cost_name.key(),
            format_number(t.config.lambda),
            t.config.acquisition.label(),
            pm(&t.cost, 4),
            pm(&t.bound, 4),
            100.0 * t.cost.mean / t.bound.mean
        );
    }
    if theorem.is_empty() {
        s.push_str(
            "Step 1 of the proof is checked only in the theorem's setting: not checked here.\n",
        );
    } else {
        let _ = writeln!(
            s,
            "Step 1 of the proof (EI(x_t) ≥ c(x_t) before stopping): {shortfalls} chosen points \
             fell short (relative tolerance {:e}).",
            STEP1_TOLERANCE
        );
    }
    s
}

/// `validate.csv`: one row per configuration.
fn csv_rows(reports: &[ConfigReport]) -> Result<String, String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let err = |e: csv::Error| format!("cannot format CSV: {e}");
    w.write_record([
        "cost",
        "lambda",
        "acquisition",
        "within_theorem",
        "samples",
        "cost_mean",
        "cost_ci95",
        "initial_cost_mean",
        "u_mean",
        "u_ci95",
        "bound_mean",
        "bound_ci95",
        "margin_mean",
        "margin_ci95",
        "stopping_time_mean",
        "stopping_time_ci95",
        "adjusted_regret_mean",
        "adjusted_regret_ci95",
        "simple_regret_mean",
        "simple_regret_ci95",
        "step1_slack_mean",
        "step1_slack_ci95",
        "martingale_mean",
        "martingale_ci95",
        "start_mean",
        "start_ci95",
        "capped",
        "step1_shortfalls",
        "verdict",
    ])
    .map_err(err)?;
    for r in reports {
        let e = |x: &Estimate| [format!("{:e}", x.mean), format!("{:e}", x.half_width_95())];
        let mut row = vec![
            r.config.cost_name.key().to_string(),
            format_number(r.config.lambda),
            r.config.acquisition.label().to_string(),
            r.within_theorem.to_string(),
            r.samples.to_string(),
        ];
        row.extend(e(&r.cost));
        row.push(format!("{:e}", r.initial_cost.mean));
        for x in [
            &r.u,
            &r.bound,
            &r.margin,
            &r.stopping_time,
            &r.adjusted_regret,
            &r.simple_regret,
            &r.step1_slack,
            &r.martingale,
            &r.start,
        ] {
            row.extend(e(x));
        }
        row.push(r.capped.to_string());
        row.push(r.step1_shortfalls.to_string());
        row.push(r.verdict.label().to_string());
        w.write_record(&row).map_err(err)?;
    }
    let bytes = w
        .into_inner()
        .map_err(|e| format!("cannot format CSV: {e}"))?;
    String::from_utf8(bytes).map_err(|e| format!("cannot format CSV: {e}"))
}

/// Columns of `runs.csv`.
pub const RUNS_HEADER: [&str; 13] = [
    "sample",
    "cost_fn",
    "lambda",
    "acquisition",
    "cost",
    "initial_cost",
    "n_evals",
    "end",
    "initial_incumbent",
    "final_incumbent",
    "min_f",
    "ei_sum",
    "step1_shortfalls",
];

fn end_label(end: EndReason) -> &'static str {
    match end {
        EndReason::Stopped => "stopped",
        EndReason::Capped => "capped",
        EndReason::Exhausted => "exhausted",
    }
}

fn parse_end(text: &str) -> Option<EndReason> {
    match text {
        "stopped" => Some(EndReason::Stopped),
        "capped" => Some(EndReason::Capped),
        "exhausted" => Some(EndReason::Exhausted),
        _ => None,
    }
}

/// `runs.csv`: one row per (sample, configuration) with every measured quantity at full
/// precision (shortest round-trip decimals), so reading it back gives the exact results.
pub fn runs_csv(study: &Study, results: &[(usize, SampleResult)]) -> Result<Vec<u8>, String> {
    let mut rows = Vec::new();
    for (i, s) in results {
        for (c, r) in study.configurations.iter().zip(&s.runs) {
            rows.push(vec![
                i.to_string(),
                c.cost_name.key().to_string(),
                format!("{:e}", c.lambda),
                c.acquisition.key().to_string(),
                format!("{:e}", r.cost),
                format!("{:e}", r.initial_cost),
                r.n_evals.to_string(),
                end_label(r.end).to_string(),
                format!("{:e}", r.initial_incumbent),
                format!("{:e}", r.final_incumbent),
                format!("{:e}", s.min_f),
                format!("{:e}", r.ei_sum),
                r.step1_shortfalls.to_string(),
            ]);
        }
    }
    csv_document(&RUNS_HEADER, &rows)
}

/// Reads `runs.csv` back: the results of the samples it holds, in sample order. Every row must
/// match the study's configurations in order; errors name the file, line and column.
pub fn read_runs(study: &Study, path: &Path) -> Result<Vec<(usize, SampleResult)>, String> {
    let k = study.configurations.len();
    let groups = read_csv_groups(
        path,
        &RUNS_HEADER,
        k,
        &format!("samples of {k} configurations"),
    )?;
    let mut out = Vec::new();
    for chunk in &groups {
        let sample: usize = field(path, &chunk[0], &RUNS_HEADER, 0)?;
        let min_f: f64 = field(path, &chunk[0], &RUNS_HEADER, 10)?;
        let mut runs = Vec::with_capacity(k);
        for (record, c) in chunk.iter().zip(&study.configurations) {
            let line = line_of(record);
            let same_sample: usize = field(path, record, &RUNS_HEADER, 0)?;
            let lambda: f64 = field(path, record, &RUNS_HEADER, 2)?;
            if same_sample != sample
                || record.get(1) != Some(c.cost_name.key())
                || lambda != c.lambda
                || record.get(3) != Some(c.acquisition.key())
            {
                return Err(format!(
                    "{}: line {line}: expected sample {sample}, {} cost, λ = {}, {}",
                    path.display(),
                    c.cost_name.key(),
                    format_number(c.lambda),
                    c.acquisition.key()
                ));
            }
            let end = parse_end(record.get(7).unwrap_or("")).ok_or_else(|| {
                format!(
                    "{}: line {line}, column `end`: unknown value",
                    path.display()
                )
            })?;
            runs.push(RunSummary {
                cost: field(path, record, &RUNS_HEADER, 4)?,
                initial_cost: field(path, record, &RUNS_HEADER, 5)?,
                n_evals: field(path, record, &RUNS_HEADER, 6)?,
                end,
                initial_incumbent: field(path, record, &RUNS_HEADER, 8)?,
                final_incumbent: field(path, record, &RUNS_HEADER, 9)?,
                ei_sum: field(path, record, &RUNS_HEADER, 11)?,
                step1_shortfalls: field(path, record, &RUNS_HEADER, 12)?,
            });
        }
        out.push((sample, SampleResult { min_f, runs }));
    }
    Ok(out)
}

/// Theorem 1 at a glance: a forest plot of `E[cost]/(C + U)` with its 95% interval per
/// configuration (the bound is the dashed line at 1), and beside it each configuration's
/// per-sample costs on a log axis (mean solid, `C + U` dashed red), so that configurations
/// whose costs differ by orders of magnitude (λ from 1e-3 to 1) are all readable.
pub fn cost_distribution_svg(reports: &[ConfigReport]) -> Result<String, String> {
    let label = |r: &ConfigReport| {
        format!(
            "{} λ={} {}{}",
            r.config.cost_name.key(),
            format_number(r.config.lambda),
            r.config.acquisition.label(),
            if r.within_theorem {
                ""
            } else {
                " (outside thm)"
            }
        )
    };
    let rows: Vec<ForestRow> = reports
        .iter()
        .map(|r| ForestRow {
            label: label(r),
            value: r.cost_over_bound.mean,
            lower: r.cost_over_bound.lower_95(),
            upper: r.cost_over_bound.upper_95(),
        })
        .collect();
    let panels: Vec<HistogramPanel> = reports
        .iter()
        .map(|r| HistogramPanel {
            title: label(r),
            values: r.costs.clone(),
            mean: r.cost.mean,
            bound: r.bound.mean,
        })
        .collect();
    forest_figure(
        "Theorem 1: E[cost up to stopping] / (C + U), 95% intervals (bound: dashed, 1); \
         per-sample costs on a log axis (solid: mean, dashed red: C + U)",
        "E[cost] / (C + U) (log axis)",
        &rows,
        1.0,
        &panels,
    )
}

/// The whole study's reports and raw files, in the order they are written.
pub fn report_files(
    config: &Config,
    study: &Study,
    results: &[(usize, SampleResult)],
) -> Result<(Vec<ConfigReport>, Files), String> {
    let config_text = to_toml(config)?;
    let plain: Vec<SampleResult> = results.iter().map(|(_, r)| r.clone()).collect();
    let reports = aggregate(study, &plain);
    let summary = verdict_summary(&reports);
    let mut md = String::from("# Theorem 1 on trial (`pbgi validate`)\n\n");
    let _ = writeln!(
        md,
        "{} prior samples, {} points, seed {}, prior mean μ = {} (simulated in centred \
         coordinates, f − μ: every quantity below is invariant under a shift of μ). \
         Intervals are 95% (normal approximation); the margin is `C + U - cost` from paired \
         per-sample differences. `thm = yes`: exactly Theorem 1's setting. Per sample, \
         margin = simple regret (step 2's slack) + step-1 slack (Σ EI - c over acquisitions) + \
         martingale ((y*_1 - y*_τ) - Σ EI) + start (μ - y*_1); the last two have mean exactly \
         0 (proofs-notes/theorem1.md), so their intervals should contain 0.\n",
        results.len(),
        study.problem.n_points(),
        study.seed,
        format_number(study.prior_mean),
    );
    md.push_str(&markdown_table(&reports));
    md.push('\n');
    md.push_str(&summary);
    let _ = writeln!(md, "\n## Configuration\n\n```toml\n{config_text}```");
    let files = vec![
        ("validate.md".to_string(), md.into_bytes()),
        ("validate.csv".to_string(), csv_rows(&reports)?.into_bytes()),
        ("runs.csv".to_string(), runs_csv(study, results)?),
        (
            "cost_distribution.svg".to_string(),
            cost_distribution_svg(&reports)?.into_bytes(),
        ),
        ("config.toml".to_string(), config_text.into_bytes()),
    ];
    Ok((reports, files))
}

/// The files of one shard: the raw runs, the configuration and the manifest.
pub fn shard_files(
    config: &Config,
    study: &Study,
    shard: Shard,
    results: &[(usize, SampleResult)],
) -> Result<Files, String> {
    shard_directory(
        StudyKind::Validate,
        shard,
        vec![("runs.csv".to_string(), runs_csv(study, results)?)],
        to_toml(config)?,
    )
}

/// Merges shard directories (already checked to be a complete set with one configuration):
/// the reports and the files, byte for byte those of the unsplit run.
pub fn merge(config: &Config, dirs: &[&Path]) -> Result<(Vec<ConfigReport>, Files), String> {
    let study = config.build()?;
    let results = read_shards(
        dirs,
        |dir| read_runs(&study, &dir.join("runs.csv")),
        |(i, _)| *i,
    )?;
    let expected: Vec<usize> = (0..study.samples).collect();
    let found: Vec<usize> = results.iter().map(|(i, _)| *i).collect();
    if found != expected {
        return Err(format!(
            "the shards hold samples {:?}…, not exactly 0..{}",
            &found[..found.len().min(5)],
            study.samples
        ));
    }
    report_files(config, &study, &results)
}

/// Whether any configuration in the theorem's setting was violated (exit status 1).
pub fn any_violation(reports: &[ConfigReport]) -> bool {
    reports
        .iter()
        .any(|r| r.within_theorem && r.verdict == Verdict::Violated)
}

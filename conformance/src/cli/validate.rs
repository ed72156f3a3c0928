//! `pbgi validate`: Theorem 1 on trial (stopping paper, Thm 1). Simulates BO with the
//! PBGI/LogEIPC stopping rule on many prior samples and compares the mean cost up to stopping
//! with the bound `C + U`; see `bo::theorem1` for what is measured.
//!
//! Configuration: TOML (or JSON when the file name ends in `.json`); every key is optional and
//! unknown keys are errors that name the key. `pbgi validate --print-config` prints the
//! built-in default, which is also written to `DIR/config.toml` on every run.
use super::CliResult;
use crate::bo::stopping::PracticalOptions;
use crate::bo::theorem1::{
    aggregate, run_sample, AcquisitionKind, ConfigReport, Configuration, Estimate, SampleResult,
    Study, Verdict,
};
use crate::bo::{CostFunction, Domain, Kernel, KernelKind, PeriodicAnchor, Problem};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// Arguments of `pbgi validate`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Configuration file (TOML, or JSON if it ends in `.json`); default: the built-in study.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Number of prior samples (overrides the configuration).
    #[arg(long, value_name = "N")]
    pub samples: Option<usize>,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long, value_name = "K")]
    pub threads: Option<usize>,
    /// Output directory for CSV, Markdown and SVG.
    #[arg(long, value_name = "DIR", default_value = "out/validate")]
    pub out: PathBuf,
    /// Master seed (overrides the configuration).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Print the effective configuration as TOML and exit.
    #[arg(long)]
    pub print_config: bool,
}

/// The study's configuration file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// Master seed.
    pub seed: u64,
    /// Number of prior samples.
    pub samples: usize,
    /// Initial points (Theorem 1: 1; more is outside the theorem).
    pub initial_points: usize,
    /// Evaluation cap, initial points included (runs that hit it are reported).
    pub max_evals: usize,
    /// Cost functions: `uniform`, `linear`, `periodic` (anchor independent of `f`), and
    /// `periodic@argmin` (the paper's anchor at `f`'s minimiser; outside the theorem).
    pub costs: Vec<String>,
    /// Cost scales `λ`.
    pub lambdas: Vec<f64>,
    /// Acquisitions: `pbgi`, `logeipc`, and (outside the theorem) `lcb`, `ts`.
    pub acquisitions: Vec<String>,
    /// The GP prior.
    pub prior: PriorConfig,
    /// The finite domain.
    pub domain: DomainConfig,
    /// Periodic cost parameters.
    pub periodic: PeriodicConfig,
    /// Practical options of the stopping rule (outside the theorem unless all off).
    pub rule: RuleConfig,
}

/// `[prior]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PriorConfig {
    /// `matern52` or `squared_exponential`.
    pub kernel: String,
    /// Length scale `ℓ`.
    pub length_scale: f64,
    /// Output scale `s²`.
    pub outputscale: f64,
    /// Constant mean `μ`.
    pub mean: f64,
    /// Jitter `ε` added to the covariance diagonal (part of the model; see `bo::prior`).
    pub jitter: f64,
}

/// `[domain]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DomainConfig {
    /// `grid` (1-D grid over [0, 1]) or `random` (uniform points in [0, 1]^dim).
    pub kind: String,
    /// Number of points.
    pub points: usize,
    /// Dimension (`random` only; a grid is 1-D).
    pub dim: usize,
    /// Seed of the random point set (`random` only).
    pub seed: u64,
}

/// `[periodic]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PeriodicConfig {
    /// Amplitude `α`.
    pub alpha: f64,
    /// Frequency `β`.
    pub beta: f64,
    /// Fixed anchor `x*` for `periodic` instead of a random one (empty: random, independent of f).
    pub anchor: Vec<f64>,
}

/// `[rule]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RuleConfig {
    /// No stop while `t ≤ stabilisation`.
    pub stabilisation: usize,
    /// Consecutive stop signals required.
    pub debounce: usize,
    /// Moving-average window of the statistic.
    pub moving_average: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            seed: 20_251_121,
            samples: 1000,
            initial_points: 1,
            max_evals: 1001,
            costs: vec!["uniform".into(), "linear".into(), "periodic".into()],
            lambdas: vec![0.1, 0.01, 0.001],
            acquisitions: vec!["pbgi".into(), "logeipc".into()],
            prior: PriorConfig::default(),
            domain: DomainConfig::default(),
            periodic: PeriodicConfig::default(),
            rule: RuleConfig::default(),
        }
    }
}

impl Default for PriorConfig {
    fn default() -> Self {
        PriorConfig {
            kernel: "matern52".into(),
            length_scale: 0.1,
            outputscale: 1.0,
            mean: 0.0,
            jitter: 1e-8,
        }
    }
}

impl Default for DomainConfig {
    fn default() -> Self {
        DomainConfig {
            kind: "grid".into(),
            points: 1001,
            dim: 1,
            seed: 0,
        }
    }
}

impl Default for PeriodicConfig {
    fn default() -> Self {
        PeriodicConfig {
            alpha: 2.0,
            beta: 2.0,
            anchor: Vec::new(),
        }
    }
}

impl Default for RuleConfig {
    fn default() -> Self {
        RuleConfig {
            stabilisation: 0,
            debounce: 1,
            moving_average: 1,
        }
    }
}

/// Parses a configuration; `json` selects JSON, otherwise TOML. Errors name the bad key.
pub fn parse_config(text: &str, json: bool) -> Result<Config, String> {
    if json {
        serde_json::from_str(text).map_err(|e| format!("configuration: {e}"))
    } else {
        toml::from_str(text).map_err(|e| format!("configuration: {e}"))
    }
}

/// Builds the study a configuration describes (factors the prior: O(n³)).
pub fn build_study(config: &Config) -> Result<Study, String> {
    let kind = match config.prior.kernel.as_str() {
        "matern52" => KernelKind::Matern52,
        "squared_exponential" => KernelKind::SquaredExponential,
        other => {
            return Err(format!(
            "prior.kernel: unknown kernel `{other}` (expected `matern52` or `squared_exponential`)"
        ))
        }
    };
    let kernel = Kernel {
        kind,
        length_scale: config.prior.length_scale,
        outputscale: config.prior.outputscale,
    };
    let domain = match config.domain.kind.as_str() {
        "grid" => {
            if config.domain.dim != 1 {
                return Err(format!(
                    "domain.dim: a grid is 1-D, got dim = {} (use kind = \"random\")",
                    config.domain.dim
                ));
            }
            Domain::grid_1d(config.domain.points).map_err(|e| format!("domain.points: {e}"))?
        }
        "random" => {
            Domain::random_cube(config.domain.dim, config.domain.points, config.domain.seed)
                .map_err(|e| format!("domain: {e}"))?
        }
        other => {
            return Err(format!(
                "domain.kind: unknown domain `{other}` (expected `grid` or `random`)"
            ))
        }
    };
    if config.samples == 0 {
        return Err("samples: must be ≥ 1".into());
    }
    let anchor = if config.periodic.anchor.is_empty() {
        PeriodicAnchor::Independent
    } else {
        PeriodicAnchor::Fixed(config.periodic.anchor.clone())
    };
    let mut costs = Vec::new();
    for name in &config.costs {
        costs.push(match name.as_str() {
            "uniform" => CostFunction::Uniform,
            "linear" => CostFunction::Linear,
            "periodic" => CostFunction::Periodic {
                alpha: config.periodic.alpha,
                beta: config.periodic.beta,
                anchor: anchor.clone(),
            },
            "periodic@argmin" => CostFunction::Periodic {
                alpha: config.periodic.alpha,
                beta: config.periodic.beta,
                anchor: PeriodicAnchor::ObjectiveArgmin,
            },
            other => {
                return Err(format!(
                    "costs: unknown cost `{other}` (expected `uniform`, `linear`, `periodic` or \
                     `periodic@argmin`)"
                ))
            }
        });
    }
    let mut acquisitions = Vec::new();
    for name in &config.acquisitions {
        acquisitions.push(match name.to_ascii_lowercase().as_str() {
            "pbgi" => AcquisitionKind::Pbgi,
            "logeipc" => AcquisitionKind::LogEipc,
            "lcb" => AcquisitionKind::Lcb,
            "ts" => AcquisitionKind::Thompson,
            _ => {
                return Err(format!(
                    "acquisitions: unknown acquisition `{name}` (expected `pbgi`, `logeipc`, \
                     `lcb` or `ts`)"
                ))
            }
        });
    }
    for &lambda in &config.lambdas {
        if !(lambda.is_finite() && lambda > 0.0) {
            return Err(format!(
                "lambdas: each λ must be finite and > 0, got {lambda}"
            ));
        }
    }
    let mut configurations = Vec::new();
    for cost in &costs {
        for &lambda in &config.lambdas {
            for &acquisition in &acquisitions {
                configurations.push(Configuration {
                    cost: cost.clone(),
                    lambda,
                    acquisition,
                });
            }
        }
    }
    let problem = Problem::new(domain, kernel, config.prior.mean, config.prior.jitter)
        .map_err(|e| format!("prior: {e}"))?;
    let study = Study {
        problem,
        configurations,
        initial_points: config.initial_points,
        max_evals: config.max_evals,
        rule: PracticalOptions {
            stabilisation: config.rule.stabilisation,
            debounce: config.rule.debounce,
            moving_average: config.rule.moving_average,
        },
        seed: config.seed,
    };
    study.validate()?;
    Ok(study)
}

/// Runs all samples on `threads` workers (rayon), with a progress bar on stderr.
pub fn run_study(
    study: &Study,
    samples: usize,
    threads: Option<usize>,
    progress: bool,
) -> Result<Vec<SampleResult>, String> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(k) = threads {
        if k == 0 {
            return Err("--threads must be ≥ 1".into());
        }
        builder = builder.num_threads(k);
    }
    let pool = builder
        .build()
        .map_err(|e| format!("cannot start the thread pool: {e}"))?;
    let bar = if progress {
        indicatif::ProgressBar::new(samples as u64)
    } else {
        indicatif::ProgressBar::hidden()
    };
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{elapsed_precise} [{bar:40}] {pos}/{len} samples (eta {eta})",
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    let results = pool.install(|| {
        (0..samples)
            .into_par_iter()
            .map(|i| {
                let r = run_sample(study, i);
                bar.inc(1);
                r
            })
            .collect::<Result<Vec<_>, String>>()
    });
    bar.finish_and_clear();
    results
}

/// Runs `pbgi validate`.
pub fn run(args: Args) -> CliResult {
    let mut config = match &args.config {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let json = path.extension().is_some_and(|e| e == "json");
            parse_config(&text, json).map_err(|e| format!("{}: {e}", path.display()))?
        }
        None => Config::default(),
    };
    if let Some(n) = args.samples {
        config.samples = n;
    }
    if let Some(s) = args.seed {
        config.seed = s;
    }
    let config_text =
        toml::to_string(&config).map_err(|e| format!("cannot serialise the configuration: {e}"))?;
    if args.print_config {
        print!("{config_text}");
        return Ok(ExitCode::SUCCESS);
    }
    let start = Instant::now();
    let study = build_study(&config)?;
    eprintln!(
        "pbgi validate: {} configurations × {} samples on {} points (seed {})",
        study.configurations.len(),
        config.samples,
        study.problem.n_points(),
        config.seed
    );
    let results = run_study(&study, config.samples, args.threads, true)?;
    let reports = aggregate(&study, &results);
    let elapsed = start.elapsed().as_secs_f64();
    let table = text_table(&reports);
    print!("{table}");
    let summary = verdict_summary(&reports);
    println!("\n{summary}");
    println!("run time: {elapsed:.1} s");
    write_outputs(
        &args.out,
        &config_text,
        &study,
        &reports,
        &results,
        &summary,
        elapsed,
    )?;
    println!("results written to {}", args.out.display());
    let violated = reports
        .iter()
        .any(|r| r.within_theorem && r.verdict == Verdict::Violated);
    Ok(if violated {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn pm(e: &Estimate, digits: usize) -> String {
    format!("{:.*} ± {:.*}", digits, e.mean, digits, e.half_width)
}

fn text_table(reports: &[ConfigReport]) -> String {
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
            r.config.cost.name(),
            r.config.lambda,
            r.config.acquisition.name(),
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

fn markdown_table(reports: &[ConfigReport]) -> String {
    let mut s = String::from(
        "| cost | λ | acq | thm | E[cost] | C + U | margin | cost/(C+U) | E[τ] | \
         regret+cost (eq. 2) | simple regret | step-1 slack | martingale | start | capped | verdict |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for r in reports {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {:.1}% | {:.1} | {} | {} | {} | {} | {} | {}/{} | {} |",
            r.config.cost.name(),
            r.config.lambda,
            r.config.acquisition.name(),
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

fn verdict_summary(reports: &[ConfigReport]) -> String {
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
            t.config.cost.name(),
            t.config.lambda,
            t.config.acquisition.name(),
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
            crate::bo::theorem1::STEP1_TOLERANCE
        );
    }
    s
}

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
        let e = |x: &Estimate| [format!("{:e}", x.mean), format!("{:e}", x.half_width)];
        let mut row = vec![
            r.config.cost.name(),
            format!("{}", r.config.lambda),
            r.config.acquisition.name().to_string(),
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

fn runs_csv(study: &Study, results: &[SampleResult]) -> Result<String, String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let err = |e: csv::Error| format!("cannot format CSV: {e}");
    w.write_record([
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
    ])
    .map_err(err)?;
    for (i, s) in results.iter().enumerate() {
        for (c, r) in study.configurations.iter().zip(&s.runs) {
            w.write_record([
                i.to_string(),
                c.cost.name(),
                format!("{}", c.lambda),
                c.acquisition.name().to_string(),
                format!("{:e}", r.cost),
                format!("{:e}", r.initial_cost),
                r.n_evals.to_string(),
                format!("{:?}", r.end),
                format!("{:e}", r.initial_incumbent),
                format!("{:e}", r.final_incumbent),
                format!("{:e}", s.min_f),
                format!("{:e}", r.ei_sum),
            ])
            .map_err(err)?;
        }
    }
    let bytes = w
        .into_inner()
        .map_err(|e| format!("cannot format CSV: {e}"))?;
    String::from_utf8(bytes).map_err(|e| format!("cannot format CSV: {e}"))
}

/// One SVG with a histogram panel per configuration: per-sample cost up to stopping, the mean
/// (solid) and `C + U` (dashed red).
pub fn cost_distribution_svg(reports: &[ConfigReport]) -> String {
    let cols = 3usize;
    let (pw, ph) = (320.0, 200.0);
    let rows = reports.len().div_ceil(cols);
    let (w, h) = (pw * cols as f64, ph * rows as f64 + 30.0);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
         font-family=\"sans-serif\" font-size=\"11\">\n<rect width=\"100%\" height=\"100%\" \
         fill=\"white\"/>\n<text x=\"10\" y=\"20\" font-size=\"14\">Cost up to stopping per \
         prior sample; solid: mean, dashed red: C + U (Theorem 1 bound)</text>"
    );
    for (k, r) in reports.iter().enumerate() {
        let (ox, oy) = ((k % cols) as f64 * pw, 30.0 + (k / cols) as f64 * ph);
        let (left, right, top, bottom) = (ox + 40.0, ox + pw - 10.0, oy + 22.0, oy + ph - 25.0);
        let hi = r
            .costs
            .iter()
            .cloned()
            .fold(r.bound.mean, f64::max)
            .max(f64::MIN_POSITIVE)
            * 1.05;
        let bins = 30usize;
        let mut counts = vec![0usize; bins];
        for &c in &r.costs {
            counts[((c / hi * bins as f64) as usize).min(bins - 1)] += 1;
        }
        let max_count = counts.iter().copied().max().unwrap_or(1).max(1) as f64;
        let x_of = |v: f64| left + (right - left) * v / hi;
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\">{} λ={} {}{}</text>",
            left,
            oy + 14.0,
            r.config.cost.name(),
            r.config.lambda,
            r.config.acquisition.name(),
            if r.within_theorem {
                ""
            } else {
                " (outside thm)"
            }
        );
        let bw = (right - left) / bins as f64;
        for (b, &c) in counts.iter().enumerate() {
            let bh = (bottom - top) * c as f64 / max_count;
            let _ = writeln!(
                s,
                "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"#8fb3d9\"/>",
                left + b as f64 * bw,
                bottom - bh,
                bw.max(0.5) - 0.5,
                bh
            );
        }
        let _ = writeln!(
            s,
            "<line x1=\"{left}\" y1=\"{bottom}\" x2=\"{right}\" y2=\"{bottom}\" stroke=\"black\"/>"
        );
        let xm = x_of(r.cost.mean);
        let xb = x_of(r.bound.mean);
        let _ = writeln!(
            s,
            "<line x1=\"{xm:.1}\" y1=\"{top}\" x2=\"{xm:.1}\" y2=\"{bottom}\" stroke=\"black\" \
             stroke-width=\"1.5\"/>\n<line x1=\"{xb:.1}\" y1=\"{top}\" x2=\"{xb:.1}\" \
             y2=\"{bottom}\" stroke=\"red\" stroke-width=\"1.5\" stroke-dasharray=\"5,3\"/>"
        );
        for (frac, anchor) in [(0.0, "start"), (0.5, "middle"), (1.0, "end")] {
            let _ = writeln!(
                s,
                "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"{anchor}\">{:.3}</text>",
                x_of(frac * hi),
                bottom + 14.0,
                frac * hi
            );
        }
    }
    s.push_str("</svg>\n");
    s
}

/// Writes `path` via a temporary file and a rename, so no file is ever left half-written.
fn write_atomic(path: &Path, contents: &str) -> Result<(), String> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, contents).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn write_outputs(
    dir: &Path,
    config_text: &str,
    study: &Study,
    reports: &[ConfigReport],
    results: &[SampleResult],
    summary: &str,
    elapsed: f64,
) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let mut md = String::from("# Theorem 1 on trial (`pbgi validate`)\n\n");
    let _ = writeln!(
        md,
        "{} prior samples, {} points, seed {}, run time {elapsed:.1} s. \
         Intervals are 95% (normal approximation); the margin is `C + U - cost` from paired \
         per-sample differences. `thm = yes`: exactly Theorem 1's setting. Per sample, \
         margin = simple regret (step 2's slack) + step-1 slack (Σ EI - c over acquisitions) + \
         martingale ((y*_1 - y*_τ) - Σ EI) + start (μ - y*_1); the last two have mean exactly \
         0 (proofs-notes/theorem1.md), so their intervals should contain 0.\n",
        results.len(),
        study.problem.n_points(),
        study.seed
    );
    md.push_str(&markdown_table(reports));
    md.push('\n');
    md.push_str(summary);
    let _ = writeln!(md, "\n## Configuration\n\n```toml\n{config_text}```");
    write_atomic(&dir.join("validate.md"), &md)?;
    write_atomic(&dir.join("validate.csv"), &csv_rows(reports)?)?;
    write_atomic(&dir.join("runs.csv"), &runs_csv(study, results)?)?;
    write_atomic(
        &dir.join("cost_distribution.svg"),
        &cost_distribution_svg(reports),
    )?;
    write_atomic(&dir.join("config.toml"), config_text)
}

//! Time and search-budget measurements of the 8-D setting (`--preset paper-8d`), outside the
//! test run: `cargo run --release -p pbgi-lab --example cube_budget -- [options]`.
//!
//! One BO run per sample on `[0, 1]^8` (the preset's prior, design of 18 points, screen and
//! search settings), acquiring by `--acquisition` (LogEIPC, PBGI or LCB) and computing, at every
//! step, the statistics the rules of `paper-8d` read (`max LogEIPC`; `min LCB` with the
//! schedule's `β`) and the acquisition's optimum (shared when it is one of them), as a run of
//! `pbgi experiment` does. Thompson sampling and the rules' bookkeeping are left out.
//!
//! Printed:
//! - CPU seconds of this thread per BO iteration (the statistics, the acquisition and the
//!   posterior update), averaged over iterations 96–105 and 491–500, and per run;
//! - with `--compare K`: at every step `max LogEIPC` found again with `K×` the L-BFGS starts
//!   (same screen, own warm starts; not timed), the share of steps where the run's budget
//!   found a lower maximum (by more than `1e-9` and by more than `1e-3`), and the stopping
//!   time of the 8-D PBGI/LogEIPC rule (mean of the last 20 statistics `≤ 0`, tested from
//!   check 20 on, checks from `t = 18`) under each budget's statistics.
//!
//! Options: `--restarts N` (default: the preset's), `--max-iterations N`, `--iterations N`
//! (BO iterations per run, default 500), `--samples N` (default 1), `--seed S` (default 0),
//! `--lambda L` (default 0.01), `--cost uniform|linear` (default uniform),
//! `--acquisition logeipc|pbgi|lcb` (default logeipc), `--compare K` (default off).
use pbgi_lab::acquisitions::lcb::Lcb;
use pbgi_lab::bo::initial_design::scrambled_sobol;
use pbgi_lab::bo::CostFunction;
use pbgi_lab::continuous::search::WarmStarts;
use pbgi_lab::continuous::{
    ContinuousPosterior, FourierPath, Landscape, ScaledCost, SearchConfig, Target,
};
use pbgi_lab::experiment::ExperimentConfig;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::cell::RefCell;
use std::time::Instant;

/// CPU time of this thread in seconds (`CLOCK_THREAD_CPUTIME_ID`; wall time if unavailable).
fn thread_cpu_seconds(start: &Instant) -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable `timespec`.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc == 0 {
        ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
    } else {
        start.elapsed().as_secs_f64()
    }
}

struct Options {
    restarts: Option<usize>,
    max_iterations: Option<usize>,
    iterations: usize,
    samples: usize,
    seed: u64,
    lambda: f64,
    cost: CostFunction,
    target: Target,
    compare: usize,
}

fn parse() -> Result<Options, String> {
    let mut o = Options {
        restarts: None,
        max_iterations: None,
        iterations: 500,
        samples: 1,
        seed: 0,
        lambda: 0.01,
        cost: CostFunction::Uniform,
        target: Target::LogEipc,
        compare: 0,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let key = args[i].as_str();
        let value = args
            .get(i + 1)
            .ok_or_else(|| format!("{key}: needs a value"))?;
        let number = |what: &str| -> Result<usize, String> {
            value
                .parse::<usize>()
                .map_err(|e| format!("{what}: {value}: {e}"))
        };
        match key {
            "--restarts" => o.restarts = Some(number(key)?),
            "--max-iterations" => o.max_iterations = Some(number(key)?),
            "--iterations" => o.iterations = number(key)?.min(5000),
            "--samples" => o.samples = number(key)?.min(1000),
            "--compare" => o.compare = number(key)?.min(100),
            "--seed" => o.seed = value.parse().map_err(|e| format!("{key}: {e}"))?,
            "--lambda" => o.lambda = value.parse().map_err(|e| format!("{key}: {e}"))?,
            "--cost" => {
                o.cost = match value.as_str() {
                    "uniform" => CostFunction::Uniform,
                    "linear" => CostFunction::Linear,
                    other => return Err(format!("--cost: unknown `{other}`")),
                }
            }
            "--acquisition" => {
                o.target = match value.as_str() {
                    "logeipc" => Target::LogEipc,
                    "pbgi" => Target::Pbgi,
                    "lcb" => Target::Lcb { sqrt_beta: 0.0 },
                    other => return Err(format!("--acquisition: unknown `{other}`")),
                }
            }
            other => return Err(format!("unknown option `{other}`")),
        }
        i += 2;
    }
    if !(o.lambda.is_finite() && o.lambda > 0.0) {
        return Err("--lambda: must be finite and > 0".into());
    }
    Ok(o)
}

/// The 8-D rule's stopping check (1-based) under a statistic series: the first check `k ≥ w`
/// whose last `w` statistics have a mean `≤ 0` (`None`: never).
fn averaged_stop(stats: &[f64], w: usize) -> Option<usize> {
    (w..=stats.len()).find(|&k| stats[k - w..k].iter().sum::<f64>() / w as f64 <= 0.0)
}

fn main() {
    let o = match parse() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("cube_budget: {e}");
            std::process::exit(2);
        }
    };
    let preset = ExperimentConfig::paper_8d();
    let mut search: SearchConfig = preset.search.clone();
    if let Some(r) = o.restarts {
        search.restarts = r;
    }
    if let Some(m) = o.max_iterations {
        search.max_iterations = m;
    }
    if let Err(e) = search.validate() {
        eprintln!("cube_budget: {e}");
        std::process::exit(2);
    }
    let mut bigger = search.clone();
    bigger.restarts = search.restarts * o.compare.max(1);
    let kernel = preset.kernel().expect("the preset's kernel is valid");
    let d = preset.domain.dim;
    let lcb = Lcb::paper(d);
    let clock = Instant::now();
    println!(
        "restarts {} (compare ×{}), max_iterations {}, raw_samples {}, λ {}, cost {:?}, \
         acquisition {:?}, {} BO iterations",
        search.restarts,
        o.compare,
        search.max_iterations,
        search.raw_samples,
        o.lambda,
        o.cost,
        o.target,
        o.iterations
    );
    let (mut below_any, mut below_1e3, mut compared) = (0usize, 0usize, 0usize);
    for sample in 0..o.samples {
        let mut rng = ChaCha8Rng::seed_from_u64(o.seed.wrapping_add(sample as u64));
        let objective =
            FourierPath::draw(&kernel, 0.0, d, search.objective_features, &mut rng).expect("valid");
        let initial = scrambled_sobol(preset.initial_points, d, &mut rng);
        let screen = scrambled_sobol(search.raw_samples, d, &mut rng);
        let cost = ScaledCost::new(o.cost.clone(), Vec::new(), o.lambda, &screen, d);
        let mut posterior = ContinuousPosterior::new(kernel, 0.0, search.noise, d, screen)
            .expect("valid posterior");
        let mut y_best = f64::INFINITY;
        for x in initial.chunks_exact(d) {
            let y = objective.value(x);
            posterior.observe(x, y).expect("update");
            y_best = y_best.min(y);
        }
        let warm = RefCell::new(WarmStarts::default());
        let warm_bigger = RefCell::new(WarmStarts::default());
        let mut per_iteration = Vec::with_capacity(o.iterations);
        let (mut stats, mut stats_bigger) = (Vec::new(), Vec::new());
        let run_start = thread_cpu_seconds(&clock);
        for i in 1..=o.iterations {
            let t0 = thread_cpu_seconds(&clock);
            let landscape = Landscape::new(&posterior, &cost, y_best, &search, &warm);
            let lcb_target = Target::Lcb {
                sqrt_beta: lcb.beta(i).max(0.0).sqrt(),
            };
            let s = landscape.minimum(Target::LogEipc).value;
            landscape.minimum(lcb_target);
            let next = match o.target {
                Target::Lcb { .. } => landscape.minimum(lcb_target).x,
                target => landscape.minimum(target).x,
            };
            let t1 = thread_cpu_seconds(&clock);
            stats.push(-s);
            if o.compare > 0 {
                let big = Landscape::new(&posterior, &cost, y_best, &bigger, &warm_bigger);
                let sb = big.minimum(Target::LogEipc).value;
                stats_bigger.push(-sb);
                compared += 1;
                // Minimisation form: the run's budget found a smaller maximum of LogEIPC.
                if s > sb + 1e-9 {
                    below_any += 1;
                }
                if s > sb + 1e-3 {
                    below_1e3 += 1;
                }
            }
            let t2 = thread_cpu_seconds(&clock);
            let y = objective.value(&next);
            posterior.observe(&next, y).expect("update");
            y_best = y_best.min(y);
            let t3 = thread_cpu_seconds(&clock);
            per_iteration.push((t1 - t0) + (t3 - t2));
        }
        let run_total: f64 = per_iteration.iter().sum();
        let window = |a: usize, b: usize| -> f64 {
            let w: Vec<f64> = per_iteration
                .iter()
                .enumerate()
                .filter(|(k, _)| (a..=b).contains(&(k + 1)))
                .map(|(_, v)| *v)
                .collect();
            if w.is_empty() {
                f64::NAN
            } else {
                w.iter().sum::<f64>() / w.len() as f64
            }
        };
        println!(
            "sample {sample}: CPU-s per iteration at i≈100 {:.4}, at i≈500 {:.4}; per run {:.1} \
             (with comparison {:.1})",
            window(96, 105),
            window(491, 500),
            run_total,
            thread_cpu_seconds(&clock) - run_start
        );
        // Exact record of the run, to compare builds: the statistics and the incumbent.
        let checksum: f64 = stats.iter().sum();
        println!("sample {sample}: Σ max LogEIPC = {checksum:.17e}, final y* = {y_best:.17e}");
        if o.compare > 0 {
            println!(
                "sample {sample}: τ check (1-based, from t = 18) with budget {:?}, with ×{}: {:?}",
                averaged_stop(&stats, 20),
                o.compare,
                averaged_stop(&stats_bigger, 20)
            );
        }
    }
    if compared > 0 {
        println!(
            "steps where the budget's max LogEIPC is below the ×{} budget's: {} of {} ({:.1}%) \
             by > 1e-9, {} ({:.1}%) by > 1e-3",
            o.compare,
            below_any,
            compared,
            100.0 * below_any as f64 / compared as f64,
            below_1e3,
            100.0 * below_1e3 as f64 / compared as f64
        );
    }
}

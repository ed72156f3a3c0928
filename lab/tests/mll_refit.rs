//! `[prior] hyperparameters = "mll"`: the BO loop's refitted posterior against an independent
//! recomputation (the fit to the history, then nalgebra's Cholesky of the fitted model), the
//! path bank under a refit, the configuration keys (defaults that change nothing, errors that
//! name the key) and the `ablation-mll` preset.
mod common;

use common::grid_problem;
use nalgebra::{DMatrix, DVector};
use pbgi_lab::acquisitions::LogEipc;
use pbgi_lab::bo::{run_bo_refitting, Control, PathBank, PosteriorSampler, Task};
use pbgi_lab::experiment::{run_experiment, ExperimentConfig, ExperimentResults};
use pbgi_lab::gp::prior::embeds_exactly;
use pbgi_lab::gp::{Domain, Kernel, KernelKind, MllFit, Posterior, Problem};
use pbgi_lab::study::config::{
    parse_config, thread_pool, to_toml, HyperparameterFit, DEFAULT_LENGTH_SCALE_BOUNDS,
};
use pbgi_lab::study::progress::Progress;
use pbgi_lab::study::shard::Shard;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Posterior mean and sd on the domain from scratch (nalgebra's Cholesky of `K_XX`).
fn fresh_mean_sd(problem: &Problem, xs: &[usize], ys: &[f64]) -> (Vec<f64>, Vec<f64>) {
    let n = problem.n_points();
    let t = xs.len();
    let kxx = DMatrix::from_fn(t, t, |a, b| problem.covariance(xs[a], xs[b]));
    let kxd = DMatrix::from_fn(t, n, |a, i| problem.covariance(xs[a], i));
    let chol = nalgebra::Cholesky::new(kxx).unwrap();
    let residual = DVector::from_iterator(t, ys.iter().map(|y| y - problem.mean()));
    let weights = chol.solve(&residual);
    let reduced = chol.l().solve_lower_triangular(&kxd).unwrap();
    let mean = (0..n)
        .map(|i| problem.mean() + kxd.column(i).dot(&weights))
        .collect();
    let sd = (0..n)
        .map(|i| {
            let v = problem.covariance(i, i) - reduced.column(i).norm_squared();
            v.max(0.0).sqrt()
        })
        .collect();
    (mean, sd)
}

fn default_fit() -> MllFit {
    MllFit {
        kind: KernelKind::Matern52,
        outputscale: 1.0,
        mean: 0.0,
        jitter: 1e-8,
        length_scale_bounds: DEFAULT_LENGTH_SCALE_BOUNDS,
    }
}

#[test]
fn refitting_shows_the_posterior_of_the_model_fitted_to_the_history() {
    // The objective comes from a prior with ℓ = 0.25 and s² = 3; the model starts at the
    // configured ℓ = 0.1, s² = 1 and must follow the fit to each step's history.
    let n = 201;
    let truth = Problem::new(
        Domain::grid_1d(n).unwrap(),
        Kernel {
            length_scale: 0.25,
            outputscale: 3.0,
            ..Kernel::default()
        },
        0.0,
        3e-8,
    )
    .unwrap();
    let objective = truth.sample(&mut ChaCha8Rng::seed_from_u64(5));
    let model = grid_problem(n);
    let cost = vec![0.001; n];
    let task = Task {
        objective: &objective,
        cost: &cost,
        initial: &[20, 100, 180],
        max_evals: 14,
    };
    let fit = default_fit();
    let mut fitted_scales = Vec::new();
    let mut worst: f64 = 0.0;
    let record = run_bo_refitting(
        &model,
        &fit,
        &task,
        &LogEipc,
        &mut ChaCha8Rng::seed_from_u64(1),
        &mut |step, _| {
            let points: Vec<&[f64]> = step
                .history_x
                .iter()
                .map(|&i| model.domain().point(i))
                .collect();
            let fitted = fit.fit(&points, step.history_y).unwrap();
            fitted_scales.push(fitted.kernel.length_scale);
            let refitted =
                Problem::new(model.domain().clone(), fitted.kernel, 0.0, fitted.jitter).unwrap();
            let (mean, sd) = fresh_mean_sd(&refitted, step.history_x, step.history_y);
            for i in 0..n {
                let scale = fitted.kernel.outputscale.sqrt();
                worst = worst.max((step.mean[i] - mean[i]).abs() / scale);
                if !step.evaluated[i] {
                    worst = worst.max((step.sd[i] - sd[i]).abs() / scale);
                }
            }
            Control::Continue
        },
    )
    .unwrap();
    assert_eq!(record.x.len(), 14);
    assert!(
        worst < 1e-6,
        "max deviation from the refitted posterior {worst:e}"
    );
    // The model moved away from the configured ℓ = 0.1, towards the truth.
    let last = *fitted_scales.last().unwrap();
    assert!(last > 0.15, "fitted length scales {fitted_scales:?}");
}

#[test]
fn a_rebuilt_posterior_is_a_fresh_one_and_redraws_its_path_bank() {
    let n = 61;
    let first = grid_problem(n);
    let objective = first.sample(&mut ChaCha8Rng::seed_from_u64(8));
    let mut posterior = Posterior::new(&first);
    for j in [3, 30, 50] {
        posterior.observe(j, objective[j]).unwrap();
    }
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let mut bank = PathBank::new();
    posterior.update_bank(&mut rng, &mut bank, 4);
    assert_eq!((bank.model, bank.len(n)), (0, 4));
    let before = bank.paths.clone();
    let other = Problem::new(
        Domain::grid_1d(n).unwrap(),
        Kernel {
            length_scale: 0.2,
            outputscale: 2.0,
            ..Kernel::default()
        },
        0.0,
        2e-8,
    )
    .unwrap();
    let mut rebuilt = posterior.rebuilt(other.clone()).unwrap();
    rebuilt.observe(12, objective[12]).unwrap();
    assert_eq!(rebuilt.model(), 1);
    // The same operations as a posterior of the new prior observing the same points.
    let mut fresh = Posterior::new(&other);
    for j in [3, 30, 50, 12] {
        fresh.observe(j, objective[j]).unwrap();
    }
    assert_eq!(rebuilt.mean(), fresh.mean());
    assert_eq!(rebuilt.sd(), fresh.sd());
    // The bank's paths came from the first prior: redrawn whole under the new model.
    rebuilt.update_bank(&mut rng, &mut bank, 4);
    assert_eq!((bank.model, bank.len(n), bank.conditioned_on), (1, 4, 4));
    for (path, old) in bank.paths.chunks(n).zip(before.chunks(n)) {
        assert_ne!(path, old);
        for j in [3, 30, 50, 12] {
            assert_eq!(path[j], objective[j]);
        }
    }
}

#[test]
fn the_fitted_prior_embeds_across_the_default_bounds() {
    // Thompson sampling draws from the fitted prior: every length scale the fit may return
    // must have an exact circulant embedding on the presets' grids (40 values, log-spaced).
    let [low, high] = DEFAULT_LENGTH_SCALE_BOUNDS.map(f64::ln);
    for n in [1001, 10_001] {
        let domain = Domain::grid_1d(n).unwrap();
        for i in 0..40 {
            let length_scale = (low + (high - low) * i as f64 / 39.0).exp();
            let kernel = Kernel {
                length_scale,
                ..Kernel::default()
            };
            assert!(
                embeds_exactly(&domain, &kernel, 1e-8),
                "n = {n}, ℓ = {length_scale}"
            );
        }
    }
}

/// The tiny configuration of `experiment_run.rs` (41 points, cap 14, two samples), with
/// extra `[prior]` lines.
fn tiny(prior: &str) -> ExperimentConfig {
    let text = format!(
        r#"
        samples = 2
        max_evals = 14
        costs = ["uniform", "periodic@argmin"]
        lambdas = [0.01]
        [rules.pbgi_logeipc]
        [rules.ucb_lcb]
        [rules.srgap_med]
        initial_values = 3
        [rules.prb]
        max_paths = 200
        [rules.gss]
        [domain]
        points = 41
        [prior]
        {prior}
    "#
    );
    parse_config(&text, false).unwrap()
}

fn run(config: &ExperimentConfig) -> ExperimentResults {
    config.validate().unwrap();
    let pool = thread_pool(Some(1)).unwrap();
    run_experiment(
        config,
        Shard::WHOLE,
        &pool,
        &Progress::new(0, "runs", false),
    )
    .unwrap()
}

#[test]
fn fixed_hyperparameters_are_the_default_and_are_not_written() {
    let plain = tiny("");
    let fixed = tiny("hyperparameters = \"fixed\"\nlength_scale_bounds = [0.01, 0.5]");
    assert_eq!(plain, fixed);
    assert_eq!(plain.prior.hyperparameters, HyperparameterFit::Fixed);
    for config in [
        fixed.effective().unwrap(),
        ExperimentConfig::paper_8d().effective().unwrap(),
    ] {
        let written = to_toml(&config).unwrap();
        assert!(
            !written.contains("hyperparameters") && !written.contains("length_scale_bounds"),
            "{written}"
        );
    }
    let mll = tiny("hyperparameters = \"mll\"\nlength_scale_bounds = [0.02, 0.4]");
    let written = to_toml(&mll.effective().unwrap()).unwrap();
    assert!(written.contains("hyperparameters = \"mll\""), "{written}");
    assert!(
        written.contains("length_scale_bounds = [0.02, 0.4]"),
        "{written}"
    );
    let back: ExperimentConfig = parse_config(&written, false).unwrap();
    assert_eq!(back, mll.effective().unwrap());
}

#[test]
fn an_mll_run_keeps_the_objectives_and_changes_the_model() {
    let fixed = run(&tiny(""));
    let mll = run(&tiny("hyperparameters = \"mll\""));
    assert_eq!(fixed.runs.len(), mll.runs.len());
    let mut differ = 0;
    for (a, b) in fixed.runs.iter().zip(&mll.runs) {
        // The same objective and initial design: the first four evaluations agree.
        assert_eq!(a.simple_regret[..4], b.simple_regret[..4]);
        assert_eq!(b.simple_regret.len(), 14);
        differ += usize::from(a.simple_regret != b.simple_regret);
    }
    assert!(differ > 0, "no trajectory changed under the refitted model");
}

#[test]
fn mll_keys_are_checked_and_named() {
    let error = |config: ExperimentConfig| config.validate().unwrap_err();
    let mll = tiny("hyperparameters = \"mll\"");
    let mut cube = ExperimentConfig::paper_8d();
    cube.prior = mll.prior.clone();
    let e = error(cube);
    assert!(
        e.contains("prior.hyperparameters") && e.contains("cube"),
        "{e}"
    );
    let mut random = mll.clone();
    random.domain.kind = pbgi_lab::study::config::DomainKind::Random;
    random.domain.dim = 2;
    let e = error(random);
    assert!(
        e.contains("prior.hyperparameters") && e.contains("random"),
        "{e}"
    );
    let mut lognormal = ExperimentConfig::ablation_unknown_cost();
    lognormal.prior = mll.prior.clone();
    let e = error(lognormal);
    assert!(
        e.contains("prior.hyperparameters") && e.contains("lognormal"),
        "{e}"
    );
    for bounds in ["[0.5, 0.1]", "[0.0, 0.5]", "[-1.0, 0.5]", "[0.01, inf]"] {
        let e = error(tiny(&format!(
            "hyperparameters = \"mll\"\nlength_scale_bounds = {bounds}"
        )));
        assert!(e.contains("prior.length_scale_bounds"), "{bounds}: {e}");
    }
    let e = error(tiny("length_scale_bounds = [0.02, 0.4]"));
    assert!(
        e.contains("prior.length_scale_bounds") && e.contains("fixed"),
        "{e}"
    );
    // ℓ = 1 has no exact embedding on the paper's 10,001-point grid (too large to factor).
    let mut long = ExperimentConfig::ablation_mll();
    long.prior.length_scale_bounds = [0.01, 1.0];
    let e = error(long);
    assert!(
        e.contains("prior.length_scale_bounds") && e.contains("ℓ = 1"),
        "{e}"
    );
    let text = "[prior]\nhyperparameters = \"learned\"";
    let e = parse_config::<ExperimentConfig>(text, false).unwrap_err();
    assert!(
        e.contains("hyperparameters") && e.contains("learned"),
        "{e}"
    );
    // Theorem 1 is about a known prior: `pbgi validate` refuses the fit.
    let theorem: pbgi_lab::theorem1::Config =
        parse_config("[prior]\nhyperparameters = \"mll\"", false).unwrap();
    let e = theorem.build().map(|_| ()).unwrap_err();
    assert!(e.contains("prior.hyperparameters"), "{e}");
}

#[test]
fn the_mll_ablation_is_the_paper_setting_with_a_fitted_model() {
    let preset = ExperimentConfig::preset("ablation-mll").unwrap();
    preset.validate().unwrap();
    let paper = ExperimentConfig::paper();
    assert_eq!(preset.prior.hyperparameters, HyperparameterFit::Mll);
    assert_eq!(
        (preset.samples, preset.seed, &preset.domain),
        (paper.samples, paper.seed, &paper.domain)
    );
    let rules = preset.rules.as_ref().unwrap();
    assert!(!rules.contains_key("prb"));
    assert_eq!(rules.len(), paper.rules.as_ref().unwrap().len() - 1);
}

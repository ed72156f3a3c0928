//! The experiment driver on tiny configurations: determinism across thread counts, Hindsight
//! as a lower bound, stopping-time bookkeeping, config errors that name the bad key, and the
//! files `pbgi experiment` writes.
use pbgi_lab::experiment::report::{curves, summarize, summary_table, HINDSIGHT};
use pbgi_lab::experiment::{run_experiment, ExperimentConfig, ExperimentResults};
use pbgi_lab::study::config::{parse_config, thread_pool};
use pbgi_lab::study::progress::Progress;
use pbgi_lab::study::shard::Shard;

/// A few-second configuration: 41-point grid, cap 14, two samples, two settings, all
/// acquisitions and rules (PRB with at most 200 paths, LogEIPC-/SRGap-med calibrated on 3
/// values so they can fire before the cap).
fn tiny_config() -> ExperimentConfig {
    let text = r#"
        samples = 2
        max_evals = 14
        costs = ["uniform", "periodic@argmin"]
        lambdas = [0.01]
        [rules.pbgi_logeipc]
        [rules.ucb_lcb]
        [rules.logeipc_med]
        initial_values = 3
        [rules.srgap_med]
        initial_values = 3
        [rules.prb]
        max_paths = 200
        [rules.gss]
        [rules.convergence]
        [rules.fixed]
        evaluations = 8
        [domain]
        points = 41
    "#;
    let config: ExperimentConfig = toml::from_str(text).unwrap();
    config.validate().unwrap();
    config
}

fn run(config: &ExperimentConfig, threads: usize) -> ExperimentResults {
    let pool = thread_pool(Some(threads)).unwrap();
    let hidden = Progress::new(0, "runs", false);
    run_experiment(config, Shard::WHOLE, &pool, &hidden).unwrap()
}

#[test]
fn results_are_identical_for_any_thread_count() {
    let config = tiny_config();
    let one = run(&config, 1);
    let two = run(&config, 2);
    let three = run(&config, 3);
    assert_eq!(one, two);
    assert_eq!(one, three);
    assert_eq!(one.runs.len(), 2 * 2 * 4);
    // A different master seed gives different objectives.
    let other = run(&ExperimentConfig { seed: 7, ..config }, 2);
    assert_ne!(one.runs[0].simple_regret, other.runs[0].simple_regret);
}

#[test]
fn hindsight_is_never_worse_than_any_rule_and_stops_are_consistent() {
    let config = tiny_config();
    let results = run(&config, 2);
    assert_eq!(results.rules.len(), 8);
    for r in &results.runs {
        let best = r.hindsight_stop(config.initial_points);
        assert!((config.initial_points..=config.max_evals).contains(&best));
        for t in config.initial_points..=config.max_evals {
            assert!(
                r.regret_at(best) <= r.regret_at(t),
                "hindsight beaten at t = {t}"
            );
        }
        for (i, &stop) in r.stop.iter().enumerate() {
            assert!(
                (config.initial_points..=config.max_evals).contains(&stop),
                "{}: τ = {stop}",
                results.rules[i]
            );
            assert!(r.fired[i] || stop == config.max_evals);
            assert!(
                r.regret_at(best) <= r.regret_at(stop),
                "{} beats hindsight",
                results.rules[i]
            );
        }
        // Fixed-8 fires at exactly 8.
        let fixed = results.rules.iter().position(|n| n == "Fixed-8").unwrap();
        assert_eq!((r.stop[fixed], r.fired[fixed]), (8, true));
        // Simple regret is non-increasing and non-negative; cost accumulates positively.
        assert!(
            r.simple_regret.windows(2).all(|w| w[1] <= w[0])
                && r.simple_regret.iter().all(|&v| v >= 0.0)
        );
        assert!(r.cumulative_cost.windows(2).all(|w| w[1] > w[0]));
    }
    let rows = summarize(&results, config.initial_points);
    for setting in 0..results.settings.len() {
        for acquisition in 0..results.acquisitions.len() {
            let group: Vec<_> = rows
                .iter()
                .filter(|r| r.setting == setting && r.acquisition == acquisition)
                .collect();
            let hindsight = group.iter().find(|r| r.rule == HINDSIGHT).unwrap();
            for row in &group {
                assert!(
                    hindsight.mean_regret <= row.mean_regret + 1e-15,
                    "{} below hindsight",
                    row.rule
                );
                assert!(row.mean_excess >= -1e-15);
            }
            let ranks: Vec<usize> = group
                .iter()
                .filter(|r| !r.oracle)
                .map(|r| r.rank_in_acquisition)
                .collect();
            assert!(ranks.contains(&1) && ranks.iter().all(|&k| (1..=8).contains(&k)));
        }
    }
    let table = summary_table(&results, &rows, config.samples);
    assert!(
        table.contains("uniform cost, λ = 0.01")
            && table.contains("PRB")
            && table.contains("best pair")
    );
    assert_eq!(curves(&results).len(), 2 * 4);
}

#[test]
fn config_errors_name_the_bad_key() {
    let err = parse_config::<ExperimentConfig>("sedes = 3", false).unwrap_err();
    assert!(err.contains("sedes"), "{err}");
    let bad_rule: ExperimentConfig = toml::from_str("[rules.ucb_lcbb]").unwrap();
    let err = bad_rule.validate().unwrap_err();
    assert!(err.contains("ucb_lcbb") && err.contains("ucb_lcb"), "{err}");
    let bad_param: ExperimentConfig = toml::from_str("[rules.gss]\nwindw = 3").unwrap();
    let err = bad_param.validate().unwrap_err();
    assert!(err.contains("rules.gss") && err.contains("windw"), "{err}");
    let bad_value: ExperimentConfig = toml::from_str("[rules.prb]\nepsilon = -1.0").unwrap();
    assert!(bad_value.validate().unwrap_err().contains("prb.epsilon"));
    // A NaN parameter reaches the range check and is named there (not "invalid type: null").
    let nan: ExperimentConfig = toml::from_str("[rules.ucb_lcb]\nthreshold = nan").unwrap();
    let err = nan.validate().unwrap_err();
    assert!(
        err.contains("ucb_lcb.threshold") && err.contains("NaN"),
        "{err}"
    );
    let err = parse_config::<ExperimentConfig>(r#"costs = ["quadratic"]"#, false).unwrap_err();
    assert!(err.contains("quadratic") && err.contains("linear"), "{err}");
    let bad_cap = ExperimentConfig {
        max_evals: 3,
        ..Default::default()
    };
    assert!(bad_cap.validate().unwrap_err().contains("max_evals"));
    let err = parse_config::<ExperimentConfig>(r#"acquisitions = ["EI"]"#, false).unwrap_err();
    assert!(err.contains("pbgi"), "{err}");
    let err =
        parse_config::<ExperimentConfig>(r#"{"lambdas": [0.1], "acquisitons": ["ts"]}"#, true)
            .unwrap_err();
    assert!(err.contains("acquisitons"), "{err}");
    let repeated = ExperimentConfig {
        lambdas: vec![0.1, 0.1],
        ..Default::default()
    };
    assert!(repeated.validate().unwrap_err().contains("lambdas[1]"));
}

/// A few-second run on the continuous cube: 3-D, cap 16, one sample, every cost and
/// acquisition, every rule but PRB (with moving averages), small search budgets.
fn tiny_cube_config() -> ExperimentConfig {
    let text = r#"
        samples = 1
        initial_points = 8
        max_evals = 16
        costs = ["uniform", "linear", "periodic@argmin"]
        lambdas = [0.01]
        [rules.pbgi_logeipc]
        moving_average = 3
        [rules.ucb_lcb]
        moving_average = 3
        [rules.logeipc_med]
        initial_values = 3
        moving_average = 2
        [rules.srgap_med]
        initial_values = 3
        [rules.gss]
        [rules.convergence]
        window = 3
        [rules.fixed]
        evaluations = 12
        [domain]
        kind = "cube"
        dim = 3
        [search]
        raw_samples = 128
        restarts = 2
        max_iterations = 15
        ts_raw_samples = 64
        ts_restarts = 2
        ts_features = 64
        objective_features = 128
        optimum_raw_samples = 256
        optimum_restarts = 4
    "#;
    let config: ExperimentConfig = toml::from_str(text).unwrap();
    config.validate().unwrap();
    config
}

#[test]
fn cube_runs_reach_the_cap_with_nonnegative_regret_for_any_thread_count() {
    let config = tiny_cube_config();
    let one = run(&config, 1);
    assert_eq!(one, run(&config, 2));
    assert_eq!(one.runs.len(), 3 * 4);
    for r in &one.runs {
        assert_eq!(r.simple_regret.len(), 16);
        assert!(r.simple_regret.iter().all(|&s| s >= 0.0), "{r:?}");
        assert!(r.simple_regret.windows(2).all(|w| w[1] <= w[0]));
        assert!(r.stop.iter().all(|&t| (8..=16).contains(&t)));
    }
}

#[test]
fn every_preset_sets_the_authors_stabilisation_period() {
    // The authors' code (commit 7bb1efc): no stabilisation in 1-D; in 8-D the averaged rules
    // are tested from the 20th BO iteration on, i.e. no stop during the first 19 checks.
    let stabilisation = |preset: &str| {
        let config = ExperimentConfig::preset(preset).unwrap();
        config.validate().unwrap();
        let effective = config.effective().unwrap();
        let rules = effective.rules.unwrap();
        let pbgi = rules["pbgi_logeipc"].as_table().unwrap().clone();
        let get = |key: &str| pbgi[key].as_integer().unwrap();
        (rules.len(), get("stabilisation"), get("moving_average"))
    };
    let all = pbgi_lab::rules::RULES.len();
    assert_eq!(stabilisation("quick"), (all, 0, 1));
    assert_eq!(stabilisation("paper"), (all, 0, 1));
    assert_eq!(stabilisation("paper-8d"), (all - 1, 19, 20));
    assert_eq!(stabilisation("paper-8d-cheap"), (all - 1, 19, 20));
    assert_eq!(stabilisation("ablation-check-order"), (2, 0, 1));
    assert_eq!(stabilisation("ablation-unknown-cost"), (all, 0, 1));
}

#[test]
fn the_check_order_ablation_runs_both_orders_on_the_same_trajectories() {
    // A variant `pbgi_logeipc@before` runs beside the rule on the same trajectory; checked
    // before the update, it reads the previous step's statistic, so it never stops earlier
    // than the rule checked after it, and stops exactly one evaluation later whenever the
    // rule checked after it stopped after its first check (no signal is repeated or skipped
    // by the rule itself: without a window or debounce, both stop at the first signal they
    // read, and `statistic` holds every step's raw signal).
    let mut config = ExperimentConfig::preset("ablation-check-order").unwrap();
    config.samples = 2;
    config.domain.points = 41;
    config.max_evals = 14;
    config.lambdas = vec![0.01];
    config.validate().unwrap();
    let results = run(&config, 1);
    assert_eq!(
        results.rules,
        ["PBGI/LogEIPC", "PBGI/LogEIPC(check=before)"]
    );
    for r in &results.runs {
        let signals: Vec<usize> = r
            .statistic
            .iter()
            .enumerate()
            .filter(|(_, s)| **s <= 0.0)
            .map(|(i, _)| config.initial_points + i)
            .collect();
        let after = signals.first().copied();
        let before = signals
            .iter()
            .copied()
            .find(|&t| t < config.max_evals)
            .map(|t| t + 1);
        assert_eq!(r.fired[0], after.is_some(), "{r:?}");
        assert_eq!(r.stop[0], after.unwrap_or(config.max_evals), "{r:?}");
        assert_eq!(r.stop[1], before.unwrap_or(config.max_evals), "{r:?}");
        assert!(r.stop[1] >= r.stop[0]);
    }
    // Its figure: the paired difference, variant − rule, per setting and acquisition.
    let (_, files) = pbgi_lab::experiment::report::report_files(&config, &results).unwrap();
    let (_, svg) = files.iter().find(|(n, _)| n == "variants.svg").unwrap();
    let svg = String::from_utf8_lossy(svg);
    assert!(
        svg.contains("PBGI/LogEIPC(check=before)") && svg.contains("TS"),
        "no labels"
    );
}

#[test]
fn rule_variants_are_checked_and_named() {
    let with = |key: &str, params: &str| {
        let mut config = tiny_config();
        let table = params.parse::<toml::Table>().unwrap();
        config
            .rules
            .as_mut()
            .unwrap()
            .insert(key.into(), toml::Value::Table(table));
        config.validate()
    };
    assert!(with("pbgi_logeipc@before", "check = \"before\"").is_ok());
    let err = with("pbgi_logeipc@same", "").unwrap_err();
    assert!(
        err.contains("rules.pbgi_logeipc@same") && err.contains("rules.pbgi_logeipc"),
        "{err}"
    );
    let err = with("pbgi_logeipc@late", "check = \"later\"").unwrap_err();
    assert!(err.contains("rules.pbgi_logeipc@late.check"), "{err}");
    let err = with("pbgi_logeipc@Bad!", "").unwrap_err();
    assert!(err.contains("rules.pbgi_logeipc@Bad!"), "{err}");
    let err = with("nope@x", "").unwrap_err();
    assert!(err.contains("nope"), "{err}");
    // A PRB variant is bounded like PRB.
    let err = with("prb@big", "max_paths = 100000000").unwrap_err();
    assert!(err.contains("max_paths"), "{err}");
}

#[test]
fn paper_8d_searches_with_the_authors_starts_and_the_cheap_preset_differs_only_there() {
    // The authors' code (scripts/bayesianoptimizer.py, commit 7bb1efc): num_restarts = 10·d
    // and raw_samples = 1024·d for every acquisition and statistic; d = 8.
    let paper = ExperimentConfig::preset("paper-8d").unwrap();
    assert_eq!(paper.domain.dim, 8);
    assert_eq!(paper.search.restarts, 10 * 8);
    assert_eq!(paper.search.raw_samples, 1024 * 8);
    let cheap = ExperimentConfig::preset("paper-8d-cheap").unwrap();
    cheap.validate().unwrap();
    assert_eq!(cheap.search.restarts, 3);
    let mut same = cheap.clone();
    same.search.restarts = paper.search.restarts;
    assert_eq!(same, paper);
    assert!(pbgi_lab::experiment::config::PRESETS.contains(&"paper-8d-cheap"));
}

#[test]
fn cube_presets_and_prb_on_the_cube() {
    let paper = ExperimentConfig::preset("paper-8d").unwrap();
    paper.validate().unwrap();
    assert!(paper.is_continuous());
    assert_eq!((paper.initial_points, paper.max_evals), (18, 518));
    let mut with_prb = tiny_cube_config();
    with_prb
        .rules
        .as_mut()
        .unwrap()
        .insert("prb".into(), toml::Value::Table(toml::Table::new()));
    let err = with_prb.validate().unwrap_err();
    assert!(err.contains("rules.prb"), "{err}");
}

#[test]
fn an_unknown_uniform_cost_is_seen_as_its_lognormal_mean() {
    // Uniform cost λ·1 with λ = 0.5 on the 11-point grid (spacing 0.1 = the length scale),
    // one evaluation at x = 0, cap 1: one check. The log-cost GP (Matérn-5/2, ℓ = 0.1,
    // variance 1, mean 0 on ln c) has observed ln c = 0 at x = 0, so at x = i/10 its mean is
    // 0 and its variance 1 − k(i)², k(i) = (1 + √5·i + 5i²/3)·e^{−√5·i} (hand-computed,
    // jitter 1e-8 aside), and the rules see E[λc] = λ·exp(s²/2).
    use pbgi_lab::acquisitions::AcquisitionName;
    use pbgi_lab::bo::{run_bo_unknown_cost, Control, LogCostModel, LogEipcForm, Task};
    let text = r#"
        samples = 1
        initial_points = 1
        max_evals = 1
        costs = ["uniform"]
        lambdas = [0.5]
        [domain]
        points = 11
        [cost_model]
        kind = "lognormal"
    "#;
    let config: ExperimentConfig = toml::from_str(text).unwrap();
    config.validate().unwrap();
    let problem = config.problem().unwrap();
    let log_cost = config.log_cost_problem().unwrap();
    let objective: Vec<f64> = (0..11).map(|i| (i as f64 * 0.7).sin()).collect();
    let cost = vec![0.5; 11];
    let task = Task {
        objective: &objective,
        cost: &cost,
        initial: &[0],
        max_evals: 1,
    };
    let model = LogCostModel {
        problem: &log_cost,
        log_lambda: 0.5f64.ln(),
        logeipc: LogEipcForm::Exp,
    };
    let mut seen = Vec::new();
    let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(1);
    let record = run_bo_unknown_cost(
        &problem,
        &task,
        &model,
        AcquisitionName::Pbgi,
        &mut rng,
        &mut |view, _| {
            seen = view.cost.to_vec();
            Control::Continue
        },
    )
    .unwrap();
    assert_eq!(record.cost, [0.5]);
    for (i, &c) in seen.iter().enumerate() {
        let r = 5f64.sqrt() * i as f64;
        let k = (1.0 + r + r * r / 3.0) * (-r).exp();
        let want = 0.5 * (0.5 * (1.0 - k * k)).exp();
        assert!((c - want).abs() < 1e-7, "point {i}: {c} vs {want}");
    }
}

#[test]
fn unknown_cost_runs_and_its_keys_are_checked() {
    let mut config = tiny_config();
    config.cost_model.kind = pbgi_lab::experiment::cost_model::CostModelKind::Lognormal;
    config.validate().unwrap();
    let exp = run(&config, 1);
    assert_eq!(exp, run(&config, 2));
    let known = run(&tiny_config(), 1);
    // LCB and TS ignore the cost: their trajectories are those of the known cost; PBGI's and
    // LogEIPC's differ.
    for (a, b) in exp.runs.iter().zip(&known.runs) {
        assert_eq!(a.cumulative_cost.len(), 14);
        assert!(a.simple_regret.iter().all(|&s| s >= 0.0));
        let acquisition = config.acquisitions[a.acquisition].key();
        if acquisition == "lcb" || acquisition == "ts" {
            assert_eq!(a.simple_regret, b.simple_regret, "{acquisition}");
        }
    }
    config.cost_model.logeipc = "inv".into();
    let inv = run(&config, 1);
    assert_ne!(inv.runs, exp.runs);
    config.cost_model.logeipc = "half".into();
    let err = config.validate().unwrap_err();
    assert!(err.contains("cost_model.logeipc"), "{err}");
    let mut cube = tiny_cube_config();
    cube.cost_model.kind = pbgi_lab::experiment::cost_model::CostModelKind::Lognormal;
    let err = cube.validate().unwrap_err();
    assert!(err.contains("cost_model.kind"), "{err}");
    // Two posteriors per run: the memory bound of one holds for both.
    let mut big = tiny_config();
    big.cost_model.kind = pbgi_lab::experiment::cost_model::CostModelKind::Lognormal;
    big.rules = Some(Default::default());
    big.rules.as_mut().unwrap().insert(
        "pbgi_logeipc".into(),
        toml::Value::Table(toml::Table::new()),
    );
    big.domain.points = 1 << 20;
    big.max_evals = 100;
    assert!(ExperimentConfig {
        cost_model: Default::default(),
        ..big.clone()
    }
    .validate()
    .is_ok());
    let err = big.validate().unwrap_err();
    assert!(
        err.contains("cost_model.kind") && err.contains("2 posteriors"),
        "{err}"
    );
    let preset = ExperimentConfig::preset("ablation-unknown-cost").unwrap();
    preset.validate().unwrap();
    assert!(preset.cost_model.is_unknown());
}

#[test]
fn without_the_trace_no_statistic_is_kept_or_written() {
    let config = ExperimentConfig {
        trace_statistic: false,
        ..tiny_config()
    };
    config.validate().unwrap();
    let off = run(&config, 1);
    let on = run(&tiny_config(), 1);
    for (a, b) in off.runs.iter().zip(&on.runs) {
        assert!(a.statistic.is_empty());
        assert_eq!(b.statistic.len(), 14 - 4 + 1);
        assert_eq!((&a.stop, &a.simple_regret), (&b.stop, &b.simple_regret));
    }
    let (_, files) = pbgi_lab::experiment::report::report_files(&config, &off).unwrap();
    assert!(files.iter().all(|(name, _)| !name.starts_with("statistic")));
}

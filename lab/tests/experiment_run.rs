//! The experiment driver on tiny configurations: determinism across thread counts, Hindsight
//! as a lower bound, stopping-time bookkeeping, config errors that name the bad key, and the
//! files `pbgi experiment` writes.
use pbgi_conformance::experiment::acquisitions::make_acquisition;
use pbgi_conformance::experiment::config::ExperimentConfig;
use pbgi_conformance::experiment::report::{curves, summarize, summary_table, HINDSIGHT};
use pbgi_conformance::experiment::run::{run_experiment, ExperimentResults};

/// A few-second configuration: 41-point grid, cap 14, two seeds, two settings, all
/// acquisitions and rules (PRB with at most 200 paths, LogEIPC-/SRGap-med calibrated on 3
/// values so they can fire before the cap).
fn tiny_config() -> ExperimentConfig {
    let text = r#"
        seeds = 2
        grid_points = 41
        cap = 14
        costs = ["uniform", "periodic"]
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
    "#;
    let config: ExperimentConfig = toml::from_str(text).unwrap();
    config.validate().unwrap();
    config
}

fn run(config: &ExperimentConfig, threads: usize) -> ExperimentResults {
    let acquisitions = config
        .acquisitions
        .iter()
        .map(|n| make_acquisition(n).unwrap())
        .collect::<Vec<_>>();
    run_experiment(config, &acquisitions, threads, &|| {}).unwrap()
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
    let other = run(
        &ExperimentConfig {
            master_seed: 7,
            ..config
        },
        2,
    );
    assert_ne!(one.runs[0].simple_regret, other.runs[0].simple_regret);
}

#[test]
fn hindsight_is_never_worse_than_any_rule_and_stops_are_consistent() {
    let config = tiny_config();
    let results = run(&config, 2);
    assert_eq!(results.rules.len(), 8);
    for r in &results.runs {
        let best = r.hindsight_stop(config.initial_points);
        assert!((config.initial_points..=config.cap).contains(&best));
        for t in config.initial_points..=config.cap {
            assert!(
                r.regret_at(best) <= r.regret_at(t),
                "hindsight beaten at t = {t}"
            );
        }
        for (i, &stop) in r.stop.iter().enumerate() {
            assert!(
                (config.initial_points..=config.cap).contains(&stop),
                "{}: τ = {stop}",
                results.rules[i]
            );
            assert!(r.fired[i] || stop == config.cap);
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
    let table = summary_table(&results, &rows, config.seeds);
    assert!(
        table.contains("uniform cost, λ = 0.01")
            && table.contains("PRB")
            && table.contains("best pair")
    );
    assert_eq!(curves(&results).len(), 2 * 4);
}

#[test]
fn config_errors_name_the_bad_key() {
    let err = toml::from_str::<ExperimentConfig>("sedes = 3")
        .unwrap_err()
        .to_string();
    assert!(err.contains("sedes"), "{err}");
    let bad_rule: ExperimentConfig = toml::from_str("[rules.ucb_lcbb]").unwrap();
    let err = bad_rule.validate().unwrap_err();
    assert!(err.contains("ucb_lcbb") && err.contains("ucb_lcb"), "{err}");
    let bad_param: ExperimentConfig = toml::from_str("[rules.gss]\nwindw = 3").unwrap();
    let err = bad_param.validate().unwrap_err();
    assert!(err.contains("rules.gss") && err.contains("windw"), "{err}");
    let bad_value: ExperimentConfig = toml::from_str("[rules.prb]\nepsilon = -1.0").unwrap();
    assert!(bad_value.validate().unwrap_err().contains("prb.epsilon"));
    let bad_cost: ExperimentConfig = toml::from_str(r#"costs = ["quadratic"]"#).unwrap();
    assert!(bad_cost.validate().unwrap_err().contains("quadratic"));
    let bad_cap = ExperimentConfig {
        cap: 3,
        ..Default::default()
    };
    assert!(bad_cap.validate().unwrap_err().contains("cap"));
    assert!(make_acquisition("EI").err().unwrap().contains("PBGI"));
    let json: Result<ExperimentConfig, _> =
        serde_json::from_str(r#"{"lambdas": [0.1], "acquisitons": ["TS"]}"#);
    assert!(json.unwrap_err().to_string().contains("acquisitons"));
}

#[test]
fn cli_writes_tables_csv_and_plots() {
    let dir = std::env::temp_dir().join(format!("pbgi-experiment-test-{}", std::process::id()));
    let config_path = dir.join("tiny.toml");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(&config_path, "seeds = 1\ngrid_points = 31\ncap = 8\ncosts = [\"linear\"]\nlambdas = [0.1]\nacquisitions = [\"PBGI\", \"LCB\"]\n").unwrap();
    let out = dir.join("out");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_pbgi"))
        .args(["experiment", "--config"])
        .arg(&config_path)
        .arg("--out")
        .arg(&out)
        .args(["--threads", "2"])
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let stdout = String::from_utf8_lossy(&status.stdout);
    assert!(
        stdout.contains("linear cost, λ = 0.1") && stdout.contains("Hindsight"),
        "{stdout}"
    );
    for file in [
        "runs.csv",
        "summary.csv",
        "curves.csv",
        "summary.txt",
        "config.json",
        "regret_linear_lambda_0.1.svg",
    ] {
        let text =
            std::fs::read_to_string(out.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(!text.is_empty(), "{file} is empty");
    }
    let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    // 2 acquisitions × (8 registered rules + 2 oracles) rows + header.
    assert_eq!(summary.lines().count(), 1 + 2 * (8 + 2));
    let bad = std::process::Command::new(env!("CARGO_BIN_EXE_pbgi"))
        .args(["experiment", "--seeds", "0", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("seeds"));
    std::fs::remove_dir_all(&dir).unwrap();
}

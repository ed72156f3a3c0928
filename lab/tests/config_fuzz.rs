//! Property-based fuzzing of the two configuration readers (`pbgi validate`'s and `pbgi
//! experiment`'s, TOML and JSON): arbitrary bytes and structure-aware mutations of valid files
//! never panic, and always give either a configuration or an error that names a place (the line
//! and column of a syntax error, or the key of a bad value). Configurations that parse are then
//! checked (`validate`), which must also return cleanly. Seeded and bounded: a few thousand cases
//! in well under a second; `PBGI_PROPTEST_SEED` replaces the seed.
use pbgi_lab::experiment::ExperimentConfig;
use pbgi_lab::study::config::{parse_config, to_toml};
use pbgi_lab::theorem1::Config;
use proptest::prelude::*;
use proptest::test_runner::{Config as RunnerConfig, RngAlgorithm, RngSeed, TestRunner};

/// The default seed; `PBGI_PROPTEST_SEED=<u64>` replaces it.
const DEFAULT_SEED: u64 = 0x1ab_2026_1122;

fn runner(cases: u32) -> TestRunner {
    let seed = std::env::var("PBGI_PROPTEST_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(DEFAULT_SEED);
    eprintln!("proptest seed {seed:#x} ({cases} cases; set PBGI_PROPTEST_SEED to change)");
    TestRunner::new(RunnerConfig {
        cases,
        rng_algorithm: RngAlgorithm::ChaCha,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        ..RunnerConfig::default()
    })
}

/// Keys an error may name instead of a line.
const KEYS: &[&str] = &[
    "seed",
    "samples",
    "initial_points",
    "max_evals",
    "costs",
    "lambdas",
    "acquisitions",
    "prior",
    "domain",
    "periodic",
    "rule",
    "rules",
    "kernel",
    "length_scale",
    "mean",
    "jitter",
    "points",
    "dim",
    "anchor",
    "debounce",
    "moving_average",
    "alpha",
    "beta",
    "search",
    "cost_model",
];

fn names_a_place(error: &str) -> bool {
    !error.is_empty() && (error.contains("line") || KEYS.iter().any(|k| error.contains(k)))
}

/// Parses `text` both ways and checks whatever parses; panics (failing the property) on an
/// error that names no place.
fn read_both(text: &str) -> Result<(), TestCaseError> {
    for json in [false, true] {
        match parse_config::<Config>(text, json) {
            Ok(c) => {
                // Building allocates the prior: only for sizes a test can afford.
                if c.domain.points <= 300 && c.samples <= 1000 {
                    if let Err(e) = c.build() {
                        prop_assert!(names_a_place(&e), "validate config {text:?}: {e}");
                    }
                }
            }
            Err(e) => prop_assert!(names_a_place(&e), "validate config {text:?}: {e}"),
        }
        match parse_config::<ExperimentConfig>(text, json) {
            Ok(c) => {
                if let Err(e) = c.validate() {
                    prop_assert!(names_a_place(&e), "experiment config {text:?}: {e}");
                }
            }
            Err(e) => prop_assert!(names_a_place(&e), "experiment config {text:?}: {e}"),
        }
    }
    Ok(())
}

#[test]
fn arbitrary_bytes_never_panic() {
    runner(600)
        .run(&proptest::collection::vec(any::<u8>(), 0..200), |bytes| {
            read_both(&String::from_utf8_lossy(&bytes))
        })
        .unwrap();
}

/// Values a mutation may put in place of another.
const VALUES: &[&str] = &[
    "nan",
    "inf",
    "-inf",
    "-1",
    "0",
    "1e400",
    "18446744073709551616",
    "\"x\"",
    "[]",
    "{}",
    "[nan]",
    "[0.1, 0.1]",
    "\"PBGI\"",
    "true",
    "1.5",
    "-0.0",
    "9223372036854775808",
    "\"18446744073709551615\"",
    "[\"uniform\", \"uniform\"]",
];

#[test]
fn mutated_valid_files_never_panic() {
    let sources = [
        to_toml(&Config::default()).unwrap(),
        to_toml(&ExperimentConfig::default().effective().unwrap()).unwrap(),
        to_toml(&ExperimentConfig::paper_8d().effective().unwrap()).unwrap(),
        to_toml(
            &ExperimentConfig::ablation_unknown_cost()
                .effective()
                .unwrap(),
        )
        .unwrap(),
        to_toml(
            &ExperimentConfig::ablation_check_order()
                .effective()
                .unwrap(),
        )
        .unwrap(),
    ];
    let strategy = (
        0..sources.len(),
        proptest::collection::vec((0usize..4, any::<usize>(), 0..VALUES.len()), 1..4),
    );
    runner(1500)
        .run(&strategy, |(source, mutations)| {
            let mut lines: Vec<String> = sources[source].lines().map(str::to_string).collect();
            for (kind, at, value) in mutations {
                let i = at % lines.len().max(1);
                match kind {
                    // Replace a value.
                    0 => {
                        if let Some((key, _)) = lines[i].split_once(" = ") {
                            lines[i] = format!("{key} = {}", VALUES[value]);
                        }
                    }
                    // Drop a line.
                    1 if !lines.is_empty() => {
                        lines.remove(i);
                    }
                    // Repeat a line (a duplicate key or table).
                    2 if !lines.is_empty() => {
                        let line = lines[i].clone();
                        lines.insert(i, line);
                    }
                    // Misspell a key.
                    _ => {
                        if let Some((key, rest)) = lines[i].split_once(" = ") {
                            lines[i] = format!("{key}x = {rest}");
                        }
                    }
                }
            }
            read_both(&lines.join("\n"))
        })
        .unwrap();
}

//! Shared set-up of the property tests: seeded, logged proptest configurations (the general one
//! and the Pandora tests' own seed), and the shipped Pandora instances. The `pbgi` tool's tests
//! (`cli/tests/common`) use this file too.
// Each test file uses some of these.
#![allow(dead_code)]
use proptest::test_runner::{Config, RngAlgorithm, RngSeed, TestRunner};
use std::path::{Path, PathBuf};

/// The default seed of every property test; `PBGI_PROPTEST_SEED=<u64>` replaces it.
pub const DEFAULT_SEED: u64 = 0x9b61_2026_1121;

/// A proptest configuration with `cases` cases and the logged seed. Failures are not persisted
/// to files: shrunk counterexamples are pinned as named tests instead.
pub fn config(cases: u32) -> Config {
    let seed = std::env::var("PBGI_PROPTEST_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(DEFAULT_SEED);
    eprintln!("proptest seed {seed:#x} ({cases} cases; set PBGI_PROPTEST_SEED to change)");
    Config {
        cases,
        rng_algorithm: RngAlgorithm::ChaCha,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        ..Config::default()
    }
}

/// The default seed of the Pandora property tests; `PANDORA_SEED=<u64>` replaces it.
pub const PANDORA_SEED: u64 = 0x5eed_0004;

/// The Pandora tests' seed, logged: `PANDORA_SEED` when set, else [`PANDORA_SEED`].
pub fn pandora_seed() -> u64 {
    let s = std::env::var("PANDORA_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(PANDORA_SEED);
    eprintln!("PANDORA_SEED={s}");
    s
}

/// A proptest runner of `cases` cases from `seed`, persisting no failures.
pub fn pandora_runner(cases: u32, seed: u64) -> TestRunner {
    TestRunner::new(Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        ..Config::default()
    })
}

/// The shipped Pandora instances (`fixtures/pandora/`).
pub const PANDORA_FIXTURES: [&str; 5] = [
    "two_boxes.json",
    "must_open.json",
    "mixed_normal.json",
    "theorem2_tie.json",
    "tie_at_outside.json",
];

/// The shipped Pandora instance `fixtures/pandora/NAME`.
pub fn pandora_fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures/pandora")
        .join(name)
}

//! Shared set-up of the property tests: seeded, logged proptest configurations.
use proptest::test_runner::{Config, RngAlgorithm, RngSeed};

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

//! Random small discrete Pandora instances for the property tests, with logged seeds; the exact
//! rationals `r(num, den)` every Pandora test writes its boxes in.
//!
//! Values are small rationals `k/d` (`|k| ≤ 6`, `d ∈ {1, 2, 3}`) so that ties between indices,
//! atoms and the outside option happen often; probabilities are normalised integer weights;
//! costs are `k/4`.
use pbgi_reference::pandora::{Instance, PandoraBox};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestRunner};
use rug::Rational;

/// Default seed of every Pandora property test; override with `PANDORA_SEED=<u64>`.
pub const DEFAULT_SEED: u64 = 0x5eed_0004;

/// A runner with `cases` cases and the logged seed (printed so a failure can be replayed).
pub fn runner(test: &str, cases: u32) -> (TestRunner, u64) {
    let seed = std::env::var("PANDORA_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(DEFAULT_SEED);
    eprintln!("{test}: PANDORA_SEED={seed}, {cases} cases");
    let config = Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        ..Config::default()
    };
    (TestRunner::new(config), seed)
}

/// `num/den` as an exact rational (the Pandora tests' shorthand).
pub fn r(num: i64, den: i64) -> Rational {
    Rational::from((num, den))
}

fn box_strategy(max_atoms: usize) -> impl Strategy<Value = (i64, Vec<(i64, i64)>, Vec<u32>)> {
    (
        1i64..=12,
        prop::collection::vec((-6i64..=6, 1i64..=3), 1..=max_atoms),
        prop::collection::vec(1u32..=5, max_atoms),
    )
}

/// Random discrete instances with `1..=max_boxes` boxes of `1..=max_atoms` atoms.
pub fn instances(max_boxes: usize, max_atoms: usize) -> impl Strategy<Value = Instance> {
    (
        prop::collection::vec(box_strategy(max_atoms), 1..=max_boxes),
        prop::option::of(-4i64..=8),
    )
        .prop_map(|(boxes, outside)| {
            let boxes = boxes
                .into_iter()
                .enumerate()
                .map(|(i, (cost, raw_values, weights))| {
                    let mut values: Vec<Rational> =
                        raw_values.iter().map(|&(k, d)| r(k, d)).collect();
                    values.sort();
                    values.dedup();
                    let weights = &weights[..values.len()];
                    let total: u32 = weights.iter().sum();
                    let probs = weights.iter().map(|&w| r(w.into(), total.into())).collect();
                    PandoraBox::discrete(r(cost, 4), values, probs, Some(i))
                        .expect("generated box is valid")
                })
                .collect();
            Instance::new(boxes, outside.map(|y| r(y, 1))).expect("non-empty")
        })
}

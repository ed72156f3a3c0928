//! The exact solves' size limits: the DP's size is known before it runs and refused beyond
//! the limits (without doing the work); the number-size bound really bounds every number the
//! DP produces; the budget solve stops at its work limit; progress is reported.
mod common;

use common::pandora::{instances, r, runner};
use pbgi_reference::pandora::{
    dp_size, number_bits, solve_budget_with, solve_dp_with, Instance, PandoraBox, Progress,
    WorkLimits,
};
use proptest::prelude::*;
use rug::ops::Pow;
use rug::{Integer, Rational};
use std::time::Instant;

/// `boxes` boxes of three atoms whose probabilities, values and costs are fractions with
/// `digits`-digit numerators and denominators (deterministic, no randomness needed).
fn huge_fractions(boxes: usize, digits: u32) -> Instance {
    let big = |k: u64| -> Integer {
        Integer::from(Integer::from(10).pow(digits - 1) * 7u32) + k * 1_000_003u64
    };
    let built = (0..boxes)
        .map(|i| {
            let i = i as u64;
            let d = big(3 * i + 1);
            let (a, b) = (Integer::from(&d / 3) + i, Integer::from(&d / 4) + 2 * i);
            let c = Integer::from(&d - &a) - &b;
            let probs = vec![
                Rational::from((a, d.clone())),
                Rational::from((b, d.clone())),
                Rational::from((c, d)),
            ];
            let values = (0..3)
                .map(|j| Rational::from((big(10 * i + j), big(10 * i + j + 5))))
                .collect();
            let cost = Rational::from((big(i + 11), big(i + 13) * 10u32));
            PandoraBox::discrete(cost, values, probs, Some(i as usize)).unwrap()
        })
        .collect();
    Instance::new(built, Some(r(1, 1))).unwrap()
}

/// Every numerator and denominator in the DP table fits in `number_bits` bits.
#[test]
fn number_bits_bounds_every_dp_value() {
    let (mut runner, seed) = runner("number_bits_bounds_every_dp_value", 60);
    runner
        .run(&instances(5, 3), |inst| {
            let dp = solve_dp_with(&inst, &WorkLimits::default(), &mut |_| {}).unwrap();
            let bound = number_bits(&inst);
            let mut hands: Vec<Option<Rational>> = vec![None];
            hands.extend(inst.outside().cloned().map(Some));
            for b in inst.boxes() {
                hands.extend(
                    b.as_discrete()
                        .unwrap()
                        .atoms()
                        .iter()
                        .map(|(x, _)| Some(x.clone())),
                );
            }
            for mask in 0..(1u32 << inst.boxes().len()) {
                for hand in &hands {
                    if let Some(v) = dp.value(mask, hand.as_ref()) {
                        let bits = u64::from(
                            v.numer()
                                .significant_bits()
                                .max(v.denom().significant_bits()),
                        );
                        prop_assert!(bits <= bound, "{} bits > bound {}", bits, bound);
                    }
                }
            }
            Ok(())
        })
        .unwrap_or_else(|e| panic!("PANDORA_SEED={seed}: {e}"));
}

/// Twelve boxes with 200-digit fractions: about a minute of DP, refused at once by the default
/// work limit, with the estimate in the message; the size is what the DP would fill.
#[test]
fn huge_fractions_are_refused_before_any_work() {
    let inst = huge_fractions(12, 200);
    let size = dp_size(&inst).unwrap();
    assert_eq!(size.states, (1 << 12) * (36 + 1 + 1));
    assert!(size.number_bits > 12 * 2 * 660, "{} bits", size.number_bits);
    let started = Instant::now();
    let error = solve_dp_with(&inst, &WorkLimits::default(), &mut |_| {}).unwrap_err();
    assert!(
        started.elapsed().as_secs_f64() < 1.0,
        "refusal took {:?}",
        started.elapsed()
    );
    assert_eq!(error.field, "limit");
    assert!(
        error.message.starts_with("the exact DP needs about ")
            && error.message.contains("above the limit of 3.0e10"),
        "{}",
        error.message
    );
    let states = WorkLimits {
        max_states: 1000,
        ..WorkLimits::default()
    };
    let error = solve_dp_with(&inst, &states, &mut |_| {}).unwrap_err();
    assert!(error.message.contains("155648 states"), "{}", error.message);
}

/// The budget solve counts its work as it goes and stops at the limit; below it, it reports
/// progress through every critical point it examines.
#[test]
fn budget_solve_stops_at_its_work_limit() {
    let inst = huge_fractions(6, 60);
    let total: Rational = inst.boxes().iter().map(|b| b.cost()).sum();
    let budget = total / 2;
    let mut steps = Vec::new();
    let error =
        solve_budget_with(&inst, &budget, 1e6, &mut |p: Progress| steps.push(p)).unwrap_err();
    assert_eq!(error.field, "limit");
    assert!(
        error.message.contains("above the limit of 1.0e6"),
        "{}",
        error.message
    );
    assert!(!steps.is_empty() && steps.iter().all(|p| p.stage == "Theorem 2 budget solve"));
    // Theorem 2's hand-computed case (`fixtures/pandora/theorem2_tie.json`).
    let coin = |i| {
        PandoraBox::discrete(
            r(1, 1),
            vec![r(0, 1), r(2, 1)],
            vec![r(1, 2), r(1, 2)],
            Some(i),
        )
    };
    let small = Instance::new(vec![coin(0).unwrap(), coin(1).unwrap()], Some(r(1, 1))).unwrap();
    let mut seen = Vec::new();
    solve_budget_with(&small, &r(6, 5), f64::INFINITY, &mut |p: Progress| {
        seen.push(p.done)
    })
    .unwrap();
    assert!(
        seen.windows(2).all(|w| w[0] <= w[1] || w[1] == 0),
        "{seen:?}"
    );
}

/// The DP tells its progress once per subset of opened boxes, in order, to the end.
#[test]
fn dp_reports_progress() {
    let inst = huge_fractions(4, 3);
    let mut seen = Vec::new();
    solve_dp_with(&inst, &WorkLimits::default(), &mut |p: Progress| {
        seen.push((p.done, p.total))
    })
    .unwrap();
    assert_eq!(seen, (0..16).map(|d| (d, 16)).collect::<Vec<_>>());
}

//! Theorem 1 (stopping paper) in the Pandora setting, exactly: on random discrete instances
//! with a common mean, the expected cost of "open x₁, then PBGI with its stopping rule" never
//! exceeds `C + U`. Prints the tightness figures `E[cost]/(C + U)` (run with `--nocapture`).
mod common;

use common::pandora::{instances, r, runner};
use pbgi_reference::pandora::{theorem1, Instance, PandoraBox};
use proptest::prelude::*;
use rug::{Float, Rational};
use std::cell::RefCell;

/// The same boxes shifted to mean 0, without outside option.
fn centred(instance: &Instance) -> Instance {
    let boxes = instance
        .boxes()
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let d = b.as_discrete().expect("discrete");
            let mean = d.mean();
            let values = d
                .atoms()
                .iter()
                .map(|(x, _)| Rational::from(x - &mean))
                .collect();
            let probs = d.atoms().iter().map(|(_, p)| p.clone()).collect();
            PandoraBox::discrete(b.cost().clone(), values, probs, Some(i)).expect("valid")
        })
        .collect();
    Instance::new(boxes, None).expect("non-empty")
}

#[test]
fn pbgi_stopping_cost_is_at_most_c_plus_u() {
    let (mut runner, seed) = runner("pbgi_stopping_cost_is_at_most_c_plus_u", 300);
    let ratios = RefCell::new(Vec::new());
    runner
        .run(&instances(6, 4), |inst| {
            let inst = centred(&inst);
            for first in 0..inst.boxes().len() {
                let t = theorem1(&inst, first).expect("valid");
                prop_assert!(
                    t.expected_cost <= t.bound(),
                    "E[cost] = {} > C + U = {} (first box {first}) on {:?}",
                    t.expected_cost,
                    t.bound(),
                    inst
                );
                // Tight iff one box, or every box a point mass (proofs-notes/pandora-theorem1.md).
                let point_masses = inst.boxes().len() == 1
                    || inst
                        .boxes()
                        .iter()
                        .all(|b| b.as_discrete().expect("discrete").atoms().len() == 1);
                prop_assert_eq!(t.expected_cost == t.bound(), point_masses, "{:?}", inst);
                if inst.boxes().len() > 1 {
                    ratios.borrow_mut().push(t.ratio());
                }
            }
            Ok(())
        })
        .unwrap_or_else(|e| panic!("PANDORA_SEED={seed}: {e}"));
    let mut ratios = ratios.into_inner();
    ratios.sort();
    let f = |x: &Rational| Float::with_val(53, x).to_f64();
    let tight = ratios.iter().filter(|x| **x == 1).count();
    let n = ratios.len();
    eprintln!(
        "Theorem 1 tightness over {n} (instance, first box) pairs with ≥ 2 boxes: \
         E[cost]/(C+U) min {:.4}, quartiles {:.4} {:.4} {:.4}, max {:.6}; exactly tight: {tight}",
        f(&ratios[0]),
        f(&ratios[n / 4]),
        f(&ratios[n / 2]),
        f(&ratios[3 * n / 4]),
        f(&ratios[n - 1]),
    );
    assert!(n > 300);
}

/// One box `X ∈ {-1, 1}`, cost 1/2: `U = 0 - E[X] = 0`, `E[cost] = C`: the bound is tight.
/// Two such boxes: after `x₁`, box 2 (index `g = 0`) is opened iff `X₁ = 1 > 0`, so
/// `E[cost] = 1/2 + 1/2·1/2 = 3/4`; `E[min] = -1·3/4 + 1·1/4 = -1/2`, `U = 1/2`, bound `1`.
#[test]
fn hand_computed_theorem1() {
    let make = |i| {
        PandoraBox::discrete(
            r(1, 2),
            vec![r(-1, 1), r(1, 1)],
            vec![r(1, 2), r(1, 2)],
            Some(i),
        )
        .expect("valid")
    };
    let one = theorem1(&Instance::new(vec![make(0)], None).unwrap(), 0).unwrap();
    assert_eq!((one.expected_cost.clone(), one.bound()), (r(1, 2), r(1, 2)));
    let two = theorem1(&Instance::new(vec![make(0), make(1)], None).unwrap(), 0).unwrap();
    assert_eq!(two.expected_cost, r(3, 4));
    assert_eq!(two.u, r(1, 2));
    assert_eq!(two.bound(), r(1, 1));
}

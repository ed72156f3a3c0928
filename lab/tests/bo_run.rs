//! The BO loop's bookkeeping: order of events, end reasons, input errors.
mod common;

use common::grid_problem;
use pbgi_lab::bo::{run_bo, Acquisition, Control, EndReason, StepView, Task};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Picks the lowest-index unevaluated point (a transparent acquisition for bookkeeping tests).
struct FirstFree;

impl Acquisition for FirstFree {
    fn name(&self) -> String {
        "first-free".into()
    }
    fn choose(&self, step: &StepView, _rng: &mut ChaCha8Rng) -> Option<usize> {
        step.evaluated.iter().position(|&e| !e)
    }
}

#[test]
fn records_values_costs_and_incumbents_in_order() {
    let p = grid_problem(6);
    let objective = [0.5, -0.1, 0.3, -0.4, 0.9, 0.0];
    let cost = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6];
    let task = Task {
        objective: &objective,
        cost: &cost,
        initial: &[2],
        max_evals: 10,
    };
    let mut seen_t = Vec::new();
    let mut seen_cum = Vec::new();
    let rec = run_bo(
        &p,
        &task,
        &FirstFree,
        &mut ChaCha8Rng::seed_from_u64(0),
        &mut |s, _| {
            seen_t.push(s.t);
            seen_cum.push(s.cumulative_cost);
            if s.t == 4 {
                Control::Stop
            } else {
                Control::Continue
            }
        },
    )
    .unwrap();
    assert_eq!(rec.x, vec![2, 0, 1, 3]);
    assert_eq!(rec.y, vec![0.3, 0.5, -0.1, -0.4]);
    assert_eq!(rec.incumbent, vec![0.3, 0.3, -0.1, -0.4]);
    assert_eq!(rec.end, EndReason::Stopped);
    assert_eq!(seen_t, vec![1, 2, 3, 4]);
    let expected_cum = [0.3, 0.3 + 0.1, 0.3 + 0.1 + 0.2, 0.3 + 0.1 + 0.2 + 0.4];
    for (a, b) in seen_cum.iter().zip(expected_cum) {
        assert!((a - b).abs() < 1e-15);
    }
    assert!((rec.total_cost() - 1.0).abs() < 1e-15);
}

#[test]
fn cap_and_exhaustion_are_reported_as_such() {
    let p = grid_problem(5);
    let objective = [0.0; 5];
    let cost = [1.0; 5];
    let mut never = |_: &StepView, _: &mut ChaCha8Rng| Control::Continue;
    let capped = Task {
        objective: &objective,
        cost: &cost,
        initial: &[0],
        max_evals: 3,
    };
    let rec = run_bo(
        &p,
        &capped,
        &FirstFree,
        &mut ChaCha8Rng::seed_from_u64(0),
        &mut never,
    )
    .unwrap();
    assert_eq!((rec.n_evals(), rec.end), (3, EndReason::Capped));
    let all = Task {
        max_evals: 100,
        ..capped
    };
    let rec = run_bo(
        &p,
        &all,
        &FirstFree,
        &mut ChaCha8Rng::seed_from_u64(0),
        &mut never,
    )
    .unwrap();
    assert_eq!((rec.n_evals(), rec.end), (5, EndReason::Exhausted));
}

#[test]
fn several_initial_points_are_evaluated_before_the_first_check() {
    let p = grid_problem(5);
    let objective = [0.0; 5];
    let cost = [1.0; 5];
    let task = Task {
        objective: &objective,
        cost: &cost,
        initial: &[4, 1, 2],
        max_evals: 5,
    };
    let mut first_t = None;
    let rec = run_bo(
        &p,
        &task,
        &FirstFree,
        &mut ChaCha8Rng::seed_from_u64(0),
        &mut |s, _| {
            first_t.get_or_insert(s.t);
            Control::Stop
        },
    )
    .unwrap();
    assert_eq!(first_t, Some(3));
    assert_eq!(rec.x, vec![4, 1, 2]);
}

#[test]
fn bad_tasks_are_rejected_with_the_reason() {
    let p = grid_problem(4);
    let objective = [0.0; 4];
    let cost = [1.0; 4];
    let base = Task {
        objective: &objective,
        cost: &cost,
        initial: &[0],
        max_evals: 4,
    };
    let mut go = |_: &StepView, _: &mut ChaCha8Rng| Control::Continue;
    let mut run = |t: Task| {
        run_bo(
            &p,
            &t,
            &FirstFree,
            &mut ChaCha8Rng::seed_from_u64(0),
            &mut go,
        )
        .unwrap_err()
    };
    assert!(run(Task {
        initial: &[],
        ..base
    })
    .contains("empty"));
    assert!(run(Task {
        initial: &[1, 1],
        ..base
    })
    .contains("repeated"));
    assert!(run(Task {
        initial: &[7],
        ..base
    })
    .contains("outside"));
    assert!(run(Task {
        objective: &[0.0; 3],
        ..base
    })
    .contains("objective has 3"));
    assert!(run(Task {
        cost: &[1.0, 0.0, 1.0, 1.0],
        ..base
    })
    .contains("cost at point 1"));
    assert!(run(Task {
        objective: &[0.0, f64::NAN, 0.0, 0.0],
        ..base
    })
    .contains("point 1"));
    assert!(run(Task {
        initial: &[0, 1],
        max_evals: 1,
        ..base
    })
    .contains("max_evals"));
}

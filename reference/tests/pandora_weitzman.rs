//! Weitzman's theorem as a test: the index policy's exact objective equals the optimum found
//! by the exact DP (which knows nothing about indices), on random discrete instances, for
//! every tie rule; and the DP's optimal first actions are exactly index-policy actions.
//! Source of truth: the DP (`pandora::dp`) and the KWW closed form, both independent of the
//! policy evaluation.
mod common;

use common::pandora::{instances, r, runner};
use pbgi_reference::pandora::{
    evaluate, kww_objective, product_formula_cost, solve_dp, Action, IndexPolicy, Instance,
    PandoraBox, Tie,
};
use proptest::test_runner::TestCaseError;

/// True when `action` is one the index policy may take first under some tie rule: stop only if
/// `y0 ≤ min g`; open only a box of minimal index, and only if `y0 ≥` that index.
fn index_consistent(instance: &Instance, policy: &IndexPolicy, action: Action) -> bool {
    let g_min = &policy.indices()[policy.order()[0]];
    match action {
        Action::Stop => instance.outside().is_some_and(|y0| y0 <= g_min),
        Action::Open(i) => {
            policy.indices()[i] == *g_min && instance.outside().map_or(true, |y0| y0 >= g_min)
        }
    }
}

fn first_action(instance: &Instance, policy: &IndexPolicy, stop_at_ties: bool) -> Action {
    let k = policy.order()[0];
    if IndexPolicy::opens(instance.outside(), &policy.indices()[k], stop_at_ties) {
        Action::Open(k)
    } else {
        Action::Stop
    }
}

/// Counts printed by the property test: instances, those where stop-early and stop-late
/// differ in cost (a tie occurs with positive probability), and those with several optimal
/// first actions.
#[derive(Default)]
struct Tally {
    instances: u32,
    tie_sensitive: u32,
    several_optimal_first_actions: u32,
}

thread_local! {
    static TALLY: std::cell::RefCell<Tally> = std::cell::RefCell::new(Tally::default());
}

fn check_weitzman(instance: &Instance) -> Result<(), TestCaseError> {
    let policy = IndexPolicy::new(instance).expect("discrete");
    let dp = solve_dp(instance).expect("small");
    let kww = kww_objective(instance, policy.indices()).expect("discrete");
    for tie in [Tie::Early, Tie::Late, Tie::Mixture(r(1, 3))] {
        let e = evaluate(instance, &policy, &tie).expect("discrete");
        proptest::prop_assert_eq!(
            &e.objective(),
            dp.optimum(),
            "tie {:?}: policy objective != DP optimum on {:?}",
            tie,
            instance
        );
        proptest::prop_assert_eq!(&e.objective(), &kww, "tie {:?}: KWW form differs", tie);
    }
    let dp_first = dp.optimal_first_actions();
    let early_cost = evaluate(instance, &policy, &Tie::Early)
        .expect("discrete")
        .expected_cost;
    let late_cost = evaluate(instance, &policy, &Tie::Late)
        .expect("discrete")
        .expected_cost;
    TALLY.with(|t| {
        let mut t = t.borrow_mut();
        t.instances += 1;
        t.tie_sensitive += u32::from(early_cost != late_cost);
        t.several_optimal_first_actions += u32::from(dp_first.len() > 1);
    });
    for stop_at_ties in [true, false] {
        let a = first_action(instance, &policy, stop_at_ties);
        proptest::prop_assert!(
            dp_first.contains(&a),
            "index action {:?} not DP-optimal ({:?}) on {:?}",
            a,
            dp_first,
            instance
        );
    }
    for &a in &dp_first {
        proptest::prop_assert!(
            index_consistent(instance, &policy, a),
            "DP-optimal first action {:?} is not an index action on {:?}",
            a,
            instance
        );
    }
    Ok(())
}

#[test]
fn index_policy_attains_dp_optimum_on_random_instances() {
    let (mut runner, seed) = runner("index_policy_attains_dp_optimum", 400);
    runner
        .run(&instances(6, 4), |inst| check_weitzman(&inst))
        .unwrap_or_else(|e| panic!("PANDORA_SEED={seed}: {e}"));
    TALLY.with(|t| {
        let t = t.borrow();
        eprintln!(
            "checked {} instances, all equal to the DP optimum; tie-sensitive cost: {}; \
             several optimal first actions: {}",
            t.instances, t.tie_sensitive, t.several_optimal_first_actions
        );
    });
}

/// Ties forced: the outside option is set to the index of one of the boxes, so the first
/// decision is a tie (stop-early stops, stop-late opens).
#[test]
fn index_policy_attains_dp_optimum_with_forced_ties() {
    let (mut runner, seed) = runner("index_policy_attains_dp_optimum_with_forced_ties", 300);
    runner
        .run(&(instances(6, 4), 0usize..6), |(inst, pick)| {
            let policy = IndexPolicy::new(&inst).expect("discrete");
            let g = policy.indices()[pick % inst.boxes().len()].clone();
            check_weitzman(&inst.with_outside(Some(g)))
        })
        .unwrap_or_else(|e| panic!("PANDORA_SEED={seed}: {e}"));
    TALLY.with(|t| {
        let t = t.borrow();
        eprintln!(
            "forced ties: {} instances, all equal to the DP optimum; tie-sensitive cost: {}; \
             several optimal first actions: {}",
            t.instances, t.tie_sensitive, t.several_optimal_first_actions
        );
    });
}

#[test]
fn index_policy_attains_dp_optimum_on_larger_instances() {
    let (mut runner, seed) = runner("index_policy_attains_dp_optimum_larger", 8);
    runner
        .run(&instances(10, 6), |inst| check_weitzman(&inst))
        .unwrap_or_else(|e| panic!("PANDORA_SEED={seed}: {e}"));
}

#[test]
fn product_formula_cost_matches_forward_propagation() {
    let (mut runner, seed) = runner("product_formula_cost", 400);
    runner
        .run(&instances(7, 5), |inst| {
            let policy = IndexPolicy::new(&inst).expect("discrete");
            for tie in [Tie::Early, Tie::Late, Tie::Mixture(r(2, 7))] {
                let forward = evaluate(&inst, &policy, &tie).expect("discrete");
                let product = product_formula_cost(&inst, &policy, &tie).expect("discrete");
                proptest::prop_assert_eq!(&forward.expected_cost, &product, "tie {:?}", tie);
            }
            Ok(())
        })
        .unwrap_or_else(|e| panic!("PANDORA_SEED={seed}: {e}"));
}

/// One box `X ∈ {0, 1}` uniformly, cost 1/4: `g = 1/2`; objective `E[X] + c = 3/4`
/// (MATH.md: one box, no outside option, `E[max(X, g)] = E[X] + c`).
#[test]
fn single_box_objective_is_mean_plus_cost() {
    let b = PandoraBox::discrete(
        r(1, 4),
        vec![r(0, 1), r(1, 1)],
        vec![r(1, 2), r(1, 2)],
        Some(0),
    )
    .expect("valid");
    let inst = Instance::new(vec![b], None).expect("valid");
    let policy = IndexPolicy::new(&inst).expect("discrete");
    assert_eq!(policy.indices()[0], r(1, 2));
    let e = evaluate(&inst, &policy, &Tie::Early).expect("discrete");
    assert_eq!(e.expected_cost, r(1, 4));
    assert_eq!(e.objective(), r(3, 4));
    assert_eq!(solve_dp(&inst).expect("small").optimum(), &r(3, 4));
}

/// Outside option equal to the index: stop-early keeps `y0 = 1/2` (cost 0); stop-late pays
/// 1/4 for `E[min(1/2, X)] = 1/4`. Same objective 1/2, different cost — the tie that
/// Theorem 2 randomises over.
#[test]
fn tie_rules_differ_in_cost_not_objective() {
    let b = PandoraBox::discrete(
        r(1, 4),
        vec![r(0, 1), r(1, 1)],
        vec![r(1, 2), r(1, 2)],
        Some(0),
    )
    .expect("valid");
    let inst = Instance::new(vec![b], Some(r(1, 2))).expect("valid");
    let policy = IndexPolicy::new(&inst).expect("discrete");
    let early = evaluate(&inst, &policy, &Tie::Early).expect("discrete");
    let late = evaluate(&inst, &policy, &Tie::Late).expect("discrete");
    assert_eq!(
        (early.expected_cost.clone(), early.expected_best.clone()),
        (r(0, 1), r(1, 2))
    );
    assert_eq!(
        (late.expected_cost.clone(), late.expected_best.clone()),
        (r(1, 4), r(1, 4))
    );
    let mixed = evaluate(&inst, &policy, &Tie::Mixture(r(1, 3))).expect("discrete");
    assert_eq!(mixed.expected_cost, r(1, 6));
    assert_eq!(mixed.objective(), r(1, 2));
    let dp = solve_dp(&inst).expect("small");
    assert_eq!(dp.optimum(), &r(1, 2));
    assert_eq!(
        dp.optimal_first_actions(),
        vec![Action::Stop, Action::Open(0)]
    );
}

//! `pbgi_fast::pandora` against closed forms only (no oracle): MATH.md's one-box identities
//! `objective = E[X] + c` and, with an outside option `y0 > g`, `y0 - σ·h((y0-μ)/σ) + c`, with
//! MATH.md's public sanity values `PBGI(0,1,0.1) = -0.9023463475100345` and
//! `EI(0,1;1) = h(1) = 1.0833154705876863`.
use pbgi_fast::pandora::{
    kww_objective, policy_order, Evaluation, Instance, PandoraBox, Simulator, Tie,
};

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[test]
fn one_discrete_box() {
    let b = PandoraBox::discrete(0.25, &[1.0, 0.0], &[0.5, 0.5], Some(0)).unwrap();
    let inst = Instance::new(vec![b], None).unwrap();
    let (indices, _) = policy_order(&inst);
    assert_eq!(indices, vec![0.5]);
    let e = Evaluation::of(&inst, Tie::Early);
    assert_eq!(
        (e.expected_cost, e.objective, e.expected_best),
        (0.25, 0.75, 0.5)
    );
}

#[test]
fn one_normal_box_without_outside_option() {
    let b = PandoraBox::normal(0.1, 0.0, 1.0, Some(0)).unwrap();
    let inst = Instance::new(vec![b], None).unwrap();
    let (indices, _) = policy_order(&inst);
    assert_eq!(indices[0], -0.9023463475100345);
    let e = Evaluation::of(&inst, Tie::Early);
    assert_eq!(e.expected_cost, 0.1);
    assert!(close(e.objective, 0.1, 1e-14), "{}", e.objective);
}

#[test]
fn one_normal_box_with_outside_option() {
    let b = PandoraBox::normal(0.25, 0.0, 1.0, Some(0)).unwrap();
    let inst = Instance::new(vec![b], Some(1.0)).unwrap();
    let (indices, _) = policy_order(&inst);
    let want = 1.0 - 1.0833154705876863 + 0.25;
    assert!(close(kww_objective(&inst, &indices), want, 1e-14));
}

#[test]
fn simulator_on_point_masses_is_deterministic() {
    let a = PandoraBox::discrete(0.5, &[3.0], &[1.0], Some(0)).unwrap();
    let b = PandoraBox::discrete(0.25, &[1.0], &[1.0], Some(1)).unwrap();
    let inst = Instance::new(vec![a, b], None).unwrap();
    // Indices 3.5 and 1.25: open b (value 1), then 1 < 3.5 stops.
    let mut u = || 0.5;
    let out = Simulator::new(&inst).run(Tie::Late, &mut u);
    assert_eq!((out.cost, out.best, out.opened), (0.25, 1.0, 1));
}

#[test]
fn invalid_boxes_name_the_field() {
    let e = PandoraBox::discrete(-1.0, &[0.0], &[1.0], Some(3)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "box 3: field \"cost\": must be > 0 and finite, got -1"
    );
    let e = PandoraBox::discrete(1.0, &[0.0, 1.0], &[0.5, 0.4], Some(0)).unwrap_err();
    assert!(e
        .to_string()
        .starts_with("box 0: field \"probs\": must sum to 1"));
    let e = PandoraBox::normal(1.0, 0.0, 0.0, Some(2)).unwrap_err();
    assert!(e.to_string().starts_with("box 2: field \"sd\""));
    assert!(Instance::new(vec![], None).is_err());
}

/// `fixtures/pandora/two_boxes.json` in f64: box b's index `(0.3 - 0.2)/0.2` rounds to
/// `0.4999999999999999`, box a's is `0.5`; exactly both are 1/2, so the policy opens a first
/// (input order): `E[cost] = 1/4 + 0.3·1/2 = 0.4`, not `0.3 + 1/4·1/2 = 0.425`.
#[test]
fn near_ties_are_ties() {
    let a = PandoraBox::discrete(0.25, &[0.0, 2.0], &[0.5, 0.5], Some(0)).unwrap();
    let b = PandoraBox::discrete(0.3, &[-1.0, 0.5, 3.0], &[0.2, 0.3, 0.5], Some(1)).unwrap();
    let inst = Instance::new(vec![a, b], Some(1.0)).unwrap();
    let (indices, order) = policy_order(&inst);
    assert_eq!(indices, vec![0.5, 0.4999999999999999]);
    assert_eq!(order, vec![0, 1]);
    let e = Evaluation::of(&inst, Tie::Early);
    assert!(close(e.expected_cost, 0.4, 1e-15), "{}", e.expected_cost);
    // The simulator opens a first too: with X_a = 0 (u < 1/2) it stops after one box.
    let mut u = || 0.25;
    let out = Simulator::new(&inst).run(Tie::Early, &mut u);
    assert_eq!((out.cost, out.best, out.opened), (0.25, 0.0, 1));
}

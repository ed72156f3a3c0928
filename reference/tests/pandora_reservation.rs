//! Exact reservation values of discrete boxes: hand-computed cases and substitution back into
//! `E[max(g - X, 0)] = c` (the definition, MATH.md "Pandora's Box").
mod common;

use common::pandora::r;
use pbgi_reference::pandora::{discrete_reservation_value, Discrete};

fn uniform01() -> Discrete {
    Discrete::new(vec![r(0, 1), r(1, 1)], vec![r(1, 2), r(1, 2)], None).expect("valid")
}

#[test]
fn hand_computed_indices() {
    // g in [0, 1]: g/2 = c.
    assert_eq!(discrete_reservation_value(&uniform01(), &r(1, 4)), r(1, 2));
    // Exactly at the atom: c = 1/2 gives g = 1.
    assert_eq!(discrete_reservation_value(&uniform01(), &r(1, 2)), r(1, 1));
    // Past the last atom: g - 1/2 = c.
    assert_eq!(discrete_reservation_value(&uniform01(), &r(1, 1)), r(3, 2));
    // A point mass: g = v + c.
    let point = Discrete::new(vec![r(-7, 3)], vec![r(1, 1)], None).expect("valid");
    assert_eq!(
        discrete_reservation_value(&point, &r(1, 10)),
        r(-7, 3) + r(1, 10)
    );
}

#[test]
fn index_solves_its_equation() {
    let x = Discrete::new(
        vec![r(-2, 1), r(1, 3), r(5, 2), r(4, 1)],
        vec![r(1, 10), r(2, 5), r(3, 10), r(1, 5)],
        None,
    )
    .expect("valid");
    for k in 1..=40 {
        let c = r(k, 8);
        let g = discrete_reservation_value(&x, &c);
        assert_eq!(x.expected_shortfall(&g), c, "c = {c}");
        assert!(g > r(-2, 1));
    }
}

#[test]
fn invalid_distributions_are_rejected_with_field_names() {
    let e = Discrete::new(vec![r(0, 1), r(1, 1)], vec![r(1, 2), r(1, 3)], Some(3)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "box 3: field \"probs\": must sum to exactly 1, sum is \"5/6\""
    );
    let e = Discrete::new(vec![r(0, 1), r(0, 1)], vec![r(1, 2), r(1, 2)], Some(0)).unwrap_err();
    assert!(e
        .to_string()
        .starts_with("box 0: field \"values\": value \"0\" appears twice"));
    let e = Discrete::new(vec![r(0, 1)], vec![r(0, 1)], Some(1)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "box 1: field \"probs\": entry 0 must be > 0, got \"0\""
    );
}

//! Cost scaling `λ` (MATH.md, "Cost scaling and PBGI-D"): the PBGI-D schedule
//! (`pbgi_fast::PbgiDSchedule`: its accessors, `λ` kept at the smallest subnormal where `λ/β`
//! underflows) and the budget-derived scale `pbgi_fast::budget_lambda` (the arguments it refuses).

#[test]
fn pbgi_d_schedule_accessors_and_the_underflow_floor() {
    use pbgi_fast::{budget_lambda, PbgiDSchedule};
    let s = PbgiDSchedule::new(0.3, 3.0).unwrap();
    assert_eq!((s.lambda0(), s.beta(), s.lambda()), (0.3, 3.0, 0.3));
    // λ/β underflows to 0 from the smallest subnormal: λ stays at it (documented: λ > 0).
    let tiny = f64::from_bits(1);
    let mut s = PbgiDSchedule::new(tiny, 2.0).unwrap();
    assert_eq!(s.on_stop_signal(), tiny);
    // budget_lambda's rules: u > 0, first_cost ≥ 0.
    assert_eq!(budget_lambda(0.0, 7.0, 1.0).unwrap_err().name, "u");
    assert_eq!(
        budget_lambda(1.0, 7.0, -1.0).unwrap_err().name,
        "first_cost"
    );
}

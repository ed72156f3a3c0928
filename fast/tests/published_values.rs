//! Checks against the public sanity values quoted in MATH.md (independent of this crate).
mod common;
use common::ulps;
use pbgi_fast::{ei, h, pbgi, stop_by_log_eipc, stop_by_pbgi, Candidate};

#[test]
fn h_at_zero_is_one_over_sqrt_two_pi() {
    assert!(ulps(h(0.0), 0.398_942_280_401_432_7) <= 1, "{:e}", h(0.0));
}

#[test]
fn ei_sanity_values() {
    assert!(ulps(ei(0.0, 1.0, 0.0), 0.398_942_280_401_432_7) <= 1);
    assert!(ulps(ei(0.0, 1.0, 1.0), 1.083_315_470_587_686_3) <= 1);
}

#[test]
fn pbgi_sanity_values() {
    assert!(ulps(pbgi(0.0, 1.0, 1e-4), -3.363_015_325_927_082_5) <= 2);
    assert!(ulps(pbgi(0.0, 1.0, 0.1), -0.902_346_347_510_034_5) <= 2);
    // c = fl(1/√(2π)) exceeds 1/√(2π) by 2.49e-17, so the index is 2·2.49e-17 to first order.
    let g = pbgi(0.0, 1.0, 0.398_942_280_401_432_7);
    assert!((g - 4.984_654_404_555_46e-17).abs() < 1e-30, "{g:e}");
}

#[test]
fn sigma_zero_is_mu_plus_cost_and_ei_positive_part() {
    assert_eq!(pbgi(1.5, 0.0, 0.25), 1.75);
    assert_eq!(ei(1.0, 0.0, 3.0), 2.0);
    assert_eq!(ei(3.0, 0.0, 1.0), 0.0);
}

#[test]
fn invalid_input_gives_nan() {
    assert!(ei(f64::NAN, 1.0, 0.0).is_nan());
    assert!(ei(0.0, -1.0, 0.0).is_nan());
    assert!(pbgi(0.0, 1.0, 0.0).is_nan());
    assert!(pbgi(0.0, 1.0, -1.0).is_nan());
    assert!(pbgi(0.0, f64::NAN, 1.0).is_nan());
}

#[test]
fn stop_rules_agree_on_a_clear_case_and_empty_set_stops() {
    let far = [Candidate {
        mu: 0.0,
        sigma: 1.0,
        cost: 1e-4,
    }];
    // PBGI = -3.363 < 0 = y*: continue; at y* = -4 it stops.
    assert!(!stop_by_pbgi(&far, 0.0) && !stop_by_log_eipc(&far, 0.0));
    assert!(stop_by_pbgi(&far, -4.0) && stop_by_log_eipc(&far, -4.0));
    assert!(stop_by_pbgi(&[], 0.0) && stop_by_log_eipc(&[], 0.0));
}

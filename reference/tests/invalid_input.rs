//! Source of truth: the documented domain. Each invalid argument gives `InvalidInput` naming it.

use pbgi_reference::{
    ei, ei_grad, h, ln_h, log_ei, log_ei_grad, log_eipc, log_eipc_exp, log_eipc_inv, log_ndtr,
    pbgi, pbgi_grad, pbgi_lognormal, stop_decision, Candidate, Error,
};

fn name_of(r: Result<impl std::fmt::Debug, Error>) -> &'static str {
    match r {
        Err(Error::InvalidInput { name, .. }) => name,
        other => panic!("expected InvalidInput, got {other:?}"),
    }
}

#[test]
fn each_argument_is_named() {
    let (nan, inf) = (f64::NAN, f64::INFINITY);
    assert_eq!(name_of(h(nan)), "z");
    assert_eq!(name_of(ln_h(-inf)), "z");
    assert_eq!(name_of(ei(nan, 1.0, 0.0)), "mu");
    assert_eq!(name_of(ei(0.0, -1.0, 0.0)), "sigma");
    assert_eq!(name_of(ei(0.0, inf, 0.0)), "sigma");
    assert_eq!(name_of(ei(0.0, 1.0, inf)), "y");
    assert_eq!(name_of(log_ei(0.0, -0.5, 0.0)), "sigma");
    assert_eq!(name_of(pbgi(0.0, 1.0, 0.0)), "cost");
    assert_eq!(name_of(pbgi(0.0, 1.0, -1.0)), "cost");
    assert_eq!(name_of(pbgi(0.0, 1.0, nan)), "cost");
    assert_eq!(name_of(pbgi(inf, 1.0, 1.0)), "mu");
    assert_eq!(name_of(log_eipc(0.0, 1.0, 0.0, 0.0)), "cost");
    assert_eq!(name_of(log_eipc(0.0, 1.0, nan, 1.0)), "y");
    assert_eq!(name_of(log_eipc_inv(0.0, 1.0, 0.0, nan, 1.0)), "m");
    assert_eq!(name_of(log_eipc_exp(0.0, 1.0, 0.0, 0.0, -1.0)), "s");
    assert_eq!(name_of(pbgi_lognormal(0.0, 1.0, 0.0, -1.0)), "s");
    assert_eq!(name_of(stop_decision(&[], nan)), "y_best");
    assert_eq!(name_of(log_ndtr(nan)), "x");
    assert_eq!(name_of(log_ndtr(-inf)), "x");
    assert_eq!(name_of(ei_grad(nan, 1.0, 0.0)), "mu");
    assert_eq!(name_of(ei_grad(0.0, -1.0, 0.0)), "sigma");
    assert_eq!(name_of(log_ei_grad(0.0, 1.0, inf)), "y");
    assert_eq!(name_of(pbgi_grad(0.0, 1.0, 0.0)), "cost");
    assert_eq!(name_of(pbgi_grad(0.0, nan, 1.0)), "sigma");
    assert_eq!(name_of(pbgi_grad(inf, 1.0, 1.0)), "mu");
}

#[test]
fn invalid_candidate_is_located() {
    let c = [
        Candidate {
            mu: 0.0,
            sigma: 1.0,
            cost: 1.0,
        },
        Candidate {
            mu: 0.0,
            sigma: 1.0,
            cost: -2.0,
        },
    ];
    match stop_decision(&c, 0.0) {
        Err(Error::InvalidCandidate { index: 1, error }) => {
            assert!(matches!(*error, Error::InvalidInput { name: "cost", .. }))
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn negative_zero_sigma_is_allowed() {
    assert_eq!(ei(0.0, -0.0, 1.0).unwrap().value, 1.0);
}

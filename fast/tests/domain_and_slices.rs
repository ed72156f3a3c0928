//! Documented special values, limits that follow from the definitions (MATH.md), and the
//! slice forms (no oracle needed: each expected value is a closed form or a scalar call).
use pbgi_fast::*;

#[test]
fn infinities_follow_the_limits() {
    assert_eq!(ei(0.0, 1.0, f64::INFINITY), f64::INFINITY);
    assert_eq!(ei(0.0, 1.0, f64::NEG_INFINITY), 0.0);
    assert!(ei(f64::INFINITY, 1.0, f64::INFINITY).is_nan());
    assert_eq!(ei(0.0, f64::INFINITY, 0.0), f64::INFINITY);
    assert_eq!(log_ei(0.0, 1.0, f64::NEG_INFINITY), f64::NEG_INFINITY);
    assert_eq!(h(f64::INFINITY), f64::INFINITY);
    assert_eq!(h(f64::NEG_INFINITY), 0.0);
    assert_eq!(ln_h(f64::NEG_INFINITY), f64::NEG_INFINITY);
    assert_eq!(pbgi(0.0, f64::INFINITY, 1.0), f64::NEG_INFINITY);
    assert_eq!(pbgi(0.0, 1.0, f64::INFINITY), f64::INFINITY);
    // LogEI = -∞ (μ = +∞) or +∞ (σ = +∞) with finite m and s is the limit of LogEIPC, also
    // where s²/2 overflows (s > 1.9e154) and the cost term alone is infinite.
    for s in [0.0, 1.0, 1e154, 1e200, f64::MAX] {
        for m in [-1e300, 0.0, 1e300] {
            assert_eq!(
                log_eipc_inv(f64::INFINITY, 1.0, 0.0, m, s),
                f64::NEG_INFINITY,
                "{m} {s}"
            );
            assert_eq!(
                log_eipc_exp(f64::INFINITY, 1.0, 0.0, m, s),
                f64::NEG_INFINITY,
                "{m} {s}"
            );
            assert_eq!(
                log_eipc_inv(0.0, f64::INFINITY, 0.0, m, s),
                f64::INFINITY,
                "{m} {s}"
            );
            assert_eq!(
                log_eipc_exp(0.0, f64::INFINITY, 0.0, m, s),
                f64::INFINITY,
                "{m} {s}"
            );
        }
    }
}

#[test]
fn nan_in_gives_nan_out_everywhere() {
    let n = f64::NAN;
    assert!(h(n).is_nan() && ln_h(n).is_nan());
    for (m, s, y) in [(n, 1.0, 0.0), (0.0, n, 0.0), (0.0, 1.0, n)] {
        assert!(
            ei(m, s, y).is_nan() && log_ei(m, s, y).is_nan() && log_eipc(m, s, y, 1.0).is_nan()
        );
        assert!(ei_grad(m, s, y).d_mu.is_nan() && log_ei_grad(m, s, y).d_sigma.is_nan());
    }
    assert!(log_eipc(0.0, 1.0, 0.0, n).is_nan());
    for (m, s, c) in [(n, 1.0, 1.0), (0.0, n, 1.0), (0.0, 1.0, n)] {
        assert!(pbgi(m, s, c).is_nan() && pbgi_bisection100(m, s, c).is_nan());
        assert!(pbgi_grad(m, s, c).d_cost.is_nan());
    }
    assert!(
        log_eipc_inv(0.0, 1.0, 0.0, n, 1.0).is_nan()
            && log_eipc_exp(0.0, 1.0, 0.0, 0.0, n).is_nan()
    );
    assert!(pbgi_lognormal(0.0, 1.0, n, 1.0).is_nan());
}

#[test]
fn negative_sigma_and_non_positive_cost_give_nan() {
    assert!(ei(0.0, -1.0, 0.0).is_nan() && log_ei(0.0, -0.0 - 1e-300, 0.0).is_nan());
    assert!(pbgi(0.0, -1.0, 1.0).is_nan() && pbgi(0.0, 1.0, 0.0).is_nan());
    assert!(
        log_eipc(0.0, 1.0, 0.0, -1.0).is_nan() && log_eipc_inv(0.0, 1.0, 0.0, 0.0, -1.0).is_nan()
    );
}

#[test]
fn sigma_zero_is_exact_as_math_md() {
    assert_eq!(ei(0.25, 0.0, 1.0), 0.75);
    assert_eq!(log_ei(0.25, 0.0, 0.25), f64::NEG_INFINITY);
    assert_eq!(pbgi(-2.0, 0.0, 0.5), -1.5);
    // EI(μ, 0; μ + c) = c exactly, so LogEIPC is exactly 0 at the tie (ties stop).
    assert_eq!(log_eipc(1.0, 0.0, 1.5, 0.5), 0.0);
    let c = [Candidate {
        mu: 1.0,
        sigma: 0.0,
        cost: 0.5,
    }];
    assert!(stop_by_pbgi(&c, 1.5) && stop_by_log_eipc(&c, 1.5));
}

#[test]
fn unknown_cost_variants_are_the_stated_substitutions() {
    // exp(m ∓ s²/2) with m = 0.5, s = 1 gives exactly c = e^0 = 1 and e^1.
    assert_eq!(log_eipc_inv(0.0, 1.0, 0.3, 0.5, 1.0), log_ei(0.0, 1.0, 0.3));
    assert_eq!(
        log_eipc_exp(0.0, 1.0, 0.3, 0.5, 1.0),
        log_ei(0.0, 1.0, 0.3) - 1.0
    );
    assert_eq!(pbgi_lognormal(0.0, 1.0, -0.5, 1.0), pbgi(0.0, 1.0, 1.0));
}

#[test]
fn small_cost_index_is_a_lower_bound_that_the_index_approaches() {
    // ln(c/σ) = -u²/2 - ln√(2π) - 2 ln|u| + o(1) ⇒ |u| < √(2 ln(σ/c)).
    let mut last_gap = f64::INFINITY;
    for k in [3, 10, 30, 100, 300] {
        let c = 10f64.powi(-k);
        let (g, a) = (pbgi(0.0, 1.0, c), pbgi_small_cost(0.0, 1.0, c));
        assert!(a < g, "c = {c:e}: {a} vs {g}");
        let gap = (g - a) / a.abs();
        assert!(
            gap < last_gap,
            "relative gap must shrink: {gap} at c = {c:e}"
        );
        last_gap = gap;
    }
    assert!(last_gap < 0.02);
}

#[test]
fn slices_match_scalar_calls_and_reject_length_mismatch() {
    let mu = [0.0, 1.0, -2.0];
    let sigma = [1.0, 0.5, 0.0];
    let cost = [0.1, 1e-4, 2.0];
    let mut out = [f64::NAN; 3];
    ei_slice(&mu, &sigma, 0.3, &mut out).unwrap();
    assert_eq!(
        out,
        [ei(0.0, 1.0, 0.3), ei(1.0, 0.5, 0.3), ei(-2.0, 0.0, 0.3)]
    );
    log_ei_slice(&mu, &sigma, 0.3, &mut out).unwrap();
    assert_eq!(out[1], log_ei(1.0, 0.5, 0.3));
    pbgi_slice(&mu, &sigma, &cost, &mut out).unwrap();
    assert_eq!(
        out,
        [
            pbgi(0.0, 1.0, 0.1),
            pbgi(1.0, 0.5, 1e-4),
            pbgi(-2.0, 0.0, 2.0)
        ]
    );
    log_eipc_slice(&mu, &sigma, 0.3, &cost, &mut out).unwrap();
    assert_eq!(out[0], log_eipc(0.0, 1.0, 0.3, 0.1));

    let mut short = [7.0; 2];
    let err = ei_slice(&mu, &sigma, 0.3, &mut short).unwrap_err();
    assert_eq!(err.lengths, vec![("mu", 3), ("sigma", 3), ("out", 2)]);
    assert_eq!(short, [7.0; 2], "nothing written on error");
    assert!(pbgi_slice(&mu, &sigma[..2], &cost, &mut out).is_err());
    assert_eq!(err.to_string(), "slice lengths differ: mu=3 sigma=3 out=2");
}

#[test]
fn gradient_slices_equal_the_scalar_gradients() {
    let mu = [0.0, -3.0, 1e300, 2.0];
    let sigma = [1.0, 0.5, 1e300, 0.0];
    let cost = [0.1, 1e-8, 1e299, 0.5];
    let n = mu.len();
    let (mut v, mut a, mut b) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    ei_grad_slice(&mu, &sigma, -1.0, &mut v, &mut a, &mut b).unwrap();
    for i in 0..n {
        let g = ei_grad(mu[i], sigma[i], -1.0);
        assert_eq!((v[i], a[i], b[i]), (g.value, g.d_mu, g.d_sigma), "{i}");
    }
    log_ei_grad_slice(&mu, &sigma, -1.0, &mut v, &mut a, &mut b).unwrap();
    for i in 0..n {
        let g = log_ei_grad(mu[i], sigma[i], -1.0);
        assert_eq!((v[i], a[i], b[i]), (g.value, g.d_mu, g.d_sigma), "{i}");
    }
    pbgi_grad_slice(&mu, &sigma, &cost, &mut v, &mut a, &mut b).unwrap();
    for i in 0..n {
        let g = pbgi_grad(mu[i], sigma[i], cost[i]);
        assert_eq!((v[i], a[i], b[i]), (g.value, g.d_sigma, g.d_cost), "{i}");
    }
    let mut short = vec![0.0; n - 1];
    let e = ei_grad_slice(&mu, &sigma, 0.0, &mut v, &mut short, &mut b).unwrap_err();
    assert_eq!(e.lengths[3], ("d_mu", n - 1));
    assert!(pbgi_grad_slice(&mu, &sigma, &cost[..1], &mut v, &mut a, &mut b).is_err());
}

#[test]
fn domain_error_message_names_the_argument_its_value_and_the_rule() {
    let err = pbgi_fast::check_argument("cost", f64::INFINITY).unwrap_err();
    assert_eq!(err.to_string(), "invalid cost = inf: must be finite");
}

//! Source of truth: cases whose exact value is known in closed form (exactly representable
//! results, `exp(0) = 1`, `ln 1 = 0`, identities between the unknown-cost variants), which must
//! terminate with a point enclosure or the exactly rounded value; and the rendering contract of
//! [`Certified`] (outward-rounded decimals, `contains`).

use pbgi_reference::{ei, log_eipc, log_eipc_exp, log_eipc_inv, pbgi, pbgi_lognormal, Float};

#[test]
fn lognormal_cost_with_s_zero_and_m_zero_is_one() {
    // exp(0 ± 0) = 1 exactly: the unknown-cost forms equal the known-cost form with c = 1.
    for (mu, sigma, y) in [
        (0.0, 1.0, 0.5),
        (2.0, 0.3, -1.0),
        (0.0, 0.0, 1.0),
        (1e-300, 1e-300, 0.0),
    ] {
        let known = log_eipc(mu, sigma, y, 1.0).unwrap();
        for v in [
            log_eipc_inv(mu, sigma, y, 0.0, 0.0).unwrap(),
            log_eipc_exp(mu, sigma, y, 0.0, 0.0).unwrap(),
        ] {
            assert_eq!(v.value, known.value, "({mu},{sigma},{y})");
            assert!(v.lower <= known.upper && v.upper >= known.lower);
        }
        let g = pbgi_lognormal(mu, sigma, 0.0, 0.0).unwrap();
        assert_eq!(
            g.value,
            pbgi(mu, sigma, 1.0).unwrap().value,
            "pbgi ({mu},{sigma})"
        );
    }
}

#[test]
fn exact_zero_log_eipc_terminates_as_a_point() {
    // σ = 0, y - μ = 1 and m = s = 0: ln 1 - (0 ∓ 0) = 0 exactly.
    for v in [
        log_eipc_inv(1.0, 0.0, 2.0, 0.0, 0.0).unwrap(),
        log_eipc_exp(1.0, 0.0, 2.0, 0.0, 0.0).unwrap(),
    ] {
        assert!(v.value == 0.0 && v.lower == 0 && v.upper == 0);
    }
    // ln c̃ = m - s²/2 = 0 with s = 2, m = 2: LogEIPC-inv = ln EI exactly when EI = 1.
    let v = log_eipc_inv(1.0, 0.0, 2.0, 2.0, 2.0).unwrap();
    assert!(v.value == 0.0 && v.lower == 0 && v.upper == 0);
}

#[test]
fn inv_and_exp_forms_differ_by_s_squared() {
    // LogEIPC-inv(m) = LogEIPC-exp(m - s²) exactly; with m, s² exact in f64 the values agree.
    for (mu, sigma, y) in [(0.0, 1.0, 0.5), (0.0, 1.0, -20.0), (3.0, 1e-5, 3.0)] {
        let a = log_eipc_inv(mu, sigma, y, 0.75, 0.5).unwrap();
        let b = log_eipc_exp(mu, sigma, y, 0.5, 0.5).unwrap();
        assert_eq!(a.value, b.value);
        assert!(a.lower <= b.upper && a.upper >= b.lower);
    }
}

#[test]
fn pbgi_lognormal_with_sigma_zero_is_mu_plus_e_to_the_m() {
    // σ = 0 gives μ + e^{m + s²/2}; for m = s = 0 that is μ + 1 exactly.
    let g = pbgi_lognormal(2.5, 0.0, 0.0, 0.0).unwrap();
    assert!(g.value == 3.5 && g.lower == 3.5 && g.upper == 3.5);
    // m = 1, μ = 0: e, correctly rounded (the f64 constant E is e correctly rounded).
    let g = pbgi_lognormal(0.0, 0.0, 1.0, 0.0).unwrap();
    assert_eq!(g.value, std::f64::consts::E);
}

#[test]
fn decimals_are_rounded_outward_and_contain_the_value() {
    let r = ei(0.0, 1.0, 0.0).unwrap(); // 0.398942280401432677939946…
    assert_eq!(r.lower_decimal(5), "3.9894e-1");
    assert_eq!(r.upper_decimal(5), "3.9895e-1");
    let lo = Float::with_val(200, Float::parse(r.lower_decimal(30)).unwrap());
    let hi = Float::with_val(200, Float::parse(r.upper_decimal(30)).unwrap());
    assert!(
        lo <= r.lower && hi >= r.upper,
        "printed bounds are still bounds"
    );
    assert!(r.contains_float(&r.lower) && r.contains_float(&r.upper));
    // The rounded value need not lie in the enclosure: 0.3989422804014327 is exactly
    // 0.39894228040143270286…, above 1/√(2π).
    assert!(!r.contains(0.3989422804014327) && !r.contains(0.4) && !r.contains(f64::NAN));
    let neg = pbgi(0.0, 1.0, 0.1).unwrap(); // -0.90234634751003449110…
    assert_eq!(neg.lower_decimal(4), "-9.024e-1");
    assert_eq!(neg.upper_decimal(4), "-9.023e-1");
    let tiny = ei(0.0, 1.0, -1e8).unwrap(); // far below f64: exponent printed in full
    assert!(
        tiny.lower_decimal(3).starts_with("2.90e-2171472409516276"),
        "{}",
        tiny.lower_decimal(3)
    );
    let minus_inf = pbgi_reference::log_ei(1.0, 0.0, 0.0).unwrap();
    assert_eq!(
        (
            minus_inf.lower_decimal(5).as_str(),
            minus_inf.upper_decimal(5).as_str()
        ),
        ("-inf", "-inf")
    );
}

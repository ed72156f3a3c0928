//! The EI-per-cost counterexample: exact `K`, `N`; `E[max(0, Z_1..Z_N)]` against mpmath; the
//! paper's own bound `E[M] ≤ ε·√(2 ln(N+1))` (supplement, proof of Theorem 1), which forces the
//! ratio to grow without bound; and the ratio table (printed with `--nocapture`).
mod common;

use common::pandora::r;
use pbgi_reference::pandora::{counterexample, counterexample_sizes, expected_max_with_zero};
use rug::ops::Pow;
use rug::{Float, Integer, Rational};

#[test]
fn k_and_n_are_exact() {
    for (eps, delta, k, n) in [
        (r(1, 10), r(1, 2), 15, 15),
        (r(1, 7), r(1, 2), 11, 10),
        (r(3, 100), r(1, 2), 50, 50),
        (r(1, 3), r(1, 1), 6, 6),
        (r(2, 5), r(1, 1000), 3, 2),
    ] {
        let (big_k, big_n) = counterexample_sizes(&eps, &delta);
        assert_eq!(big_k, Integer::from(k), "K at ε = {eps}");
        assert_eq!(big_n, Integer::from(n), "N at ε = {eps}");
    }
}

/// Expected values from mpmath 40 digits:
/// `mp.quad(lambda t: 1 - mp.ncdf(t)**N, [0, 1, 2, 3, 4, 5, 6, 8, 12, mp.inf])`.
#[test]
fn expected_maximum_matches_mpmath() {
    for (n, want) in [
        (1u64, "0.3989422804014326779399460599343818684759"),
        (2, "0.6810370721753108214139857857147681613979"),
        (10, "1.538865184501545097413806995718489722595"),
        (1000, "3.241435769133440861388660049577039908277"),
        (1_500_000, "4.942679762816064611491868537846302582436"),
    ] {
        let q = expected_max_with_zero(&Integer::from(n));
        let want = Float::with_val(128, Float::parse(want).unwrap());
        let diff = Float::with_val(128, &q.value - &want).abs();
        let error = &q.error_estimate;
        assert!(
            diff < 1e-26 && diff <= *error,
            "N = {n}: off by {diff} (estimate {error})"
        );
        assert!(*error < 1e-24, "N = {n}: error estimate {error}");
        assert!(
            q.lower <= want && want <= q.upper,
            "N = {n}: {want} outside the certified [{}, {}]",
            q.lower,
            q.upper
        );
        let width = Float::with_val(128, &q.upper - &q.lower) / &want;
        eprintln!("N = {n}: certified relative width {:.2e}", width.to_f64());
        assert!(width < 1e-4, "N = {n}: certified width {width}");
    }
}

#[test]
fn ratio_grows_without_bound() {
    let delta = r(1, 2);
    let mut previous = Float::with_val(53, 0);
    eprintln!("ε | K | N | EI-per-cost value | expensive once | ratio | PBGI λ_switch");
    for k in 1..=6 {
        let eps = Rational::from((1, Integer::from(10).pow(k)));
        let c = counterexample(&eps, &delta).unwrap();
        // The paper's bound E[M] ≤ ε·√(2 ln(N+1)).
        let n1 = Float::with_val(128, &c.opened_by_ei_per_cost) + 1u32;
        let bound = Float::with_val(128, &eps) * (n1.ln() * 2u32).sqrt();
        assert!(
            c.ei_per_cost_value <= bound,
            "ε = {eps}: value above the paper's bound"
        );
        assert!(c.ratio > previous, "ratio not increasing at ε = {eps}");
        // Both indices above y0 = 0 at λ = 1: PBGI stops at once.
        assert!(c.indices_at_unit_lambda.0 > 0.0 && c.indices_at_unit_lambda.1 > 0.0);
        let switch = c
            .lambda_switch
            .expect("expensive box preferred for small λ");
        assert!(switch > 0.0 && switch < 0.3989422804014327 / 1.5);
        eprintln!(
            "1e-{k} | {} | {} | {:.6e} | {:.16} | {:.1} | {:.6}",
            c.cheap_boxes,
            c.opened_by_ei_per_cost,
            c.ei_per_cost_value.to_f64(),
            c.expensive_once_value.to_f64(),
            c.ratio.to_f64(),
            switch
        );
        previous = Float::with_val(53, &c.ratio);
    }
    assert!(previous > 50_000.0, "ratio at ε = 1e-6: {previous}");
}

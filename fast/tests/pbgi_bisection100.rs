//! `pbgi_fast::pbgi_bisection100`, the bisection baseline: its domain, the limits of infinite
//! arguments, and roots near and far from the starting bracket against the certified PBGI.
mod common;
use common::ulps;

#[test]
fn pbgi_bisection100_domain_and_infinite_arguments() {
    use pbgi_fast::pbgi_bisection100 as bisect;
    let (nan, inf) = (f64::NAN, f64::INFINITY);
    // NaN in any argument, σ < 0 and cost ≤ 0 → NaN (as pbgi), each condition alone.
    for (mu, sigma, cost) in [
        (nan, 1.0, 1.0),
        (0.0, nan, 1.0),
        (0.0, 1.0, nan),
        (0.0, -1.0, 1.0),
        (0.0, 1.0, 0.0),
        (0.0, 1.0, -1.0),
    ] {
        assert!(bisect(mu, sigma, cost).is_nan(), "({mu}, {sigma}, {cost})");
    }
    // Infinite arguments: pbgi's limits (σ = ∞ → -∞, cost = ∞ → +∞, μ = ±∞ → μ).
    assert_eq!(bisect(0.0, inf, 1.0), -inf);
    assert_eq!(bisect(0.0, 1.0, inf), inf);
    assert_eq!(bisect(inf, 1.0, 1.0), inf);
    assert_eq!(bisect(-inf, 1.0, 1.0), -inf);
    // σ = 0: EI(g) = max(g - μ, 0) = c at g = μ + c (exact here).
    assert_eq!(bisect(0.5, 0.0, 0.25), 0.75);
}

#[test]
fn pbgi_bisection100_against_the_reference() {
    // Roots inside [-1, 1], and far outside it on both sides (the bracket doubled 7 times).
    // 100 halvings of the bracket leave it below the f64 spacing at the root, so
    // the result is the crossing of the rounded EI: within a few ulps of the PBGI where EI's
    // slope Φ(g) is not small (here ≥ 0.1).
    for (mu, sigma, cost) in [
        (0.0, 1.0, 0.1),
        (0.3, 0.5, 0.05),
        (100.0, 1.0, 0.1),
        (-100.0, 1.0, 0.1),
        (-37.0, 3.0, 0.2),
        (60.0, 2.0, 0.5),
        // μ = ±1e15: the bracket is doubled 50 times (width 2^50, halved below ulp(1e15)).
        (1e15, 1.0, 0.1),
        (-1e15, 1.0, 0.1),
    ] {
        let want = pbgi_reference::pbgi(mu, sigma, cost).unwrap().value;
        let got = pbgi_fast::pbgi_bisection100(mu, sigma, cost);
        assert!(
            ulps(got, want) <= 8,
            "pbgi_bisection100({mu}, {sigma}, {cost}) = {got:e}, reference {want:e}"
        );
    }
}

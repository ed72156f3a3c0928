//! The fast PBGI and its cost derivative where the exact value is finite but an intermediate
//! is not, against the certified reference.
//!
//! Two classes:
//! - `g = μ + offset` exactly halfway between `MAX` and `2^1024`: f64's rounding ties to even,
//!   `+∞`, but the exact `g` is on the side of the offset's own error (below, where the offset
//!   is the cost: `g = μ + c - σ·h(-u)`); reported: `pbgi(MAX, 2.0e290, 2^970) = +∞`, exact
//!   `MAX`;
//! - `∂g/∂c = 1/Φ(u)` for `u < -1` through `e^{u²/2}`, which overflows near `c/σ = 1e-310`
//!   while `1/Φ(u)` is still below `MAX`; reported: `pbgi_grad(0, 1, 1.479e-310)` gave
//!   `d_cost = +∞`, exact 166 ulp below `MAX`.
//!
//! docs/accuracy.md promises `±∞` only where the exact value overflows; these tests hold the fast
//! code to that at the threshold, for the scalar functions and the slice kernels alike.
use pbgi_conformance::ulp::ulp_distance;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The tolerance of the fast PBGI (the one tolerance table: ≤ 4 ulp of `|μ| + σ|u|`); at the
/// threshold `|μ|` dominates, so 4 ulp of the result.
const INDEX_ULP: f64 = 4.0;
/// The cost derivative far in the left tail: `1/Φ(u)` of the rounded `u` is conditioned like
/// `u²` (the one tolerance table's bound for the region, ≲ 1e-15·(1 + u²) relative, is about
/// 10·u² ulp; `u² ≈ 1400` here).
const COST_DERIVATIVE_ULP: f64 = 64.0;

fn reference_index(mu: f64, sigma: f64, cost: f64) -> f64 {
    pbgi_reference::pbgi(mu, sigma, cost).unwrap().value
}

fn reference_cost_derivative(sigma: f64, cost: f64) -> f64 {
    pbgi_reference::pbgi_grad(0.0, sigma, cost)
        .unwrap()
        .d_cost
        .value
}

fn fast_index_both_ways(mu: f64, sigma: f64, cost: f64) -> [f64; 2] {
    let mut out = [0.0; 8];
    pbgi_fast::pbgi_slice(&[mu; 8], &[sigma; 8], &[cost; 8], &mut out).unwrap();
    [pbgi_fast::pbgi(mu, sigma, cost), out[0]]
}

fn fast_cost_derivative_both_ways(sigma: f64, cost: f64) -> [f64; 2] {
    let n = 8;
    let (mut value, mut d_sigma, mut d_cost) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    pbgi_fast::pbgi_grad_slice(
        &vec![0.0; n],
        &vec![sigma; n],
        &vec![cost; n],
        &mut value,
        &mut d_sigma,
        &mut d_cost,
    )
    .unwrap();
    [pbgi_fast::pbgi_grad(0.0, sigma, cost).d_cost, d_cost[0]]
}

#[test]
fn the_reported_index_at_the_tie_rounds_to_max() {
    let (mu, sigma, cost) = (
        f64::MAX,
        f64::from_bits(0x7c34_7ae1_47ae_147b),
        2f64.powi(970),
    );
    assert_eq!(reference_index(mu, sigma, cost), f64::MAX);
    for (path, g) in ["scalar", "slice"]
        .iter()
        .zip(fast_index_both_ways(mu, sigma, cost))
    {
        assert_eq!(g, f64::MAX, "{path}");
    }
}

#[test]
fn indices_near_the_overflow_threshold_overflow_only_with_the_exact_value() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x0f1_0e4f);
    let ulp_of_max = 2f64.powi(971);
    let mut checked = 0;
    for _ in 0..4000 {
        // μ within a few ulp below MAX; the offset (c, or σ·u) brings μ + offset within a few
        // ulp of the threshold MAX + ulp/2.
        let mu = f64::MAX - ulp_of_max * f64::from(rng.gen_range(0..4u8));
        let sigma = 2f64.powi(rng.gen_range(900..975)) * rng.gen_range(1.0..2.0);
        let target = (f64::MAX - mu) + ulp_of_max * rng.gen_range(0.25..0.75);
        // Cost such that the index offset is about `target`: r ≥ 40 gives offset ≈ c.
        let cost = if rng.gen_bool(0.7) {
            target
        } else {
            target * rng.gen_range(0.5..1.0)
        };
        if !(cost > 0.0 && cost.is_finite() && sigma.is_finite()) {
            continue;
        }
        let exact = reference_index(mu, sigma, cost);
        for (path, g) in ["scalar", "slice"]
            .iter()
            .zip(fast_index_both_ways(mu, sigma, cost))
        {
            if exact.is_finite() {
                assert!(
                    g.is_finite() && ulp_distance(g, exact) <= INDEX_ULP,
                    "{path}: pbgi({mu:e}, {sigma:e}, {cost:e}) = {g:e}, exact {exact:e}"
                );
            } else {
                assert!(
                    g == exact || g == f64::MAX,
                    "{path}: pbgi({mu:e}, {sigma:e}, {cost:e}) = {g:e}, exact {exact:e}"
                );
            }
        }
        checked += 1;
    }
    assert!(checked > 3000);
}

#[test]
fn the_reported_cost_derivative_is_finite() {
    let (sigma, cost) = (1.0, f64::from_bits(0x0000_1b3a_2af5_ccba));
    let exact = reference_cost_derivative(sigma, cost);
    assert!(exact.is_finite());
    for (path, d) in ["scalar", "slice"]
        .iter()
        .zip(fast_cost_derivative_both_ways(sigma, cost))
    {
        assert!(
            d.is_finite() && ulp_distance(d, exact) <= COST_DERIVATIVE_ULP,
            "{path}: d_cost {d:e}, exact {exact:e} ({} ulp)",
            ulp_distance(d, exact)
        );
    }
}

#[test]
fn cost_derivatives_of_tiny_cost_ratios_match_the_reference() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xdc_0057);
    let mut worst = 0.0f64;
    for _ in 0..400 {
        // c/σ from 1e-323 to 1e-250: u from about -38.6 to -33.8.
        let sigma = 10f64.powf(rng.gen_range(-5.0..300.0));
        let ratio = 10f64.powf(rng.gen_range(-323.0..-250.0));
        let cost = sigma * ratio;
        if !(cost > 0.0) {
            continue;
        }
        let exact = reference_cost_derivative(sigma, cost);
        for (path, d) in ["scalar", "slice"]
            .iter()
            .zip(fast_cost_derivative_both_ways(sigma, cost))
        {
            if exact.is_finite() {
                let ulps = ulp_distance(d, exact);
                worst = worst.max(ulps);
                assert!(
                    d.is_finite() && ulps <= COST_DERIVATIVE_ULP,
                    "{path}: σ {sigma:e}, c {cost:e}: d_cost {d:e}, exact {exact:e} ({ulps} ulp)"
                );
            } else {
                assert_eq!(d, exact, "{path}: σ {sigma:e}, c {cost:e}");
            }
        }
    }
    eprintln!("worst d_cost error {worst} ulp");
}

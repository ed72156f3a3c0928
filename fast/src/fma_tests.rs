//! The public scalar functions give the same bits with the exact products formed by a fused
//! multiply–add (their FMA compilation, run where the CPU has FMA) and by Dekker's splitting
//! (forced through `dd::tests::DEKKER_FORCED`), on the seeded random and edge inputs of the
//! lane tests (every region of `z`, `c/σ` and `σ`, special values).
use crate::dd::tests::DEKKER_FORCED;
use crate::lanes_tests::{inputs, pbgi_inputs};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const SEED: u64 = 0xf3a_d15c;

/// The bits of every public scalar function at one input (NaN as one value).
fn all_bits(y: f64, mu: f64, sigma: f64, cost: f64, m: f64, s: f64) -> Vec<u64> {
    let z = (y - mu) / sigma;
    let ei = crate::gradients::ei_grad(mu, sigma, y);
    let log_ei = crate::gradients::log_ei_grad(mu, sigma, y);
    let pbgi = crate::gradients::pbgi_grad(mu, sigma, cost);
    [
        crate::ei::ei(mu, sigma, y),
        crate::log_ei::log_ei(mu, sigma, y),
        crate::h::h(z),
        crate::h::ln_h(z),
        crate::log_ndtr::log_ndtr(z),
        crate::log_eipc::log_eipc(mu, sigma, y, cost),
        crate::log_eipc::log_eipc_inv(mu, sigma, y, m, s),
        crate::log_eipc::log_eipc_exp(mu, sigma, y, m, s),
        crate::pbgi::pbgi(mu, sigma, cost),
        crate::pbgi::pbgi_lognormal(mu, sigma, m, s),
        crate::pbgi::pbgi_small_cost(mu, sigma, cost),
        ei.value,
        ei.d_mu,
        ei.d_sigma,
        log_ei.value,
        log_ei.d_mu,
        log_ei.d_sigma,
        pbgi.value,
        pbgi.d_sigma,
        pbgi.d_cost,
    ]
    .iter()
    .map(|v| if v.is_nan() { u64::MAX } else { v.to_bits() })
    .collect()
}

const NAMES: [&str; 20] = [
    "ei",
    "log_ei",
    "h",
    "ln_h",
    "log_ndtr",
    "log_eipc",
    "log_eipc_inv",
    "log_eipc_exp",
    "pbgi",
    "pbgi_lognormal",
    "pbgi_small_cost",
    "ei_grad.value",
    "ei_grad.d_mu",
    "ei_grad.d_sigma",
    "log_ei_grad.value",
    "log_ei_grad.d_mu",
    "log_ei_grad.d_sigma",
    "pbgi_grad.value",
    "pbgi_grad.d_sigma",
    "pbgi_grad.d_cost",
];

fn compare(rng: &mut ChaCha8Rng, y: f64, mu: &[f64], sigma: &[f64], cost: &[f64]) {
    for i in 0..mu.len() {
        // A log-normal cost around the point's cost (or anywhere), for the two cost models.
        let m = match rng.gen_range(0..4) {
            0 => rng.gen_range(-800.0..800.0),
            _ => cost[i].ln() + rng.gen_range(-1.0..1.0),
        };
        let s = [0.0, 1e-3, 0.5, 2.0, 30.0][rng.gen_range(0..5)];
        let args = (y, mu[i], sigma[i], cost[i], m, s);
        let fused = all_bits(y, mu[i], sigma[i], cost[i], m, s);
        DEKKER_FORCED.with(|f| f.set(true));
        let dekker = all_bits(y, mu[i], sigma[i], cost[i], m, s);
        DEKKER_FORCED.with(|f| f.set(false));
        for k in 0..NAMES.len() {
            assert_eq!(
                fused[k],
                dekker[k],
                "{}: FMA {:e} vs Dekker {:e} at (y, mu, sigma, cost, m, s) = {args:?}",
                NAMES[k],
                f64::from_bits(fused[k]),
                f64::from_bits(dekker[k]),
            );
        }
    }
}

#[test]
fn the_scalar_functions_give_the_same_bits_with_fma_and_with_dekker_products() {
    println!("FMA detected on this CPU: {}", crate::dd::fma_detected());
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    for _ in 0..8 {
        let (y, mu, sigma, cost) = inputs(&mut rng, 5000);
        compare(&mut rng, y, &mu, &sigma, &cost);
        let (mu, sigma, cost) = pbgi_inputs(&mut rng, 5000);
        let y = [-1.0, 0.0, 2.5][rng.gen_range(0..3)];
        compare(&mut rng, y, &mu, &sigma, &cost);
    }
}

/// The comparison is not vacuous: forcing Dekker's splitting switches the branch of the exact
/// product (on a CPU with FMA the default is the fused one), and both give the exact error of
/// a product with a nonzero rounding error.
#[test]
fn forcing_dekker_switches_the_product() {
    let a = 1.0 + 2f64.powi(-30);
    let b = 1.0 - 2f64.powi(-29) + 2f64.powi(-52);
    let fused = crate::dd::two_prod(a, b);
    DEKKER_FORCED.with(|f| f.set(true));
    let dekker = crate::dd::two_prod(a, b);
    assert!(!crate::dd::fma_enabled());
    DEKKER_FORCED.with(|f| f.set(false));
    assert_eq!(fused, dekker);
    // a·b = 1 - 2^-30 + 2^-52 - 2^-59 + 2^-82: the last two terms are the rounding error.
    assert_eq!(fused, (a * b, 2f64.powi(-82) - 2f64.powi(-59)));
    assert_eq!(crate::dd::fma_enabled(), crate::dd::fma_detected());
}

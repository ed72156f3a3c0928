//! Source of truth: the contract itself, over the whole documented domain. For pseudo-random
//! inputs with `|z|` up to 1e8, `σ` from 1e-300 to 1e300 and `c/σ` from 1e-300 to 1e300
//! (seeded, printed on failure), every call must succeed, and its `value` must be what both
//! ends of its enclosure round to (the definition of "decided"), with the width target met.

use pbgi_reference::{ei, log_ei, log_eipc, pbgi, Certified, Float};

/// xorshift64*: a tiny deterministic generator (seeded; no dependency).
struct Rng(u64);

impl Rng {
    fn unit(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64
    }
    fn log_uniform(&mut self, lo: f64, hi: f64) -> f64 {
        10f64.powf(lo + (hi - lo) * self.unit())
    }
    fn sign(&mut self) -> f64 {
        if self.unit() < 0.5 {
            -1.0
        } else {
            1.0
        }
    }
}

fn check(what: &str, r: &Certified) {
    let (lo, hi) = (r.lower.to_f64(), r.upper.to_f64());
    assert!(
        lo == r.value && hi == r.value,
        "{what}: value {:e} but bounds round to {lo:e}, {hi:e}",
        r.value
    );
    if r.lower != r.upper && r.lower != 0 && r.lower.is_finite() {
        let w = Float::with_val(64, &r.upper - &r.lower);
        let m = Float::with_val(64, r.lower.abs_ref()).min(&Float::with_val(64, r.upper.abs_ref()));
        assert!(w <= (m >> 100u32), "{what}: enclosure wider than 2^-100");
    }
}

#[test]
fn every_call_in_the_domain_is_decided_and_tight() {
    let seed = 0x5eed_2026_1121;
    let mut rng = Rng(seed);
    for i in 0..150 {
        let sigma = rng.log_uniform(-300.0, 300.0);
        let z = rng.sign() * rng.log_uniform(-4.0, 8.0);
        let mu = if i % 3 == 0 {
            0.0
        } else {
            rng.sign() * sigma * rng.log_uniform(-3.0, 3.0)
        };
        let y = mu + z * sigma;
        let cost = sigma * rng.log_uniform(-300.0, 300.0);
        if !y.is_finite() || !cost.is_finite() || cost == 0.0 {
            continue;
        }
        let what = format!("seed {seed:#x} #{i}: mu={mu:e} sigma={sigma:e} y={y:e} cost={cost:e}");
        check(
            &format!("ei {what}"),
            &ei(mu, sigma, y).unwrap_or_else(|e| panic!("ei {what}: {e}")),
        );
        check(
            &format!("log_ei {what}"),
            &log_ei(mu, sigma, y).unwrap_or_else(|e| panic!("log_ei {what}: {e}")),
        );
        check(
            &format!("log_eipc {what}"),
            &log_eipc(mu, sigma, y, cost).unwrap_or_else(|e| panic!("log_eipc {what}: {e}")),
        );
        check(
            &format!("pbgi {what}"),
            &pbgi(mu, sigma, cost).unwrap_or_else(|e| panic!("pbgi {what}: {e}")),
        );
    }
}

//! Source of truth: the certified bisection (`pbgi_bisection_with`), an independent path to the
//! same certified root. `pbgi` first certifies Newton brackets from `pbgi_fast::pbgi`'s
//! estimate and falls back to the bisection only when that fails; both must give the identical
//! correctly rounded value and overlapping enclosures, on a seeded random set over the whole
//! domain (`PBGI_FAST_PATH_POINTS`, default 1500; the seed is printed) and on edge cases. The
//! fast path must also be the one taken on ordinary inputs (at most three certified
//! evaluations or comparisons, `pbgi_reference::work`).

use pbgi_reference::work::measure;
use pbgi_reference::{pbgi, pbgi_bisection_with, Accuracy, Certified};

/// SplitMix64: a small deterministic generator (no dependency needed for uniform draws).
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in `[a, b)`.
    fn uniform(&mut self, a: f64, b: f64) -> f64 {
        a + (b - a) * (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn same(a: &Certified, b: &Certified) -> bool {
    a.value.to_bits() == b.value.to_bits() && a.lower <= b.upper && b.lower <= a.upper
}

fn check(mu: f64, sigma: f64, cost: f64) -> u64 {
    let (fast, work) = measure(|| pbgi(mu, sigma, cost));
    let slow = pbgi_bisection_with(mu, sigma, cost, &Accuracy::default());
    match (fast, slow) {
        (Ok(f), Ok(s)) => assert!(
            same(&f, &s),
            "pbgi({mu:e}, {sigma:e}, {cost:e}): fast path {:e} [{}, {}] vs bisection {:e} [{}, {}]",
            f.value,
            f.lower_decimal(25),
            f.upper_decimal(25),
            s.value,
            s.lower_decimal(25),
            s.upper_decimal(25)
        ),
        (f, s) => panic!("pbgi({mu:e}, {sigma:e}, {cost:e}): {f:?} vs {s:?}"),
    }
    work.comparisons
}

#[test]
fn fast_path_agrees_with_the_bisection_over_the_domain() {
    let points: usize = std::env::var("PBGI_FAST_PATH_POINTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1500);
    let seed = 20_261_122;
    println!("seed {seed}, {points} points");
    let mut rng = SplitMix(seed);
    let mut ordinary = (0, 0);
    for _ in 0..points {
        let sigma = 10f64.powf(rng.uniform(-300.0, 300.0));
        let ratio = 10f64.powf(rng.uniform(-300.0, 300.0));
        let cost = sigma * ratio;
        if !(cost > 0.0 && cost.is_finite()) {
            continue;
        }
        let mu = match rng.next() % 4 {
            0 => 0.0,
            1 => rng.uniform(-1.0, 1.0) * sigma * 10f64.powf(rng.uniform(-3.0, 3.0)),
            2 => -cost,
            _ => rng.uniform(-1e6, 1e6),
        };
        let comparisons = check(mu, sigma, cost);
        if (1e-30..1e30).contains(&ratio) && mu.abs() <= 1e3 * sigma {
            ordinary.0 += 1;
            ordinary.1 += usize::from(comparisons <= 3);
        }
    }
    println!(
        "fast path taken on {} of {} ordinary points",
        ordinary.1, ordinary.0
    );
    assert!(
        ordinary.1 * 100 >= ordinary.0 * 95,
        "the fast path was taken on only {} of {} ordinary points",
        ordinary.1,
        ordinary.0
    );
}

#[test]
fn fast_path_agrees_with_the_bisection_at_the_edges() {
    let tiny = f64::from_bits(1);
    for (mu, sigma, cost) in [
        (0.0, 1.0, 0.398_942_280_401_432_7),
        (0.0, 1.0, 1e-4),
        (0.0, 1.0, 0.1),
        (0.0, tiny, tiny),
        (0.0, f64::MAX, tiny),
        (0.0, tiny, f64::MAX),
        (f64::MAX, 1.0, f64::MAX),
        (-f64::MAX, f64::MAX, f64::MAX),
        (-1e6, 1.0, 1e6),
        (-1e300, 1.0, 1e300),
        (
            1.2878036073968913,
            0.0013442922119871188,
            0.35895802502773255,
        ),
        (1e15, 1e-5, 1e-3),
        (-8.0, 1.0, 8.0),
        (1e308, 1e308, 1e308),
    ] {
        check(mu, sigma, cost);
    }
}

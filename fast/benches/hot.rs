//! Hot-path timings over a realistic input mix (criterion; per-element times via throughput).
//!
//! Inputs (seeded, 1024 points): `μ ~ N(0, 1)`, `σ` log-uniform in `[0.01, 2]`, incumbent
//! `y* = -1` (so `z` spans roughly `[-300, 100]`, mostly `[-10, 3]`), cost log-uniform in
//! `[1e-4, 1]`. Run: `cargo bench -p pbgi-fast -- --warm-up-time 1 --measurement-time 3`.
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const N: usize = 1024;
const Y_BEST: f64 = -1.0;

struct Mix {
    mu: Vec<f64>,
    sigma: Vec<f64>,
    cost: Vec<f64>,
    erfc_arg: Vec<f64>,
}

fn mix() -> Mix {
    let mut rng = ChaCha8Rng::seed_from_u64(20_261_121);
    let mut m = Mix {
        mu: vec![],
        sigma: vec![],
        cost: vec![],
        erfc_arg: vec![],
    };
    for _ in 0..N {
        let mu: f64 = rng.sample(rand_distr::StandardNormal);
        let sigma = 10f64.powf(rng.gen_range(-2.0..0.30103));
        m.mu.push(mu);
        m.sigma.push(sigma);
        m.cost.push(10f64.powf(rng.gen_range(-4.0..0.0)));
        // The argument one erfc-based EI would use: -z/√2.
        m.erfc_arg
            .push(-(Y_BEST - mu) / sigma * core::f64::consts::FRAC_1_SQRT_2);
    }
    m
}

fn hot(c: &mut Criterion) {
    let m = mix();
    let mut g = c.benchmark_group("per_point");
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("libm_erfc", |b| {
        b.iter(|| {
            let mut acc = 0.0;
            for &x in &m.erfc_arg {
                acc += libm::erfc(black_box(x));
            }
            acc
        })
    });
    g.bench_function("ei", |b| {
        b.iter(|| {
            let mut acc = 0.0;
            for i in 0..N {
                acc += pbgi_fast::ei(black_box(m.mu[i]), m.sigma[i], Y_BEST);
            }
            acc
        })
    });
    g.bench_function("log_ei", |b| {
        b.iter(|| {
            let mut acc = 0.0;
            for i in 0..N {
                acc += pbgi_fast::log_ei(black_box(m.mu[i]), m.sigma[i], Y_BEST);
            }
            acc
        })
    });
    g.bench_function("pbgi", |b| {
        b.iter(|| {
            let mut acc = 0.0;
            for i in 0..N {
                acc += pbgi_fast::pbgi(black_box(m.mu[i]), m.sigma[i], m.cost[i]);
            }
            acc
        })
    });
    g.bench_function("pbgi_bisection100", |b| {
        b.iter(|| {
            let mut acc = 0.0;
            for i in 0..N {
                acc += pbgi_fast::pbgi_bisection100(black_box(m.mu[i]), m.sigma[i], m.cost[i]);
            }
            acc
        })
    });
    g.finish();
}

criterion_group!(benches, hot);
criterion_main!(benches);

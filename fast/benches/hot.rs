//! Hot-path timings (criterion; per-element times via throughput), single thread.
//!
//! Input sets (seeded, 1024 points each):
//! - `bo_mix`: a BO-like mix — `μ ~ N(0, 1)`, `σ` log-uniform in `[0.01, 2]`, incumbent
//!   `y* = -1` (so `z = (y* - μ)/σ` spans roughly `[-300, 100]`, mostly `[-10, 3]`), cost
//!   log-uniform in `[1e-4, 1]` (so `c/σ` spans `[5e-5, 100]`);
//! - `central`: `μ = 0`, `σ = 1`, `z` uniform in `[-6, 6]`, cost log-uniform in `[1e-4, 1]`;
//! - `far_tail`: `μ = 0`, `σ = 1`, `z` uniform in `[-37, -6]` (EI tiny but representable).
//!
//! `libm_erfc` evaluates `erfc(-z/√2)` on the same points (the core of a plain EI). `pbgi`,
//! `ei_grad`, … are loops of the scalar functions; `*_slice` the slice forms on the same points
//! (their ratio in one run is the gain of the lanes).
//! Run: `cargo bench -p pbgi-fast -- --warm-up-time 1 --measurement-time 3`.
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const N: usize = 1024;

struct Inputs {
    mu: Vec<f64>,
    sigma: Vec<f64>,
    y: f64,
    cost: Vec<f64>,
    erfc_arg: Vec<f64>,
}

fn inputs(name: &str) -> Inputs {
    let mut rng = ChaCha8Rng::seed_from_u64(20_261_121);
    let mut m = Inputs {
        mu: vec![],
        sigma: vec![],
        y: 0.0,
        cost: vec![],
        erfc_arg: vec![],
    };
    for _ in 0..N {
        let (mu, sigma, y) = match name {
            "bo_mix" => {
                let mu: f64 = rng.sample(rand_distr::StandardNormal);
                (mu, 10f64.powf(rng.gen_range(-2.0..0.30103)), -1.0)
            }
            "central" => (-rng.gen_range(-6.0..6.0), 1.0, 0.0),
            _ => (-rng.gen_range(-37.0..-6.0), 1.0, 0.0),
        };
        m.mu.push(mu);
        m.sigma.push(sigma);
        m.y = y;
        m.cost.push(10f64.powf(rng.gen_range(-4.0..0.0)));
        m.erfc_arg
            .push(-(y - mu) / sigma * core::f64::consts::FRAC_1_SQRT_2);
    }
    m
}

fn bench_set(c: &mut Criterion, name: &str, with_pbgi: bool) {
    let m = inputs(name);
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("libm_erfc", |b| {
        b.iter(|| {
            m.erfc_arg
                .iter()
                .map(|&x| libm::erfc(black_box(x)))
                .sum::<f64>()
        })
    });
    g.bench_function("ei", |b| {
        b.iter(|| {
            (0..N)
                .map(|i| pbgi_fast::ei(black_box(m.mu[i]), m.sigma[i], m.y))
                .sum::<f64>()
        })
    });
    g.bench_function("log_ei", |b| {
        b.iter(|| {
            (0..N)
                .map(|i| pbgi_fast::log_ei(black_box(m.mu[i]), m.sigma[i], m.y))
                .sum::<f64>()
        })
    });
    let (mut v, mut d1, mut d2) = (vec![0.0; N], vec![0.0; N], vec![0.0; N]);
    g.bench_function("ei_grad", |b| {
        b.iter(|| {
            (0..N)
                .map(|i| pbgi_fast::ei_grad(black_box(m.mu[i]), m.sigma[i], m.y).d_mu)
                .sum::<f64>()
        })
    });
    g.bench_function("ei_grad_slice", |b| {
        b.iter(|| {
            pbgi_fast::ei_grad_slice(black_box(&m.mu), &m.sigma, m.y, &mut v, &mut d1, &mut d2)
                .unwrap();
            d2[N - 1]
        })
    });
    g.bench_function("log_ei_grad", |b| {
        b.iter(|| {
            (0..N)
                .map(|i| pbgi_fast::log_ei_grad(black_box(m.mu[i]), m.sigma[i], m.y).d_mu)
                .sum::<f64>()
        })
    });
    g.bench_function("log_ei_grad_slice", |b| {
        b.iter(|| {
            pbgi_fast::log_ei_grad_slice(black_box(&m.mu), &m.sigma, m.y, &mut v, &mut d1, &mut d2)
                .unwrap();
            d2[N - 1]
        })
    });
    if with_pbgi {
        g.bench_function("pbgi", |b| {
            b.iter(|| {
                (0..N)
                    .map(|i| pbgi_fast::pbgi(black_box(m.mu[i]), m.sigma[i], m.cost[i]))
                    .sum::<f64>()
            })
        });
        let mut out = vec![0.0; N];
        g.bench_function("pbgi_slice", |b| {
            b.iter(|| {
                pbgi_fast::pbgi_slice(black_box(&m.mu), &m.sigma, &m.cost, &mut out).unwrap();
                out[N - 1]
            })
        });
        g.bench_function("pbgi_grad", |b| {
            b.iter(|| {
                (0..N)
                    .map(|i| pbgi_fast::pbgi_grad(black_box(m.mu[i]), m.sigma[i], m.cost[i]).d_cost)
                    .sum::<f64>()
            })
        });
        let (mut d1, mut d2) = (vec![0.0; N], vec![0.0; N]);
        g.bench_function("pbgi_grad_slice", |b| {
            b.iter(|| {
                pbgi_fast::pbgi_grad_slice(
                    black_box(&m.mu),
                    &m.sigma,
                    &m.cost,
                    &mut out,
                    &mut d1,
                    &mut d2,
                )
                .unwrap();
                d2[N - 1]
            })
        });
        g.bench_function("pbgi_bisection100", |b| {
            b.iter(|| {
                (0..N)
                    .map(|i| {
                        pbgi_fast::pbgi_bisection100(black_box(m.mu[i]), m.sigma[i], m.cost[i])
                    })
                    .sum::<f64>()
            })
        });
    }
    g.finish();
}

fn hot(c: &mut Criterion) {
    bench_set(c, "bo_mix", true);
    bench_set(c, "central", true);
    bench_set(c, "far_tail", false);
}

criterion_group!(benches, hot);
criterion_main!(benches);

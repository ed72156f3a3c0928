//! Cost of one call of each public function at the default accuracy (`cargo bench -p
//! pbgi-reference`), on representative inputs of each regime. The table in
//! `proofs-notes/reference-certification.md` records the measured medians.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use pbgi_reference::{
    ei, ei_grad, h, ln_h, log_ei, log_ei_grad, log_eipc, log_eipc_exp, log_eipc_inv, log_ndtr,
    pbgi, pbgi_grad, pbgi_lognormal, stop_decision, Candidate,
};
use std::time::Duration;

fn per_call(c: &mut Criterion) {
    let mut g = c.benchmark_group("reference");
    g.sample_size(20)
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(500));
    // (name, z) for h / ln_h: Taylor (|z| ≤ 4), continued fraction, asymptotic series.
    for (name, z) in [
        ("taylor", -1.3),
        ("cf", -7.7),
        ("asymptotic", -38.5),
        ("far", -1e8),
        ("upper", 2.2),
    ] {
        g.bench_function(format!("h/{name}"), |b| b.iter(|| h(black_box(z)).unwrap()));
        g.bench_function(format!("ln_h/{name}"), |b| {
            b.iter(|| ln_h(black_box(z)).unwrap())
        });
    }
    for (name, x) in [("lower", -7.7), ("middle", 0.3), ("upper", 9.0)] {
        g.bench_function(format!("log_ndtr/{name}"), |b| {
            b.iter(|| log_ndtr(black_box(x)).unwrap())
        });
    }
    g.bench_function("ei_grad/typical", |b| {
        b.iter(|| ei_grad(black_box(0.3), 1.7, -2.1).unwrap())
    });
    g.bench_function("log_ei_grad/typical", |b| {
        b.iter(|| log_ei_grad(black_box(0.3), 1.7, -2.1).unwrap())
    });
    g.bench_function("pbgi_grad/typical", |b| {
        b.iter(|| pbgi_grad(black_box(0.3), 1.2, 0.01).unwrap())
    });
    g.bench_function("ei/typical", |b| {
        b.iter(|| ei(black_box(0.3), 1.7, -2.1).unwrap())
    });
    g.bench_function("ei/sigma0", |b| {
        b.iter(|| ei(black_box(0.3), 0.0, 2.1).unwrap())
    });
    g.bench_function("log_ei/typical", |b| {
        b.iter(|| log_ei(black_box(0.3), 1.7, -2.1).unwrap())
    });
    g.bench_function("log_ei/far", |b| {
        b.iter(|| log_ei(black_box(0.0), 1e-300, -1e-292).unwrap())
    });
    g.bench_function("log_eipc/typical", |b| {
        b.iter(|| log_eipc(black_box(0.3), 1.7, -2.1, 0.01).unwrap())
    });
    g.bench_function("log_eipc_inv/typical", |b| {
        b.iter(|| log_eipc_inv(black_box(0.3), 1.7, -2.1, -4.0, 0.5).unwrap())
    });
    g.bench_function("log_eipc_exp/typical", |b| {
        b.iter(|| log_eipc_exp(black_box(0.3), 1.7, -2.1, -4.0, 0.5).unwrap())
    });
    g.bench_function("pbgi/typical", |b| {
        b.iter(|| pbgi(black_box(0.3), 1.2, 0.01).unwrap())
    });
    g.bench_function("pbgi/small_cost", |b| {
        b.iter(|| pbgi(black_box(0.3), 1.2, 1e-200).unwrap())
    });
    g.bench_function("pbgi/large_cost", |b| {
        b.iter(|| pbgi(black_box(0.3), 1.2, 1e200).unwrap())
    });
    g.bench_function("pbgi/sigma0", |b| {
        b.iter(|| pbgi(black_box(0.3), 0.0, 0.01).unwrap())
    });
    g.bench_function("pbgi_lognormal/typical", |b| {
        b.iter(|| pbgi_lognormal(black_box(0.3), 1.2, -4.0, 0.5).unwrap())
    });
    let cands: Vec<Candidate> = (0..10)
        .map(|i| Candidate {
            mu: f64::from(i) * 0.1,
            sigma: 1.0,
            cost: 0.01,
        })
        .collect();
    g.bench_function("stop_decision/10", |b| {
        b.iter(|| stop_decision(black_box(&cands), -1.5).unwrap())
    });
    g.finish();
}

criterion_group!(benches, per_call);
criterion_main!(benches);

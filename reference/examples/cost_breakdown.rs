//! Where the time of one certified call goes: the call itself and the decimal rendering of its
//! enclosure, on the BO-like points of `bench/compare_reference_vs_arb.py`.
//!
//!     cargo run --release -p pbgi-reference --example cost_breakdown
//!
//! A benchmark, not a test: run it on a quiet machine.

use pbgi_reference::{ei, log_ei, pbgi, work::measure};
use std::time::Instant;

/// A small deterministic generator (xorshift64*), so the points need no extra crate.
struct Rng(u64);

impl Rng {
    fn uniform(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn per_call<T>(n: usize, mut f: impl FnMut(usize) -> T) -> f64 {
    let start = Instant::now();
    for i in 0..n {
        std::hint::black_box(f(i));
    }
    start.elapsed().as_secs_f64() * 1e6 / n as f64
}

fn main() {
    let mut rng = Rng(20261122);
    let n = 20000;
    let ei_points: Vec<(f64, f64, f64)> = (0..n)
        .map(|_| {
            let sigma = 10f64.powf(4.0 * rng.uniform() - 2.0);
            let mu = 2.0 * rng.uniform() - 1.0;
            let z = 4.0 * (rng.uniform() + rng.uniform() + rng.uniform() - 1.5) * 2.0f64.sqrt();
            (mu, sigma, mu + z * sigma)
        })
        .collect();
    let pbgi_points: Vec<(f64, f64, f64)> = (0..n / 10)
        .map(|_| {
            let sigma = 10f64.powf(4.0 * rng.uniform() - 2.0);
            let mu = 2.0 * rng.uniform() - 1.0;
            (mu, sigma, sigma * 10f64.powf(5.0 * rng.uniform() - 4.0))
        })
        .collect();
    let ei_results: Vec<_> = ei_points
        .iter()
        .map(|&(m, s, y)| ei(m, s, y).unwrap())
        .collect();
    let ei_t = per_call(n, |i| ei(ei_points[i].0, ei_points[i].1, ei_points[i].2));
    let log_ei_t = per_call(n, |i| {
        log_ei(ei_points[i].0, ei_points[i].1, ei_points[i].2)
    });
    let pbgi_t = per_call(n / 10, |i| {
        pbgi(pbgi_points[i].0, pbgi_points[i].1, pbgi_points[i].2)
    });
    let decimal_t = per_call(n, |i| {
        (
            ei_results[i].lower_decimal(40),
            ei_results[i].upper_decimal(40),
        )
    });
    let work = measure(|| {
        for &(m, s, y) in &ei_points {
            ei(m, s, y).unwrap();
        }
    })
    .1;
    for z in [
        0.0, -0.5, -2.0, -3.9, -4.1, -6.0, -10.0, -20.0, -40.0, 1.0, 3.0, 6.0,
    ] {
        let t = per_call(2000, |_| ei(0.25, 1.5, 0.25 + 1.5 * z));
        let tl = per_call(2000, |_| log_ei(0.25, 1.5, 0.25 + 1.5 * z));
        println!("z = {z}: ei {t:.2} µs, log_ei {tl:.2} µs");
    }
    println!("µs per call: ei {ei_t:.2}, log_ei {log_ei_t:.2}, pbgi {pbgi_t:.2}");
    println!("µs per row: lower and upper as 40-digit decimals {decimal_t:.2}");
    println!(
        "ei: largest working precision {} bits",
        work.max_working_bits
    );
}

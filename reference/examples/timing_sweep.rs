//! Time per call of every reference function over a grid covering its whole domain, by region:
//! `|z|` (or `c/σ`) from `1e-300` to `1e300` on both sides, `σ` from `1e-300` to `1e300`, `μ`
//! offsets up to `±1e300` and with `μ + c = 0`, so that results below the smallest subnormal and
//! above the largest double are included. Prints, per function and region, the number of calls,
//! the 99th percentile and the maximum (wall time, µs), then every call slower than 10 ms.
//!
//!     cargo run --release -p pbgi-reference --example timing_sweep
//!
//! A benchmark, not a test: run it on a quiet machine. The worst inputs it finds are pinned, with
//! a bound on work that is not wall time, in `tests/slow_corners.rs`.

use pbgi_reference::{
    ei, ei_grad, h, ln_h, log_ei, log_ei_grad, log_eipc, log_ndtr, pbgi, pbgi_grad, Error,
};
use std::collections::BTreeMap;
use std::time::Instant;

/// `±10^k` for `k` from -300 to 300 in steps of 20, and a few landmarks of the methods.
fn magnitudes() -> Vec<f64> {
    let mut v: Vec<f64> = (-15..=15).map(|k| 10f64.powi(20 * k)).collect();
    v.extend([
        0.5, 1.0, 2.0, 3.9, 4.1, 8.0, 16.0, 38.5, 40.0, 1e3, 1e5, 3e9, 1e10,
    ]);
    v
}

fn region(x: f64) -> &'static str {
    match x {
        x if x < -3e9 => "< -3e9",
        x if x < -38.5 => "[-3e9, -38.5)",
        x if x < -4.0 => "[-38.5, -4)",
        x if x <= 4.0 => "[-4, 4]",
        x if x <= 38.5 => "(4, 38.5]",
        x if x <= 3e9 => "(38.5, 3e9]",
        _ => "> 3e9",
    }
}

fn ratio_region(r: f64) -> &'static str {
    match r {
        r if r < 1e-100 => "c/σ < 1e-100",
        r if r < 1e-4 => "c/σ in [1e-100, 1e-4)",
        r if r < 10.0 => "c/σ in [1e-4, 10)",
        r if r < 1e100 => "c/σ in [10, 1e100)",
        _ => "c/σ >= 1e100",
    }
}

type Key = (&'static str, &'static str);

struct Sweep {
    times: BTreeMap<Key, Vec<f64>>,
    /// Every call, with its time (µs).
    slow: Vec<(f64, String)>,
}

impl Sweep {
    fn time<T>(&mut self, key: Key, what: String, f: impl FnOnce() -> Result<T, Error>) {
        let start = Instant::now();
        let result = f();
        let us = start.elapsed().as_secs_f64() * 1e6;
        match result {
            Ok(_) | Err(Error::NotDifferentiable { .. }) => {}
            Err(e) => println!("error: {what}: {e}"),
        }
        self.slow.push((us, what));
        self.times.entry(key).or_default().push(us);
    }
}

fn main() {
    let mut s = Sweep {
        times: BTreeMap::new(),
        slow: Vec::new(),
    };
    let mags = magnitudes();
    let signed: Vec<f64> = mags.iter().flat_map(|&m| [m, -m]).chain([0.0]).collect();
    for &z in &signed {
        s.time(("h", region(z)), format!("h({z:e})"), || h(z));
        s.time(("ln_h", region(z)), format!("ln_h({z:e})"), || ln_h(z));
        s.time(("log_ndtr", region(z)), format!("log_ndtr({z:e})"), || {
            log_ndtr(z)
        });
    }
    let sigmas: [f64; 7] = [1e-300, 1e-150, 1e-10, 1.0, 1e10, 1e150, 1e300];
    for &sigma in &sigmas {
        for &z in &signed {
            for offset in [0.0, 1e6, -1e300] {
                let mu = offset * sigma.max(1.0);
                let y = mu + z * sigma;
                if !y.is_finite() || !mu.is_finite() {
                    continue;
                }
                let zr = region(z);
                let at = format!("({mu:e}, {sigma:e}, {y:e})");
                s.time(("ei", zr), format!("ei{at}"), || ei(mu, sigma, y));
                s.time(("log_ei", zr), format!("log_ei{at}"), || {
                    log_ei(mu, sigma, y)
                });
                s.time(("log_eipc", zr), format!("log_eipc{at}, c = σ"), || {
                    log_eipc(mu, sigma, y, sigma)
                });
                s.time(("ei_grad", zr), format!("ei_grad{at}"), || {
                    ei_grad(mu, sigma, y)
                });
                s.time(("log_ei_grad", zr), format!("log_ei_grad{at}"), || {
                    log_ei_grad(mu, sigma, y)
                });
            }
        }
        for &r in &mags {
            let cost = r * sigma;
            if !(cost > 0.0 && cost.is_finite()) {
                continue;
            }
            for mu in [0.0, 1.0, -cost, cost, 1e6 * sigma, -1e300] {
                let rr = ratio_region(r);
                let at = format!("({mu:e}, {sigma:e}, {cost:e})");
                s.time(("pbgi", rr), format!("pbgi{at}"), || pbgi(mu, sigma, cost));
                s.time(("pbgi_grad", rr), format!("pbgi_grad{at}"), || {
                    pbgi_grad(mu, sigma, cost)
                });
            }
        }
    }
    println!("| function | region | calls | p99 (µs) | max (µs) |");
    println!("|---|---|---|---|---|");
    for ((f, r), mut t) in s.times {
        t.sort_by(f64::total_cmp);
        let p99 = t[((t.len() as f64 * 0.99).ceil() as usize).min(t.len()) - 1];
        let max = t[t.len() - 1];
        println!("| {f} | {r} | {} | {p99:.0} | {max:.0} |", t.len());
    }
    s.slow.sort_by(|a, b| b.0.total_cmp(&a.0));
    let over = s.slow.iter().filter(|(us, _)| *us > 10_000.0).count();
    println!("\n{over} calls slower than 10 ms; the slowest:");
    for (us, what) in s.slow.iter().take(15) {
        println!("{:.1} ms  {what}", us / 1e3);
    }
}

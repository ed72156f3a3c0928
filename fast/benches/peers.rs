//! Per-point times of the fast kernels on a set of points written by
//! `bench/compare_fast_vs_botorch.py` (raw little-endian f64 files `mu.f64`, `sigma.f64`,
//! `cost.f64` and the incumbent in `y.f64`), so that the same points are timed beside BoTorch in
//! one run. Not a criterion bench: it prints one JSON object (kernel → ns per point, the
//! minimum over repeats, and `simd_path`, the compilation the slices ran) and is run by
//! `bench/run`, never by the test command.
//!
//! Usage: `cargo bench -p pbgi-fast --bench peers -- DIR [REPEATS] [no-bisection]` (the last
//! word skips `pbgi_bisection100`, several seconds per run, for callers that run this once per
//! round of an interleaved comparison).
use std::hint::black_box;
use std::time::Instant;

fn read_f64s(dir: &str, name: &str) -> Vec<f64> {
    let path = format!("{dir}/{name}");
    let bytes = std::fs::read(&path).unwrap_or_else(|e| {
        eprintln!("peers: cannot read {path}: {e}");
        std::process::exit(2)
    });
    bytes
        .chunks_exact(8)
        .map(|c| f64::from_le_bytes(c.try_into().expect("chunks of 8 bytes")))
        .collect()
}

/// Minimum over `repeats` runs of `f`'s time, in ns per point.
fn ns_per_point(points: usize, repeats: usize, mut f: impl FnMut()) -> f64 {
    let mut best = f64::INFINITY;
    for _ in 0..repeats {
        let t = Instant::now();
        f();
        best = best.min(t.elapsed().as_secs_f64());
    }
    best * 1e9 / points as f64
}

fn main() {
    // cargo passes `--bench` to harness-less benches: take the first argument that is not a flag.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let Some(dir) = args.first() else {
        eprintln!("usage: peers DIR [REPEATS] [no-bisection]");
        std::process::exit(2)
    };
    let repeats: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(5);
    let bisection = args.get(2).map(String::as_str) != Some("no-bisection");
    let mu = read_f64s(dir, "mu.f64");
    let sigma = read_f64s(dir, "sigma.f64");
    let cost = read_f64s(dir, "cost.f64");
    let y = read_f64s(dir, "y.f64")[0];
    let n = mu.len();
    let mut out = vec![0.0; n];
    let mut out2 = vec![0.0; n];
    let mut out3 = vec![0.0; n];
    let mut times: Vec<(&str, f64)> = Vec::new();

    times.push((
        "ei_slice",
        ns_per_point(n, repeats, || {
            pbgi_fast::ei_slice(&mu, &sigma, y, &mut out).unwrap();
            black_box(&out);
        }),
    ));
    times.push((
        "ei_scalar",
        ns_per_point(n, repeats, || {
            for i in 0..n {
                out[i] = pbgi_fast::ei(black_box(mu[i]), sigma[i], y);
            }
            black_box(&out);
        }),
    ));
    times.push((
        "log_ei_slice",
        ns_per_point(n, repeats, || {
            pbgi_fast::log_ei_slice(&mu, &sigma, y, &mut out).unwrap();
            black_box(&out);
        }),
    ));
    times.push((
        "log_eipc_slice",
        ns_per_point(n, repeats, || {
            pbgi_fast::log_eipc_slice(&mu, &sigma, y, &cost, &mut out).unwrap();
            black_box(&out);
        }),
    ));
    times.push((
        "pbgi_slice",
        ns_per_point(n, repeats, || {
            pbgi_fast::pbgi_slice(&mu, &sigma, &cost, &mut out).unwrap();
            black_box(&out);
        }),
    ));
    times.push((
        "pbgi_scalar",
        ns_per_point(n, repeats, || {
            for i in 0..n {
                out[i] = pbgi_fast::pbgi(black_box(mu[i]), sigma[i], cost[i]);
            }
            black_box(&out);
        }),
    ));
    times.push((
        "ei_grad_slice",
        ns_per_point(n, repeats, || {
            pbgi_fast::ei_grad_slice(&mu, &sigma, y, &mut out, &mut out2, &mut out3).unwrap();
            black_box((&out, &out2, &out3));
        }),
    ));
    times.push((
        "log_ei_grad_slice",
        ns_per_point(n, repeats, || {
            pbgi_fast::log_ei_grad_slice(&mu, &sigma, y, &mut out, &mut out2, &mut out3).unwrap();
            black_box((&out, &out2, &out3));
        }),
    ));
    times.push((
        "pbgi_grad_slice",
        ns_per_point(n, repeats, || {
            pbgi_fast::pbgi_grad_slice(&mu, &sigma, &cost, &mut out, &mut out2, &mut out3).unwrap();
            black_box((&out, &out2, &out3));
        }),
    ));
    if bisection {
        times.push((
            "pbgi_bisection100",
            ns_per_point(n, 1, || {
                for i in 0..n {
                    out[i] = pbgi_fast::pbgi_bisection100(black_box(mu[i]), sigma[i], cost[i]);
                }
                black_box(&out);
            }),
        ));
    }
    let mut body: Vec<String> = times
        .iter()
        .map(|(k, v)| format!("\"{k}\": {v:.3}"))
        .collect();
    body.push(format!("\"simd_path\": \"{}\"", pbgi_fast::simd_path()));
    println!("{{{}}}", body.join(", "));
}

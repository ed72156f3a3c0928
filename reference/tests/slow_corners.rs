//! Source of truth: the timing sweep (`cargo run --release -p pbgi-reference --example
//! timing_sweep`) found these inputs the slowest; each is pinned with its correct result and a
//! bound on the work it may do (certified comparisons, precisions of exact sums and of the
//! working arithmetic, from `pbgi_reference::work`), never on wall time.
//!
//! `pbgi(-1e6, 1, 1e6)` once took minutes: `μ + c = 0`, the root `-σh(-1e6)` is about
//! `2^(-7e11)`, and the solver formed exact sums `g - μ` over a 2^31-bit span at points that
//! small. The same shape (`μ + c = 0`, `c/σ` from 8 to 38.5) made the bisection take about 100
//! comparisons, which the fast path (certified Newton brackets on the exactly split residual)
//! brings to one or two evaluations, and four comparisons when the root lies in the cell of `±0`.
//! The slowest calls of the sweep after that (5–9 ms: log-normal costs, which took the
//! bisection, and `μ + c = 0` with `c/σ ≥ 40`) are pinned in
//! `slowest_sweep_calls_take_a_few_evaluations`.

use pbgi_reference::work::{measure, Work};
use pbgi_reference::{pbgi, pbgi_bisection_with, pbgi_grad, pbgi_lognormal, Accuracy};

fn bounded(what: &str, work: Work, comparisons: u64, exact_bits: u32, working_bits: u32) {
    println!("{what}: {work:?}");
    assert!(
        work.comparisons <= comparisons
            && work.max_exact_bits <= exact_bits
            && work.max_working_bits <= working_bits,
        "{what}: {work:?} exceeds ({comparisons} comparisons, {exact_bits}-bit exact sums, \
         {working_bits}-bit working precision)"
    );
}

#[test]
fn roots_below_every_double_stop_in_the_cell_of_zero() {
    for (mu, sigma, cost) in [
        (-1e6, 1.0, 1e6),
        (-1e300, 1.0, 1e300),
        (-1e300, 1e-300, 1e300),
    ] {
        let (g, work) = measure(|| pbgi(mu, sigma, cost).unwrap());
        // The root is -σh(-c/σ) < 0, far below 2^-1100.
        assert!(g.value == 0.0 && g.value.is_sign_negative(), "{}", g.value);
        assert!(g.upper <= 0 && g.lower >= -(rug::Float::with_val(53, 1) >> 1099u32));
        bounded(
            &format!("pbgi({mu:e}, {sigma:e}, {cost:e})"),
            work,
            40,
            4096,
            128,
        );
    }
}

#[test]
fn tiny_roots_next_to_mu_plus_cost_take_the_fast_path() {
    for (mu, sigma, cost) in [
        (-1.6e-149, 1e-150, 1.6e-149),
        (-8.0, 1.0, 8.0),
        (-3.85e11, 1e10, 3.85e11),
        (-1.6e151, 1e150, 1.6e151),
        (-8e-300, 1e-300, 8e-300),
    ] {
        let what = format!("pbgi({mu:e}, {sigma:e}, {cost:e})");
        let (g, work) = measure(|| pbgi(mu, sigma, cost).unwrap());
        let independent = pbgi_bisection_with(mu, sigma, cost, &Accuracy::default()).unwrap();
        assert_eq!(g.value.to_bits(), independent.value.to_bits(), "{what}");
        assert!(g.value < 0.0, "{what}: the root lies below μ + c = 0");
        bounded(&what, work, 3, 2048, 256);
    }
}

#[test]
fn gradients_at_the_slowest_sweep_points_stay_bounded() {
    for (mu, sigma, cost) in [
        (0.0, 1.0, 1e-300),
        (1.6e-299, 1e-300, 1.6e-299),
        (1e16, 1e10, 4.1e10),
        (-8.0, 1.0, 8.0),
    ] {
        let what = format!("pbgi_grad({mu:e}, {sigma:e}, {cost:e})");
        let (g, work) = measure(|| pbgi_grad(mu, sigma, cost).unwrap());
        assert!(g.d_sigma.value <= 0.0 && g.d_cost.value >= 1.0, "{what}");
        bounded(&what, work, 16, 2048, 512);
    }
}

/// The slowest calls of the timing sweep (proof note §9a) before the log-normal cost took the
/// fast path and the cell of `±0` was tried directly: `pbgi_lognormal(0, 1, m = -8.85, s = 5)`
/// 8.9 ms, `(0, 1, m = -184.2, s = 0)` 8.4 ms, `pbgi(-4e11, 1e10, 4e11)` 6.8 ms, and their
/// neighbours in the table. The log-normal values are checked against mpmath by
/// `tests/mpmath_data.rs` (the same inputs are rows there); the `pbgi` values against the
/// bisection alone.
#[test]
fn slowest_sweep_calls_take_a_few_evaluations() {
    for (mu, sigma, m, s) in [
        (0.0, 1.0, -8.849341758706261, 5.0),
        (0.0, 1.0, -184.20680743952366, 0.0),
        (0.0, 1e150, 348.16035267134663, 0.0),
        (0.0, 1e300, 694.4261861395074, 0.0),
        (0.0, 1.0, 3.5638794541139363, 0.5),
        (0.0, 1e300, 244.42618613950742, 30.0),
    ] {
        let what = format!("pbgi_lognormal({mu:e}, {sigma:e}, m = {m}, s = {s})");
        let (g, work) = measure(|| pbgi_lognormal(mu, sigma, m, s));
        assert!(g.is_ok(), "{what}: {g:?}");
        bounded(&what, work, 2, 256, 256);
    }
    for (mu, sigma, cost) in [
        (-4e11, 1e10, 4e11),
        (-1e3, 1.0, 1e3),
        (-1e5, 1.0, 1e5),
        (-1e-297, 1e-300, 1e-297),
        (-1e10, 1.0, 1e10),
        (-1e20, 1e10, 1e20),
    ] {
        let what = format!("pbgi({mu:e}, {sigma:e}, {cost:e})");
        let (g, work) = measure(|| pbgi(mu, sigma, cost).unwrap());
        let independent = pbgi_bisection_with(mu, sigma, cost, &Accuracy::default()).unwrap();
        assert_eq!(g.value.to_bits(), independent.value.to_bits(), "{what}");
        // The root -σh(-c/σ) lies below every double (c/σ ≥ 40).
        assert!(g.value == 0.0 && g.value.is_sign_negative(), "{what}");
        bounded(&what, work, 4, 1400, 128);
    }
}

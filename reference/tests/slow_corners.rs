//! Source of truth: the timing sweep (`cargo run --release -p pbgi-reference --example
//! timing_sweep`) found these inputs the slowest; each is pinned with its correct result and a
//! bound on the work it may do (certified comparisons, precisions of exact sums and of the
//! working arithmetic, from `pbgi_reference::work`), never on wall time.
//!
//! `pbgi(-1e6, 1, 1e6)` once took minutes: `μ + c = 0`, the root `-σh(-1e6)` is about
//! `2^(-7e11)`, and the solver formed exact sums `g - μ` over a 2^31-bit span at points that
//! small. The same shape (`μ + c = 0`, `c/σ` from 8 to 38.5) made the bisection take about 100
//! comparisons, which the fast path (Newton on the exactly split residual) brings to two.

use pbgi_reference::work::{measure, Work};
use pbgi_reference::{pbgi, pbgi_bisection_with, pbgi_grad, Accuracy};

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

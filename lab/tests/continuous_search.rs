//! The continuous cube's pieces against independent answers: the posterior against a dense
//! Cholesky solve, its gradients and the acquisition gradients against central differences of
//! the exact functions, the `(μ, σ, c)` partials against the certified reference, multi-start
//! optimisation against fine grids, and the BO loop's determinism.
use nalgebra::{DMatrix, DVector};
use pbgi_lab::acquisitions::AcquisitionName;
use pbgi_lab::bo::initial_design::scrambled_sobol;
use pbgi_lab::bo::{Control, CostFunction, PeriodicAnchor, StepView};
use pbgi_lab::continuous::lbfgs::LbfgsOptions;
use pbgi_lab::continuous::posterior::{BatchOut, BatchScratch, Scratch};
use pbgi_lab::continuous::search::{
    best_of_batched_local_searches, best_of_local_searches, target_with_gradient, BatchFunction,
    TargetBatch, TargetScratch, WarmStarts,
};
use pbgi_lab::continuous::{
    global_minimum, run_bo_continuous, ContinuousPosterior, ContinuousTask, FourierPath, Landscape,
    ScaledCost, SearchConfig, Target,
};
use pbgi_lab::gp::{Kernel, KernelKind};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::cell::RefCell;

const NOISE: f64 = 1e-6;

fn kernel(length_scale: f64) -> Kernel {
    Kernel {
        kind: KernelKind::Matern52,
        length_scale,
        outputscale: 1.0,
    }
}

/// A posterior on `[0, 1]^d` after `n` observations of an RFF path at uniform points, with a
/// screen of `screen` scrambled Sobol points.
fn posterior(
    d: usize,
    n: usize,
    length_scale: f64,
    screen: usize,
    seed: u64,
) -> ContinuousPosterior {
    println!("posterior seed {seed}");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let k = kernel(length_scale);
    let path = FourierPath::draw(&k, 0.0, d, 256, &mut rng).unwrap();
    let points = scrambled_sobol(screen, d, &mut rng);
    let mut p = ContinuousPosterior::new(k, 0.3, NOISE, d, points).unwrap();
    for _ in 0..n {
        let x: Vec<f64> = (0..d).map(|_| rng.gen::<f64>()).collect();
        p.observe(&x, path.value(&x)).unwrap();
    }
    p
}

/// The posterior mean and sd at `x` by a dense Cholesky solve of `(K + εI)`.
fn dense(p: &ContinuousPosterior, first: usize, x: &[f64]) -> (f64, f64) {
    let k = p.kernel();
    let point = |s: usize| p.point(s);
    let gram = DMatrix::from_fn(first, first, |i, j| {
        k.eval(point(i), point(j)) + if i == j { NOISE } else { 0.0 }
    });
    let chol = gram.cholesky().expect("K + εI is positive definite");
    let kx = DVector::from_fn(first, |i, _| k.eval(point(i), x));
    let residual = DVector::from_fn(first, |i, _| p.values()[i] - 0.3);
    let mean = 0.3 + kx.dot(&chol.solve(&residual));
    let variance = k.eval(x, x) - kx.dot(&chol.solve(&kx));
    (mean, variance.max(0.0).sqrt())
}

#[test]
fn posterior_matches_a_dense_solve_everywhere_it_is_read() {
    let p = posterior(3, 25, 0.4, 16, 1);
    let mut scratch = Scratch::default();
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    for _ in 0..20 {
        let x: Vec<f64> = (0..3).map(|_| rng.gen::<f64>()).collect();
        let (m, s) = p.mean_sd(&x, &mut scratch);
        let (dm, ds) = dense(&p, p.len(), &x);
        assert!(
            (m - dm).abs() < 1e-9 && (s - ds).abs() < 1e-7,
            "{m} {dm} {s} {ds}"
        );
        // The gradient path evaluates the kernel through its gradient form: equal to rounding.
        let g = p.mean_sd_gradients(&x);
        assert!((g.mean - m).abs() < 1e-13 && (g.sd - s).abs() < 1e-13);
        // Earlier posteriors from the leading block of the factor.
        for first in [1, 7, 25] {
            let (m, s) = p.mean_sd_given_first(first, &x);
            let (dm, ds) = dense(&p, first, &x);
            assert!(
                (m - dm).abs() < 1e-9 && (s - ds).abs() < 1e-7,
                "first {first}"
            );
        }
    }
    // The screen, updated row by row, and the evaluated points' O(1) formulas.
    let d = 3;
    for (j, x) in p.screen_points().chunks_exact(d).enumerate() {
        let (dm, ds) = dense(&p, p.len(), x);
        assert!((p.screen_mean()[j] - dm).abs() < 1e-9, "screen {j}");
        assert!((p.screen_sd()[j] - ds).abs() < 1e-7, "screen {j}");
    }
    for s in 0..p.len() {
        let (dm, ds) = dense(&p, p.len(), p.point(s));
        assert!((p.mean_at_observed(s) - dm).abs() < 1e-9, "observed {s}");
        assert!((p.sd_at_observed(s) - ds).abs() < 1e-7, "observed {s}");
    }
}

#[test]
fn posterior_gradients_match_central_differences() {
    let p = posterior(4, 30, 0.3, 8, 3);
    let mut scratch = Scratch::default();
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    for _ in 0..20 {
        let x: Vec<f64> = (0..4).map(|_| 0.05 + 0.9 * rng.gen::<f64>()).collect();
        let g = p.mean_sd_gradients(&x);
        for i in 0..4 {
            let h = 1e-6;
            let (mut up, mut down) = (x.clone(), x.clone());
            up[i] += h;
            down[i] -= h;
            let (mu_up, sd_up) = p.mean_sd(&up, &mut scratch);
            let (mu_down, sd_down) = p.mean_sd(&down, &mut scratch);
            let fd_mean = (mu_up - mu_down) / (2.0 * h);
            let fd_sd = (sd_up - sd_down) / (2.0 * h);
            assert!((g.mean_gradient[i] - fd_mean).abs() < 1e-6 * fd_mean.abs().max(1.0));
            assert!(
                (g.sd_gradient[i] - fd_sd).abs() < 1e-6 * fd_sd.abs().max(1.0),
                "∂σ/∂x{i}: {} vs {fd_sd}",
                g.sd_gradient[i]
            );
        }
    }
}

fn relative_gap(a: f64, b: f64) -> f64 {
    (a - b).abs() / b.abs().max(f64::MIN_POSITIVE)
}

#[test]
fn target_partials_match_the_certified_reference() {
    // (μ, σ, c) from the body of the search (c = λ·cost) and its tails (EI far below 1e-100).
    let y_best = 0.0;
    let cases = [
        (0.3, 0.5, 0.01),
        (-0.2, 1.0, 0.1),
        (2.0, 0.05, 1e-3),
        (30.0, 1.0, 1e-3),
        (0.0, 1e-4, 1e-5),
    ];
    for (mu, sigma, cost) in cases {
        let [value, d_mu, d_sigma, d_cost] =
            Target::LogEipc.value_and_partials(mu, sigma, cost, y_best);
        let r = pbgi_reference::log_ei_grad(mu, sigma, y_best).unwrap();
        let log_ei = pbgi_reference::log_ei(mu, sigma, y_best).unwrap().value;
        assert!(
            relative_gap(-d_mu, r.d_mu.value) < 1e-12,
            "LogEI ∂μ at {mu} {sigma}"
        );
        assert!(
            relative_gap(-d_sigma, r.d_sigma.value) < 1e-12,
            "LogEI ∂σ at {mu} {sigma}"
        );
        assert!(
            relative_gap(value, cost.ln() - log_ei) < 1e-13,
            "−LogEIPC at {mu} {sigma}"
        );
        assert_eq!(d_cost, 1.0 / cost);
        let [value, d_mu, d_sigma, d_cost] =
            Target::Pbgi.value_and_partials(mu, sigma, cost, y_best);
        let r = pbgi_reference::pbgi_grad(mu, sigma, cost).unwrap();
        let g = pbgi_reference::pbgi(mu, sigma, cost).unwrap().value;
        assert!(
            relative_gap(value, g) < 1e-13,
            "PBGI at {mu} {sigma} {cost}"
        );
        assert!(relative_gap(d_mu, r.d_mu.value) < 1e-15);
        assert!(
            relative_gap(d_sigma, r.d_sigma.value) < 1e-12,
            "PBGI ∂σ at {mu} {sigma}"
        );
        assert!(
            relative_gap(d_cost, r.d_cost.value) < 1e-12,
            "PBGI ∂c at {mu} {sigma}"
        );
    }
}

fn costs(d: usize) -> Vec<(CostFunction, Vec<f64>)> {
    vec![
        (CostFunction::Uniform, Vec::new()),
        (CostFunction::Linear, Vec::new()),
        (
            CostFunction::periodic(PeriodicAnchor::Independent),
            (0..d).map(|i| 0.1 + 0.8 * i as f64 / d as f64).collect(),
        ),
    ]
}

#[test]
fn acquisition_gradients_in_x_match_central_differences_of_the_exact_function() {
    let d = 3;
    let p = posterior(d, 20, 0.3, 8, 5);
    let y_best = p.values().iter().copied().fold(f64::INFINITY, f64::min);
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    let mut scratch = Scratch::default();
    for (function, anchor) in costs(d) {
        let cost = ScaledCost::new(function.clone(), anchor, 0.01, p.screen_points(), d);
        for target in [
            Target::LogEipc,
            Target::Pbgi,
            Target::Lcb { sqrt_beta: 1.7 },
        ] {
            let exact = |x: &[f64], scratch: &mut Scratch| {
                let (mu, sd) = p.mean_sd(x, scratch);
                target.value(mu, sd, cost.value(x), y_best)
            };
            for _ in 0..10 {
                let x: Vec<f64> = (0..d).map(|_| 0.05 + 0.9 * rng.gen::<f64>()).collect();
                let mut grad = vec![0.0; d];
                let value = target_with_gradient(
                    target,
                    &p,
                    &cost,
                    y_best,
                    &x,
                    &mut TargetScratch::default(),
                    &mut grad,
                );
                let direct = exact(&x, &mut scratch);
                assert!((value - direct).abs() < 1e-12 * direct.abs().max(1.0));
                for i in 0..d {
                    let h = 1e-6;
                    let (mut up, mut down) = (x.clone(), x.clone());
                    up[i] += h;
                    down[i] -= h;
                    let fd = (exact(&up, &mut scratch) - exact(&down, &mut scratch)) / (2.0 * h);
                    assert!(
                        (grad[i] - fd).abs() < 1e-5 * fd.abs().max(1.0),
                        "{} {target:?} ∂/∂x{i}: {} vs {fd}",
                        function.name(),
                        grad[i]
                    );
                }
            }
        }
    }
}

/// The smallest value of `f` on the regular `(n+1)²` grid of `[0, 1]²`.
fn grid_minimum(n: usize, f: impl Fn(&[f64]) -> f64) -> f64 {
    let mut best = f64::INFINITY;
    for i in 0..=n {
        for j in 0..=n {
            best = best.min(f(&[i as f64 / n as f64, j as f64 / n as f64]));
        }
    }
    best
}

#[test]
fn landscape_minima_are_at_least_as_good_as_a_fine_grid() {
    // 2-D, so a 301 × 301 grid (spacing 0.0033, a thirtieth of the length scale) nearly
    // attains each minimum; the multi-start search must match it or do better.
    let d = 2;
    let p = posterior(d, 12, 0.1, 512, 7);
    let y_best = p.values().iter().copied().fold(f64::INFINITY, f64::min);
    let config = SearchConfig::default();
    for (function, anchor) in costs(d) {
        let cost = ScaledCost::new(function.clone(), anchor, 0.01, p.screen_points(), d);
        let warm = RefCell::new(WarmStarts::default());
        let landscape = Landscape::new(&p, &cost, y_best, &config, &warm);
        for target in [
            Target::LogEipc,
            Target::Pbgi,
            Target::Lcb { sqrt_beta: 1.7 },
        ] {
            let found = landscape.minimum(target);
            let mut scratch = Scratch::default();
            let at = |x: &[f64]| {
                let (mu, sd) = p.mean_sd(x, &mut Scratch::default());
                target.value(mu, sd, cost.value(x), y_best)
            };
            let (mu, sd) = p.mean_sd(&found.x, &mut scratch);
            let direct = target.value(mu, sd, cost.value(&found.x), y_best);
            assert!((found.value - direct).abs() < 1e-12 * direct.abs().max(1.0));
            assert!(found.x.iter().all(|v| (0.0..=1.0).contains(v)));
            let grid = grid_minimum(300, at);
            assert!(
                found.value <= grid + 1e-9 * grid.abs().max(1.0),
                "{} {target:?}: search {} > grid {grid}",
                function.name(),
                found.value
            );
        }
    }
}

#[test]
fn global_minimum_of_a_path_is_at_least_as_good_as_a_fine_grid() {
    let k = kernel(0.1);
    for seed in [11, 12, 13] {
        println!("seed {seed}");
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let path = FourierPath::draw(&k, 0.0, 2, 256, &mut rng).unwrap();
        let config = SearchConfig {
            optimum_raw_samples: 1024,
            optimum_restarts: 20,
            ..SearchConfig::default()
        };
        let found = global_minimum(&path, &config, &mut rng);
        assert_eq!(found.value, path.value(&found.x));
        let grid = grid_minimum(300, |x| path.value(x));
        assert!(
            found.value <= grid + 1e-9,
            "seed {seed}: {} > {grid}",
            found.value
        );
    }
}

#[test]
fn batched_posterior_queries_equal_the_one_point_queries_bit_for_bit() {
    // Batches of 1..=9 points (the four-point passes and the one-point rest), at sizes of t
    // with every remainder of the four-way sums; the same buffers reused across batches.
    let d = 3;
    let mut rng = ChaCha8Rng::seed_from_u64(41);
    let mut scratch = BatchScratch::default();
    for n in [1, 2, 5, 11, 38] {
        let p = posterior(d, n, 0.2, 16, 40 + n as u64);
        for m in 1..=9 {
            let points: Vec<f64> = (0..m * d).map(|_| rng.gen::<f64>()).collect();
            let (mut means, mut sds) = (vec![0.0; m], vec![0.0; m]);
            let (mut gm, mut gs) = (vec![0.0; m * d], vec![0.0; m * d]);
            p.mean_sd_with_gradient_batch(
                &points,
                &mut scratch,
                BatchOut {
                    means: &mut means,
                    sds: &mut sds,
                    mean_gradients: &mut gm,
                    sd_gradients: &mut gs,
                },
            );
            for j in 0..m {
                let one = p.mean_sd_gradients(&points[j * d..(j + 1) * d]);
                assert_eq!(
                    one.mean.to_bits(),
                    means[j].to_bits(),
                    "t = {n}, m = {m}, j = {j}"
                );
                assert_eq!(
                    one.sd.to_bits(),
                    sds[j].to_bits(),
                    "t = {n}, m = {m}, j = {j}"
                );
                assert_eq!(
                    one.mean_gradient,
                    gm[j * d..(j + 1) * d],
                    "t = {n}, m = {m}"
                );
                assert_eq!(one.sd_gradient, gs[j * d..(j + 1) * d], "t = {n}, m = {m}");
            }
        }
    }
}

#[test]
fn lockstep_local_searches_equal_the_one_by_one_searches() {
    // The searches the landscape runs in lockstep (one batched evaluation per round) against
    // the same L-BFGS searches run one after the other on one-point evaluations.
    let d = 2;
    let p = posterior(d, 25, 0.1, 64, 9);
    let y_best = p.values().iter().copied().fold(f64::INFINITY, f64::min);
    let mut rng = ChaCha8Rng::seed_from_u64(10);
    let starts: Vec<Vec<f64>> = (0..13)
        .map(|_| (0..d).map(|_| rng.gen::<f64>()).collect())
        .collect();
    let options = LbfgsOptions {
        max_iterations: 30,
        ..LbfgsOptions::default()
    };
    for (function, anchor) in costs(d) {
        let cost = ScaledCost::new(function.clone(), anchor, 0.01, p.screen_points(), d);
        for target in [
            Target::LogEipc,
            Target::Pbgi,
            Target::Lcb { sqrt_beta: 1.7 },
        ] {
            let mut one = TargetScratch::default();
            let mut f = |x: &[f64], g: &mut [f64]| {
                target_with_gradient(target, &p, &cost, y_best, x, &mut one, g)
            };
            let sequential = best_of_local_searches(&starts, &mut f, &options).unwrap();
            // Counts the batched rounds and the gradients skipped at rejected trial points.
            struct Counting<'a> {
                inner: TargetBatch<'a>,
                rounds: usize,
                values: usize,
                gradients: usize,
            }
            impl BatchFunction for Counting<'_> {
                fn values(&mut self, points: &[f64], values: &mut [f64]) {
                    self.rounds += 1;
                    self.values += values.len();
                    self.inner.values(points, values)
                }
                fn gradients(&mut self, points: &[f64], selected: &[usize], out: &mut [f64]) {
                    self.gradients += selected.len();
                    self.inner.gradients(points, selected, out)
                }
            }
            let mut f = Counting {
                inner: TargetBatch::new(target, &p, &cost, y_best),
                rounds: 0,
                values: 0,
                gradients: 0,
            };
            let lockstep = best_of_batched_local_searches(&starts, &mut f, &options).unwrap();
            let (rounds, values, gradients) = (f.rounds, f.values, f.gradients);
            assert_eq!(sequential, lockstep, "{} {target:?}", function.name());
            assert!(rounds > 1 && gradients <= values);
        }
    }
}

fn small_search() -> SearchConfig {
    SearchConfig {
        raw_samples: 256,
        restarts: 2,
        max_iterations: 20,
        ts_raw_samples: 128,
        ts_restarts: 2,
        ts_features: 128,
        objective_features: 128,
        optimum_raw_samples: 256,
        optimum_restarts: 4,
        ..SearchConfig::default()
    }
}

#[test]
fn bo_on_the_cube_reaches_the_cap_and_repeats_itself() {
    let d = 3;
    let k = kernel(0.2);
    let config = small_search();
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    let objective = FourierPath::draw(&k, 0.0, d, 128, &mut rng).unwrap();
    let initial = scrambled_sobol(8, d, &mut rng);
    let screen = scrambled_sobol(config.raw_samples, d, &mut rng);
    let cost = ScaledCost::new(CostFunction::Linear, Vec::new(), 0.01, &screen, d);
    let task = ContinuousTask {
        objective: &objective,
        cost: &cost,
        initial: &initial,
        max_evals: 20,
        screen: &screen,
    };
    for acquisition in AcquisitionName::ALL {
        let run = || {
            let mut steps = Vec::new();
            let mut on_step = |view: &StepView, _: &mut ChaCha8Rng| {
                steps.push((view.t, view.max_log_eipc(), view.min_pbgi()));
                Control::Continue
            };
            let record = run_bo_continuous(
                k,
                0.0,
                &config,
                &task,
                acquisition,
                &mut ChaCha8Rng::seed_from_u64(22),
                &mut on_step,
            )
            .unwrap();
            (record, steps)
        };
        let (record, steps) = run();
        assert_eq!(record.y.len(), 20, "{acquisition:?}");
        assert_eq!(steps.len(), 13, "steps t = 8..=20");
        assert!(record.x.iter().all(|v| (0.0..=1.0).contains(v)));
        assert!(record.incumbent.windows(2).all(|w| w[1] <= w[0]));
        for (s, x) in record.x.chunks_exact(d).enumerate() {
            assert_eq!(record.y[s], objective.value(x));
        }
        assert_eq!(
            run(),
            (record, steps),
            "{acquisition:?} is not deterministic"
        );
    }
}

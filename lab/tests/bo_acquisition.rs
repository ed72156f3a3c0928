//! The pruned PBGI argmin against the full scan (every index computed with `pbgi_fast::pbgi`).
mod common;

use common::grid_problem;
use pbgi_lab::acquisitions::pbgi_argmin;
use pbgi_lab::bo::StepView;
use pbgi_lab::gp::Posterior;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn full_scan(mean: &[f64], sd: &[f64], cost: &[f64], evaluated: &[bool]) -> Option<usize> {
    let mut best: Option<(usize, f64)> = None;
    for i in 0..mean.len() {
        if evaluated[i] {
            continue;
        }
        let g = pbgi_fast::pbgi(mean[i], sd[i], cost[i]);
        if best.map_or(!g.is_nan(), |(_, b)| g < b) {
            best = Some((i, g));
        }
    }
    best.map(|(i, _)| i)
}

#[test]
fn pruned_pbgi_argmin_equals_the_full_scan() {
    let problem = grid_problem(3);
    let sampler = Posterior::new(&problem);
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    for case in 0..20_000 {
        let n = rng.gen_range(1..40);
        let spread = [1e-12, 1e-3, 1.0][case % 3];
        let mean: Vec<f64> = (0..n).map(|_| spread * rng.gen_range(-1.0..1.0)).collect();
        let sd: Vec<f64> = (0..n)
            .map(|_| 10f64.powf(rng.gen_range(-6.0..1.0)))
            .collect();
        let cost: Vec<f64> = (0..n)
            .map(|_| 10f64.powf(rng.gen_range(-9.0..1.0)))
            .collect();
        let mut evaluated: Vec<bool> = (0..n).map(|_| rng.gen_bool(0.2)).collect();
        let (mut mean, mut sd, mut cost) = (mean, sd, cost);
        if case % 4 == 0 && n >= 2 {
            // An exact tie: the lower index must win in both scans.
            let j = rng.gen_range(1..n);
            (mean[j], sd[j], cost[j], evaluated[j], evaluated[0]) =
                (mean[0], sd[0], cost[0], false, false);
        }
        let step = StepView {
            initial: 1,
            t: 1,
            mean: &mean,
            sd: &sd,
            evaluated: &evaluated,
            cost: &cost,
            history_x: &[],
            history_y: &[],
            y_best: 0.0,
            cumulative_cost: 0.0,
            posterior: Some(&sampler),
            continuous: None,
        };
        let pruned = pbgi_argmin(&step).map(|(i, _)| i);
        assert_eq!(
            pruned,
            full_scan(&mean, &sd, &cost, &evaluated),
            "case {case}: mean {mean:?} sd {sd:?} cost {cost:?} evaluated {evaluated:?}"
        );
    }
}

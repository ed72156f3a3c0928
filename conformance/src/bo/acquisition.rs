//! Acquisition functions, each maximised exactly over the unevaluated domain points
//! (minimisation convention: PBGI and LCB pick the smallest value, LogEIPC the largest).
//!
//! Ties go to the lowest domain index, so runs are reproducible. Points whose value is NaN
//! are never chosen (and cannot arise from valid posteriors and costs).
use super::interface::{Acquisition, StepView};
use rand_chacha::ChaCha8Rng;

/// Index of the smallest `score(i)` over unevaluated `i` (lowest index on ties).
fn argmin_unevaluated(step: &StepView, mut score: impl FnMut(usize) -> f64) -> Option<usize> {
    let mut best: Option<(usize, f64)> = None;
    for (i, &done) in step.evaluated.iter().enumerate() {
        if done {
            continue;
        }
        let s = score(i);
        if best.map_or(!s.is_nan(), |(_, b)| s < b) {
            best = Some((i, s));
        }
    }
    best.map(|(i, _)| i)
}

/// PBGI (Pandora's Box Gittins index; PBGI paper eq. 6, MATH.md "PBGI"): the unevaluated
/// point with the smallest index `g(x)`, `EI(μ(x), σ(x); g) = λ·c(x)`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Pbgi;

impl Acquisition for Pbgi {
    fn name(&self) -> String {
        "PBGI".into()
    }

    fn choose(&self, step: &StepView, _rng: &mut ChaCha8Rng) -> Option<usize> {
        argmin_unevaluated(step, |i| {
            pbgi_fast::pbgi(step.mean[i], step.sd[i], step.cost[i])
        })
    }
}

/// LogEIPC (stopping paper eq. 4, MATH.md): the unevaluated point with the largest
/// `ln EI(μ(x), σ(x); y*) - ln(λ·c(x))`.
#[derive(Clone, Copy, Debug, Default)]
pub struct LogEipc;

impl Acquisition for LogEipc {
    fn name(&self) -> String {
        "LogEIPC".into()
    }

    fn choose(&self, step: &StepView, _rng: &mut ChaCha8Rng) -> Option<usize> {
        argmin_unevaluated(step, |i| {
            -pbgi_fast::log_eipc(step.mean[i], step.sd[i], step.y_best, step.cost[i])
        })
    }
}

/// Lower confidence bound `μ(x) - √(β_t/s)·σ(x)` with the GP-UCB schedule
/// `β_t = 2·ln(d·t²·π²/(6δ))` (Srinivas et al.; stopping paper App. B: `δ = 0.1`, scale-down
/// `s = 5`). **Outside Theorem 1** (no `EI ≥ c` guarantee), and cost-unaware.
#[derive(Clone, Copy, Debug)]
pub struct Lcb {
    /// Domain dimension `d` in the schedule.
    pub dim: usize,
    /// Confidence parameter `δ` (paper: 0.1).
    pub delta: f64,
    /// Divisor `s` of `β_t` (paper: 5).
    pub scale_down: f64,
}

impl Lcb {
    /// The paper's settings for dimension `dim`.
    pub fn paper(dim: usize) -> Lcb {
        Lcb {
            dim,
            delta: 0.1,
            scale_down: 5.0,
        }
    }

    /// `β_t/s` at step `t ≥ 1`.
    pub fn beta(&self, t: usize) -> f64 {
        let t = t as f64;
        let pi2 = std::f64::consts::PI * std::f64::consts::PI;
        2.0 * (self.dim as f64 * t * t * pi2 / (6.0 * self.delta)).ln() / self.scale_down
    }
}

impl Acquisition for Lcb {
    fn name(&self) -> String {
        "LCB".into()
    }

    fn choose(&self, step: &StepView, _rng: &mut ChaCha8Rng) -> Option<usize> {
        let root_beta = self.beta(step.t).max(0.0).sqrt();
        argmin_unevaluated(step, |i| step.mean[i] - root_beta * step.sd[i])
    }
}

/// Thompson sampling: one exact joint posterior draw, minimised over the unevaluated points.
/// **Outside Theorem 1** (no `EI ≥ c` guarantee), and cost-unaware.
#[derive(Clone, Copy, Debug, Default)]
pub struct Thompson;

impl Acquisition for Thompson {
    fn name(&self) -> String {
        "TS".into()
    }

    fn choose(&self, step: &StepView, rng: &mut ChaCha8Rng) -> Option<usize> {
        let mut path = Vec::with_capacity(step.posterior.n_points());
        step.posterior.sample_paths(rng, 1, &mut path);
        argmin_unevaluated(step, |i| path[i])
    }
}

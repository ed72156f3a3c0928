//! The lower confidence bound with the GP-UCB schedule (stopping paper, App. B), and that
//! schedule, which the UCB-LCB and SRGap-med stopping rules share.
use super::argmin_unevaluated;
use crate::bo::{Acquisition, StepView};
use rand_chacha::ChaCha8Rng;

/// The GP-UCB confidence parameter `β_i = 2·ln(d·i²·π²/(6δ))` (Srinivas et al. 2010, Thm 1;
/// stopping paper, App. B), before any scale-down. `i ≥ 1` is the index of the BO iteration
/// the posterior prepares for: with `k` BO evaluations made after the initial design, `i = k +
/// 1` (Srinivas: `x_i` is chosen with `β_i` from the posterior on the earlier points; the
/// stopping paper's code uses `iteration + 1` the same way). The initial design does not
/// count: see [`bo_iteration_index`].
///
/// # Domain
/// `i ≥ 1`, `d ≥ 1`, `0 < δ < 1`, so the argument of `ln` exceeds `π²/6 > 1` and `β_i > 0`.
pub fn gp_ucb_beta(i: usize, dim: usize, delta: f64) -> f64 {
    let i = i as f64;
    2.0 * (dim as f64 * i * i * std::f64::consts::PI.powi(2) / (6.0 * delta)).ln()
}

/// `i = t - T₀ + 1`: one more than the number of BO evaluations made after the initial design
/// (`t` evaluations in all, `T₀` initial ones), the index [`gp_ucb_beta`] takes.
pub fn bo_iteration_index(step: &StepView) -> usize {
    step.t.saturating_sub(step.initial) + 1
}

/// Lower confidence bound `μ(x) - √(β_i/s)·σ(x)` with the GP-UCB schedule ([`gp_ucb_beta`],
/// `i` = [`bo_iteration_index`]; stopping paper App. B: `δ = 0.1`, scale-down `s = 5`).
/// **Outside Theorem 1** (no `EI ≥ c` guarantee), and cost-unaware.
#[derive(Clone, Copy, Debug)]
pub struct Lcb {
    /// Domain dimension `d` in the schedule.
    pub dim: usize,
    /// Confidence parameter `δ` (paper: 0.1).
    pub delta: f64,
    /// Divisor `s` of `β_i` (paper: 5).
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

    /// `β_i/s` for BO iteration index `i ≥ 1`.
    pub fn beta(&self, i: usize) -> f64 {
        gp_ucb_beta(i, self.dim, self.delta) / self.scale_down
    }
}

impl Acquisition for Lcb {
    fn name(&self) -> String {
        "LCB".into()
    }

    fn choose(&self, step: &StepView, _rng: &mut ChaCha8Rng) -> Option<usize> {
        let root_beta = self.beta(bo_iteration_index(step)).max(0.0).sqrt();
        argmin_unevaluated(step, |i| step.mean[i] - root_beta * step.sd[i])
    }
}

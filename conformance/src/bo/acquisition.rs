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

/// A lower bound on `PBGI(μ, σ, c)` for `σ > 0`, with a safety margin far above rounding.
///
/// The index is `g = μ + σ·u` with `h(u) = r = c/σ`. If `r ≥ h(0) = 1/√(2π)` then `u ≥ 0` and
/// `g ≥ μ`. Otherwise `u < 0`, and Gordon's Mills-ratio inequality `1 - Φ(z) ≥ zφ(z)/(1+z²)`
/// gives `h(-z) = φ(z) - z(1 - Φ(z)) ≤ G(z) = φ(z)/(1 + z²)` for `z ≥ 0`; `G` is decreasing,
/// so `|u| ≤ z*` with `G(z*) = r`. With `F(z) = √(-2·ln(√(2π)·r·(1 + z²)))` (0 when the log's
/// argument is ≥ 1), `z ≥ z*` implies `F(z) ≤ z*` and `z ≤ z*` implies `F(z) ≥ z*`, so from
/// `z₀ = F(0) ≥ z*`, `z₂ = F(F(z₀)) ≥ z*` is an upper bound on `|u|` (at `r = 1e-3`: true
/// `|u| = 2.718`, `z₂ = 2.803`). The margin `1e-12·(|μ| + σ·(1 + z₂) + c)` exceeds the bound's
/// rounding and `pbgi_fast::pbgi`'s error (≤ 4 ulp of `|μ| + σ|u|`) by orders of magnitude.
fn pbgi_lower_bound(mu: f64, sigma: f64, cost: f64) -> f64 {
    let a = (2.0 * std::f64::consts::PI).sqrt() * cost / sigma;
    let z = if a < 1.0 {
        let f = |z: f64| {
            let arg = a * (1.0 + z * z);
            if arg < 1.0 {
                (-2.0 * arg.ln()).sqrt()
            } else {
                0.0
            }
        };
        f(f(f(0.0)))
    } else {
        0.0
    };
    mu - sigma * z - 1e-12 * (mu.abs() + sigma * (1.0 + z) + cost)
}

/// The unevaluated point with the smallest `pbgi_fast::pbgi` index, and that index (lowest
/// domain index on ties; NaN indices are never chosen). `None` if all points are evaluated.
///
/// Exact: returns the same point as evaluating the index everywhere. Points are visited in
/// increasing order of [`pbgi_lower_bound`] and the scan ends once the bound exceeds the best
/// index found, so only the few points that can compete are solved for.
pub fn pbgi_argmin(step: &StepView) -> Option<(usize, f64)> {
    let mut order: Vec<(f64, usize)> = (0..step.evaluated.len())
        .filter(|&i| !step.evaluated[i])
        .map(|i| (pbgi_lower_bound(step.mean[i], step.sd[i], step.cost[i]), i))
        .collect();
    order.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut best: Option<(usize, f64)> = None;
    for (bound, i) in order {
        if let Some((_, g_best)) = best {
            // A NaN bound (invalid input) never ends the scan; its NaN index is never chosen.
            if bound > g_best {
                break;
            }
        }
        let g = pbgi_fast::pbgi(step.mean[i], step.sd[i], step.cost[i]);
        let better = match best {
            None => !g.is_nan(),
            Some((j, g_best)) => g < g_best || (g == g_best && i < j),
        };
        if better {
            best = Some((i, g));
        }
    }
    best
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
        pbgi_argmin(step).map(|(i, _)| i)
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

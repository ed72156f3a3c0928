//! PRB, the probabilistic regret bound of Wilson (2024): stop once the incumbent is
//! `ε`-optimal with probability at least `1 − δ` under the posterior, decided by Monte Carlo
//! over exact joint posterior sample paths with a sequential Clopper–Pearson test
//! (Wilson 2024, §3 and Algorithm 2; stopping paper, §4 "Baselines" and App. B).
use super::{require_positive, require_probability, FromParams, RuleContext, RuleParams};
use crate::bo::{StepView, StoppingRule};
use crate::experiment::clopper_pearson::{level_side, LevelSide};
use rand_chacha::ChaCha8Rng;
use serde::Deserialize;

/// Parameters of [`Prb`].
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct PrbParams {
    /// Regret bound `ε = 0.1` (stopping paper, App. B, for the Bayesian-regret experiments).
    pub epsilon: f64,
    /// Total risk `δ = 0.05` (stopping paper, App. B), split evenly into the model risk
    /// `δ_mod` and the estimation risk `δ_est` (Wilson 2024, §5).
    pub delta: f64,
    /// First sample size `N = 64` (Wilson 2024, §3.2; stopping paper, App. B).
    pub initial_paths: usize,
    /// Geometric growth `β = 1.5` of the sample sizes `n_j = ⌈N·β^(j−1)⌉` (same places).
    pub growth: f64,
    /// Cap on sample paths per step: 1000; at the cap the estimate decides even if the interval
    /// still contains the level (Wilson 2024, §5, "As a practical concession"; stopping paper,
    /// App. B).
    pub max_paths: usize,
    /// Decay `w = 1.1` of the per-test risks `d_j = δ'·(w − 1)/w·j^(−w)`, which sum to at most
    /// `δ'` (Wilson 2024, §3.2, after Mnih et al. 2008).
    pub risk_decay: f64,
}

impl Default for PrbParams {
    fn default() -> Self {
        Self {
            epsilon: 0.1,
            delta: 0.05,
            initial_paths: 64,
            growth: 1.5,
            max_paths: 1000,
            risk_decay: 1.1,
        }
    }
}

impl RuleParams for PrbParams {
    fn validate(&self) -> Result<(), String> {
        require_positive("prb.epsilon", self.epsilon)?;
        require_probability("prb.delta", self.delta)?;
        if self.initial_paths == 0 {
            return Err("prb.initial_paths = 0 must be at least 1".to_string());
        }
        if !(self.growth > 1.0 && self.growth.is_finite()) {
            return Err(format!(
                "prb.growth = {} must be finite and greater than 1",
                self.growth
            ));
        }
        if self.max_paths < self.initial_paths {
            return Err(format!(
                "prb.max_paths = {} must be at least prb.initial_paths = {}",
                self.max_paths, self.initial_paths
            ));
        }
        if !(self.risk_decay > 1.0 && self.risk_decay.is_finite()) {
            return Err(format!(
                "prb.risk_decay = {} must be finite and greater than 1",
                self.risk_decay
            ));
        }
        Ok(())
    }
}

/// The sample sizes `n_j = min(⌈N·β^(j−1)⌉, cap)`, `j = 1, 2, …`, ending with the cap
/// (Wilson 2024, §3.2). With the defaults: 64, 96, 144, 216, 324, 486, 729, 1000.
pub fn sample_size_schedule(initial: usize, growth: f64, cap: usize) -> Vec<usize> {
    let mut sizes = Vec::new();
    let mut j = 0;
    loop {
        let size = ((initial as f64) * growth.powi(j)).ceil();
        if size >= cap as f64 {
            sizes.push(cap);
            return sizes;
        }
        sizes.push(size as usize);
        j += 1;
    }
}

/// PRB with the incumbent as the only candidate. In the noiseless model every posterior path
/// passes through the observed values, so pathwise the incumbent has the smallest regret among
/// evaluated points and Wilson's candidate set (2024, App. A.2, eq. 12) reduces to it.
///
/// At each step: draw paths `f_i` in batches up to the sizes of [`sample_size_schedule`]; a
/// draw succeeds iff `y* − min_x f_i(x) ≤ ε`. After batch `j` the two-sided Clopper–Pearson test
/// at risk `d_j = δ'·(w − 1)/w·j^(−w)` compares the success rate with `1 − δ_mod`: stop if the
/// level is below the interval, go on if above, otherwise draw more; at the path cap, stop iff the
/// estimated rate is at least `1 − δ_mod`. The per-step risk is the constant schedule
/// `δ' = δ_est/(T − T₀)` of Wilson (2024, §5 and App. A.3), with `T` the iteration cap and `T₀`
/// the initial design size.
pub struct Prb {
    params: PrbParams,
    sizes: Vec<usize>,
    step_risk: f64,
    paths: Vec<f64>,
}

impl FromParams<PrbParams> for Prb {
    fn from_params(params: &PrbParams, context: &RuleContext) -> Self {
        let checks = context.cap.saturating_sub(context.initial_points).max(1);
        Self {
            params: params.clone(),
            sizes: sample_size_schedule(params.initial_paths, params.growth, params.max_paths),
            step_risk: 0.5 * params.delta / checks as f64,
            paths: Vec::new(),
        }
    }
}

impl StoppingRule for Prb {
    fn name(&self) -> String {
        "PRB".to_string()
    }

    fn observe(&mut self, step: &StepView, rng: &mut ChaCha8Rng) -> bool {
        let level = 1.0 - 0.5 * self.params.delta;
        let n_points = step.posterior.n_points();
        let w = self.params.risk_decay;
        let (mut successes, mut drawn) = (0u64, 0usize);
        for (j, &size) in self.sizes.iter().enumerate() {
            self.paths.clear();
            step.posterior
                .sample_paths(rng, size - drawn, &mut self.paths);
            drawn = size;
            successes += self
                .paths
                .chunks_exact(n_points)
                .filter(|path| {
                    let path_min = path.iter().copied().fold(f64::INFINITY, f64::min);
                    step.y_best - path_min <= self.params.epsilon
                })
                .count() as u64;
            let risk = self.step_risk * (w - 1.0) / w * ((j + 1) as f64).powf(-w);
            match level_side(successes, drawn as u64, risk, level) {
                Ok(LevelSide::Below) => return true,
                Ok(LevelSide::Above) => return false,
                // Validated parameters keep the test's arguments in range; an error here
                // cannot happen, and undecided means: draw more.
                Ok(LevelSide::Inside) | Err(_) => {}
            }
        }
        successes as f64 >= level * drawn as f64
    }
}

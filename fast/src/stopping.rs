//! The PBGI/LogEIPC stopping rule [stopping paper, eqs. 6–10; MATH.md]: stop when
//! `min PBGI ≥ y*`, equivalently `max LogEIPC(·, y*) ≤ 0`. Ties stop.
use crate::log_eipc::log_eipc;
use crate::pbgi::pbgi;

/// One candidate point: posterior `N(mu, sigma²)` and (scaled) cost `cost > 0`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate {
    /// Posterior mean.
    pub mu: f64,
    /// Posterior standard deviation (`≥ 0`).
    pub sigma: f64,
    /// Evaluation cost in objective units (`λ·c(x)`, `> 0`).
    pub cost: f64,
}

/// `true` when `min_x PBGI(x) ≥ y_best` (ties stop; no candidates → stop).
///
/// A candidate with invalid inputs (NaN, `σ < 0`, `cost ≤ 0`) has a NaN index, which never
/// satisfies `≥`, so garbage never triggers a stop; a NaN `y_best` never stops unless there
/// are no candidates.
/// Agrees with the reference decision except when some index is within [`pbgi`]'s error
/// band of `y_best`.
pub fn stop_by_pbgi(candidates: &[Candidate], y_best: f64) -> bool {
    candidates
        .iter()
        .all(|c| pbgi(c.mu, c.sigma, c.cost) >= y_best)
}

/// `true` when `max_x LogEIPC(x, y_best) ≤ 0` (ties stop; no candidates → stop).
///
/// Invalid candidates give NaN, which never satisfies `≤ 0`, so they never trigger a stop;
/// a NaN `y_best` never stops unless there are no candidates.
pub fn stop_by_log_eipc(candidates: &[Candidate], y_best: f64) -> bool {
    candidates
        .iter()
        .all(|c| log_eipc(c.mu, c.sigma, y_best, c.cost) <= 0.0)
}

/// `y_best - min_x PBGI(x)`: the stopping rule's statistic in PBGI form (`≤ 0` ⇔ stop).
/// No candidates → `-∞`; any NaN index → NaN.
pub fn pbgi_gap(candidates: &[Candidate], y_best: f64) -> f64 {
    let mut min = f64::INFINITY;
    for c in candidates {
        let g = pbgi(c.mu, c.sigma, c.cost);
        if g.is_nan() {
            return f64::NAN;
        }
        min = min.min(g);
    }
    y_best - min
}

/// `max_x LogEIPC(x, y_best)`: the statistic in LogEIPC form (`≤ 0` ⇔ stop).
/// No candidates → `-∞`; any NaN → NaN.
pub fn max_log_eipc(candidates: &[Candidate], y_best: f64) -> f64 {
    let mut max = f64::NEG_INFINITY;
    for c in candidates {
        let v = log_eipc(c.mu, c.sigma, y_best, c.cost);
        if v.is_nan() {
            return f64::NAN;
        }
        max = max.max(v);
    }
    max
}

/// The practical options around the stopping rule [stopping paper, "Preventing spurious
/// stops"; App. B uses a moving-average window of 20 in 8D]: a stabilisation
/// period (no stop during the first `k` checks), a debounce (stop only after `m` consecutive
/// signals) and a moving average of the statistic over the last `w` checks.
///
/// Feed it one statistic per BO iteration, *after* the posterior update: `≤ 0` means the rule
/// says stop ([`pbgi_gap`], [`max_log_eipc`], or their shortcuts [`Self::observe_pbgi`],
/// [`Self::observe_log_eipc`]). With `k = 0`, `m = 1`, `w = 1` it is the plain rule.
///
/// A check signals when the mean of the last `min(w, checks so far)` statistics is `≤ 0`
/// (ties stop); a NaN statistic makes the mean NaN, which never signals and resets the
/// debounce count. Signals during the stabilisation period do not count.
///
/// The average over a partial window starts with the first check, so with `k < w - 1` the
/// helper can stop before `w` checks. The stopping paper's authors' code averages full windows
/// only and cannot stop before the `w`-th check; `stabilisation ≥ w - 1` reproduces it: every
/// check that counts (number `k + 1` on) then has a full window.
///
/// # Example
/// One candidate with `σ = 0`, whose PBGI is `μ + c = 1.5` exactly (MATH.md, "Sanity
/// values"); a debounce of two checks:
/// ```
/// use pbgi_fast::{Candidate, StoppingHelper};
/// let candidates = [Candidate { mu: 1.0, sigma: 0.0, cost: 0.5 }];
/// let mut helper = StoppingHelper::new(0, 2, 1).unwrap();
/// assert!(!helper.observe_pbgi(&candidates, 2.0)); // y* = 2 > 1.5: no signal
/// assert!(!helper.observe_pbgi(&candidates, 1.0)); // y* = 1 ≤ 1.5: first signal
/// assert!(helper.observe_pbgi(&candidates, 1.0)); // second in a row: stop
/// ```
#[derive(Clone, Debug)]
pub struct StoppingHelper {
    stabilisation: usize,
    debounce: usize,
    window: Vec<f64>,
    filled: usize,
    next: usize,
    checks: usize,
    consecutive: usize,
}

impl StoppingHelper {
    /// `stabilisation = k ≥ 0`, `debounce = m ≥ 1`, `window = w ≥ 1` (allocated once here).
    ///
    /// # Errors
    /// `debounce = 0` or `window = 0`.
    pub fn new(
        stabilisation: usize,
        debounce: usize,
        window: usize,
    ) -> Result<Self, crate::DomainError> {
        if debounce == 0 {
            return Err(crate::DomainError {
                name: "debounce",
                value: 0.0,
                reason: "must be >= 1",
            });
        }
        if window == 0 {
            return Err(crate::DomainError {
                name: "window",
                value: 0.0,
                reason: "must be >= 1",
            });
        }
        Ok(StoppingHelper {
            stabilisation,
            debounce,
            window: vec![0.0; window],
            filled: 0,
            next: 0,
            checks: 0,
            consecutive: 0,
        })
    }

    /// Record one check's statistic; `true` when the run should stop now.
    pub fn observe(&mut self, statistic: f64) -> bool {
        self.checks += 1;
        self.window[self.next] = statistic;
        self.next = (self.next + 1) % self.window.len();
        self.filled = (self.filled + 1).min(self.window.len());
        let mean = self.moving_average();
        if self.checks > self.stabilisation && mean <= 0.0 {
            self.consecutive += 1;
        } else {
            self.consecutive = 0;
        }
        self.consecutive >= self.debounce
    }

    /// [`Self::observe`] with the PBGI-form statistic [`pbgi_gap`].
    pub fn observe_pbgi(&mut self, candidates: &[Candidate], y_best: f64) -> bool {
        self.observe(pbgi_gap(candidates, y_best))
    }

    /// [`Self::observe`] with the LogEIPC-form statistic [`max_log_eipc`].
    pub fn observe_log_eipc(&mut self, candidates: &[Candidate], y_best: f64) -> bool {
        self.observe(max_log_eipc(candidates, y_best))
    }

    /// Mean of the last `min(w, checks)` statistics (NaN before the first check).
    pub fn moving_average(&self) -> f64 {
        if self.filled == 0 {
            return f64::NAN;
        }
        // The first `filled` slots hold the statistics seen so far (the ring starts at 0 and
        // `reset` clears it), so one sum covers a partial and a full window alike.
        let sum: f64 = self.window[..self.filled].iter().sum();
        sum / self.filled as f64
    }

    /// Number of checks so far.
    pub fn checks(&self) -> usize {
        self.checks
    }

    /// Current run of consecutive counted signals.
    pub fn consecutive_signals(&self) -> usize {
        self.consecutive
    }

    /// Forget all checks (keeps the configuration): the window is cleared too, so the next
    /// [`Self::moving_average`] is over the statistics observed after the reset only.
    pub fn reset(&mut self) {
        self.window.fill(0.0);
        self.filled = 0;
        self.next = 0;
        self.checks = 0;
        self.consecutive = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_rule_stops_on_first_signal_ties_included() {
        let mut s = StoppingHelper::new(0, 1, 1).unwrap();
        assert!(!s.observe(0.5));
        assert!(s.observe(0.0));
    }

    #[test]
    fn stabilisation_ignores_early_signals() {
        let mut s = StoppingHelper::new(2, 1, 1).unwrap();
        assert!(!s.observe(-1.0));
        assert!(!s.observe(-1.0));
        assert!(s.observe(-1.0));
    }

    #[test]
    fn debounce_needs_consecutive_signals() {
        let mut s = StoppingHelper::new(0, 2, 1).unwrap();
        assert!(!s.observe(-1.0));
        assert!(!s.observe(1.0));
        assert!(!s.observe(-1.0));
        assert!(s.observe(-1.0));
    }

    #[test]
    fn moving_average_smooths_a_single_dip() {
        let mut s = StoppingHelper::new(0, 1, 3).unwrap();
        assert!(!s.observe(1.0));
        assert!(!s.observe(1.0));
        // mean(1, 1, -1) = 1/3 > 0: no stop; then mean(1, -1, -1) < 0: stop.
        assert!(!s.observe(-1.0));
        assert!(s.observe(-1.0));
    }

    #[test]
    fn nan_statistic_never_signals_and_resets_debounce() {
        let mut s = StoppingHelper::new(0, 2, 1).unwrap();
        assert!(!s.observe(-1.0));
        assert!(!s.observe(f64::NAN));
        assert_eq!(s.consecutive_signals(), 0);
    }

    #[test]
    fn zero_debounce_or_window_is_rejected() {
        assert_eq!(StoppingHelper::new(0, 0, 1).unwrap_err().name, "debounce");
        assert_eq!(StoppingHelper::new(0, 1, 0).unwrap_err().name, "window");
    }
}

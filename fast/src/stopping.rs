//! The PBGI/LogEIPC stopping rule [stopping paper, eqs. 6–10; MATH.md]: stop when
//! `min PBGI ≥ y*`, equivalently `max LogEIPC(·, y*) ≤ 0`. Ties stop.
use crate::dd::two_sum;
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
/// The moving average is available from the `w`-th check on: until `w` statistics have been
/// observed (since construction or [`Self::reset`]) the window is not full,
/// [`Self::moving_average`] is `None` and a check never signals, so **no stop can happen
/// before check `w`** (nor before check `k + 1`, nor before `m` signals in a row). This is
/// the stopping paper's authors' code, which averages full windows only and checks its
/// averaged rules from the `w`-th iteration on (`proofs-notes/stopping-rules.md`). From
/// check `w` on, a check signals when the mean of the last `w` statistics is `≤ 0` (ties
/// stop); a NaN statistic makes the mean NaN, which never signals and resets the debounce
/// count, as does a check whose window is not yet full. Signals during the stabilisation
/// period do not count.
///
/// The moving average is the mean of the window's statistics within 2 ulp, whatever their
/// sizes and signs: their sum is formed exactly (an expansion of non-overlapping parts,
/// Shewchuk's), of the statistics scaled by a power of two when their sum could overflow, and
/// divided once. So huge statistics neither overflow (`[-1.7e308, -1.7e308, 1.79e308,
/// 1.79e308]` averages to about `4.5e306`, not `-∞`) nor cancel (`[1e16, 1, -1e16]` averages to
/// `1/3`, not 0). A window with an infinity averages to it (NaN for both infinities).
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
/// A window of three: nothing signals before the third check, however negative the
/// statistic.
/// ```
/// use pbgi_fast::StoppingHelper;
/// let mut helper = StoppingHelper::new(0, 1, 3).unwrap();
/// assert!(!helper.observe(-5.0)); // window not full: no signal
/// assert_eq!(helper.moving_average(), None);
/// assert!(!helper.observe(-5.0));
/// assert!(helper.observe(1.0)); // (-5 - 5 + 1)/3 = -3 ≤ 0: stop at check 3
/// assert_eq!(helper.moving_average(), Some(-3.0));
/// ```
#[derive(Clone, Debug)]
pub struct StoppingHelper {
    stabilisation: usize,
    debounce: usize,
    window: Vec<f64>,
    /// Scratch space of the exact sum (capacity `w`, allocated once).
    partials: Vec<f64>,
    /// The moving average after the latest check (`None` until the window is full).
    mean: Option<f64>,
    filled: usize,
    next: usize,
    checks: usize,
    consecutive: usize,
}

impl StoppingHelper {
    /// `stabilisation = k ≥ 0`, `debounce = m ≥ 1`, `1 ≤ window = w ≤` [`Self::MAX_WINDOW`]
    /// (allocated once here).
    ///
    /// # Errors
    /// `debounce = 0`, `window = 0` or `window > MAX_WINDOW`.
    pub fn new(
        stabilisation: usize,
        debounce: usize,
        window: usize,
    ) -> Result<Self, crate::domain::DomainError> {
        if debounce == 0 {
            return Err(crate::domain::DomainError {
                name: "debounce",
                value: 0.0,
                reason: "must be >= 1",
            });
        }
        if window == 0 || window > Self::MAX_WINDOW {
            return Err(crate::domain::DomainError {
                name: "window",
                value: window as f64,
                reason: "must be >= 1 and <= 2^24",
            });
        }
        Ok(StoppingHelper {
            stabilisation,
            debounce,
            window: vec![0.0; window],
            partials: Vec::with_capacity(window),
            mean: None,
            filled: 0,
            next: 0,
            checks: 0,
            consecutive: 0,
        })
    }

    /// The largest window, 2^24 statistics (128 MiB): each check averages the whole window,
    /// and below this size the exact sum's low parts add without rounding.
    pub const MAX_WINDOW: usize = 1 << 24;

    /// Record one check's statistic; `true` when the run should stop now. Never `true` before
    /// the `w`-th check since construction or [`Self::reset`] (the window is not yet full).
    pub fn observe(&mut self, statistic: f64) -> bool {
        self.checks += 1;
        self.window[self.next] = statistic;
        self.next = (self.next + 1) % self.window.len();
        self.filled = (self.filled + 1).min(self.window.len());
        // The mean exists once the ring holds `w` statistics (it starts at 0 and `reset`
        // clears it, so `filled < w` counts the statistics seen so far).
        self.mean =
            (self.filled == self.window.len()).then(|| mean(&self.window, &mut self.partials));
        let signal = self.checks > self.stabilisation && self.mean.is_some_and(|m| m <= 0.0);
        if signal {
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

    /// Mean of the last `w` statistics once `w` have been observed (since construction or
    /// [`Self::reset`]); `None` before: the moving average is not yet available and no check
    /// signals. NaN when a statistic in the window is NaN.
    pub fn moving_average(&self) -> Option<f64> {
        self.mean
    }

    /// Number of checks so far.
    pub fn checks(&self) -> usize {
        self.checks
    }

    /// Current run of consecutive counted signals.
    pub fn consecutive_signals(&self) -> usize {
        self.consecutive
    }

    /// Forget all checks (keeps the configuration): the window is cleared too, so the moving
    /// average is unavailable again until `w` statistics have been observed after the reset.
    pub fn reset(&mut self) {
        self.window.fill(0.0);
        self.mean = None;
        self.filled = 0;
        self.next = 0;
        self.checks = 0;
        self.consecutive = 0;
    }
}

/// The mean of `values` (at least one), within 2 ulp of the exact mean, with `partials` as
/// scratch space (capacity `values.len()`).
///
/// With `2^k ≥ 4n` (`n` values), every value is scaled by `2^-k` when `max |x|` exceeds
/// `f64::MAX·2^-k` (else left as it is), so that no partial sum of the scaled values can
/// overflow (their absolute sum is at most `f64::MAX/4`). Scaling a value below `2^(k-1022)`
/// drops bits below `2^-1074`; `x - 2^k·fl(x·2^-k)` is exactly those bits (a multiple of
/// `2^-1074` of size `≤ 2^(k-1075)`), and their sum `low` is exact too (at most
/// `n·2^(k-1)` units of `2^-1074`, below `2^53` for `n ≤ 2^24`). The scaled values' exact sum
/// `P` is grown as Shewchuk's expansion of non-overlapping parts (two-sum, error-free without
/// overflow), so that the exact total is `2^k·P + low`. `P` is then read as a double-double
/// `(h, l)` (relative error about `n·2^-106`), scaled back when that cannot overflow, `low`
/// added, and the sum divided by `n` once with an exact remainder (`fma`): one rounding of
/// the quotient and one of its correction, within 2 ulp in all.
fn mean(values: &[f64], partials: &mut Vec<f64>) -> f64 {
    let n = values.len() as f64;
    if values.iter().any(|x| !x.is_finite()) {
        // NaN, or an infinity: the plain sum has the limit (NaN for +∞ and -∞).
        return values.iter().sum::<f64>() / n;
    }
    // 2^k ≥ 4n: k = ⌈log2 n⌉ + 2.
    let k = (usize::BITS - (values.len() - 1).leading_zeros()) as i32 + 2;
    let down = 2f64.powi(-k);
    let largest = values.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    let (down, up) = if largest > f64::MAX * down {
        (down, 2f64.powi(k))
    } else {
        (1.0, 1.0)
    };
    partials.clear();
    let mut low = 0.0;
    for &x in values {
        let a = x * down;
        low += x - a * up;
        grow(partials, a);
    }
    // The expansion's parts increase in size and do not overlap: the largest first.
    let (mut h, mut l) = (0.0, 0.0);
    for &p in partials.iter().rev() {
        let (s, e) = two_sum(h, p);
        h = s;
        l += e;
    }
    if h.abs() <= f64::MAX * down {
        // Back to the values' scale (exact: a power of two, no overflow), then the low bits.
        let (s, e) = two_sum(h * up, low);
        divide(s, l * up + e, n)
    } else {
        // |sum| > f64::MAX/4·2^k·2^-k: `low` (below n·2^(k-1075)) is far below its last bit.
        // The mean, at most max |x|, scales back without overflow.
        divide(h, l, n) * up
    }
}

/// `(h + l)/n` for a double-double `h + l` (`|l| ≤ ulp(h)`): the quotient `q = h/n`, the
/// exact remainder `h - q·n` (one `fma`) and the correction `(r + l)/n`.
fn divide(h: f64, l: f64, n: f64) -> f64 {
    let q = h / n;
    let r = (-q).mul_add(n, h);
    q + (r + l) / n
}

/// Adds `x` to the expansion `partials` (non-overlapping parts, increasing in size) exactly:
/// Shewchuk's grow-expansion with two-sum, dropping zero parts (Python's `math.fsum`).
fn grow(partials: &mut Vec<f64>, mut x: f64) {
    let mut kept = 0;
    for j in 0..partials.len() {
        let (s, e) = two_sum(x, partials[j]);
        if e != 0.0 {
            partials[kept] = e;
            kept += 1;
        }
        x = s;
    }
    partials.truncate(kept);
    partials.push(x);
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
        let too_wide = StoppingHelper::MAX_WINDOW + 1;
        assert_eq!(
            StoppingHelper::new(0, 1, too_wide).unwrap_err().name,
            "window"
        );
    }

    #[test]
    fn mean_neither_overflows_nor_cancels() {
        let mut scratch = Vec::new();
        // The issue's windows: exact means (of the doubles, in rationals) 4.500000000000001e306
        // and 1/3, correctly rounded.
        let huge = [-1.7e308, -1.7e308, 1.79e308, 1.79e308];
        assert_eq!(mean(&huge, &mut scratch), 4.500000000000001e306);
        assert_eq!(mean(&[1e16, 1.0, -1e16], &mut scratch), 1.0 / 3.0);
        // Huge values cancelling to a subnormal: the scaled-away bits come back (exact mean
        // 3·2^-1074/3 = 2^-1074).
        let tiny = f64::from_bits(3);
        let mixed = [f64::MAX, tiny, -f64::MAX];
        assert_eq!(mean(&mixed, &mut scratch), f64::from_bits(1));
        assert_eq!(mean(&[f64::MAX; 5], &mut scratch), f64::MAX);
        assert_eq!(mean(&[-f64::MAX; 3], &mut scratch), -f64::MAX);
    }

    #[test]
    fn mean_of_infinities_and_nan_is_the_limit() {
        let mut scratch = Vec::new();
        assert_eq!(mean(&[1.0, f64::INFINITY], &mut scratch), f64::INFINITY);
        assert_eq!(
            mean(&[f64::NEG_INFINITY, 1.0], &mut scratch),
            f64::NEG_INFINITY
        );
        assert!(mean(&[f64::NEG_INFINITY, f64::INFINITY], &mut scratch).is_nan());
        assert!(mean(&[1.0, f64::NAN], &mut scratch).is_nan());
    }
}

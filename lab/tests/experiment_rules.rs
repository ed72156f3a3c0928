//! Each stopping rule's decision on hand-built steps whose answer is known in closed form,
//! including the cases that pin the definitions `proofs-notes/stopping-rules.md` documents:
//! UCB-LCB's minimum over evaluated points, β counting BO iterations, PRB's protocols,
//! SRGap-med's statistic and KL direction, Convergence's window.
use pbgi_lab::acquisitions::lcb::gp_ucb_beta;
use pbgi_lab::bo::{PathBank, PosteriorSampler, StepView, StoppingRule};
use pbgi_lab::rules::convergence::{Convergence, ConvergenceParams};
use pbgi_lab::rules::fixed_iteration::{FixedIteration, FixedIterationParams};
use pbgi_lab::rules::gss::{Gss, GssParams};
use pbgi_lab::rules::prb::{Prb, PrbParams, PrbProtocol};
use pbgi_lab::rules::srgap_med::{gaussian_kl, KlDirection, SrGapMed, SrGapMedParams};
use pbgi_lab::rules::ucb_lcb::{UcbLcb, UcbLcbParams};
use pbgi_lab::rules::{find_rule, FromParams, RuleContext, RULES};
use pbgi_lab::study::stats::{interquartile_range, median, quantile};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::cell::{Cell, RefCell};

const CONTEXT: RuleContext = RuleContext {
    dim: 1,
    initial_points: 4,
    cap: 100,
};

/// Paths chosen by a global draw counter: draw `i` is a "failure" path (one point 1 below the
/// incumbent) iff `fails(i)`, otherwise it equals the incumbent everywhere. Paths put in a bank
/// stay as they are (the stub's posterior never changes); the bank sizes asked for are logged.
struct CountingSampler {
    n: usize,
    y_best: f64,
    drawn: Cell<usize>,
    fails: fn(usize) -> bool,
    bank_requests: RefCell<Vec<usize>>,
}

impl CountingSampler {
    fn new(n: usize, fails: fn(usize) -> bool) -> Self {
        CountingSampler {
            n,
            y_best: 0.0,
            drawn: Cell::new(0),
            fails,
            bank_requests: RefCell::new(Vec::new()),
        }
    }
}

impl PosteriorSampler for CountingSampler {
    fn n_points(&self) -> usize {
        self.n
    }
    fn sample_paths(&self, _rng: &mut ChaCha8Rng, n_paths: usize, out: &mut Vec<f64>) {
        for _ in 0..n_paths {
            let i = self.drawn.get();
            self.drawn.set(i + 1);
            let start = out.len();
            out.resize(start + self.n, self.y_best);
            if (self.fails)(i) {
                out[start + 1] = self.y_best - 1.0;
            }
        }
    }
    fn update_bank(&self, rng: &mut ChaCha8Rng, bank: &mut PathBank, n_paths: usize) {
        self.bank_requests.borrow_mut().push(n_paths);
        let have = bank.len(self.n);
        if n_paths > have {
            self.sample_paths(rng, n_paths - have, &mut bank.paths);
        }
    }
}

/// Everything a rule may read, owned, so tests can build steps from plain vectors.
struct Step {
    initial: usize,
    mean: Vec<f64>,
    sd: Vec<f64>,
    evaluated: Vec<bool>,
    cost: Vec<f64>,
    history_x: Vec<usize>,
    history_y: Vec<f64>,
}

impl Step {
    /// A step whose history is `ys` at points `0, 1, …`; posterior: `mean`, `sd` given.
    fn new(ys: &[f64], mean: Vec<f64>, sd: Vec<f64>) -> Self {
        let n = mean.len();
        let mut evaluated = vec![false; n];
        evaluated[..ys.len()].fill(true);
        Self {
            initial: 1,
            mean,
            sd,
            evaluated,
            cost: vec![1.0; n],
            history_x: (0..ys.len()).collect(),
            history_y: ys.to_vec(),
        }
    }

    /// A step with history `ys` on a domain of `ys.len() + 1` points with no posterior spread.
    fn flat(ys: &[f64]) -> Self {
        let mut mean = ys.to_vec();
        mean.push(0.0);
        let n = mean.len();
        Self::new(ys, mean, vec![0.0; n])
    }

    fn view<'a>(&'a self, posterior: &'a dyn PosteriorSampler) -> StepView<'a> {
        StepView {
            t: self.history_y.len(),
            initial: self.initial,
            mean: &self.mean,
            sd: &self.sd,
            evaluated: &self.evaluated,
            cost: &self.cost,
            history_x: &self.history_x,
            history_y: &self.history_y,
            y_best: self.history_y.iter().copied().fold(f64::INFINITY, f64::min),
            cumulative_cost: self.history_y.len() as f64,
            posterior: Some(posterior),
            continuous: None,
        }
    }
}

fn idle_sampler(n: usize) -> CountingSampler {
    CountingSampler::new(n, |_| false)
}

/// Feeds the prefixes of `ys` (on flat posteriors, initial design of size `initial`) to
/// `rule`, from `t = initial` on as the BO loop does; returns the first stopping `t`.
fn first_stop_after(rule: &mut dyn StoppingRule, ys: &[f64], initial: usize) -> Option<usize> {
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let sampler = idle_sampler(ys.len() + 1);
    (initial..=ys.len()).find(|&t| {
        let mut step = Step::flat(&ys[..t]);
        step.initial = initial;
        rule.observe(&step.view(&sampler), &mut rng)
    })
}

/// [`first_stop_after`] with a one-point initial design.
fn first_stop(rule: &mut dyn StoppingRule, ys: &[f64]) -> Option<usize> {
    first_stop_after(rule, ys, 1)
}

#[test]
fn convergence_stops_after_exactly_w_flat_steps() {
    // Last improvement at t = 4 (value 2); t = 5..9 do not improve (2.0 at t = 9 ties).
    let ys = [5.0, 4.0, 3.0, 2.0, 2.5, 3.0, 2.1, 7.0, 2.0, 1.0];
    let mut rule = Convergence::from_params(&ConvergenceParams { window: 5 }, &CONTEXT);
    assert_eq!(first_stop(&mut rule, &ys), Some(9));
    let mut rule = Convergence::from_params(&ConvergenceParams { window: 6 }, &CONTEXT);
    assert_eq!(first_stop(&mut rule, &ys), None);
    // Improving at every step never stops.
    let mut rule = Convergence::from_params(&ConvergenceParams::default(), &CONTEXT);
    assert_eq!(
        first_stop(&mut rule, &[9.0, 8.0, 7.0, 6.0, 5.0, 4.0, 3.0, 2.0]),
        None
    );
}

#[test]
fn convergence_counts_w_bo_iterations_after_the_initial_design() {
    // T₀ = 4, incumbent 1 from the first evaluation, no improvement ever after. "Unchanged for
    // w = 5 iterations": iterations 1..5 after the design leave y*_{T₀} = 1 unchanged, so the
    // first stop is t = T₀ + 5 = 9. (Counting evaluations inside the design would stop at
    // t = 6; the authors' code, which needs w equal values, i.e. w − 1 unchanged steps, at 8.)
    let ys = [1.0, 5.0, 5.0, 5.0, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0];
    let mut rule = Convergence::from_params(&ConvergenceParams { window: 5 }, &CONTEXT);
    assert_eq!(first_stop_after(&mut rule, &ys, 4), Some(9));
    // An improvement at t = 7 restarts the count: the next stop is t = 12.
    let ys = [
        1.0, 5.0, 5.0, 5.0, 6.0, 6.0, 0.5, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0,
    ];
    let mut rule = Convergence::from_params(&ConvergenceParams { window: 5 }, &CONTEXT);
    assert_eq!(first_stop_after(&mut rule, &ys, 4), Some(12));
}

#[test]
fn fixed_iteration_stops_at_its_count() {
    let mut rule = FixedIteration::from_params(&FixedIterationParams { evaluations: 7 }, &CONTEXT);
    assert_eq!(first_stop(&mut rule, &[1.0; 12]), Some(7));
    assert_eq!(rule.name(), "Fixed-7");
}

#[test]
fn sample_quantiles_match_numpy_definition() {
    // numpy.percentile([1, 2, 3, 4], [25, 50, 75]) = [1.75, 2.5, 3.25].
    let v = [4.0, 1.0, 3.0, 2.0];
    assert_eq!(quantile(&v, 0.25), Some(1.75));
    assert_eq!(median(&v), Some(2.5));
    assert_eq!(quantile(&v, 0.75), Some(3.25));
    assert_eq!(interquartile_range(&v), Some(1.5));
    // Odd count: the middle value; twenty values: mean of the 10th and 11th.
    assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
    let twenty: Vec<f64> = (1..=20).map(|i| (i * 7 % 20) as f64).collect();
    assert_eq!(median(&twenty), Some(9.5));
    assert_eq!(median(&[]), None);
    assert_eq!(median(&[1.0, f64::NAN]), None);
}

#[test]
fn gss_stops_when_windowed_improvement_is_below_bar_times_iqr() {
    let params = GssParams {
        window: 5,
        improvement_bar: 0.01,
    };
    // Incumbent 1 reached at t = 3; the window reaches back to it at t = 3 + w − 1 = 7.
    let ys = [4.0, 3.0, 1.0, 2.0, 5.0, 1.5, 1.2, 1.3];
    let mut rule = Gss::from_params(&params, &CONTEXT);
    assert_eq!(first_stop(&mut rule, &ys), Some(7));
    // Steady improvements of 1 then 0.01 per step: t = 5: |y*_1 − y*_5| = 4 vs
    // 0.01·IQR(4, 3, 2, 1, 0) = 0.02; t = 6: 3.01; t = 7: 2.02. Never stops.
    let mut rule = Gss::from_params(&params, &CONTEXT);
    assert_eq!(
        first_stop(&mut rule, &[4.0, 3.0, 2.0, 1.0, 0.0, -0.01, -0.02]),
        None
    );
    // Tiny steps after a plateau: y = 10, 0, 5, 5, 5, −0.001, −0.002, −0.003, −0.004.
    // t = 5: IQR(0, 5, 5, 5, 10) = 0: go on. t = 6: improvement |y*_2 − y*_6| = 0.001;
    // sorted (−0.001, 0, 5, 5, 5, 10): Q1 (position 1.25) = 1.25, Q3 (3.75) = 5, IQR = 3.75,
    // bar 0.01·3.75 = 0.0375 > 0.001: stop.
    let ys = [10.0, 0.0, 5.0, 5.0, 5.0, -0.001, -0.002, -0.003, -0.004];
    let mut rule = Gss::from_params(&params, &CONTEXT);
    assert_eq!(first_stop(&mut rule, &ys), Some(6));
    // φ = 1e-4: t = 6: bar 3.75e-4 < 0.001; t = 7: IQR = 5 − (−0.0005) = 5.0005, bar ≈ 5e-4 <
    // 0.002; t = 8: IQR = 5.00125, 0.003; t = 9: IQR = 5.003, 0.004. Never stops.
    let mut rule = Gss::from_params(
        &GssParams {
            window: 5,
            improvement_bar: 1e-4,
        },
        &CONTEXT,
    );
    assert_eq!(first_stop(&mut rule, &ys), None);
    // Zero IQR never stops (Ax: the ratio is undefined).
    let mut rule = Gss::from_params(&params, &CONTEXT);
    assert_eq!(first_stop(&mut rule, &[1.0; 10]), None);
}

#[test]
fn gp_ucb_beta_matches_closed_form() {
    // β_1 = 2 ln(π²/0.6) for d = 1, δ = 0.1; β_i = β_1 + 4 ln i.
    let b1 = gp_ucb_beta(1, 1, 0.1);
    assert!((b1 - 2.0 * (std::f64::consts::PI.powi(2) / 0.6).ln()).abs() < 1e-14);
    assert!((b1 - 5.600_570_790_929_582).abs() < 1e-12, "β_1 = {b1}");
    let b10 = gp_ucb_beta(10, 1, 0.1);
    assert!((b10 - (b1 + 4.0 * 10f64.ln())).abs() < 1e-13);
    assert!((gp_ucb_beta(10, 8, 0.1) - (b10 + 2.0 * 8f64.ln())).abs() < 1e-13);
}

/// The UCB-LCB decision on a step with `t` evaluations of which `initial` are the design.
fn ucb_lcb_decides(step: &mut Step, initial: usize, params: UcbLcbParams) -> bool {
    step.initial = initial;
    let sampler = idle_sampler(step.mean.len());
    let mut rule = UcbLcb::from_params(&params, &CONTEXT);
    rule.observe(&step.view(&sampler), &mut ChaCha8Rng::seed_from_u64(1))
}

#[test]
fn ucb_lcb_takes_the_minimum_ucb_over_evaluated_points() {
    // Point 0 evaluated (y = 0, σ = 0); point 1 unevaluated, mean −1, σ = 0.001. With
    // s = √(β/5): min over evaluated UCB = 0 and min LCB = −1 − 0.001·s, so the gap is
    // 1 + 0.001·s > θ = 0.01: go on. Taking the first minimum over all points (the old rule)
    // gives (−1 + 0.001·s) − (−1 − 0.001·s) = 0.002·s ≈ 0.002 < θ: a premature stop.
    let mut step = Step::new(&[0.0], vec![0.0, -1.0], vec![0.0, 0.001]);
    assert!(!ucb_lcb_decides(&mut step, 1, UcbLcbParams::default()));
    // The gap is 1 + 0.001·s: θ just above it stops, just below goes on (t = T₀ = 1: β_1).
    let s = (gp_ucb_beta(1, 1, 0.1) / 5.0).sqrt();
    let gap = 1.0 + 0.001 * s;
    for (threshold, want) in [(gap * (1.0 + 1e-12), true), (gap * (1.0 - 1e-12), false)] {
        let params = UcbLcbParams {
            threshold,
            ..Default::default()
        };
        let mut step = Step::new(&[0.0], vec![0.0, -1.0], vec![0.0, 0.001]);
        assert_eq!(
            ucb_lcb_decides(&mut step, 1, params),
            want,
            "θ = {threshold}"
        );
    }
}

#[test]
fn ucb_lcb_beta_counts_bo_iterations_not_evaluations() {
    // Points 0..7 evaluated (value 0), point 7 unevaluated with mean 0.5 and sd σ: the gap is
    // max(0, √(β/5)·σ − 0.5), below θ = 0.01 iff σ < 0.51/√(β/5). With a design of T₀ = 4 and
    // t = 7 evaluations, 3 BO iterations are done and β is β_4 (the 4th iteration's); counting
    // evaluations would give β_8, a wider bound.
    let ys = [0.0; 7];
    let mean = vec![0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.5];
    let sd = |sigma: f64| vec![0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, sigma];
    let beta_4 = gp_ucb_beta(4, 1, 0.1) / 5.0;
    let beta_8 = gp_ucb_beta(8, 1, 0.1) / 5.0;
    let edge_4 = 0.51 / beta_4.sqrt();
    let edge_8 = 0.51 / beta_8.sqrt();
    assert!(edge_8 < edge_4);
    for (sigma, want) in [
        (edge_4 * (1.0 - 1e-9), true),
        (edge_4 * (1.0 + 1e-9), false),
        // Between the two edges: stops with β_4, would not with β_8.
        (0.5 * (edge_4 + edge_8), true),
    ] {
        let mut step = Step::new(&ys, mean.clone(), sd(sigma));
        assert_eq!(
            ucb_lcb_decides(&mut step, 4, UcbLcbParams::default()),
            want,
            "σ = {sigma}"
        );
    }
    // Right after the design (t = T₀) the index is 1.
    let edge_1 = 0.51 / (gp_ucb_beta(1, 1, 0.1) / 5.0).sqrt();
    let mut step = Step::new(
        &ys[..4],
        vec![0.0, 0.0, 0.0, 0.0, 0.5],
        vec![0.0, 0.0, 0.0, 0.0, edge_1 * (1.0 - 1e-9)],
    );
    assert!(ucb_lcb_decides(&mut step, 4, UcbLcbParams::default()));
}

#[test]
fn srgap_med_follows_the_papers_code() {
    // Design T₀ = 1 on 4 points; three steps with posteriors given by hand (the rule reads
    // only the arrays). h(0) = 1/√(2π) is EI at a threshold equal to the mean, over σ.
    let h0 = 0.398_942_280_401_432_7_f64;
    let step1 = Step::new(&[0.0], vec![0.0, 0.0, 0.5, 0.3], vec![0.0, 0.5, 0.4, 0.6]);
    let step2 = Step::new(
        &[0.0, 0.2],
        vec![0.0, 0.2, 0.2, 0.25],
        vec![0.0, 0.0, 0.3, 0.5],
    );
    let step3 = Step::new(
        &[0.0, 0.2, 0.1],
        vec![0.0, 0.2, 0.1, 0.3],
        vec![0.0, 0.0, 0.0, 0.4],
    );
    // Δ_2 (t = T₀ + 1: "old" = "new" = P_1; x_2 = 1, x_1 = 0, y_1 = 0):
    //   |μ_1(0) − μ_1(1)| = 0, EI_1(1; 0) = 0.5·h0, KL = 0.
    let delta2 = 0.5 * h0;
    // Δ_3 (new = P_2, old = P_1; x_3 = 2, x_2 = 1, y_2 = 0.2):
    //   |μ_1(1) − μ_2(2)| = |0 − 0.2|, EI_2(2; 0.2) = 0.3·h0 (mean = threshold),
    //   κ_2 = min(y*_2 = 0, 0.2 + s·0.3) − min_x(μ_2 − s·σ_2), s = √(β_2/5) (P_2 is after one
    //   BO iteration: index 2), KL between N(0.5, 0.16) (old) and N(0.2, 0.09) (new) at x_3.
    let s = (gp_ucb_beta(2, 1, 0.1) / 5.0).sqrt();
    let min_lcb = [0.0, 0.2, 0.2 - 0.3 * s, 0.25 - 0.5 * s]
        .into_iter()
        .fold(f64::INFINITY, f64::min);
    let kappa = 0.0_f64.min(0.2 + 0.3 * s) - min_lcb;
    let kl_old_new = 0.5 * ((0.09_f64 / 0.16).ln() + (0.16 + 0.3 * 0.3) / 0.09 - 1.0);
    let kl_new_old = 0.5 * ((0.16_f64 / 0.09).ln() + (0.09 + 0.3 * 0.3) / 0.16 - 1.0);
    assert!((gaussian_kl(0.5, 0.16, 0.2, 0.09) - kl_old_new).abs() < 1e-15);
    for (direction, kl) in [
        (KlDirection::OldToNew, kl_old_new),
        (KlDirection::NewToOld, kl_new_old),
    ] {
        let delta3 = 0.2 + 0.3 * h0 + kappa * (0.5 * kl).sqrt();
        let ratio = delta3 / delta2;
        // With I = 1 the threshold is χ·Δ_2: χ just above Δ_3/Δ_2 stops at step 3, just
        // below does not.
        for (chi, want) in [(ratio * (1.0 + 1e-9), true), (ratio * (1.0 - 1e-9), false)] {
            let params = SrGapMedParams {
                chi,
                initial_values: 1,
                kl_direction: direction,
                ..Default::default()
            };
            let mut rule = SrGapMed::from_params(&params, &CONTEXT);
            let sampler = idle_sampler(4);
            let mut rng = ChaCha8Rng::seed_from_u64(2);
            assert!(!rule.observe(&step1.view(&sampler), &mut rng));
            assert!(!rule.observe(&step2.view(&sampler), &mut rng));
            assert_eq!(
                rule.observe(&step3.view(&sampler), &mut rng),
                want,
                "{direction:?}, χ = {chi}"
            );
        }
    }
    assert!(
        (kl_old_new - kl_new_old).abs() > 0.1,
        "the two directions differ here"
    );
}

#[test]
fn srgap_med_threshold_is_chi_times_median_of_first_values() {
    // Flat steps: the observed values and one unobserved point of mean 0, σ = 0 everywhere
    // (the KL and κ terms vanish). At t = 2 (old = new = P_1): Δμ = |y_1 − 0| = 10 and
    // EI_1(x_2; y_1) = max(y_1 − 0, 0) = 10, so Δ_2 = 20; from t = 3 on, Δμ = |0 − 0| and
    // Δ_t = y_{t−1}: 9, 7, 4, 2.5. The first I = 3 values 20, 9, 7 set the median 9, threshold
    // χ·9 = 4.5 with χ = 0.5; Δ_5 = 4 is the first below it.
    let params = SrGapMedParams {
        chi: 0.5,
        initial_values: 3,
        ..Default::default()
    };
    let ys = [10.0, 9.0, 7.0, 4.0, 2.5, 1.5];
    // One fixed domain of 7 points, as in a real run: observed values, then zeros.
    let n = ys.len() + 1;
    let mut rule = SrGapMed::from_params(&params, &CONTEXT);
    let sampler = idle_sampler(n);
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    let stop = (1..=ys.len()).find(|&t| {
        let mut mean = ys[..t].to_vec();
        mean.resize(n, 0.0);
        let step = Step::new(&ys[..t], mean, vec![0.0; n]);
        rule.observe(&step.view(&sampler), &mut rng)
    });
    assert_eq!(stop, Some(5));
}

/// Runs PRB checks with paths from `fails` on a fixed step; returns the decisions and the bank
/// sizes the rule asked for.
fn prb_checks(
    params: PrbParams,
    fails: fn(usize) -> bool,
    checks: usize,
) -> (Vec<bool>, Vec<usize>, usize) {
    let sampler = CountingSampler::new(3, fails);
    let step = Step::new(&[0.0], vec![0.0, 0.5, 0.5], vec![0.0, 0.3, 0.3]);
    let mut rule = Prb::from_params(&params, &CONTEXT);
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let decisions = (0..checks)
        .map(|_| rule.observe(&step.view(&sampler), &mut rng))
        .collect();
    let requests = sampler.bank_requests.borrow().clone();
    (decisions, requests, sampler.drawn.get())
}

#[test]
fn prb_paper_protocol_grows_paths_across_checks_and_stops_above_one_minus_delta() {
    // N_1 = 4, N ← min(⌈1.5·N⌉, 1000): 4, 6, 9, 14, 21. δ = 0.25 (exact in binary): stop iff
    // successes/N > 0.75 strictly. Path i fails iff i = 1: estimates 3/4 (= 0.75: no stop),
    // 5/6, … (stop).
    let params = PrbParams {
        delta: 0.25,
        initial_paths: 4,
        ..Default::default()
    };
    let (decisions, requests, _) = prb_checks(params.clone(), |i| i == 1, 5);
    assert_eq!(requests, vec![4, 6, 9, 14, 21]);
    assert_eq!(decisions, vec![false, true, true, true, true]);
    // Every path a success stops at once; every path a failure never does.
    assert_eq!(prb_checks(params.clone(), |_| false, 1).0, vec![true]);
    assert_eq!(prb_checks(params, |_| true, 3).0, vec![false, false, false]);
    // The paper's values: ε = 0.1 for the Bayesian-regret experiments, δ = 0.05, N from 64
    // to 1000 by 1.5: 64, 96, 144, 216, 324, 486, 729, 1000, 1000.
    let (_, requests, _) = prb_checks(PrbParams::default(), |_| true, 9);
    assert_eq!(requests, vec![64, 96, 144, 216, 324, 486, 729, 1000, 1000]);
    assert_eq!(PrbParams::default().epsilon, 0.1);
}

#[test]
fn prb_fresh_paths_draw_anew_at_every_check() {
    let params = PrbParams {
        initial_paths: 4,
        fresh_paths: true,
        ..Default::default()
    };
    let (_, requests, drawn) = prb_checks(params, |_| false, 3);
    assert!(requests.is_empty());
    assert_eq!(drawn, 4 + 6 + 9);
}

/// Runs one Wilson-protocol check with paths from `fails`; returns (decision, paths drawn).
fn prb_wilson_once(fails: fn(usize) -> bool) -> (bool, usize) {
    let params = PrbParams {
        protocol: PrbProtocol::Wilson,
        ..Default::default()
    };
    let (decisions, _, drawn) = prb_checks(params, fails, 1);
    (decisions[0], drawn)
}

#[test]
fn prb_wilson_protocol_decides_where_clopper_pearson_says() {
    // Per-check risk δ' = 0.025/96; test j uses d_j = δ'·(0.1/1.1)·j^(−1.1). With every path
    // a success, the Clopper–Pearson lower bound is (d_j/2)^(1/n_j); it first exceeds 0.975 at
    // n_7 = 729 (d_7/2 ≈ 1.40e-6: 0.9817), not at n_6 = 486 (0.9730).
    let d = |j: f64| 0.025 / 96.0 * (0.1 / 1.1) * j.powf(-1.1);
    assert!((d(6.0) / 2.0).powf(1.0 / 486.0) < 0.975 && (d(7.0) / 2.0).powf(1.0 / 729.0) > 0.975);
    assert_eq!(prb_wilson_once(|_| false), (true, 729));
    // Every path a failure: the upper bound 1 − (d_1/2)^(1/64) ≈ 0.16 < 0.975 after 64 paths.
    assert_eq!(prb_wilson_once(|_| true), (false, 64));
    // Success rate 0.98 (one failure in 50) and 0.966 (one in 30): intervals around 0.975 stay
    // undecided, so the 1000-path estimate decides: 980 ≥ 975 stops, 966 < 975 goes on.
    assert_eq!(prb_wilson_once(|i| i % 50 == 0), (true, 1000));
    assert_eq!(prb_wilson_once(|i| i % 30 == 0), (false, 1000));
}

#[test]
fn prb_uses_epsilon_on_the_incumbent_regret() {
    // A path whose minimum is 1 below the incumbent fails for ε = 0.1 but succeeds for ε = 1.
    let loose = PrbParams {
        epsilon: 1.0,
        ..Default::default()
    };
    assert_eq!(prb_checks(loose, |_| true, 1).0, vec![true]);
    assert_eq!(prb_checks(PrbParams::default(), |_| true, 1).0, vec![false]);
}

#[test]
fn registry_builds_every_rule_and_rejects_bad_parameters() {
    for spec in RULES {
        let factory = (spec.build)(None, &CONTEXT).unwrap();
        assert!(!factory().name().is_empty(), "{}", spec.key);
    }
    let table = |text: &str| text.parse::<toml::Table>().map(toml::Value::Table).unwrap();
    let err = (find_rule("ucb_lcb").unwrap().build)(Some(&table("treshold = 0.1")), &CONTEXT)
        .err()
        .unwrap();
    assert!(err.contains("treshold"), "{err}");
    let err = (find_rule("prb").unwrap().build)(Some(&table("delta = 1.5")), &CONTEXT)
        .err()
        .unwrap();
    assert!(err.contains("prb.delta"), "{err}");
    let err = find_rule("nope").err().unwrap();
    assert!(err.contains("nope") && err.contains("ucb_lcb"), "{err}");
}

#[test]
fn logeipc_med_threshold_is_ln_eta_plus_median() {
    use pbgi_lab::rules::logeipc_med::{LogEipcMed, LogEipcMedParams};
    // One unevaluated point with posterior N(0, 1) and incumbent 0: EI = 1/√(2π)
    // = 0.3989422804014327 (MATH.md), so the statistic is ln(0.39894…/c) for cost c. Costs
    // 1, 2, 4 calibrate (I = 3): median ln(h0/2); with η = 1/2 the threshold is ln(h0/4), so
    // costs 3 and 3.9 go on and cost 4.5 stops.
    let params = LogEipcMedParams {
        eta: 0.5,
        initial_values: 3,
        ..Default::default()
    };
    let mut rule = LogEipcMed::from_params(&params, &CONTEXT);
    let sampler = idle_sampler(2);
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut decisions = Vec::new();
    for cost in [1.0, 2.0, 4.0, 3.0, 3.9, 4.5] {
        let mut step = Step::new(&[0.0], vec![0.0, 0.0], vec![0.0, 1.0]);
        step.cost = vec![cost, cost];
        decisions.push(rule.observe(&step.view(&sampler), &mut rng));
    }
    assert_eq!(decisions, [false, false, false, false, false, true]);
    let h0 = 0.398_942_280_401_432_7_f64;
    let step = Step::new(&[0.0], vec![0.0, 0.0], vec![0.0, 1.0]);
    let value = pbgi_lab::rules::logeipc_med::max_log_eipc(&step.view(&sampler));
    assert!((value - h0.ln()).abs() < 1e-15, "{value}");
}

#[test]
fn ucb_lcb_moving_average_tests_the_mean_gap_once_the_window_is_full() {
    // Point 0 evaluated (y = 0); point 1 unevaluated with mean −g_k and σ = 0, so the gap at
    // step k is exactly g_k (σ = 0: β plays no part). Gaps 0.5, 0, 0, 0.1 with θ = 0.1 and a
    // window of 3: no decision before 3 values; means 1/6 (go on), then 0 (stop). Without the
    // average the second step (gap 0) would already stop.
    let gaps = [0.5, 0.0, 0.0, 0.1];
    let decide = |window: usize| -> Vec<bool> {
        let params = UcbLcbParams {
            threshold: 0.1,
            moving_average: window,
            ..Default::default()
        };
        let mut rule = UcbLcb::from_params(&params, &CONTEXT);
        let sampler = idle_sampler(2);
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        gaps.iter()
            .map(|&g| {
                let step = Step::new(&[0.0], vec![0.0, -g], vec![0.0, 0.0]);
                rule.observe(&step.view(&sampler), &mut rng)
            })
            .collect()
    };
    assert_eq!(decide(3), [false, false, false, true]);
    assert_eq!(decide(1), [false, true, true, false]);
}

#[test]
fn logeipc_med_moving_average_compares_the_mean_with_the_raw_threshold() {
    use pbgi_lab::rules::logeipc_med::{LogEipcMed, LogEipcMedParams};
    // As in the test above: one point with posterior N(0, 1), incumbent 0, so the statistic
    // is ln(h0) − ln c. Costs 1, 1 calibrate (I = 2): threshold ln η + ln h0 with η = 1/4,
    // i.e. the statistic at cost 4. With a window of 2, cost 8 after cost 1 averages to
    // ln h0 − (ln 8)/2 = ln h0 − ln 2.83 > threshold: go on; a second cost 8 gives ln h0 −
    // ln 8 < threshold: stop. Without the average the first cost 8 stops.
    let run = |window: usize| -> Vec<bool> {
        let params = LogEipcMedParams {
            eta: 0.25,
            initial_values: 2,
            moving_average: window,
        };
        let mut rule = LogEipcMed::from_params(&params, &CONTEXT);
        let sampler = idle_sampler(2);
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        [1.0, 1.0, 8.0, 8.0]
            .iter()
            .map(|&cost| {
                let mut step = Step::new(&[0.0], vec![0.0, 0.0], vec![0.0, 1.0]);
                step.cost = vec![cost, cost];
                rule.observe(&step.view(&sampler), &mut rng)
            })
            .collect()
    };
    assert_eq!(run(2), [false, false, false, true]);
    assert_eq!(run(1), [false, false, true, true]);
}

#[test]
fn pbgi_logeipc_with_a_window_of_w_cannot_stop_before_check_w() {
    use pbgi_lab::rules::pbgi_logeipc::{PbgiLogEipcParams, PbgiStoppingRule, StopForm};
    // Point 0 evaluated (y* = 0); point 1 unevaluated with μ = 0, σ = 0 and cost 1, so its
    // PBGI is μ + c = 1 and the PBGI-form statistic y* − 1 = −1 signals at every check. The
    // rule with a moving average over w checks stops at check w exactly (no stop while the
    // window is not full), and its averaged history is unavailable (`None`) until then.
    for window in [1, 2, 3, 20] {
        let params = PbgiLogEipcParams {
            form: StopForm::Pbgi,
            moving_average: window,
            ..Default::default()
        };
        let mut rule = PbgiStoppingRule::from_params(&params, &CONTEXT);
        let sampler = idle_sampler(2);
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let decisions: Vec<bool> = (0..window + 2)
            .map(|_| {
                let step = Step::new(&[0.0], vec![0.0, 0.0], vec![0.0, 0.0]);
                rule.observe(&step.view(&sampler), &mut rng)
            })
            .collect();
        let first = decisions.iter().position(|&stop| stop).map(|i| i + 1);
        assert_eq!(first, Some(window), "window {window}: {decisions:?}");
        let history = rule.history();
        assert!(
            history[..window - 1].iter().all(Option::is_none),
            "{history:?}"
        );
        assert!(
            history[window - 1..].iter().all(|&m| m == Some(-1.0)),
            "{history:?}"
        );
    }
}

#[test]
fn pbgi_logeipc_checked_before_the_update_reads_the_previous_statistic() {
    use pbgi_lab::rules::pbgi_logeipc::{PbgiLogEipcParams, PbgiStoppingRule, StopForm};
    // Point 0 evaluated (y* = 0); point 1 unevaluated with σ = 0 and cost 1, so its PBGI is
    // μ + 1 and the PBGI-form statistic is y* − (μ + 1) = −1 − μ: μ = −2 gives +1 (go on),
    // μ = 0 gives −1 (stop). Checked after the update, the rule stops at the first −1;
    // checked before it, the check at step t reads step t − 1's statistic, so it stops one
    // step later, and never at the first step (no earlier statistic).
    let stops = |means: &[f64], check: &str| {
        let params = PbgiLogEipcParams {
            form: StopForm::Pbgi,
            check: check.into(),
            ..Default::default()
        };
        let mut rule = PbgiStoppingRule::from_params(&params, &CONTEXT);
        let sampler = idle_sampler(2);
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let decisions: Vec<bool> = means
            .iter()
            .map(|&mu| {
                let step = Step::new(&[0.0], vec![0.0, mu], vec![0.0, 0.0]);
                rule.observe(&step.view(&sampler), &mut rng)
            })
            .collect();
        (
            decisions.iter().position(|&s| s).map(|i| i + 1),
            rule.name(),
        )
    };
    let late = [-2.0, -2.0, 0.0, -2.0, -2.0];
    assert_eq!(stops(&late, "after"), (Some(3), "PBGI/LogEIPC".to_string()));
    assert_eq!(
        stops(&late, "before"),
        (Some(4), "PBGI/LogEIPC(check=before)".to_string())
    );
    let at_once = [0.0, -2.0, -2.0];
    assert_eq!(stops(&at_once, "after").0, Some(1));
    assert_eq!(stops(&at_once, "before").0, Some(2));
    // A signal at the last step only: checked before, it is never read.
    assert_eq!(stops(&[-2.0, -2.0, 0.0], "before").0, None);
}

#[test]
fn pbgi_logeipc_check_must_be_after_or_before() {
    let table = |text: &str| text.parse::<toml::Table>().map(toml::Value::Table).unwrap();
    let err =
        (find_rule("pbgi_logeipc").unwrap().build)(Some(&table("check = \"later\"")), &CONTEXT)
            .err()
            .unwrap();
    assert!(
        err.contains("pbgi_logeipc.check") && err.contains("later"),
        "{err}"
    );
    assert!((find_rule("pbgi_logeipc").unwrap().build)(
        Some(&table("check = \"before\"")),
        &CONTEXT
    )
    .is_ok());
}

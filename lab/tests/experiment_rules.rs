//! Each stopping rule's decision on hand-built steps whose answer is known in closed form.
use pbgi_conformance::bo::{PosteriorSampler, StepView, StoppingRule};
use pbgi_conformance::experiment::rules::convergence::{Convergence, ConvergenceParams};
use pbgi_conformance::experiment::rules::fixed_iteration::{FixedIteration, FixedIterationParams};
use pbgi_conformance::experiment::rules::gss::{Gss, GssParams};
use pbgi_conformance::experiment::rules::prb::{Prb, PrbParams};
use pbgi_conformance::experiment::rules::srgap_med::{
    posterior_update_kl, SrGapMed, SrGapMedParams,
};
use pbgi_conformance::experiment::rules::ucb_lcb::{gp_ucb_beta, UcbLcb, UcbLcbParams};
use pbgi_conformance::experiment::rules::{find_rule, FromParams, RuleContext, RULES};
use pbgi_conformance::experiment::sample_stats::{interquartile_range, median, quantile};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::cell::Cell;

const CONTEXT: RuleContext = RuleContext {
    dim: 1,
    initial_points: 4,
    cap: 100,
};

/// Paths chosen by a global draw counter: draw `i` is a "failure" path (one point 1 below the
/// incumbent) iff `fails(i)`, otherwise it equals the incumbent everywhere.
struct CountingSampler {
    n: usize,
    y_best: f64,
    drawn: Cell<usize>,
    fails: fn(usize) -> bool,
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
}

/// Everything a rule may read, owned, so tests can build steps from plain vectors.
struct Step {
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
            mean: &self.mean,
            sd: &self.sd,
            evaluated: &self.evaluated,
            cost: &self.cost,
            history_x: &self.history_x,
            history_y: &self.history_y,
            y_best: self.history_y.iter().copied().fold(f64::INFINITY, f64::min),
            cumulative_cost: self.history_y.len() as f64,
            posterior,
        }
    }
}

fn idle_sampler(n: usize) -> CountingSampler {
    CountingSampler {
        n,
        y_best: 0.0,
        drawn: Cell::new(0),
        fails: |_| false,
    }
}

/// Feeds the prefixes of `ys` (on flat posteriors) to `rule`; returns the first stopping `t`.
fn first_stop(rule: &mut dyn StoppingRule, ys: &[f64]) -> Option<usize> {
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let sampler = idle_sampler(ys.len() + 1);
    (1..=ys.len()).find(|&t| {
        let step = Step::flat(&ys[..t]);
        rule.observe(&step.view(&sampler), &mut rng)
    })
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
    // β_1 = 2 ln(π²/0.6) for d = 1, δ = 0.1; β_t = β_1 + 4 ln t.
    let b1 = gp_ucb_beta(1, 1, 0.1);
    assert!((b1 - 2.0 * (std::f64::consts::PI.powi(2) / 0.6).ln()).abs() < 1e-14);
    assert!((b1 - 5.600_570_790_929_582).abs() < 1e-12, "β_1 = {b1}");
    let b10 = gp_ucb_beta(10, 1, 0.1);
    assert!((b10 - (b1 + 4.0 * 10f64.ln())).abs() < 1e-13);
    assert!((gp_ucb_beta(10, 8, 0.1) - (b10 + 2.0 * 8f64.ln())).abs() < 1e-13);
}

#[test]
fn ucb_lcb_stops_exactly_below_threshold() {
    // Domain: an evaluated point (value 0) and one with mean 0.5, sd σ. min UCB = 0 and
    // min LCB = min(0, 0.5 − √β σ), so the gap is max(0, √β σ − 0.5): below θ = 0.01 iff
    // σ < 0.51/√β, with β = β_t/5 at t = 1.
    let sqrt_beta = (gp_ucb_beta(1, 1, 0.1) / 5.0).sqrt();
    let sampler = idle_sampler(2);
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for (sigma, want) in [
        (0.51 / sqrt_beta * (1.0 - 1e-9), true),
        (0.51 / sqrt_beta * (1.0 + 1e-9), false),
        (0.1, true),
        (1.0, false),
    ] {
        let step = Step::new(&[0.0], vec![0.0, 0.5], vec![0.0, sigma]);
        let mut rule = UcbLcb::from_params(&UcbLcbParams::default(), &CONTEXT);
        assert_eq!(
            rule.observe(&step.view(&sampler), &mut rng),
            want,
            "σ = {sigma}"
        );
    }
    // Without scale-down the bound is wider: σ = 0.3 gives √β_1·0.3 − 0.5 ≈ 0.21 > θ, while
    // with it √(β_1/5)·0.3 − 0.5 < 0 ≤ θ.
    let step = Step::new(&[0.0], vec![0.0, 0.5], vec![0.0, 0.3]);
    let mut scaled = UcbLcb::from_params(&UcbLcbParams::default(), &CONTEXT);
    assert!(scaled.observe(&step.view(&sampler), &mut rng));
    let mut unscaled = UcbLcb::from_params(
        &UcbLcbParams {
            scale_down: 1.0,
            ..Default::default()
        },
        &CONTEXT,
    );
    assert!(!unscaled.observe(&step.view(&sampler), &mut rng));
}

#[test]
fn posterior_update_kl_matches_gaussian_kl() {
    // KL(N(m', v') ‖ N(m, v)) = ½[v'/v + (m' − m)²/v − 1 + ln(v/v')], with the Bayes update
    // v' = v s²/(v + s²), m' = m + v (y − m)/(v + s²).
    for (m, v, y, s2) in [
        (0.0_f64, 1.0_f64, 0.3, 1e-6),
        (1.0, 0.04, -2.0, 1e-6),
        (0.5, 2.0, 0.5, 0.1),
        (0.0, 1e-8, 1.0, 1e-6),
    ] {
        let v_post = v * s2 / (v + s2);
        let m_post = m + v * (y - m) / (v + s2);
        let want = 0.5 * (v_post / v + (m_post - m).powi(2) / v - 1.0 + (v / v_post).ln());
        let got = posterior_update_kl(m, v, y, s2);
        assert!(
            (got - want).abs() <= 1e-9 * want.abs().max(1e-12),
            "m={m} v={v} y={y}: {got} vs {want}"
        );
    }
    assert_eq!(posterior_update_kl(0.3, 0.0, 1.0, 1e-6), 0.0);
}

#[test]
fn srgap_med_threshold_is_chi_times_median_of_first_values() {
    // With zero posterior spread the KL term vanishes and Δ_t = |y*_{t−1} − y*_t|: the first
    // step gives no value, improvements 1, 2, 3 set the median 2 (I = 3), threshold χ·2 = 1.
    // Next improvements: 1.5 (go on), 1.0 (not below the threshold: go on), 0.9 (stop).
    let params = SrGapMedParams {
        chi: 0.5,
        initial_values: 3,
        ..Default::default()
    };
    let ys = [10.0, 9.0, 7.0, 4.0, 2.5, 1.5, 0.6, 0.0];
    let mut rule = SrGapMed::from_params(&params, &CONTEXT);
    assert_eq!(first_stop(&mut rule, &ys), Some(7));
}

#[test]
fn srgap_med_statistic_includes_confidence_gap_times_kl() {
    // Step 1: point 0 evaluated (y = 0); points 1, 2 have mean 0.5, sd 0.5. Step 2 evaluates
    // point 1 with y = 0.4 (no improvement), so Δ_2 = κ₁·√(KL/2) with
    // κ₁ = 0 − min(0, 0.5 − √β·0.5) (β = β_2/5) and KL = posterior_update_kl(0.5, 0.25, 0.4,
    // 1e-6). With I = 1, Δ_2 alone is the median and the threshold is χ·Δ_2. Step 3 evaluates
    // point 2 (previous posterior N(0.5, 0.25), y = 0.5, β = β_3/5); it stops iff Δ_3 < χ·Δ_2.
    let kappa = |t: usize| -(0.5 - (gp_ucb_beta(t, 1, 0.1) / 5.0).sqrt() * 0.5_f64).min(0.0);
    let delta2 = kappa(2) * (0.5 * posterior_update_kl(0.5, 0.25, 0.4, 1e-6)).sqrt();
    let delta3 = kappa(3) * (0.5 * posterior_update_kl(0.5, 0.25, 0.5, 1e-6)).sqrt();
    assert!(delta2 > 0.0 && delta3 > 0.0);
    let sampler = idle_sampler(3);
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let step1 = Step::new(&[0.0], vec![0.0, 0.5, 0.5], vec![0.0, 0.5, 0.5]);
    let step2 = Step::new(&[0.0, 0.4], vec![0.0, 0.4, 0.5], vec![0.0, 0.0, 0.5]);
    let step3 = Step::new(&[0.0, 0.4, 0.5], vec![0.0, 0.4, 0.5], vec![0.0, 0.0, 0.0]);
    let ratio = delta3 / delta2;
    for (chi, want) in [(ratio * (1.0 + 1e-9), true), (ratio * (1.0 - 1e-9), false)] {
        let params = SrGapMedParams {
            chi,
            initial_values: 1,
            ..Default::default()
        };
        let mut rule = SrGapMed::from_params(&params, &CONTEXT);
        assert!(!rule.observe(&step1.view(&sampler), &mut rng));
        assert!(!rule.observe(&step2.view(&sampler), &mut rng));
        assert_eq!(
            rule.observe(&step3.view(&sampler), &mut rng),
            want,
            "χ = {chi}"
        );
    }
}

/// Runs one PRB check with paths from `fails`; returns (decision, paths drawn).
fn prb_once(fails: fn(usize) -> bool) -> (bool, usize) {
    let sampler = CountingSampler {
        n: 3,
        y_best: 0.0,
        drawn: Cell::new(0),
        fails,
    };
    let step = Step::new(&[0.0], vec![0.0, 0.5, 0.5], vec![0.0, 0.3, 0.3]);
    let mut rule = Prb::from_params(&PrbParams::default(), &CONTEXT);
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let decision = rule.observe(&step.view(&sampler), &mut rng);
    (decision, sampler.drawn.get())
}

#[test]
fn prb_sequential_test_decides_where_clopper_pearson_says() {
    // Per-step risk δ' = 0.025/96; test j uses d_j = δ'·(0.1/1.1)·j^(−1.1). With every path
    // a success, the Clopper–Pearson lower bound is (d_j/2)^(1/n_j); it first exceeds 0.975 at
    // n_7 = 729 (d_7/2 ≈ 1.40e-6: 0.9817), not at n_6 = 486 (0.9730).
    let d = |j: f64| 0.025 / 96.0 * (0.1 / 1.1) * j.powf(-1.1);
    assert!((d(6.0) / 2.0).powf(1.0 / 486.0) < 0.975 && (d(7.0) / 2.0).powf(1.0 / 729.0) > 0.975);
    assert_eq!(prb_once(|_| false), (true, 729));
    // Every path a failure: the upper bound 1 − (d_1/2)^(1/64) ≈ 0.16 < 0.975 after 64 paths.
    assert_eq!(prb_once(|_| true), (false, 64));
    // Success rate 0.98 (one failure in 50) and 0.966 (one in 30): intervals around 0.975 stay
    // undecided, so the 1000-path estimate decides: 980 ≥ 975 stops, 966 < 975 goes on.
    assert_eq!(prb_once(|i| i % 50 == 0), (true, 1000));
    assert_eq!(prb_once(|i| i % 30 == 0), (false, 1000));
}

#[test]
fn prb_uses_epsilon_on_the_incumbent_regret() {
    // A path whose minimum is 1 below the incumbent fails for ε = 0.1 but succeeds for ε = 1.
    let sampler = CountingSampler {
        n: 3,
        y_best: 0.0,
        drawn: Cell::new(0),
        fails: |_| true,
    };
    let step = Step::new(&[0.0], vec![0.0, 0.5, 0.5], vec![0.0, 0.3, 0.3]);
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let mut rule = Prb::from_params(
        &PrbParams {
            epsilon: 1.0,
            ..Default::default()
        },
        &CONTEXT,
    );
    assert!(rule.observe(&step.view(&sampler), &mut rng));
}

#[test]
fn registry_builds_every_rule_and_rejects_bad_parameters() {
    for spec in RULES {
        let factory = (spec.build)(&serde_json::Value::Null, &CONTEXT).unwrap();
        assert!(!factory().name().is_empty(), "{}", spec.key);
    }
    let err =
        (find_rule("ucb_lcb").unwrap().build)(&serde_json::json!({ "treshold": 0.1 }), &CONTEXT)
            .err()
            .unwrap();
    assert!(err.contains("treshold"), "{err}");
    let err = (find_rule("prb").unwrap().build)(&serde_json::json!({ "delta": 1.5 }), &CONTEXT)
        .err()
        .unwrap();
    assert!(err.contains("prb.delta"), "{err}");
    let err = find_rule("nope").err().unwrap();
    assert!(err.contains("nope") && err.contains("ucb_lcb"), "{err}");
}

#[test]
fn logeipc_med_threshold_is_ln_eta_plus_median() {
    use pbgi_conformance::experiment::rules::logeipc_med::{LogEipcMed, LogEipcMedParams};
    // One unevaluated point with posterior N(0, 1) and incumbent 0: EI = 1/√(2π)
    // = 0.3989422804014327 (MATH.md), so the statistic is ln(0.39894…/c) for cost c. Costs
    // 1, 2, 4 calibrate (I = 3): median ln(h0/2); with η = 1/2 the threshold is ln(h0/4), so
    // costs 3 and 3.9 go on and cost 4.5 stops.
    let params = LogEipcMedParams {
        eta: 0.5,
        initial_values: 3,
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
    let value =
        pbgi_conformance::experiment::rules::logeipc_med::max_log_eipc(&step.view(&sampler));
    assert!((value - h0.ln()).abs() < 1e-15, "{value}");
}

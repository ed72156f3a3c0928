//! The pieces of one run that the finite domain (`finite::run_one`) and the continuous cube
//! (`cube::run_one_on_cube`) share: the setting and the result of a run, the run's random
//! streams (keyed by setting, sample and acquisition), the rules observing it, and the result
//! of a run that went to the cap.
use super::config::ExperimentConfig;
use crate::acquisitions::AcquisitionName;
use crate::bo::{Control, StepView, StoppingRule};
use crate::rules::pbgi_logeipc::{stop_statistic, StopForm};
use crate::rules::RuleFactory;
use crate::study::config::CostName;
use crate::study::seeding::{label, stream};
use rand_chacha::ChaCha8Rng;

/// One cost setting: a cost function and its scale `λ`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setting {
    /// The cost function.
    pub cost: CostName,
    /// Its scale.
    pub lambda: f64,
}

/// The outcome of one BO run (one setting, sample and acquisition) and of every rule on it.
#[derive(Clone, Debug, PartialEq)]
pub struct RunResult {
    /// Index into [`ExperimentResults::settings`](super::ExperimentResults::settings).
    pub setting: usize,
    /// Sample (objective draw) index.
    pub sample: usize,
    /// Index into [`ExperimentResults::acquisitions`](super::ExperimentResults::acquisitions).
    pub acquisition: usize,
    /// Simple regret `y*_t − min f` after `t = 1, 2, …, cap` evaluations (entry `t − 1`).
    pub simple_regret: Vec<f64>,
    /// Cumulative scaled cost `Σ_{s ≤ t} λ c(x_s)` (entry `t − 1`).
    pub cumulative_cost: Vec<f64>,
    /// Stopping time of each rule (in the config's rule order); the cap if it never fired.
    pub stop: Vec<usize>,
    /// Whether each rule fired before the cap ran out (a rule firing exactly at the cap counts
    /// as fired).
    pub fired: Vec<bool>,
    /// The PBGI/LogEIPC rule's raw statistic (before any moving average; the form of
    /// `[rules.pbgi_logeipc]`, LogEIPC by default: `max LogEIPC_t`) at every check
    /// `t = initial_points, …, cap` (entry `t − initial_points`), whether or not any rule has
    /// fired: the stopping paper's Fig. 6. Empty with `trace_statistic = false`.
    pub statistic: Vec<f64>,
}

/// The wall time the rules of one run spent in their checks. A measurement, not a result: it
/// depends on the machine and its load, so it is kept out of [`RunResult`] (whose files are
/// identical for any thread count, machine and split into shards).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RuleTimes {
    /// Seconds spent in each rule's checks (in the config's rule order).
    pub seconds: Vec<f64>,
    /// Number of checks each rule made (until it fired, or to the cap).
    pub checks: Vec<usize>,
}

impl RunResult {
    /// Cost-adjusted simple regret after `t` evaluations (stopping paper, eq. 2).
    pub fn regret_at(&self, t: usize) -> f64 {
        self.simple_regret[t - 1] + self.cumulative_cost[t - 1]
    }

    /// The hindsight-optimal stopping time of this run: the `t` among the times at which rules
    /// may stop (`initial_points ≤ t ≤ cap`) with the smallest cost-adjusted regret (earliest
    /// on ties). A lower bound for every rule on this run.
    pub fn hindsight_stop(&self, initial_points: usize) -> usize {
        (initial_points..=self.simple_regret.len())
            .min_by(|&a, &b| self.regret_at(a).total_cmp(&self.regret_at(b)))
            .unwrap_or(initial_points)
    }
}

/// Stream labels: the objective, design and anchor depend on the sample only, so every
/// setting and acquisition sees the same functions and initial points.
const OBJECTIVE_STREAM: u64 = 1;
const DESIGN_STREAM: u64 = 2;
const ACQUISITION_STREAM: u64 = 3;
const RULE_STREAM: u64 = 4;

/// Key of a setting for seeding: its cost name and the bits of `λ`.
fn setting_key(setting: &Setting) -> u64 {
    label(setting.cost.key()) ^ setting.lambda.to_bits().rotate_left(17)
}

/// The rules of one run, each with its own random stream, and the step at which each fired.
pub(crate) struct RuleObservers {
    live: Vec<Box<dyn StoppingRule>>,
    rngs: Vec<ChaCha8Rng>,
    stop: Vec<Option<usize>>,
    /// The form of the traced statistic (`None`: not traced) and its values so far.
    form: Option<StopForm>,
    statistic: Vec<f64>,
    times: RuleTimes,
}

impl RuleObservers {
    /// Fresh rules for the run keyed `run_key`.
    pub(crate) fn new(
        master: u64,
        run_key: [u64; 3],
        rules: &[(&'static str, RuleFactory)],
        form: Option<StopForm>,
    ) -> Self {
        Self {
            form,
            statistic: Vec::new(),
            times: RuleTimes {
                seconds: vec![0.0; rules.len()],
                checks: vec![0; rules.len()],
            },
            live: rules.iter().map(|(_, make)| make()).collect(),
            rngs: rules
                .iter()
                .map(|(key, _)| {
                    stream(
                        master,
                        &[RULE_STREAM, run_key[0], run_key[1], run_key[2], label(key)],
                    )
                })
                .collect(),
            stop: vec![None; rules.len()],
        }
    }

    /// Every rule that has not fired observes `view`; the run always continues (rules do not
    /// change the trajectory). Rules get their own generators: the loop's belongs to the
    /// acquisition, so the trajectory does not depend on which rules run. Each rule's check is
    /// timed (into [`RuleTimes`], never into the results); then the PBGI/LogEIPC statistic is
    /// traced (on the cube the step's optimum is cached, so a rule that asked for it first
    /// has paid for it).
    pub(crate) fn observe(&mut self, view: &StepView) -> Control {
        let live = self.live.iter_mut().zip(&mut self.rngs).zip(&mut self.stop);
        let times = self.times.seconds.iter_mut().zip(&mut self.times.checks);
        for (((rule, rng), stopped), (seconds, checks)) in live.zip(times) {
            if stopped.is_none() {
                let started = std::time::Instant::now();
                let stop = rule.observe(view, rng);
                *seconds += started.elapsed().as_secs_f64();
                *checks += 1;
                if stop {
                    *stopped = Some(view.t);
                }
            }
        }
        if let Some(form) = self.form {
            self.statistic.push(stop_statistic(view, form));
        }
        Control::Continue
    }

    /// The time each rule spent in its checks so far.
    pub(crate) fn times(&self) -> RuleTimes {
        self.times.clone()
    }
}

/// The key of one run's random streams.
pub(crate) fn run_key(setting: &Setting, sample: usize, acquisition: AcquisitionName) -> [u64; 3] {
    [
        setting_key(setting),
        sample as u64,
        label(acquisition.key()),
    ]
}

/// The acquisition's stream of the run keyed `key`.
pub(crate) fn acquisition_stream(master: u64, key: [u64; 3]) -> ChaCha8Rng {
    stream(master, &[ACQUISITION_STREAM, key[0], key[1], key[2]])
}

/// The objective's stream of sample `sample` (shared by every setting and acquisition).
pub(crate) fn objective_stream(master: u64, sample: usize) -> ChaCha8Rng {
    stream(master, &[OBJECTIVE_STREAM, sample as u64])
}

/// The initial design's stream of sample `sample`.
pub(crate) fn design_stream(master: u64, sample: usize) -> ChaCha8Rng {
    stream(master, &[DESIGN_STREAM, sample as u64])
}

/// The result of a run that went to the cap: regrets against `f_min`, cumulative costs, the
/// rules' stopping times and the traced statistic; beside it, the rules' times. Errors if the
/// run ended before the cap.
#[allow(clippy::too_many_arguments)]
pub(crate) fn finish_run(
    config: &ExperimentConfig,
    setting: &Setting,
    sample: usize,
    acquisition: AcquisitionName,
    indices: (usize, usize),
    incumbent: &[f64],
    costs: &[f64],
    f_min: f64,
    rules: &RuleObservers,
) -> Result<(RunResult, RuleTimes), String> {
    if incumbent.len() != config.max_evals {
        return Err(format!(
            "run (cost {}, λ {}, sample {sample}, {}) ended after {} evaluations instead of the \
             cap {}",
            setting.cost.key(),
            setting.lambda,
            acquisition.label(),
            incumbent.len(),
            config.max_evals
        ));
    }
    let mut spent = 0.0;
    let cumulative_cost = costs
        .iter()
        .map(|c| {
            spent += c;
            spent
        })
        .collect();
    let checks = match config.trace_statistic {
        true => config.max_evals + 1 - config.initial_points,
        false => 0,
    };
    if rules.statistic.len() != checks {
        return Err(format!(
            "run (cost {}, λ {}, sample {sample}, {}) traced {} statistics instead of {checks}",
            setting.cost.key(),
            setting.lambda,
            acquisition.label(),
            rules.statistic.len()
        ));
    }
    let result = RunResult {
        setting: indices.0,
        sample,
        acquisition: indices.1,
        simple_regret: incumbent.iter().map(|y| y - f_min).collect(),
        cumulative_cost,
        fired: rules.stop.iter().map(Option::is_some).collect(),
        stop: rules
            .stop
            .iter()
            .map(|s| s.unwrap_or(config.max_evals))
            .collect(),
        statistic: rules.statistic.clone(),
    };
    Ok((result, rules.times()))
}

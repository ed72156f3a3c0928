//! The experiment's configuration: defaults for a quick run of the stopping paper's 1-D
//! Bayesian-regret experiment (§4.1, App. B), read from TOML or JSON with unknown keys rejected.
use super::rules::{find_rule, RuleContext, RuleFactory, RULES};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// Everything that defines an experiment. Field defaults reproduce the paper's setting except
/// for the number of seeds (paper: 50; default 10 for a run of a few minutes).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct ExperimentConfig {
    /// Objective draws per configuration (paper: 50, stopping paper §4 and App. B).
    pub seeds: usize,
    /// Master seed from which every run's random streams are derived.
    pub master_seed: u64,
    /// Points of the grid on `[0, 1]` (paper: 10,001, App. B "Acquisition function
    /// optimization"; default 1001, the simulator's default, which keeps exact joint sampling
    /// for PRB affordable).
    pub grid_points: usize,
    /// Matérn-5/2 length scale (paper: 0.1, §4.1).
    pub length_scale: f64,
    /// Initial design size (paper: `2(d + 1) = 4`, App. B).
    pub initial_points: usize,
    /// Iteration cap, in total evaluations (paper: 100 for 1-D, App. B).
    pub cap: usize,
    /// Cost functions: `uniform`, `linear`, `periodic` (App. B, "Cost functions").
    pub costs: Vec<String>,
    /// Cost-scaling factors `λ` (paper: 0.1, 0.01, 0.001, App. C.4).
    pub lambdas: Vec<f64>,
    /// Acquisition functions by name (paper: PBGI, LogEIPC, LCB, TS; §4).
    pub acquisitions: Vec<String>,
    /// Stopping rules by registry key with optional parameter overrides; absent = every
    /// registered rule with its paper defaults.
    pub rules: Option<BTreeMap<String, serde_json::Value>>,
}

impl Default for ExperimentConfig {
    fn default() -> Self {
        Self {
            seeds: 10,
            master_seed: 20_251_122,
            grid_points: 1001,
            length_scale: 0.1,
            initial_points: 4,
            cap: 100,
            costs: vec!["uniform".into(), "linear".into(), "periodic".into()],
            lambdas: vec![0.1, 0.01, 0.001],
            acquisitions: vec!["PBGI".into(), "LogEIPC".into(), "LCB".into(), "TS".into()],
            rules: None,
        }
    }
}

/// The cost-function names the experiment knows.
pub const COST_NAMES: &[&str] = &["uniform", "linear", "periodic"];

impl ExperimentConfig {
    /// Reads a config file: `.toml` or `.json` by extension. Errors name the file and the bad
    /// key or value.
    pub fn from_file(path: &Path) -> Result<Self, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read config file {}: {e}", path.display()))?;
        let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        let parsed: Result<Self, String> = match extension {
            "toml" => toml::from_str(&text).map_err(|e| e.to_string()),
            "json" => serde_json::from_str(&text).map_err(|e| e.to_string()),
            _ => {
                return Err(format!(
                    "config file {} must end in .toml or .json",
                    path.display()
                ))
            }
        };
        let config = parsed.map_err(|e| format!("config file {}: {e}", path.display()))?;
        config
            .validate()
            .map_err(|e| format!("config file {}: {e}", path.display()))?;
        Ok(config)
    }

    /// Checks ranges and names, and that every rule's parameters parse; errors name the key.
    pub fn validate(&self) -> Result<(), String> {
        if self.seeds == 0 {
            return Err("seeds = 0: at least one seed is needed".into());
        }
        if self.grid_points < 2 {
            return Err(format!(
                "grid_points = {} must be at least 2",
                self.grid_points
            ));
        }
        if !(self.length_scale > 0.0 && self.length_scale.is_finite()) {
            return Err(format!(
                "length_scale = {} must be positive and finite",
                self.length_scale
            ));
        }
        if self.initial_points == 0 || self.initial_points > self.grid_points {
            return Err(format!(
                "initial_points = {} must lie in 1..={} (grid_points)",
                self.initial_points, self.grid_points
            ));
        }
        if self.cap < self.initial_points || self.cap > self.grid_points {
            return Err(format!(
                "cap = {} must lie in initial_points..=grid_points ({}..={})",
                self.cap, self.initial_points, self.grid_points
            ));
        }
        if self.costs.is_empty() {
            return Err("costs is empty".into());
        }
        for c in &self.costs {
            if !COST_NAMES.contains(&c.as_str()) {
                return Err(format!(
                    "costs: unknown cost `{c}`; known: {}",
                    COST_NAMES.join(", ")
                ));
            }
        }
        if self.lambdas.is_empty() {
            return Err("lambdas is empty".into());
        }
        for &l in &self.lambdas {
            if !(l > 0.0 && l.is_finite()) {
                return Err(format!("lambdas: {l} must be positive and finite"));
            }
        }
        if self.acquisitions.is_empty() {
            return Err("acquisitions is empty".into());
        }
        self.rule_factories().map(|_| ())
    }

    /// The context rules see (1-D domain).
    pub fn rule_context(&self) -> RuleContext {
        RuleContext {
            dim: 1,
            initial_points: self.initial_points,
            cap: self.cap,
        }
    }

    /// `(key, factory)` for each selected rule, in registry order.
    pub fn rule_factories(&self) -> Result<Vec<(&'static str, RuleFactory)>, String> {
        let context = self.rule_context();
        match &self.rules {
            None => RULES
                .iter()
                .map(|spec| Ok((spec.key, (spec.build)(&serde_json::Value::Null, &context)?)))
                .collect(),
            Some(selected) => {
                for key in selected.keys() {
                    find_rule(key).map_err(|e| format!("rules: {e}"))?;
                }
                if selected.is_empty() {
                    return Err("rules is empty".into());
                }
                RULES
                    .iter()
                    .filter_map(|spec| selected.get(spec.key).map(|params| (spec, params)))
                    .map(|(spec, params)| {
                        let factory = (spec.build)(params, &context)
                            .map_err(|e| format!("rules.{}: {e}", spec.key))?;
                        Ok((spec.key, factory))
                    })
                    .collect()
            }
        }
    }
}

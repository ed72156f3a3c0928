//! The configuration of `pbgi validate` (TOML, or JSON for `.json` files; every key optional,
//! unknown keys are errors that name the key). `pbgi validate --print-config` prints the
//! default, and every run writes the configuration in effect to `DIR/config.toml`.
use super::study::{Configuration, Study};
use crate::acquisitions::AcquisitionName;
use crate::rules::pbgi_logeipc::PracticalOptions;
use crate::study::config::{
    build_problem, check_distinct, check_lambdas, study_config, CostName, DomainConfig,
    PeriodicConfig, PriorConfig,
};

study_config! {
    /// The study's configuration file: the keys every study shares, then `[rule]`. Theorem 1's
    /// `μ` is `prior.mean`; the study simulates `f − μ` (centred coordinates: every reported
    /// quantity is invariant under a shift of the mean).
    pub struct Config {
        /// Practical options of the stopping rule (outside the theorem unless all off).
        pub rule: PracticalOptions,
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            seed: 20_251_121,
            samples: 1000,
            initial_points: 1,
            max_evals: 1001,
            costs: vec![CostName::Uniform, CostName::Linear, CostName::Periodic],
            lambdas: vec![0.1, 0.01, 0.001],
            acquisitions: vec![AcquisitionName::Pbgi, AcquisitionName::LogEipc],
            prior: PriorConfig::default(),
            domain: DomainConfig::default(),
            periodic: PeriodicConfig::default(),
            rule: PracticalOptions::THEOREM,
        }
    }
}

impl Config {
    /// Builds the study this configuration describes (sets up the prior: `O(n log n)` on a
    /// regular grid, `O(n³)` otherwise). Errors name the key.
    pub fn build(&self) -> Result<Study, String> {
        if self.samples == 0 {
            return Err("samples: must be ≥ 1".into());
        }
        crate::study::bounds::check_finite_domain(
            self.samples,
            self.domain.points,
            self.domain.kind == crate::study::config::DomainKind::Random,
            self.domain.dim,
            self.max_evals,
        )?;
        check_distinct("costs", &self.costs, CostName::key)?;
        check_distinct("acquisitions", &self.acquisitions, AcquisitionName::key)?;
        check_lambdas(&self.lambdas)?;
        self.rule.validate().map_err(|e| format!("rule.{e}"))?;
        if self.prior.mll_fit()?.is_some() {
            return Err(
                "prior.hyperparameters: \"mll\" is for `pbgi experiment`; Theorem 1 is about a \
                 known prior (leave it \"fixed\")"
                    .into(),
            );
        }
        let problem = build_problem(&self.prior, &self.domain, true)?;
        let mut configurations = Vec::new();
        for &cost in &self.costs {
            for &lambda in &self.lambdas {
                for &acquisition in &self.acquisitions {
                    configurations.push(Configuration {
                        cost_name: cost,
                        cost: cost.function(&self.periodic),
                        lambda,
                        acquisition,
                    });
                }
            }
        }
        let study = Study {
            problem,
            prior_mean: self.prior.mean,
            configurations,
            samples: self.samples,
            initial_points: self.initial_points,
            max_evals: self.max_evals,
            rule: self.rule,
            seed: self.seed,
        };
        study.validate()?;
        Ok(study)
    }
}

//! The configuration pieces both studies share, with the same names in both: the GP prior
//! (`[prior]`), the domain (`[domain]`), the cost functions and their scales (`costs`,
//! `lambdas`, `[periodic]`), the acquisitions, the master `seed`, the evaluation cap
//! `max_evals`, and how files are read and numbers printed. Every table rejects unknown keys
//! with an error that names the key.
use crate::bo::{CostFunction, PeriodicAnchor};
use crate::gp::{Domain, Kernel, KernelKind, Problem};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Declares a study's configuration struct: the ten keys every study shares, declared here
/// once and first in every file (`seed`, `samples`, `initial_points`, `max_evals`, `costs`,
/// `lambdas`, `acquisitions`, `[prior]`, `[domain]`, `[periodic]`), then the study's own keys.
/// Every key is optional (`Default` gives the study's defaults) and unknown keys are errors
/// that name the key.
///
/// A macro rather than a nested struct under `#[serde(flatten)]`: flatten drops
/// `deny_unknown_fields` and the line and column of a bad value, and the keys stay fields of
/// the study's struct (`Config { seed, ..Config::default() }`).
macro_rules! study_config {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $($(#[$field_meta:meta])* pub $field:ident: $type:ty,)*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        #[serde(deny_unknown_fields, default)]
        pub struct $name {
            /// Master seed from which every run's random streams are derived.
            #[serde(with = "crate::study::config::seed_serde")]
            pub seed: u64,
            /// Number of samples (prior draws of the objective; the stopping paper's "seeds").
            pub samples: usize,
            /// Initial design size (Theorem 1: 1; the stopping paper: `2(d + 1)`, App. B).
            pub initial_points: usize,
            /// Evaluation cap, initial points included.
            pub max_evals: usize,
            /// Cost functions: `uniform`, `linear`, `periodic` (anchor drawn independently of
            /// `f`), and `periodic@argmin` (the paper's anchor at `f`'s minimiser, App. B;
            /// outside Theorem 1).
            pub costs: Vec<crate::study::config::CostName>,
            /// Cost scales `λ` (distinct; the paper: 0.1, 0.01, 0.001, App. C.4).
            pub lambdas: Vec<f64>,
            /// Acquisitions: `pbgi`, `logeipc`, `lcb`, `ts` (the last two outside Theorem 1).
            pub acquisitions: Vec<crate::acquisitions::AcquisitionName>,
            /// The GP prior (paper: Matérn-5/2, length scale 0.1, mean 0, variance 1). Its
            /// `mean` is Theorem 1's `μ`.
            pub prior: crate::study::config::PriorConfig,
            /// The domain.
            pub domain: crate::study::config::DomainConfig,
            /// Periodic cost parameters (paper: `α = β = 2`).
            pub periodic: crate::study::config::PeriodicConfig,
            $($(#[$field_meta])* pub $field: $type,)*
        }
    };
}
pub(crate) use study_config;

/// `[prior]`: the GP prior `N(μ, K + εI)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PriorConfig {
    /// `matern52` or `squared_exponential`.
    pub kernel: KernelKind,
    /// Length scale `ℓ` (stopping paper: 0.1).
    pub length_scale: f64,
    /// Output scale `s²`.
    pub outputscale: f64,
    /// Constant mean `μ`.
    pub mean: f64,
    /// Jitter `ε` added to the covariance diagonal (part of the model; see `gp::prior`).
    pub jitter: f64,
    /// The model's length scale and output scale: `fixed` at the prior's (default; every
    /// paper preset, as the authors' code) or `mll`, refitted by maximum marginal likelihood
    /// after every observation (`pbgi experiment` on a grid only; `gp::marginal_likelihood`).
    /// Left out of the configuration written when `fixed`, so outputs of earlier versions
    /// compare equal.
    #[serde(skip_serializing_if = "HyperparameterFit::is_fixed")]
    pub hyperparameters: HyperparameterFit,
    /// `[ℓ_min, ℓ_max]` of the fitted length scale (`mll` only; default
    /// [`DEFAULT_LENGTH_SCALE_BOUNDS`]); left out of the configuration written when default.
    #[serde(skip_serializing_if = "is_default_length_scale_bounds")]
    pub length_scale_bounds: [f64; 2],
}

impl Default for PriorConfig {
    fn default() -> Self {
        PriorConfig {
            kernel: KernelKind::Matern52,
            length_scale: 0.1,
            outputscale: 1.0,
            mean: 0.0,
            jitter: crate::gp::prior::DEFAULT_RELATIVE_JITTER,
            hyperparameters: HyperparameterFit::Fixed,
            length_scale_bounds: DEFAULT_LENGTH_SCALE_BOUNDS,
        }
    }
}

/// The default bounds of a fitted length scale on `[0, 1]`: from 0.01 (ten times below the
/// paper's 0.1; a hundred spacings of the 10,001-point grid, ten of the 1001-point one) to 0.5
/// (half the domain, five times the paper's: the Matérn-5/2 correlation across the whole
/// domain is then still 0.14, and longer scales are barely told apart by observations inside
/// it). The prior's circulant embedding (which samples the fitted prior for Thompson
/// sampling) is exact across this range on the 1001- and 10,001-point grids, and fails on the
/// 10,001-point grid from about ℓ = 0.8 (test
/// `the_fitted_prior_embeds_across_the_default_bounds`).
pub const DEFAULT_LENGTH_SCALE_BOUNDS: [f64; 2] = [0.01, 0.5];

fn is_default_length_scale_bounds(bounds: &[f64; 2]) -> bool {
    *bounds == DEFAULT_LENGTH_SCALE_BOUNDS
}

/// `[prior] hyperparameters`: how the model's length scale and output scale are set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum HyperparameterFit {
    /// The prior's, throughout (the stopping paper's code: `requires_grad = False`).
    #[default]
    Fixed,
    /// Refitted after every observation by maximum marginal likelihood (the isotropic length
    /// scale within `length_scale_bounds`, the output scale in closed form).
    Mll,
}

impl HyperparameterFit {
    /// Whether the hyperparameters stay the prior's.
    pub fn is_fixed(&self) -> bool {
        *self == HyperparameterFit::Fixed
    }
}

impl PriorConfig {
    /// The marginal-likelihood fit `[prior]` asks for (`None` when `fixed`), with its bounds
    /// checked. `length_scale_bounds` set away from its default with `fixed` is an error (it
    /// would be silently unused).
    pub fn mll_fit(&self) -> Result<Option<crate::gp::MllFit>, String> {
        let [low, high] = self.length_scale_bounds;
        if self.hyperparameters.is_fixed() {
            if !is_default_length_scale_bounds(&self.length_scale_bounds) {
                return Err(format!(
                    "prior.length_scale_bounds: [{}, {}] is only used with hyperparameters = \
                     \"mll\" (hyperparameters is \"fixed\")",
                    format_number(low),
                    format_number(high)
                ));
            }
            return Ok(None);
        }
        if !(low.is_finite() && high.is_finite() && low > 0.0 && low <= high) {
            return Err(format!(
                "prior.length_scale_bounds: [{}, {}] must be finite with 0 < ℓ_min ≤ ℓ_max",
                format_number(low),
                format_number(high)
            ));
        }
        Ok(Some(crate::gp::MllFit {
            kind: self.kernel,
            outputscale: self.outputscale,
            mean: self.mean,
            jitter: self.jitter,
            length_scale_bounds: self.length_scale_bounds,
        }))
    }
}

/// What kind of finite domain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DomainKind {
    /// The regular 1-D grid `i/(n−1)` over `[0, 1]`.
    Grid,
    /// `points` uniform points in `[0, 1]^dim`, fixed by `[domain] seed`.
    Random,
    /// The continuous cube `[0, 1]^dim` (the experiment only): objectives are random-Fourier-
    /// feature paths and acquisitions are optimised continuously (`[search]`); `points` and
    /// `seed` are unused.
    Cube,
}

/// `[domain]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DomainConfig {
    /// `grid`, `random` or `cube`.
    pub kind: DomainKind,
    /// Number of points.
    pub points: usize,
    /// Dimension (`random` only; a grid is 1-D).
    pub dim: usize,
    /// Seed of the random point set (`random` only).
    #[serde(with = "seed_serde")]
    pub seed: u64,
}

impl Default for DomainConfig {
    fn default() -> Self {
        DomainConfig {
            kind: DomainKind::Grid,
            points: 1001,
            dim: 1,
            seed: 0,
        }
    }
}

/// `[periodic]`: the periodic cost's parameters (stopping paper, App. B: `α = β = 2`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PeriodicConfig {
    /// Amplitude `α`.
    pub alpha: f64,
    /// Frequency `β`.
    pub beta: f64,
    /// Fixed anchor `x*` for `periodic` instead of a random one (empty: random, independent
    /// of `f`).
    pub anchor: Vec<f64>,
}

impl Default for PeriodicConfig {
    fn default() -> Self {
        PeriodicConfig {
            alpha: 2.0,
            beta: 2.0,
            anchor: Vec::new(),
        }
    }
}

/// The cost functions by their configuration names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum CostName {
    /// `c ≡ 1`.
    #[serde(rename = "uniform")]
    Uniform,
    /// `c(x) = (1 + 20·mean_i x_i)/11`.
    #[serde(rename = "linear")]
    Linear,
    /// Periodic, centred at a point drawn independently of `f` (or `[periodic] anchor`).
    #[serde(rename = "periodic")]
    Periodic,
    /// Periodic, centred at `f`'s minimiser: the stopping paper's choice (App. B); the cost
    /// then depends on `f`, outside Theorem 1.
    #[serde(rename = "periodic@argmin")]
    PeriodicAtArgmin,
}

impl CostName {
    /// Configuration name.
    pub fn key(self) -> &'static str {
        match self {
            CostName::Uniform => "uniform",
            CostName::Linear => "linear",
            CostName::Periodic => "periodic",
            CostName::PeriodicAtArgmin => "periodic@argmin",
        }
    }

    /// The cost function.
    pub fn function(self, periodic: &PeriodicConfig) -> CostFunction {
        let periodic_with = |anchor| CostFunction::Periodic {
            alpha: periodic.alpha,
            beta: periodic.beta,
            anchor,
        };
        match self {
            CostName::Uniform => CostFunction::Uniform,
            CostName::Linear => CostFunction::Linear,
            CostName::Periodic if periodic.anchor.is_empty() => {
                periodic_with(PeriodicAnchor::Independent)
            }
            CostName::Periodic => periodic_with(PeriodicAnchor::Fixed(periodic.anchor.clone())),
            CostName::PeriodicAtArgmin => periodic_with(PeriodicAnchor::ObjectiveArgmin),
        }
    }
}

/// The domain a configuration describes. Errors name the key.
pub fn build_domain(config: &DomainConfig) -> Result<Domain, String> {
    match config.kind {
        DomainKind::Grid => {
            if config.dim != 1 {
                return Err(format!(
                    "domain.dim: a grid is 1-D, got dim = {} (use kind = \"random\")",
                    config.dim
                ));
            }
            Domain::grid_1d(config.points).map_err(|e| format!("domain.points: {e}"))
        }
        DomainKind::Random => Domain::random_cube(config.dim, config.points, config.seed)
            .map_err(|e| format!("domain: {e}")),
        DomainKind::Cube => Err(
            "domain.kind: `cube` (the continuous cube) is for `pbgi experiment` only; use \
             `grid` or `random` here"
                .into(),
        ),
    }
}

/// The prior on the configured domain. `centred = true` simulates with mean 0 (the studies'
/// centred coordinates: every reported quantity is invariant under a shift of `μ`, so `f − μ`
/// is simulated and `μ` only echoed; a mean of 1e16 then cannot swamp the values in rounding).
pub fn build_problem(
    prior: &PriorConfig,
    domain: &DomainConfig,
    centred: bool,
) -> Result<Problem, String> {
    let kernel = Kernel {
        kind: prior.kernel,
        length_scale: prior.length_scale,
        outputscale: prior.outputscale,
    };
    kernel.validate().map_err(|e| format!("prior.{e}"))?;
    if !prior.mean.is_finite() {
        return Err(format!("prior.mean: must be finite, got {}", prior.mean));
    }
    let mean = if centred { 0.0 } else { prior.mean };
    Problem::new(build_domain(domain)?, kernel, mean, prior.jitter)
        .map_err(|e| format!("prior: {e}"))
}

/// Checks `lambdas`: non-empty, each finite and > 0, no value twice (a repeated λ would give
/// two identical rows). Errors name the key and the index.
pub fn check_lambdas(lambdas: &[f64]) -> Result<(), String> {
    if lambdas.is_empty() {
        return Err("lambdas: the list is empty".into());
    }
    for (i, &lambda) in lambdas.iter().enumerate() {
        if !(lambda.is_finite() && lambda > 0.0) {
            return Err(format!(
                "lambdas[{i}]: each λ must be finite and > 0, got {}",
                format_number(lambda)
            ));
        }
        if let Some(j) = lambdas[..i].iter().position(|&l| l == lambda) {
            return Err(format!(
                "lambdas[{i}]: λ = {} repeats lambdas[{j}]",
                format_number(lambda)
            ));
        }
    }
    Ok(())
}

/// Checks a list of names (costs, acquisitions): non-empty and no name twice.
pub fn check_distinct<T: PartialEq + Copy>(
    key: &str,
    items: &[T],
    name: impl Fn(T) -> &'static str,
) -> Result<(), String> {
    if items.is_empty() {
        return Err(format!("{key}: the list is empty"));
    }
    for (i, &item) in items.iter().enumerate() {
        if let Some(j) = items[..i].iter().position(|&o| o == item) {
            return Err(format!("{key}[{i}]: `{}` repeats {key}[{j}]", name(item)));
        }
    }
    Ok(())
}

/// A number as a short, exact decimal: the shortest digits that read back to the same `f64`,
/// in scientific notation outside `[1e-4, 1e6)` (so `1e-300` prints as `1e-300`, not as 300
/// zeros).
pub fn format_number(x: f64) -> String {
    let magnitude = x.abs();
    if x == 0.0 || !x.is_finite() || (1e-4..1e6).contains(&magnitude) {
        format!("{x}")
    } else {
        format!("{x:e}")
    }
}

/// Parses a configuration: JSON when `json`, otherwise TOML. Errors name the bad key (and, for
/// TOML, the line and column).
pub fn parse_config<T: DeserializeOwned>(text: &str, json: bool) -> Result<T, String> {
    if json {
        // serde fills a struct from a JSON array by position (`[1, 2]` would be seed 1,
        // samples 2, and `[]` the defaults): only an object names its keys.
        let start = text.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
        if !start.starts_with('{') {
            let skipped = &text[..text.len() - start.len()];
            let line = 1 + skipped.matches('\n').count();
            let column = 1 + skipped.rsplit('\n').next().map_or(0, |l| l.chars().count());
            let found = start
                .chars()
                .next()
                .map_or("nothing".to_string(), |c| format!("{c:?}"));
            return Err(format!(
                "line {line}, column {column}: a JSON configuration is one object \
                 ({{\"key\": value, …}}), found {found} first"
            ));
        }
        serde_json::from_str(text).map_err(|e| e.to_string())
    } else {
        toml::from_str(text).map_err(|e: toml::de::Error| e.to_string().trim_end().to_string())
    }
}

/// Parses the text of configuration file `path`: `.json` as JSON, anything else as TOML.
/// Errors name the file (reading it, with a size cap, is the caller's job).
pub fn parse_config_file<T: DeserializeOwned>(path: &Path, text: &str) -> Result<T, String> {
    let json = path.extension().is_some_and(|e| e == "json");
    parse_config(text, json).map_err(|e| format!("{}: {e}", path.display()))
}

/// The configuration as TOML, as echoed into every output directory.
pub fn to_toml<T: Serialize>(config: &T) -> Result<String, String> {
    toml::to_string(config).map_err(|e| format!("cannot write the configuration as TOML: {e}"))
}

/// The most worker threads per core a run may ask for: beyond the cores they only contend
/// (`--threads 10000` took 108 s for the work of 0.1 s), and each holds a stack.
pub const MAX_THREADS_PER_CORE: usize = 4;

/// A worker pool of `threads` threads (`None`: one per core). Results never depend on it.
/// `Some(0)` is an error: leave the option out for all cores; so is more than
/// [`MAX_THREADS_PER_CORE`] per core.
pub fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool, String> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let most = MAX_THREADS_PER_CORE * cores;
    match threads {
        Some(0) => return Err("--threads must be ≥ 1 (leave it out to use every core)".into()),
        Some(k) if k > most => {
            return Err(format!(
                "--threads {k}: at most {most} ({MAX_THREADS_PER_CORE} × the {cores} cores \
                 here); more threads only contend (the results do not depend on the count)"
            ))
        }
        Some(k) => builder = builder.num_threads(k),
        None => {}
    }
    builder
        .build()
        .map_err(|e| format!("cannot start the worker threads: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_json_configuration_is_an_object_never_an_array() {
        #[derive(serde::Deserialize, Debug, Default)]
        #[serde(default)]
        struct Two {
            seed: u64,
            samples: u64,
        }
        for text in ["[1, 2]", "[]", " 5", "\"x\"", "null", ""] {
            let e = parse_config::<Two>(text, true).unwrap_err();
            assert!(
                e.starts_with("line 1, column ")
                    && e.contains(": a JSON configuration is one object"),
                "{text}: {e}"
            );
        }
        let two: Two = parse_config(" {\"samples\": 2}", true).unwrap();
        assert_eq!((two.seed, two.samples), (0, 2));
    }

    #[test]
    fn numbers_print_short() {
        assert_eq!(format_number(0.1), "0.1");
        assert_eq!(format_number(1e-300), "1e-300");
        assert_eq!(format_number(1.5e300), "1.5e300");
        assert_eq!(format_number(0.001), "0.001");
        assert_eq!(format_number(2.5e-7), "2.5e-7");
    }

    #[test]
    fn repeated_lambdas_and_names_are_refused() {
        let e = check_lambdas(&[0.1, 0.01, 0.1]).unwrap_err();
        assert!(e.contains("lambdas[2]") && e.contains("lambdas[0]"), "{e}");
        let e = check_lambdas(&[0.1, f64::NAN]).unwrap_err();
        assert!(e.contains("lambdas[1]"), "{e}");
        let e = check_distinct(
            "costs",
            &[CostName::Linear, CostName::Linear],
            CostName::key,
        )
        .unwrap_err();
        assert!(e.contains("costs[1]") && e.contains("linear"), "{e}");
    }
}

/// Serde for master seeds: any `u64`. TOML integers are `i64`, so a seed above `i64::MAX` is
/// written (and may be given) as a decimal string; smaller seeds stay integers.
pub mod seed_serde {
    use serde::de::{self, Visitor};
    use serde::{Deserializer, Serializer};
    use std::fmt;

    /// Writes `seed` as an integer when it fits `i64`, else as a decimal string.
    pub fn serialize<S: Serializer>(seed: &u64, serializer: S) -> Result<S::Ok, S::Error> {
        match i64::try_from(*seed) {
            Ok(small) => serializer.serialize_i64(small),
            Err(_) => serializer.serialize_str(&seed.to_string()),
        }
    }

    /// Reads a non-negative integer or a decimal string of one.
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u64, D::Error> {
        struct SeedVisitor;
        impl Visitor<'_> for SeedVisitor {
            type Value = u64;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an integer in 0..=18446744073709551615 (as a string above 2^63 - 1)")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<u64, E> {
                Ok(v)
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<u64, E> {
                u64::try_from(v).map_err(|_| E::custom(format!("seed {v} is negative")))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<u64, E> {
                v.trim()
                    .parse()
                    .map_err(|_| E::custom(format!("seed `{v}` is not an integer in 0..=2^64 - 1")))
            }
        }
        deserializer.deserialize_any(SeedVisitor)
    }
}

//! Pandora's Box instances in f64 (MATH.md, "Pandora's Box", minimisation).
use std::fmt;

/// What was wrong with an instance: box (if any), field, reason.
#[derive(Clone, Debug, PartialEq)]
pub struct InstanceError {
    /// Offending box (input order), if the problem is a box's.
    pub box_index: Option<usize>,
    /// Offending field.
    pub field: &'static str,
    /// Reason, with the value given.
    pub message: String,
}

impl fmt::Display for InstanceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(i) = self.box_index {
            write!(f, "box {i}: ")?;
        }
        write!(f, "field \"{}\": {}", self.field, self.message)
    }
}

impl std::error::Error for InstanceError {}

/// Largest accepted `|Σ probs - 1|` (rounding of decimal probabilities to f64).
pub const PROBABILITY_SUM_TOLERANCE: f64 = 1e-12;

/// A box's value distribution.
#[derive(Clone, Debug, PartialEq)]
pub enum Distribution {
    /// Distinct finite values (sorted increasingly) with positive probabilities summing to 1
    /// within [`PROBABILITY_SUM_TOLERANCE`].
    Discrete {
        /// Values, increasing.
        values: Vec<f64>,
        /// Probabilities, aligned with `values`.
        probs: Vec<f64>,
    },
    /// `N(mean, sd²)`, `sd > 0`.
    Normal {
        /// Mean.
        mean: f64,
        /// Standard deviation.
        sd: f64,
    },
}

/// One box: cost `> 0` and distribution.
#[derive(Clone, Debug, PartialEq)]
pub struct PandoraBox {
    /// Opening cost.
    pub cost: f64,
    /// Value distribution.
    pub distribution: Distribution,
}

/// Boxes and an optional outside option `y0` (`None`: at least one box must be opened).
#[derive(Clone, Debug, PartialEq)]
pub struct Instance {
    boxes: Vec<PandoraBox>,
    outside: Option<f64>,
}

fn err(box_index: Option<usize>, field: &'static str, message: String) -> InstanceError {
    InstanceError {
        box_index,
        field,
        message,
    }
}

fn check_finite(x: f64, i: Option<usize>, field: &'static str) -> Result<(), InstanceError> {
    if x.is_finite() {
        Ok(())
    } else {
        Err(err(i, field, format!("must be finite, got {x}")))
    }
}

impl PandoraBox {
    /// A discrete box; atoms are sorted by value. `box_index` labels errors.
    ///
    /// # Errors
    /// Non-finite numbers, `cost ≤ 0`, empty or mismatched lists, probabilities `≤ 0` or not
    /// summing to 1, repeated values.
    pub fn discrete(
        cost: f64,
        values: &[f64],
        probs: &[f64],
        box_index: Option<usize>,
    ) -> Result<Self, InstanceError> {
        Self::check_cost(cost, box_index)?;
        if values.is_empty() || values.len() != probs.len() {
            return Err(err(
                box_index,
                "probs",
                format!(
                    "need as many probabilities as values (≥ 1), got {} and {}",
                    probs.len(),
                    values.len()
                ),
            ));
        }
        for (&v, &p) in values.iter().zip(probs) {
            check_finite(v, box_index, "values")?;
            if !(p > 0.0 && p.is_finite()) {
                return Err(err(box_index, "probs", format!("must be > 0, got {p}")));
            }
        }
        let sum: f64 = probs.iter().sum();
        if (sum - 1.0).abs() > PROBABILITY_SUM_TOLERANCE {
            return Err(err(
                box_index,
                "probs",
                format!("must sum to 1, sum is {sum}"),
            ));
        }
        let mut atoms: Vec<(f64, f64)> =
            values.iter().copied().zip(probs.iter().copied()).collect();
        atoms.sort_by(|a, b| a.0.total_cmp(&b.0));
        if atoms.windows(2).any(|w| w[0].0 == w[1].0) {
            return Err(err(box_index, "values", "values must be distinct".into()));
        }
        Ok(Self {
            cost,
            distribution: Distribution::Discrete {
                values: atoms.iter().map(|a| a.0).collect(),
                probs: atoms.iter().map(|a| a.1).collect(),
            },
        })
    }

    /// A normal box `N(mean, sd²)`.
    ///
    /// # Errors
    /// Non-finite numbers, `cost ≤ 0`, `sd ≤ 0`.
    pub fn normal(
        cost: f64,
        mean: f64,
        sd: f64,
        box_index: Option<usize>,
    ) -> Result<Self, InstanceError> {
        Self::check_cost(cost, box_index)?;
        check_finite(mean, box_index, "mean")?;
        if !(sd > 0.0 && sd.is_finite()) {
            return Err(err(
                box_index,
                "sd",
                format!("must be > 0 and finite, got {sd}"),
            ));
        }
        Ok(Self {
            cost,
            distribution: Distribution::Normal { mean, sd },
        })
    }

    fn check_cost(cost: f64, box_index: Option<usize>) -> Result<(), InstanceError> {
        if cost > 0.0 && cost.is_finite() {
            Ok(())
        } else {
            Err(err(
                box_index,
                "cost",
                format!("must be > 0 and finite, got {cost}"),
            ))
        }
    }

    /// `P(X > t)` (`strict`) or `P(X ≥ t)`. Normal: `erfc((t - μ)/(σ√2))/2` with `libm::erfc`
    /// (a few ULP; relative accuracy kept in the upper tail).
    pub fn survival(&self, t: f64, strict: bool) -> f64 {
        match &self.distribution {
            Distribution::Discrete { values, probs } => values
                .iter()
                .zip(probs)
                .filter(|(&v, _)| if strict { v > t } else { v >= t })
                .map(|(_, &p)| p)
                .sum(),
            Distribution::Normal { mean, sd } => {
                0.5 * libm::erfc((t - mean) / (sd * std::f64::consts::SQRT_2))
            }
        }
    }
}

impl Instance {
    /// An instance.
    ///
    /// # Errors
    /// No boxes, or a non-finite outside option.
    pub fn new(boxes: Vec<PandoraBox>, outside: Option<f64>) -> Result<Self, InstanceError> {
        if boxes.is_empty() {
            return Err(err(None, "boxes", "must contain at least one box".into()));
        }
        if let Some(y0) = outside {
            check_finite(y0, None, "outside")?;
        }
        Ok(Self { boxes, outside })
    }

    /// The boxes, input order.
    pub fn boxes(&self) -> &[PandoraBox] {
        &self.boxes
    }

    /// The outside option.
    pub fn outside(&self) -> Option<f64> {
        self.outside
    }
}

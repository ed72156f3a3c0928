//! Pandora's Box instances in exact rational arithmetic (MATH.md, "Pandora's Box and
//! Weitzman's policy", minimisation form).
//!
//! An instance is a list of boxes, each with a cost `c > 0` and an independent value
//! distribution (finite discrete, or normal `N(mean, sd²)`), plus an optional outside option
//! `y0` (the value already in hand; `None` means at least one box must be opened). Every
//! constructor validates its input and names the offending box and field on error.
use rug::Rational;
use std::fmt;

/// What was wrong with an instance: the box (if any), the field, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InstanceError {
    /// Index (0-based, input order) of the offending box; `None` for instance-level fields.
    pub box_index: Option<usize>,
    /// Name of the offending field (`"cost"`, `"probs"`, `"outside"`, ...).
    pub field: String,
    /// What was wrong, including the value given.
    pub message: String,
}

impl fmt::Display for InstanceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(i) = self.box_index {
            write!(f, "box {i}: ")?;
        }
        // Debug quoting: a field name read from a file may hold a line break or a quote.
        write!(f, "field {:?}: {}", self.field, self.message)
    }
}

impl std::error::Error for InstanceError {}

fn error(box_index: Option<usize>, field: &str, message: String) -> InstanceError {
    InstanceError {
        box_index,
        field: field.to_string(),
        message,
    }
}

/// A finite discrete distribution: distinct values with positive probabilities summing to
/// exactly 1, stored sorted by increasing value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Discrete {
    atoms: Vec<(Rational, Rational)>,
}

impl Discrete {
    /// Builds `P(X = values[j]) = probs[j]`. `box_index` only labels errors.
    ///
    /// # Errors
    /// Empty or mismatched lists, a probability `≤ 0`, probabilities not summing to exactly 1,
    /// or repeated values (a repeated value is an error rather than silently merged).
    pub fn new(
        values: Vec<Rational>,
        probs: Vec<Rational>,
        box_index: Option<usize>,
    ) -> Result<Self, InstanceError> {
        if values.is_empty() {
            return Err(error(box_index, "values", "must not be empty".into()));
        }
        if values.len() != probs.len() {
            return Err(error(
                box_index,
                "probs",
                format!(
                    "has {} entries but \"values\" has {}",
                    probs.len(),
                    values.len()
                ),
            ));
        }
        for (j, p) in probs.iter().enumerate() {
            if *p <= 0 {
                return Err(error(
                    box_index,
                    "probs",
                    format!("entry {j} must be > 0, got \"{p}\""),
                ));
            }
        }
        let total: Rational = probs.iter().sum();
        if total != 1 {
            return Err(error(
                box_index,
                "probs",
                format!("must sum to exactly 1, sum is \"{total}\""),
            ));
        }
        let mut atoms: Vec<(Rational, Rational)> = values.into_iter().zip(probs).collect();
        atoms.sort_by(|a, b| a.0.cmp(&b.0));
        for w in atoms.windows(2) {
            if w[0].0 == w[1].0 {
                return Err(error(
                    box_index,
                    "values",
                    format!(
                        "value \"{}\" appears twice (values must be distinct)",
                        w[0].0
                    ),
                ));
            }
        }
        Ok(Self { atoms })
    }

    /// The atoms `(value, probability)`, sorted by increasing value.
    pub fn atoms(&self) -> &[(Rational, Rational)] {
        &self.atoms
    }

    /// `P(X > t)` (`strict = true`) or `P(X ≥ t)` (`strict = false`), exactly.
    pub fn survival(&self, t: &Rational, strict: bool) -> Rational {
        self.atoms
            .iter()
            .filter(|(x, _)| if strict { x > t } else { x >= t })
            .map(|(_, p)| p)
            .sum()
    }

    /// `E[X]`, exactly.
    pub fn mean(&self) -> Rational {
        self.atoms.iter().map(|(x, p)| Rational::from(x * p)).sum()
    }

    /// `E[max(t - X, 0)]`, exactly (the left-hand side of the reservation-value equation).
    pub fn expected_shortfall(&self, t: &Rational) -> Rational {
        self.atoms
            .iter()
            .filter(|(x, _)| x < t)
            .map(|(x, p)| Rational::from(t - x) * p)
            .sum()
    }
}

/// The value distribution of one box.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Distribution {
    /// Finitely many values.
    Discrete(Discrete),
    /// `N(mean, sd²)` with `sd > 0`.
    Normal {
        /// Mean.
        mean: Rational,
        /// Standard deviation, `> 0`.
        sd: Rational,
    },
}

/// One box: opening cost `c > 0` and value distribution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PandoraBox {
    cost: Rational,
    distribution: Distribution,
}

impl PandoraBox {
    /// A box with cost `cost` and the given distribution. `box_index` only labels errors.
    ///
    /// # Errors
    /// `cost ≤ 0`; a normal distribution with `sd ≤ 0` (a point mass is a one-atom discrete
    /// box).
    pub fn new(
        cost: Rational,
        distribution: Distribution,
        box_index: Option<usize>,
    ) -> Result<Self, InstanceError> {
        if cost <= 0 {
            return Err(error(
                box_index,
                "cost",
                format!("must be > 0, got \"{cost}\""),
            ));
        }
        if let Distribution::Normal { sd, .. } = &distribution {
            if *sd <= 0 {
                return Err(error(
                    box_index,
                    "sd",
                    format!(
                        "must be > 0, got \"{sd}\" (use a one-value discrete box for a point mass)"
                    ),
                ));
            }
        }
        Ok(Self { cost, distribution })
    }

    /// Convenience constructor of a discrete box.
    ///
    /// # Errors
    /// As [`Discrete::new`] and [`PandoraBox::new`].
    pub fn discrete(
        cost: Rational,
        values: Vec<Rational>,
        probs: Vec<Rational>,
        box_index: Option<usize>,
    ) -> Result<Self, InstanceError> {
        let d = Discrete::new(values, probs, box_index)?;
        Self::new(cost, Distribution::Discrete(d), box_index)
    }

    /// Opening cost.
    pub fn cost(&self) -> &Rational {
        &self.cost
    }

    /// Value distribution.
    pub fn distribution(&self) -> &Distribution {
        &self.distribution
    }

    /// The same box with its cost multiplied by `lambda > 0` (Theorem 2's `λ·c`).
    pub fn with_scaled_cost(&self, lambda: &Rational) -> Self {
        Self {
            cost: Rational::from(&self.cost * lambda),
            distribution: self.distribution.clone(),
        }
    }

    /// The discrete distribution, if the box is discrete.
    pub fn as_discrete(&self) -> Option<&Discrete> {
        match &self.distribution {
            Distribution::Discrete(d) => Some(d),
            Distribution::Normal { .. } => None,
        }
    }
}

/// A Pandora's Box instance: boxes and an optional outside option `y0`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    boxes: Vec<PandoraBox>,
    outside: Option<Rational>,
}

impl Instance {
    /// An instance with the given boxes and outside option (`None`: at least one box must be
    /// opened).
    ///
    /// # Errors
    /// No boxes.
    pub fn new(boxes: Vec<PandoraBox>, outside: Option<Rational>) -> Result<Self, InstanceError> {
        if boxes.is_empty() {
            return Err(error(None, "boxes", "must contain at least one box".into()));
        }
        Ok(Self { boxes, outside })
    }

    /// The boxes, in input order.
    pub fn boxes(&self) -> &[PandoraBox] {
        &self.boxes
    }

    /// The outside option `y0`, if any.
    pub fn outside(&self) -> Option<&Rational> {
        self.outside.as_ref()
    }

    /// True when every box is discrete (then everything is computed in exact rationals).
    pub fn is_discrete(&self) -> bool {
        self.boxes.iter().all(|b| b.as_discrete().is_some())
    }

    /// The same instance with every cost multiplied by `lambda > 0`.
    pub fn with_scaled_costs(&self, lambda: &Rational) -> Self {
        Self {
            boxes: self
                .boxes
                .iter()
                .map(|b| b.with_scaled_cost(lambda))
                .collect(),
            outside: self.outside.clone(),
        }
    }

    /// The same boxes with another outside option.
    pub fn with_outside(&self, outside: Option<Rational>) -> Self {
        Self {
            boxes: self.boxes.clone(),
            outside,
        }
    }
}

/// The f64 nearest to `x` (ties to even), subnormals included; `±inf` beyond the largest
/// finite f64 (`x` at least `f64::MAX` plus half an ulp).
///
/// A rounding to 1100 bits first (enough for every f64, subnormals included) could land on a
/// midpoint between two doubles that `x` is not on, so the two neighbours are then compared
/// with `x` exactly.
pub fn nearest_f64(x: &Rational) -> f64 {
    let v = rug::Float::with_val(1100, x).to_f64();
    if !v.is_finite() || v == 0.0 && *x == 0 {
        return v;
    }
    let step = |v: f64, up: bool| -> f64 {
        // The next double away from (up) or towards (down) +∞.
        if v == 0.0 {
            return if up {
                f64::from_bits(1)
            } else {
                -f64::from_bits(1)
            };
        }
        let bits = v.to_bits();
        let away_from_zero = up == (v > 0.0);
        f64::from_bits(if away_from_zero { bits + 1 } else { bits - 1 })
    };
    let mut best = v;
    let mut best_distance = Rational::from_f64(v).map(|r| (r - x).abs());
    for candidate in [step(v, true), step(v, false)] {
        let Some(r) = Rational::from_f64(candidate) else {
            continue;
        };
        let distance = Some((r - x).abs());
        let closer =
            distance < best_distance || (distance == best_distance && candidate.to_bits() & 1 == 0);
        if closer {
            best = candidate;
            best_distance = distance;
        }
    }
    best
}

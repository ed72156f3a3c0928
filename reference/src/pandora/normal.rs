//! Instances with normal boxes (possibly mixed with discrete ones): certified indices, the
//! expected cost as a certified enclosure, and the objective by high-precision quadrature.
//!
//! * Index of a normal box: the certified [`crate::pbgi_with`] (enclosure of relative width
//!   `≤ 2^-200`). That function takes binary64 inputs, so `mean`, `sd` and `cost` are rounded to
//!   the nearest f64 first; [`GeneralEvaluation::rounded_parameters`] lists every parameter
//!   for which that rounding was inexact (all results are then for the rounded instance).
//!   Discrete boxes keep their exact rational indices.
//! * Order and ties: two indices are compared by their enclosures; boxes with identical
//!   parameters tie (input order). If two different indices, or an index and an atom/`y0`,
//!   cannot be separated, the evaluation reports an error rather than guess.
//! * `E[cost]` by MATH.md's product formula: with normal boxes only the survival functions
//!   `P(X_j > g_k) = erfc((g_k - μ_j)/(σ_j√2))/2` appear; they are evaluated at both ends of
//!   the index enclosure (they are monotone) at 128 bits and widened by a relative `2^-110`
//!   to cover MPFR's roundings, so `[cost_lower, cost_upper]` is an enclosure.
//! * Objective `E[best] + E[cost]` by the KWW form `E[min(y0, min_i max(X_i, g_i))]`
//!   `= a + ∫_a^T P(min(y0, min_i κ_i) > t) dt` (valid for every tie rule, all being optimal:
//!   tested against the DP on discrete instances), split at every index, atom and `y0` so each
//!   piece is analytic, integrated by [`super::quadrature`]; without outside option the range
//!   is truncated at `T ≥ μ_j + 40σ_j` for a normal box `j`, with tail `≤ σ_j·2^-1150`.
//!   The reported `objective_error` adds the quadrature estimates, the tail bound and the
//!   index-enclosure widths: an error *estimate* (the quadrature part is not a proof).
//! * `E[best] = objective - E[cost]`.
use super::instance::{Distribution, Instance, InstanceError};
use super::policy::Tie;
use super::quadrature::{integrate, normal_survival, PREC};
use super::reservation::discrete_reservation_value;
use crate::Accuracy;
use rug::float::Round;
use rug::{Float, Rational};
use std::cmp::Ordering;

/// Relative allowance added to cover MPFR roundings in the cost enclosure.
const ROUNDING_ALLOWANCE_BITS: u32 = 110;

/// The enclosure of one index.
#[derive(Clone, Debug)]
pub struct GeneralIndex {
    /// Lower bound.
    pub lower: Float,
    /// Upper bound.
    pub upper: Float,
    /// The exact value for a discrete box.
    pub exact: Option<Rational>,
    /// Nearest f64 (correctly rounded for normal boxes, by `pbgi`).
    pub value: f64,
    /// For a normal box, its rounded `(mean, sd, cost)`: identical triples tie exactly.
    normal_key: Option<(u64, u64, u64)>,
}

/// Results for an instance with normal boxes.
#[derive(Clone, Debug)]
pub struct GeneralEvaluation {
    /// Indices, input order.
    pub indices: Vec<GeneralIndex>,
    /// Opening order.
    pub order: Vec<usize>,
    /// Certified lower bound of `E[cost]`.
    pub cost_lower: Float,
    /// Certified upper bound of `E[cost]`.
    pub cost_upper: Float,
    /// `E[best] + E[cost]` by quadrature.
    pub objective: Float,
    /// Error estimate of `objective` (see the module docs).
    pub objective_error: Float,
    /// `(box, field)` for every normal parameter not exactly representable in f64.
    pub rounded_parameters: Vec<(usize, &'static str)>,
}

impl GeneralEvaluation {
    /// Midpoint of the cost enclosure.
    pub fn expected_cost(&self) -> Float {
        Float::with_val(PREC, &self.cost_lower + &self.cost_upper) / 2u32
    }

    /// `E[best] = objective - E[cost]` (error: `objective_error` plus half the cost width).
    pub fn expected_best(&self) -> Float {
        Float::with_val(PREC, &self.objective - &self.expected_cost())
    }
}

fn undecidable(box_index: usize, what: String) -> InstanceError {
    InstanceError {
        box_index: Some(box_index),
        field: "index".into(),
        message: format!("cannot decide {what} at 2^-200 relative precision"),
    }
}

fn to_f64_checked(
    x: &Rational,
    box_index: usize,
    field: &'static str,
    rounded: &mut Vec<(usize, &'static str)>,
) -> f64 {
    let v = Float::with_val(53, x).to_f64();
    if Rational::from_f64(v).as_ref() != Some(x) {
        rounded.push((box_index, field));
    }
    v
}

fn float_down(x: &Rational) -> Float {
    Float::with_val_round(PREC, x, Round::Down).0
}

fn float_up(x: &Rational) -> Float {
    Float::with_val_round(PREC, x, Round::Up).0
}

fn index_of(
    instance: &Instance,
    i: usize,
    rounded: &mut Vec<(usize, &'static str)>,
) -> Result<GeneralIndex, InstanceError> {
    let b = &instance.boxes()[i];
    match b.distribution() {
        Distribution::Discrete(d) => {
            let g = discrete_reservation_value(d, b.cost());
            Ok(GeneralIndex {
                lower: float_down(&g),
                upper: float_up(&g),
                value: Float::with_val(53, &g).to_f64(),
                exact: Some(g),
                normal_key: None,
            })
        }
        Distribution::Normal { mean, sd } => {
            let mu = to_f64_checked(mean, i, "mean", rounded);
            let sigma = to_f64_checked(sd, i, "sd", rounded);
            let cost = to_f64_checked(b.cost(), i, "cost", rounded);
            let acc = Accuracy {
                start_bits: 128,
                max_bits: 8192,
                enclosure_bits: 200,
            };
            let c = crate::pbgi_with(mu, sigma, cost, &acc).map_err(|e| InstanceError {
                box_index: Some(i),
                field: "normal".into(),
                message: format!("certified PBGI failed: {e}"),
            })?;
            Ok(GeneralIndex {
                lower: c.lower,
                upper: c.upper,
                value: c.value,
                exact: None,
                normal_key: Some((mu.to_bits(), sigma.to_bits(), cost.to_bits())),
            })
        }
    }
}

fn compare_indices(a: &GeneralIndex, b: &GeneralIndex) -> Option<Ordering> {
    if let (Some(x), Some(y)) = (&a.exact, &b.exact) {
        return Some(x.cmp(y));
    }
    if a.normal_key.is_some() && a.normal_key == b.normal_key {
        return Some(Ordering::Equal);
    }
    if a.upper < b.lower {
        Some(Ordering::Less)
    } else if a.lower > b.upper {
        Some(Ordering::Greater)
    } else {
        None
    }
}

/// How index `g` compares with the rational `v`, if decidable.
fn compare_with_value(g: &GeneralIndex, v: &Rational) -> Option<Ordering> {
    if let Some(x) = &g.exact {
        return Some(x.cmp(v));
    }
    if g.upper < *v {
        Some(Ordering::Less)
    } else if g.lower > *v {
        Some(Ordering::Greater)
    } else {
        None
    }
}

/// `[lower, upper]` of `P(X_j > g)` (or `≥`; equal for normal `X_j`).
fn survival_enclosure(
    instance: &Instance,
    j: usize,
    g: &GeneralIndex,
    k: usize,
    strict: bool,
) -> Result<(Float, Float), InstanceError> {
    match instance.boxes()[j].distribution() {
        Distribution::Discrete(d) => {
            let mut total = Rational::new();
            for (x, p) in d.atoms() {
                let ord = compare_with_value(g, x).ok_or_else(|| {
                    undecidable(
                        k,
                        format!("how the index compares with atom {x} of box {j}"),
                    )
                })?;
                // Counted when x > g (strict) or x ≥ g.
                if ord == Ordering::Less || (!strict && ord == Ordering::Equal) {
                    total += p;
                }
            }
            Ok((float_down(&total), float_up(&total)))
        }
        Distribution::Normal { mean, sd } => {
            let mu = Float::with_val(PREC, Float::with_val(53, mean).to_f64());
            let sigma = Float::with_val(PREC, Float::with_val(53, sd).to_f64());
            let lo = normal_survival(&mu, &sigma, &g.upper);
            let hi = normal_survival(&mu, &sigma, &g.lower);
            let slack = |x: &Float| Float::with_val(PREC, x >> ROUNDING_ALLOWANCE_BITS);
            let lo_slack = slack(&lo);
            let hi_slack = slack(&hi);
            Ok((lo - lo_slack, hi + hi_slack))
        }
    }
}

fn cost_enclosure(
    instance: &Instance,
    indices: &[GeneralIndex],
    order: &[usize],
    strict: bool,
) -> Result<(Float, Float), InstanceError> {
    let mut lower = Float::with_val(PREC, 0);
    let mut upper = Float::with_val(PREC, 0);
    for (pos, &k) in order.iter().enumerate() {
        let g = &indices[k];
        if let Some(y0) = instance.outside() {
            let ord = compare_with_value(g, y0).ok_or_else(|| {
                undecidable(k, "how the index compares with the outside option".into())
            })?;
            let opens = ord == Ordering::Less || (!strict && ord == Ordering::Equal);
            if !opens {
                continue;
            }
        }
        let mut p_lo = float_down(instance.boxes()[k].cost());
        let mut p_hi = float_up(instance.boxes()[k].cost());
        for &j in &order[..pos] {
            let (lo, hi) = survival_enclosure(instance, j, g, k, strict)?;
            p_lo *= lo;
            p_hi *= hi;
        }
        lower += p_lo;
        upper += p_hi;
    }
    let slack = Float::with_val(PREC, &upper >> ROUNDING_ALLOWANCE_BITS);
    Ok((lower - &slack, upper + slack))
}

/// The KWW objective by piecewise quadrature (module docs); returns (value, error estimate).
fn kww_quadrature(instance: &Instance, indices: &[GeneralIndex]) -> (Float, Float) {
    let mids: Vec<Float> = indices
        .iter()
        .map(|g| Float::with_val(PREC, &g.lower + &g.upper) / 2u32)
        .collect();
    let mut error = Float::with_val(PREC, 0);
    for g in indices {
        error += Float::with_val(PREC, &g.upper - &g.lower);
    }
    let mut breaks: Vec<Float> = mids.clone();
    let mut normal_tail: Option<(Float, Float)> = None;
    for b in instance.boxes() {
        match b.distribution() {
            Distribution::Discrete(d) => {
                breaks.extend(d.atoms().iter().map(|(x, _)| Float::with_val(PREC, x)));
            }
            Distribution::Normal { mean, sd } => {
                let mu = Float::with_val(PREC, Float::with_val(53, mean).to_f64());
                let sigma = Float::with_val(PREC, Float::with_val(53, sd).to_f64());
                if normal_tail.is_none() {
                    normal_tail = Some((Float::with_val(PREC, &sigma * 40u32) + &mu, sigma));
                }
            }
        }
    }
    let y0 = instance.outside().map(|v| Float::with_val(PREC, v));
    let start = mids
        .iter()
        .chain(y0.iter())
        .min_by(|a, b| a.partial_cmp(b).expect("finite"))
        .expect("non-empty")
        .clone();
    let end = match (&y0, &normal_tail) {
        (Some(y), _) => y.clone(),
        (None, Some((t, sigma))) => {
            error += Float::with_val(PREC, sigma >> 1150u32);
            breaks
                .iter()
                .chain(std::iter::once(t))
                .max_by(|a, b| a.partial_cmp(b).expect("finite"))
                .expect("non-empty")
                .clone()
        }
        (None, None) => breaks
            .iter()
            .max_by(|a, b| a.partial_cmp(b).expect("finite"))
            .expect("non-empty")
            .clone(),
    };
    breaks.push(start.clone());
    breaks.push(end.clone());
    breaks.retain(|x| *x >= start && *x <= end);
    breaks.sort_by(|a, b| a.partial_cmp(b).expect("finite"));
    breaks.dedup();
    // Survival function of each box at PREC bits.
    enum Survival {
        Atoms(Vec<(Float, Float)>),
        Normal(Float, Float),
    }
    let survivals: Vec<Survival> = instance
        .boxes()
        .iter()
        .map(|b| match b.distribution() {
            Distribution::Normal { mean, sd } => Survival::Normal(
                Float::with_val(PREC, Float::with_val(53, mean).to_f64()),
                Float::with_val(PREC, Float::with_val(53, sd).to_f64()),
            ),
            Distribution::Discrete(d) => Survival::Atoms(
                d.atoms()
                    .iter()
                    .map(|(x, p)| (Float::with_val(PREC, x), Float::with_val(PREC, p)))
                    .collect(),
            ),
        })
        .collect();
    let integrand = |t: &Float| -> Float {
        let mut prob = Float::with_val(PREC, 1);
        for (i, survival) in survivals.iter().enumerate() {
            if *t < mids[i] {
                continue;
            }
            prob *= match survival {
                Survival::Atoms(atoms) => {
                    let mut s = Float::with_val(PREC, 0);
                    for (x, p) in atoms {
                        if x > t {
                            s += p;
                        }
                    }
                    s
                }
                Survival::Normal(mu, sigma) => normal_survival(mu, sigma, t),
            };
        }
        prob
    };
    let mut value = start;
    for w in breaks.windows(2) {
        let q = integrate(integrand, &w[0], &w[1], 90);
        value += q.value;
        error += q.error_estimate;
    }
    let rounding = Float::with_val(PREC, value.abs_ref()) >> ROUNDING_ALLOWANCE_BITS;
    error += rounding;
    (value, error)
}

/// Evaluates the index policy on an instance that may contain normal boxes.
///
/// # Errors
/// An invalid tie probability; a failed certified PBGI; indices that cannot be ordered or
/// compared with an atom/`y0` at `2^-200` relative precision.
/// # Accuracy
/// Indices: certified. `E[cost]`: certified enclosure. Objective: estimate (module docs).
/// Compared with the exact discrete evaluation and with `pbgi_fast` in
/// `conformance/tests/pandora_fast_vs_reference.rs`.
pub fn evaluate_general(
    instance: &Instance,
    tie: &Tie,
) -> Result<GeneralEvaluation, InstanceError> {
    tie.validate()?;
    let mut rounded = Vec::new();
    let n = instance.boxes().len();
    let mut indices = Vec::with_capacity(n);
    for i in 0..n {
        indices.push(index_of(instance, i, &mut rounded)?);
    }
    for i in 0..n {
        for j in i + 1..n {
            if compare_indices(&indices[i], &indices[j]).is_none() {
                return Err(undecidable(
                    i,
                    format!("the order of the indices of boxes {i} and {j}"),
                ));
            }
        }
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| {
        compare_indices(&indices[a], &indices[b])
            .expect("checked above")
            .then(a.cmp(&b))
    });
    let (cost_lower, cost_upper) = match tie {
        Tie::Early => cost_enclosure(instance, &indices, &order, true)?,
        Tie::Late => cost_enclosure(instance, &indices, &order, false)?,
        Tie::Mixture(p) => {
            let (e_lo, e_hi) = cost_enclosure(instance, &indices, &order, true)?;
            let (l_lo, l_hi) = cost_enclosure(instance, &indices, &order, false)?;
            let p = Float::with_val(PREC, p);
            let q = Float::with_val(PREC, 1 - &p);
            let lo = Float::with_val(PREC, &p * &e_lo) + Float::with_val(PREC, &q * &l_lo);
            let hi = Float::with_val(PREC, &p * &e_hi) + Float::with_val(PREC, &q * &l_hi);
            let slack = Float::with_val(PREC, &hi >> ROUNDING_ALLOWANCE_BITS);
            (lo - &slack, hi + slack)
        }
    };
    let (objective, objective_error) = kww_quadrature(instance, &indices);
    Ok(GeneralEvaluation {
        indices,
        order,
        cost_lower,
        cost_upper,
        objective,
        objective_error,
        rounded_parameters: rounded,
    })
}

//! Theorem 1 of the stopping paper in the Pandora setting, exactly (MATH.md, "Theorem 1").
//!
//! Independent discrete boxes with a common mean `μ`, no outside option. The procedure opens a
//! given first box `x₁` (cost `C`), then repeatedly opens the unopened box of smallest PBGI
//! (reservation value) and stops as soon as `min PBGI ≥ y*` (ties stop) — Weitzman's policy on
//! the remaining boxes with outside option `y0 = X_{x₁}`. Theorem 1 claims
//! `E[total cost] ≤ C + U` with `U = μ - E[min_i X_i]`.
use super::evaluation::{evaluate, expected_minimum};
use super::instance::{Instance, InstanceError};
use super::policy::{not_discrete, IndexPolicy, Tie};
use rug::Rational;

/// Exact quantities of Theorem 1 for one instance and first box.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Theorem1 {
    /// `E[Σ_{t ≤ τ} c(x_t)]`, including the first box.
    pub expected_cost: Rational,
    /// `C = c(x₁)`.
    pub first_cost: Rational,
    /// `U = μ - E[min_i X_i]`.
    pub u: Rational,
}

impl Theorem1 {
    /// The bound `C + U`.
    pub fn bound(&self) -> Rational {
        Rational::from(&self.first_cost + &self.u)
    }

    /// Tightness `E[cost]/(C + U)` (≤ 1 when the theorem holds).
    pub fn ratio(&self) -> Rational {
        Rational::from(&self.expected_cost / &self.bound())
    }
}

fn field_error(field: &str, message: String) -> InstanceError {
    InstanceError {
        box_index: None,
        field: field.into(),
        message,
    }
}

/// Computes Theorem 1's expected cost and bound exactly for a discrete instance without
/// outside option whose boxes all have the same mean, starting at box `first`.
///
/// # Errors
/// A normal box; an outside option; unequal means; `first` out of range.
/// # Accuracy
/// Exact: `E[cost] = C + Σ_v P(X_{x₁} = v)·E[cost of Weitzman on the rest | y0 = v]`.
pub fn theorem1(instance: &Instance, first: usize) -> Result<Theorem1, InstanceError> {
    if instance.outside().is_some() {
        return Err(field_error(
            "outside",
            "Theorem 1 starts from an empty history: no outside option".into(),
        ));
    }
    let boxes = instance.boxes();
    let first_box = boxes.get(first).ok_or_else(|| {
        field_error(
            "first",
            format!("box {first} does not exist ({} boxes)", boxes.len()),
        )
    })?;
    let mut means = Vec::with_capacity(boxes.len());
    for (i, b) in boxes.iter().enumerate() {
        means.push(b.as_discrete().ok_or_else(|| not_discrete(i))?.mean());
    }
    if let Some(i) = means.iter().position(|m| *m != means[0]) {
        return Err(InstanceError {
            box_index: Some(i),
            field: "values".into(),
            message: format!(
                "Theorem 1 needs a constant mean: box {i} has mean {}, box 0 has {}",
                means[i], means[0]
            ),
        });
    }
    let u = Rational::from(&means[0] - &expected_minimum(instance)?);
    let rest: Vec<_> = boxes
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != first)
        .map(|(_, b)| b.clone())
        .collect();
    let mut expected_cost = first_box.cost().clone();
    if !rest.is_empty() {
        let rest = Instance::new(rest, None)?;
        let first_atoms = first_box.as_discrete().expect("checked discrete").atoms();
        for (v, p) in first_atoms {
            let given = rest.with_outside(Some(v.clone()));
            let policy = IndexPolicy::new(&given)?;
            let e = evaluate(&given, &policy, &Tie::Early)?;
            expected_cost += e.expected_cost * p;
        }
    }
    Ok(Theorem1 {
        expected_cost,
        first_cost: first_box.cost().clone(),
        u,
    })
}

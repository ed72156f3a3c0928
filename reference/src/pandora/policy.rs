//! Weitzman's index policy for discrete instances: the indices, the opening order, and the
//! tie-breaking rule (MATH.md, "Pandora's Box"; PBGI paper §3.2).
//!
//! The policy opens boxes in increasing index order; before opening box `k` it stops if the
//! best value in hand `M` satisfies `M < g_k`, opens if `M > g_k`, and at a tie `M = g_k`
//! follows [`Tie`]. Boxes with equal indices are opened in the order given by
//! [`IndexPolicy::order`] (by default: input order). All choices here are optimal (Weitzman;
//! tested against the DP in `reference/tests/pandora_weitzman.rs`), but they differ in cost.
use super::instance::{Instance, InstanceError};
use super::reservation::discrete_reservation_value;
use rug::Rational;

/// What the policy does when the best value in hand equals the next index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tie {
    /// Stop at ties (the default; the stopping paper's rule "ties stop").
    Early,
    /// Open the next box at ties.
    Late,
    /// With probability `p` (`0 ≤ p ≤ 1`) the whole run is stop-early, otherwise stop-late.
    /// The coin is tossed once per run: this is the mixture of Theorem 2 (PBGI paper, B.5),
    /// and it makes every expectation affine in `p`.
    Mixture(Rational),
}

impl Tie {
    /// Checks `0 ≤ p ≤ 1` for [`Tie::Mixture`].
    ///
    /// # Errors
    /// `p` outside `[0, 1]`.
    pub fn validate(&self) -> Result<(), InstanceError> {
        match self {
            Tie::Mixture(p) if *p < 0 || *p > 1 => Err(InstanceError {
                box_index: None,
                field: "tie".into(),
                message: format!("stop probability must be in [0, 1], got \"{p}\""),
            }),
            _ => Ok(()),
        }
    }
}

/// The index policy of a discrete instance: exact indices and an opening order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexPolicy {
    indices: Vec<Rational>,
    order: Vec<usize>,
}

/// The error for an operation that needs every box to be discrete.
pub fn not_discrete(box_index: usize) -> InstanceError {
    InstanceError {
        box_index: Some(box_index),
        field: "normal".into(),
        message: "exact rational evaluation needs discrete boxes".into(),
    }
}

impl IndexPolicy {
    /// The policy with exact reservation values, ties between boxes broken by input order.
    ///
    /// # Errors
    /// A normal box (use [`super::normal`] for those).
    pub fn new(instance: &Instance) -> Result<Self, InstanceError> {
        let mut indices = Vec::with_capacity(instance.boxes().len());
        for (i, b) in instance.boxes().iter().enumerate() {
            let d = b.as_discrete().ok_or_else(|| not_discrete(i))?;
            indices.push(discrete_reservation_value(d, b.cost()));
        }
        let mut order: Vec<usize> = (0..indices.len()).collect();
        order.sort_by(|&a, &b| indices[a].cmp(&indices[b]).then(a.cmp(&b)));
        Ok(Self { indices, order })
    }

    /// The same indices with boxes of equal index opened in the order of `tie_order` (a
    /// permutation of the boxes; only its relative order among equal indices matters).
    /// Theorem 2 uses this to take the order on one side of a crossing of two indices.
    pub fn with_tie_order(&self, tie_order: &[usize]) -> Self {
        let mut rank = vec![0; tie_order.len()];
        for (r, &i) in tie_order.iter().enumerate() {
            rank[i] = r;
        }
        let mut order: Vec<usize> = (0..self.indices.len()).collect();
        order.sort_by(|&a, &b| {
            self.indices[a]
                .cmp(&self.indices[b])
                .then(rank[a].cmp(&rank[b]))
        });
        Self {
            indices: self.indices.clone(),
            order,
        }
    }

    /// Reservation values `g_i`, in input order.
    pub fn indices(&self) -> &[Rational] {
        &self.indices
    }

    /// The opening order (box numbers, increasing index).
    pub fn order(&self) -> &[usize] {
        &self.order
    }

    /// Whether the policy opens the next box when the best value in hand is `hand`
    /// (`None` = nothing in hand) and the next box has index `g`, under the pure rule
    /// `stop_at_ties`.
    pub fn opens(hand: Option<&Rational>, g: &Rational, stop_at_ties: bool) -> bool {
        match hand {
            None => true,
            Some(m) => m > g || (m == g && !stop_at_ties),
        }
    }
}

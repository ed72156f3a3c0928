//! Weitzman's index policy in f64, with ties that survive rounding (MATH.md, "Pandora's Box").
//!
//! The policy compares numbers: two indices (the opening order) and a value in hand (the
//! outside option `y0`, an atom of an opened box, or a normal draw) with the next index (stop
//! or open). An instance written in decimals has exact ties (`0.3` and `0.2` make an index of
//! exactly `1/2`) that rounding to f64 moves apart by an ulp or so (`0.4999999999999999`); an
//! f64 comparison would then follow a different policy, whose expected *cost* differs by a
//! finite amount (costs jump at ties; the objective does not).
//!
//! So every number carries an error bound relative to the exact instance it was rounded from
//! ([`index_error_bound`]; an atom or `y0`: half an ulp of itself), and two numbers whose f64
//! values are within the sum of their bounds are compared by a [`TieResolver`] instead: exactly
//! by a caller that has the exact instance (the `pbgi` tool resolves with exact rationals and
//! certified indices), or by [`NearTiesAreTies`] (the default), which treats them as equal —
//! the right answer whenever the exact instance has a tie there. Boxes with equal indices are
//! opened in input order; at a tie between the value in hand and the next index the
//! [`Tie`] rule decides.
use super::instance::{Distribution, Instance, PandoraBox};
use super::reservation::reservation_value;
use std::cell::Cell;
use std::cmp::Ordering;

/// What the policy does when the best value in hand equals the next index.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Tie {
    /// Stop (default).
    Early,
    /// Open the next box.
    Late,
    /// Stop-early with probability `p` for the whole run, else stop-late (once-per-run coin,
    /// as in `pbgi_reference::pandora::Tie::Mixture`).
    Mixture(f64),
}

/// A number the policy compares, named by where it comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    /// The index (reservation value) of box `i`, input order.
    Index(usize),
    /// The outside option `y0`.
    Outside,
    /// Atom `atom` (in increasing value order) of discrete box `box_index`.
    Atom {
        /// The box, input order.
        box_index: usize,
        /// The atom, counted from the smallest value.
        atom: usize,
    },
}

/// Decides a comparison that f64 cannot: called only for two keys whose f64 values are within
/// their error bounds of each other.
pub trait TieResolver {
    /// How `a` compares with `b` in the exact instance. Must be a total order on the keys it is
    /// asked about (it sorts boxes of nearly equal indices).
    fn compare(&self, a: Key, b: Key) -> Ordering;
}

/// The default [`TieResolver`]: numbers that f64 cannot tell apart are equal.
#[derive(Clone, Copy, Debug, Default)]
pub struct NearTiesAreTies;

impl TieResolver for NearTiesAreTies {
    fn compare(&self, _: Key, _: Key) -> Ordering {
        Ordering::Equal
    }
}

/// Unit roundoff `2^-53`.
const UNIT_ROUNDOFF: f64 = f64::EPSILON / 2.0;

/// A bound on `|g - g*|`, `g` the f64 index of `b` (from [`reservation_value`]) and `g*` the
/// exact index of any instance whose numbers round to `b`'s (each within half an ulp).
///
/// - Normal: `g = μ + σ·u`. Rounding `μ`, `σ`, `c` by a relative `ε` moves `g` by at most
///   `ε·(|μ| + σ|u| + 2c/Φ(u))` (`∂g/∂μ = 1`, `∂g/∂σ = u - (c/σ)/Φ(u)`, `∂g/∂c = 1/Φ(u)`), and
///   [`crate::pbgi`] is within 4 ulp of `|μ| + σ|u|`: the bound is `16ε·(|μ| + σ|u| + c/Φ(u))`
///   (`c/Φ(u) ≤ 2σ/|u|` where `Φ(u)` underflows).
/// - Discrete, root on segment `k`: `g = (c + S_k)/P_k`. Inputs rounded by `ε` and the `k`-term
///   sums move the numerator by `≤ (k+3)ε·(c + Σ_{j≤k} p_j|x_j|)` and `P_k` by `≤ (k+1)ε·P_k`:
///   the bound is twice `(k+3)ε·((c + Σ_{j≤k} p_j|x_j|)/P_k + |g|)`, plus
///   `|Σp - 1|·(|g| + max|x_j|)/P_k` for probabilities that do not sum to 1 exactly in f64.
pub fn index_error_bound(b: &PandoraBox, g: f64) -> f64 {
    let eps = UNIT_ROUNDOFF;
    match &b.distribution {
        Distribution::Normal { mean, sd } => {
            let u = (g - mean) / sd;
            let cdf = 0.5 * libm::erfc(-u / std::f64::consts::SQRT_2);
            let cost_term = if cdf > 1e-300 {
                b.cost / cdf
            } else {
                2.0 * sd / u.abs()
            };
            16.0 * eps * (mean.abs() + sd * u.abs() + cost_term)
        }
        Distribution::Discrete { values, probs } => {
            let (mut mass, mut spread, mut largest) = (0.0, 0.0, 0.0f64);
            let mut k = 0;
            for (j, (&x, &p)) in values.iter().zip(probs).enumerate() {
                mass += p;
                spread += p * x.abs();
                largest = largest.max(x.abs());
                k = j + 1;
                if values.get(j + 1).map_or(true, |&next| next > g) {
                    break;
                }
            }
            let total: f64 = probs.iter().sum();
            let terms = k as f64 + 3.0;
            2.0 * terms * eps * ((b.cost + spread) / mass + g.abs())
                + (total - 1.0).abs() * (g.abs() + largest) / mass
        }
    }
}

/// The index policy of an instance: f64 indices with their error bounds, the opening order,
/// and every comparison the policy makes, with near ties decided by a [`TieResolver`].
pub struct IndexPolicy<'a> {
    instance: &'a Instance,
    indices: Vec<f64>,
    bounds: Vec<f64>,
    order: Vec<usize>,
    resolver: &'a dyn TieResolver,
    resolved: Cell<usize>,
}

impl<'a> IndexPolicy<'a> {
    /// The policy with near ties treated as ties ([`NearTiesAreTies`]).
    pub fn new(instance: &'a Instance) -> Self {
        Self::with_resolver(instance, &NearTiesAreTies)
    }

    /// The policy with near ties decided by `resolver`.
    pub fn with_resolver(instance: &'a Instance, resolver: &'a dyn TieResolver) -> Self {
        let boxes = instance.boxes();
        let indices: Vec<f64> = boxes.iter().map(reservation_value).collect();
        let bounds: Vec<f64> = boxes
            .iter()
            .zip(&indices)
            .map(|(b, &g)| index_error_bound(b, g))
            .collect();
        let mut policy = IndexPolicy {
            instance,
            indices,
            bounds,
            order: Vec::new(),
            resolver,
            resolved: Cell::new(0),
        };
        policy.order = policy.opening_order();
        policy
    }

    /// Increasing index, input order among equal ones. Sorted by f64 value first; runs of
    /// indices that f64 cannot separate are then ordered by the resolver (a total order), so
    /// the comparison used by each sort is itself a total order.
    fn opening_order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.indices.len()).collect();
        order.sort_by(|&a, &b| self.indices[a].total_cmp(&self.indices[b]).then(a.cmp(&b)));
        let mut start = 0;
        while start < order.len() {
            let mut end = start + 1;
            while end < order.len() && self.near(Key::Index(order[end - 1]), Key::Index(order[end]))
            {
                end += 1;
            }
            if end - start > 1 {
                order[start..end]
                    .sort_by(|&a, &b| self.resolve(Key::Index(a), Key::Index(b)).then(a.cmp(&b)));
            }
            start = end;
        }
        order
    }

    /// The f64 value of a key.
    pub fn value(&self, key: Key) -> f64 {
        match key {
            Key::Index(i) => self.indices[i],
            Key::Outside => self.instance.outside().unwrap_or(f64::NAN),
            Key::Atom { box_index, atom } => match &self.instance.boxes()[box_index].distribution {
                Distribution::Discrete { values, .. } => values[atom],
                Distribution::Normal { .. } => f64::NAN,
            },
        }
    }

    /// The error bound of a key's f64 value (an index: [`index_error_bound`]; a number from
    /// the input: half an ulp).
    pub fn error_bound(&self, key: Key) -> f64 {
        match key {
            Key::Index(i) => self.bounds[i],
            _ => self.value(key).abs() * UNIT_ROUNDOFF,
        }
    }

    fn near(&self, a: Key, b: Key) -> bool {
        (self.value(a) - self.value(b)).abs() <= self.error_bound(a) + self.error_bound(b)
    }

    fn resolve(&self, a: Key, b: Key) -> Ordering {
        self.resolved.set(self.resolved.get() + 1);
        self.resolver.compare(a, b)
    }

    /// How `a` compares with `b`: by f64 value when the values are further apart than their
    /// error bounds, else by the resolver.
    pub fn compare(&self, a: Key, b: Key) -> Ordering {
        if self.near(a, b) {
            self.resolve(a, b)
        } else {
            self.value(a).total_cmp(&self.value(b))
        }
    }

    /// The instance.
    pub fn instance(&self) -> &'a Instance {
        self.instance
    }

    /// f64 indices, input order.
    pub fn indices(&self) -> &[f64] {
        &self.indices
    }

    /// Opening order (box numbers).
    pub fn order(&self) -> &[usize] {
        &self.order
    }

    /// How many comparisons so far were too close for f64 and went to the resolver.
    pub fn resolved_comparisons(&self) -> usize {
        self.resolved.get()
    }

    /// `P(X_j > g_k)` (`strict`) or `P(X_j ≥ g_k)`: discrete atoms are compared with the index
    /// through [`IndexPolicy::compare`]; a normal box has no atoms to tie with.
    pub fn survival_at_index(&self, j: usize, k: usize, strict: bool) -> f64 {
        let b = &self.instance.boxes()[j];
        match &b.distribution {
            Distribution::Discrete { probs, .. } => probs
                .iter()
                .enumerate()
                .filter(|&(atom, _)| {
                    let ord = self.compare(Key::Atom { box_index: j, atom }, Key::Index(k));
                    ord == Ordering::Greater || (!strict && ord == Ordering::Equal)
                })
                .map(|(_, &p)| p)
                .sum(),
            Distribution::Normal { .. } => b.survival(self.indices[k], strict),
        }
    }

    /// Whether the outside option allows opening box `k`: `y0 > g_k` (`strict`) or `y0 ≥ g_k`;
    /// always without outside option.
    pub fn outside_allows(&self, k: usize, strict: bool) -> bool {
        if self.instance.outside().is_none() {
            return true;
        }
        let ord = self.compare(Key::Outside, Key::Index(k));
        ord == Ordering::Greater || (!strict && ord == Ordering::Equal)
    }
}

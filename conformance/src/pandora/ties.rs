//! Near ties of the f64 engine decided by the exact instance: exact rationals for discrete
//! indices, atoms and `y0`, certified enclosures (relative width `2^-200`) for normal boxes'
//! indices. Used by `--engine fast` and `--simulate`, so that a tie of the instance as written
//! (`0.3`, `0.2` make an index of exactly `1/2`) is a tie in f64 too.
use pbgi_fast::pandora::{Key, TieResolver};
use pbgi_reference::pandora::{certified_index, Distribution, GeneralIndex, Instance};
use rug::Rational;
use std::cmp::Ordering;

/// A [`TieResolver`] backed by the exact instance.
pub struct ExactTies<'a> {
    instance: &'a Instance,
    indices: Vec<GeneralIndex>,
}

/// An exact number, or a certified index.
enum Exact<'a> {
    Value(&'a Rational),
    Index(&'a GeneralIndex),
}

impl<'a> ExactTies<'a> {
    /// Computes the exact (discrete) or certified (normal) index of every box.
    ///
    /// # Errors
    /// A normal box whose parameters leave f64's range, or whose certified index fails.
    pub fn new(instance: &'a Instance) -> Result<Self, String> {
        let mut rounded = Vec::new();
        let indices = (0..instance.boxes().len())
            .map(|i| certified_index(instance, i, &mut rounded).map_err(|e| e.to_string()))
            .collect::<Result<_, _>>()?;
        Ok(Self { instance, indices })
    }

    fn exact(&self, key: Key) -> Option<Exact<'_>> {
        match key {
            Key::Index(i) => Some(match &self.indices[i].exact {
                Some(g) => Exact::Value(g),
                None => Exact::Index(&self.indices[i]),
            }),
            Key::Outside => self.instance.outside().map(Exact::Value),
            Key::Atom { box_index, atom } => {
                match self.instance.boxes()[box_index].distribution() {
                    Distribution::Discrete(d) => d.atoms().get(atom).map(|(x, _)| Exact::Value(x)),
                    Distribution::Normal { .. } => None,
                }
            }
        }
    }
}

impl TieResolver for ExactTies<'_> {
    /// Exact where both are exact; by the certified enclosures otherwise. Two normal indices
    /// that agree to `2^-200` (or an index whose enclosure holds the value) compare equal.
    fn compare(&self, a: Key, b: Key) -> Ordering {
        let (Some(x), Some(y)) = (self.exact(a), self.exact(b)) else {
            return Ordering::Equal;
        };
        match (x, y) {
            (Exact::Value(x), Exact::Value(y)) => x.cmp(y),
            (Exact::Index(g), Exact::Value(v)) => {
                g.compare_with_value(v).unwrap_or(Ordering::Equal)
            }
            (Exact::Value(v), Exact::Index(g)) => g
                .compare_with_value(v)
                .map_or(Ordering::Equal, Ordering::reverse),
            (Exact::Index(g), Exact::Index(h)) => g.compare(h).unwrap_or(Ordering::Equal),
        }
    }
}

//! A simulator of Weitzman's index policy (for Monte Carlo checks of the exact formulas).
//!
//! Every comparison goes through [`IndexPolicy`], so a value in hand that came from an atom or
//! from `y0` keeps its identity ([`Key`]) and ties with an index exactly as in the exact
//! instance; a normal draw is compared in f64 (it ties with probability 0).
use super::instance::{Distribution, Instance, PandoraBox};
use super::policy::{IndexPolicy, Key, Tie, TieResolver};
use std::cmp::Ordering;

/// The outcome of one simulated run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RunOutcome {
    /// Total cost paid.
    pub cost: f64,
    /// Best (smallest) value in hand at the stop.
    pub best: f64,
    /// Number of boxes opened.
    pub opened: usize,
}

/// A value in hand: its f64 value, and its key when it is an atom or `y0`.
#[derive(Clone, Copy, Debug)]
struct Hand {
    value: f64,
    key: Option<Key>,
}

/// A draw from box `k`: an atom (with its key) or a normal sample.
fn sample(b: &PandoraBox, k: usize, uniform: &mut impl FnMut() -> f64) -> Hand {
    match &b.distribution {
        Distribution::Discrete { values, probs } => {
            let u = uniform();
            let mut acc = 0.0;
            let mut atom = values.len() - 1;
            for (j, &p) in probs.iter().enumerate() {
                acc += p;
                if u < acc {
                    atom = j;
                    break;
                }
            }
            Hand {
                value: values[atom],
                key: Some(Key::Atom { box_index: k, atom }),
            }
        }
        Distribution::Normal { mean, sd } => {
            // Box–Muller; 1 - u ∈ (0, 1] keeps the logarithm finite.
            let u1 = 1.0 - uniform();
            let u2 = uniform();
            let z = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
            Hand {
                value: mean + sd * z,
                key: None,
            }
        }
    }
}

/// The index policy prepared for repeated simulation (indices computed once).
pub struct Simulator<'a> {
    policy: IndexPolicy<'a>,
}

impl<'a> Simulator<'a> {
    /// The policy of `instance` with near ties treated as ties.
    pub fn new(instance: &'a Instance) -> Self {
        Self {
            policy: IndexPolicy::new(instance),
        }
    }

    /// The policy of `instance` with near ties decided by `resolver`.
    pub fn with_resolver(instance: &'a Instance, resolver: &'a dyn TieResolver) -> Self {
        Self {
            policy: IndexPolicy::with_resolver(instance, resolver),
        }
    }

    /// The policy being simulated.
    pub fn policy(&self) -> &IndexPolicy<'a> {
        &self.policy
    }

    /// How two values compare: through their keys when both have one, else in f64.
    fn compare(&self, a: &Hand, b_key: Key, b_value: f64) -> Ordering {
        match a.key {
            Some(key) => self.policy.compare(key, b_key),
            None => a.value.total_cmp(&b_value),
        }
    }

    /// Simulates one run. `uniform` must return independent uniforms in `[0, 1)` (e.g. from
    /// a seeded ChaCha generator). For [`Tie::Mixture`] one uniform decides stop-early for the
    /// whole run.
    pub fn run(&self, tie: Tie, uniform: &mut impl FnMut() -> f64) -> RunOutcome {
        let stop_at_ties = match tie {
            Tie::Early => true,
            Tie::Late => false,
            Tie::Mixture(p) => uniform() < p,
        };
        let instance = self.policy.instance();
        let mut best: Option<Hand> = instance.outside().map(|y0| Hand {
            value: y0,
            key: Some(Key::Outside),
        });
        let mut cost = 0.0;
        let mut opened = 0;
        for &k in self.policy.order() {
            let g = self.policy.indices()[k];
            let open = match &best {
                None => true,
                Some(hand) => match self.compare(hand, Key::Index(k), g) {
                    Ordering::Greater => true,
                    Ordering::Equal => !stop_at_ties,
                    Ordering::Less => false,
                },
            };
            if !open {
                break;
            }
            cost += instance.boxes()[k].cost;
            opened += 1;
            let x = sample(&instance.boxes()[k], k, uniform);
            best = Some(match best {
                None => x,
                Some(hand) => {
                    let x_is_smaller = match x.key {
                        Some(key) => self.compare(&hand, key, x.value) == Ordering::Greater,
                        None => x.value < hand.value,
                    };
                    if x_is_smaller {
                        x
                    } else {
                        hand
                    }
                }
            });
        }
        RunOutcome {
            cost,
            best: best
                .expect("an instance has at least one box, and the first one is always opened")
                .value,
            opened,
        }
    }
}

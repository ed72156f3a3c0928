//! A simulator of Weitzman's index policy (for Monte Carlo checks of the exact formulas).
use super::evaluation::{policy_order, Tie};
use super::instance::{Distribution, Instance, PandoraBox};

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

fn sample(b: &PandoraBox, uniform: &mut impl FnMut() -> f64) -> f64 {
    match &b.distribution {
        Distribution::Discrete { values, probs } => {
            let u = uniform();
            let mut acc = 0.0;
            for (&v, &p) in values.iter().zip(probs) {
                acc += p;
                if u < acc {
                    return v;
                }
            }
            *values.last().expect("non-empty")
        }
        Distribution::Normal { mean, sd } => {
            // Box–Muller; 1 - u ∈ (0, 1] keeps the logarithm finite.
            let u1 = 1.0 - uniform();
            let u2 = uniform();
            let z = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
            mean + sd * z
        }
    }
}

/// The index policy prepared for repeated simulation (indices computed once).
#[derive(Clone, Debug)]
pub struct Simulator<'a> {
    instance: &'a Instance,
    indices: Vec<f64>,
    order: Vec<usize>,
}

impl<'a> Simulator<'a> {
    /// Computes the indices and the opening order of `instance`.
    pub fn new(instance: &'a Instance) -> Self {
        let (indices, order) = policy_order(instance);
        Self {
            instance,
            indices,
            order,
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
        let mut best = self.instance.outside();
        let mut cost = 0.0;
        let mut opened = 0;
        for &k in &self.order {
            let g = self.indices[k];
            let open = match best {
                None => true,
                Some(m) => m > g || (m == g && !stop_at_ties),
            };
            if !open {
                break;
            }
            cost += self.instance.boxes()[k].cost;
            opened += 1;
            let x = sample(&self.instance.boxes()[k], uniform);
            best = Some(best.map_or(x, |m| m.min(x)));
        }
        RunOutcome {
            cost,
            best: best.expect("at least one box opened or an outside option"),
            opened,
        }
    }
}

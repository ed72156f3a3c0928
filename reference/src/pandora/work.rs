//! How much exact-rational work a solve may take, and its progress.
//!
//! The cost of one rational operation grows with the size of its numbers, and the numbers of
//! the DP and of the policy evaluations grow with the instance: a value `V(S, m)` is a
//! probability-weighted sum over the boxes still closed, so its denominator divides the product
//! over those boxes of (cost denominator × lcm of probability denominators), times the lcm of
//! the value denominators. [`number_bits`] bounds its size from the instance; a solve's work is
//! counted as (rational operations) × (bits per number), in *work units*. Measured on this
//! project's 2-core machine (nothing else running), the DP runs at 3e9 to 6e9 units a
//! second (12 boxes × 3 atoms, estimated `2.2e10` units with 20-digit fractions: 3.5 s;
//! `2.3e11` units with 200-digit fractions: 74 s; GMP's cost per bit grows with the size), so
//! the default limit [`DEFAULT_MAX_WORK`] stops a solve that would take more than about 10 s.
use super::instance::{Instance, InstanceError};
use rug::Integer;

/// Work units per second of the DP on this project's 2-core machine, the slower end of the
/// measured range (module docs): a guide for messages, not a promise.
pub const WORK_UNITS_PER_SECOND: f64 = 3e9;
/// Default work limit (units of [`number_bits`] × rational operations): about 10 s.
pub const DEFAULT_MAX_WORK: f64 = 3e10;
/// Default largest DP table (`2^boxes × (distinct hand values + 1)` entries).
pub const DEFAULT_MAX_STATES: usize = 1 << 22;
/// Largest DP table that can be asked for (each entry holds a rational: 2^26 entries take
/// 2 GiB before the numbers themselves).
pub const MAX_STATES_CEILING: usize = 1 << 26;

/// Limits of an exact solve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorkLimits {
    /// Largest DP table; at most [`MAX_STATES_CEILING`].
    pub max_states: usize,
    /// Largest estimated work, in units.
    pub max_work: f64,
}

impl Default for WorkLimits {
    fn default() -> Self {
        WorkLimits {
            max_states: DEFAULT_MAX_STATES,
            max_work: DEFAULT_MAX_WORK,
        }
    }
}

/// Where a long solve stands, for a progress display.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// What is being solved (`"exact DP"`, `"Theorem 2 budget"`).
    pub stage: &'static str,
    /// Steps done.
    pub done: usize,
    /// Steps in all (for the budget solve: critical points, an upper bound on the steps).
    pub total: usize,
}

/// Bound on the bits of the numbers a DP or policy evaluation of `instance` produces (module
/// docs), at least 64.
pub fn number_bits(instance: &Instance) -> u64 {
    let mut bits: u64 = 64;
    let mut value_denominators = Integer::from(1);
    let mut largest_numerator = 0u64;
    let mut note_value = |x: &rug::Rational, lcm: &mut Integer| {
        lcm.lcm_mut(x.denom());
        largest_numerator = largest_numerator.max(u64::from(x.numer().significant_bits()));
    };
    if let Some(y0) = instance.outside() {
        note_value(y0, &mut value_denominators);
    }
    for b in instance.boxes() {
        bits += u64::from(b.cost().denom().significant_bits());
        if let Some(d) = b.as_discrete() {
            let mut probability_denominators = Integer::from(1);
            for (x, p) in d.atoms() {
                probability_denominators.lcm_mut(p.denom());
                note_value(x, &mut value_denominators);
            }
            bits += u64::from(probability_denominators.significant_bits());
        }
    }
    bits + u64::from(value_denominators.significant_bits()) + largest_numerator
}

/// Counts work against a limit and reports progress.
pub struct WorkMeter<'a> {
    stage: &'static str,
    limit: f64,
    used: f64,
    progress: &'a mut dyn FnMut(Progress),
}

impl<'a> WorkMeter<'a> {
    /// A meter for `stage` with `limit` units.
    pub fn new(stage: &'static str, limit: f64, progress: &'a mut dyn FnMut(Progress)) -> Self {
        WorkMeter {
            stage,
            limit,
            used: 0.0,
            progress,
        }
    }

    /// Adds `units` of work done at step `done` of `total`.
    ///
    /// # Errors
    /// The limit is exceeded (the message gives the work done and the limit).
    pub fn charge(&mut self, units: f64, done: usize, total: usize) -> Result<(), InstanceError> {
        self.used += units;
        (self.progress)(Progress {
            stage: self.stage,
            done,
            total,
        });
        if self.used > self.limit {
            return Err(too_much_work(format!(
                "the {} stopped after {:.1e} work units (step {done} of at most {total}), above \
                 the limit of {:.1e}",
                self.stage, self.used, self.limit
            )));
        }
        Ok(())
    }
}

/// The error for a solve beyond its work or size limit (field `"limit"`).
pub fn too_much_work(message: String) -> InstanceError {
    InstanceError {
        box_index: None,
        field: "limit".into(),
        message,
    }
}

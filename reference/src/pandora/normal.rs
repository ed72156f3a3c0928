//! Instances with normal boxes (possibly mixed with discrete ones): certified indices, the
//! expected cost as a certified enclosure, and the objective as a certified enclosure plus a
//! sharper quadrature estimate.
//!
//! * Index of a normal box: the certified [`crate::pbgi_with`] (enclosure of relative width
//!   `≤ 2^-200`). That function takes binary64 inputs, so `mean`, `sd` and `cost` are rounded to
//!   the nearest f64 first; [`GeneralEvaluation::rounded_parameters`] lists every parameter
//!   for which that rounding was inexact (all results are then for the rounded instance). A
//!   parameter that overflows f64, or a positive `sd`/`cost` that rounds to 0, is an error.
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
//!   tested against the DP on discrete instances), split at every index, atom and `y0` and at
//!   `μ_j + kσ_j` (`k = -8 … 32`) around each normal box, so each piece is analytic and no
//!   wider than its features; integrated by [`super::quadrature::integrate_survival`]. The
//!   range is truncated at `T ≥ μ_j + 40σ_j` for a normal box `j` (or at `y0` when that comes
//!   first), with tail `≤ σ_j·2^-1150`: a range up to a far `y0` would only widen the
//!   enclosure. Two results:
//!   - `[objective_lower, objective_upper]`, a **certified** enclosure (the integrand is
//!     non-increasing and log-concave between breakpoints; see `kww_quadrature` for the other
//!     terms), of relative width about `1e-6`;
//!   - `objective` with `objective_error`, the quadrature estimate and an error *estimate*
//!     (difference of the last two tanh-sinh levels plus the certified terms): typically 30 or
//!     more correct digits, but not a proof.
//!
//!   Every step depends only on the standardised quantities `(t - μ_j)/σ_j`, so scaling the
//!   whole instance (values, costs, `y0`) by `s > 0` scales every result by `s`
//!   (`reference/tests/pandora_normal.rs` sweeps `s` from `1e-300` to `1e300`).
//! * `E[best] = objective - E[cost]`, with the enclosure
//!   `[objective_lower - cost_upper, objective_upper - cost_lower]`.
use super::instance::{nearest_f64, Distribution, Instance, InstanceError};
use super::policy::Tie;
use super::quadrature::{
    exact_difference, exact_sum, integrate_survival, normal_survival, Quadrature, ENCLOSURE_LEVEL,
    PREC,
};
use super::reservation::discrete_reservation_value;
use super::work::{too_much_work, Progress, WorkLimits, WORK_UNITS_PER_SECOND};
use crate::certified::Accuracy;
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

impl GeneralIndex {
    /// How this index compares with `other`: exactly for two discrete boxes, equal for normal
    /// boxes with identical (rounded) parameters, otherwise by the enclosures; `None` when the
    /// enclosures overlap (the two indices agree to `2^-200` relative).
    pub fn compare(&self, other: &GeneralIndex) -> Option<Ordering> {
        if let (Some(x), Some(y)) = (&self.exact, &other.exact) {
            return Some(x.cmp(y));
        }
        if self.normal_key.is_some() && self.normal_key == other.normal_key {
            return Some(Ordering::Equal);
        }
        if self.upper < other.lower {
            Some(Ordering::Less)
        } else if self.lower > other.upper {
            Some(Ordering::Greater)
        } else {
            None
        }
    }

    /// How this index compares with the rational `v`; `None` when `v` lies in the enclosure
    /// of a normal box's index.
    pub fn compare_with_value(&self, v: &Rational) -> Option<Ordering> {
        if let Some(x) = &self.exact {
            return Some(x.cmp(v));
        }
        if self.upper < *v {
            Some(Ordering::Less)
        } else if self.lower > *v {
            Some(Ordering::Greater)
        } else {
            None
        }
    }
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
    /// `E[best] + E[cost]` by quadrature (an estimate).
    pub objective: Float,
    /// Error estimate of `objective` (see the module docs): not a bound.
    pub objective_error: Float,
    /// Certified lower bound of `E[best] + E[cost]`.
    pub objective_lower: Float,
    /// Certified upper bound of `E[best] + E[cost]`.
    pub objective_upper: Float,
    /// `(box, field)` for every normal parameter not exactly representable in f64.
    pub rounded_parameters: Vec<(usize, &'static str)>,
}

impl GeneralEvaluation {
    /// Midpoint of the cost enclosure.
    pub fn expected_cost(&self) -> Float {
        Float::with_val(PREC, &self.cost_lower + &self.cost_upper) / 2u32
    }

    /// `E[best] = objective - E[cost]` (an estimate; its error estimate is `objective_error`
    /// plus half the cost enclosure's width).
    pub fn expected_best(&self) -> Float {
        exact_difference(&self.objective, &self.expected_cost())
    }

    /// Error estimate of [`GeneralEvaluation::expected_best`].
    pub fn expected_best_error(&self) -> Float {
        let half_width = Float::with_val(PREC, &self.cost_upper - &self.cost_lower) / 2u32;
        Float::with_val(PREC, &self.objective_error + &half_width)
    }

    /// Certified enclosure `[objective_lower - cost_upper, objective_upper - cost_lower]` of
    /// `E[best]`.
    pub fn expected_best_bounds(&self) -> (Float, Float) {
        (
            exact_difference(&self.objective_lower, &self.cost_upper),
            exact_difference(&self.objective_upper, &self.cost_lower),
        )
    }
}

fn undecidable(box_index: usize, what: String) -> InstanceError {
    InstanceError {
        box_index: Some(box_index),
        field: "index".into(),
        message: format!("cannot decide {what} at 2^-200 relative precision"),
    }
}

/// A normal box's parameter as the binary64 number the certified functions take.
fn binary64(x: &Rational) -> f64 {
    nearest_f64(x)
}

/// [`binary64`], recording an inexact conversion and refusing one that leaves f64's range
/// (or turns a positive `sd`/`cost` into 0).
fn to_f64_checked(
    x: &Rational,
    box_index: usize,
    field: &'static str,
    rounded: &mut Vec<(usize, &'static str)>,
) -> Result<f64, InstanceError> {
    let v = binary64(x);
    let problem = if !v.is_finite() {
        Some("overflows")
    } else if v == 0.0 && *x != 0 {
        Some("underflows to 0 in")
    } else {
        None
    };
    if let Some(problem) = problem {
        return Err(InstanceError {
            box_index: Some(box_index),
            field: field.into(),
            message: format!(
                "\"{}\" {problem} binary64 (normal boxes are evaluated with f64 parameters)",
                Float::with_val(53, x).to_string_radix(10, Some(6))
            ),
        });
    }
    if Rational::from_f64(v).as_ref() != Some(x) {
        rounded.push((box_index, field));
    }
    Ok(v)
}

fn float_down(x: &Rational) -> Float {
    Float::with_val_round(PREC, x, Round::Down).0
}

fn float_up(x: &Rational) -> Float {
    Float::with_val_round(PREC, x, Round::Up).0
}

/// The index of box `i`: exact for a discrete box, a certified enclosure of relative width
/// `2^-200` for a normal box (parameters rounded to f64; inexact roundings are appended to
/// `rounded`).
///
/// # Errors
/// A normal parameter beyond f64's range; a failed certified PBGI.
pub fn certified_index(
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
            let mu = to_f64_checked(mean, i, "mean", rounded)?;
            let sigma = to_f64_checked(sd, i, "sd", rounded)?;
            let cost = to_f64_checked(b.cost(), i, "cost", rounded)?;
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
                let ord = g.compare_with_value(x).ok_or_else(|| {
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
            let mu = Float::with_val(53, binary64(mean));
            let sigma = Float::with_val(53, binary64(sd));
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
            let ord = g.compare_with_value(y0).ok_or_else(|| {
                undecidable(k, "how the index compares with the outside option".into())
            })?;
            let opens = ord == Ordering::Less || (!strict && ord == Ordering::Equal);
            if !opens {
                continue;
            }
        }
        // A normal box's cost as rounded for its index: every result is for the rounded instance.
        let b = &instance.boxes()[k];
        let (mut p_lo, mut p_hi) = match b.distribution() {
            Distribution::Normal { .. } => {
                let c = Float::with_val(53, binary64(b.cost()));
                (c.clone(), c)
            }
            Distribution::Discrete(_) => (float_down(b.cost()), float_up(b.cost())),
        };
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

/// Extra bits of the breakpoints converted from rationals that are not exact binary numbers.
const BREAKPOINT_PREC: u32 = PREC + 64;
/// Numerators up to this many bits of dyadic breakpoints are converted exactly.
const EXACT_BREAKPOINT_BITS: u32 = 4096;
/// Splits of the integration range around each normal box, in standard deviations: each
/// piece is then no wider than the features of the integrand on it.
const NORMAL_SPLITS: [i32; 11] = [-8, -4, -2, -1, 0, 1, 2, 4, 8, 16, 32];
/// The certified enclosure of the objective is refined until its width is below
/// `2^-ENCLOSURE_TARGET_BITS` of the result's scale, or the deepest level.
const ENCLOSURE_TARGET_BITS: u32 = 40;
/// Truncation of the range without outside option, in standard deviations.
const TAIL_SDS: u32 = 40;
/// `h(-40) < 2^-1150` bounds the truncated tail relative to `σ`.
const TAIL_BITS: u32 = 1150;

/// A rational as a breakpoint: exact for binary numbers of moderate size, else to
/// [`BREAKPOINT_PREC`] bits; with a bound on the conversion error.
fn breakpoint(x: &Rational) -> (Float, Float) {
    let bits = x.numer().significant_bits();
    if x.denom().is_power_of_two() && bits <= EXACT_BREAKPOINT_BITS {
        return (Float::with_val(bits.max(1), x), Float::new(PREC));
    }
    let f = Float::with_val(BREAKPOINT_PREC, x);
    let error = Float::with_val(PREC, f.abs_ref()) >> (BREAKPOINT_PREC - 1);
    (f, error)
}

/// `x` rounded down to [`BREAKPOINT_PREC`] bits.
fn breakpoint_down(x: &Rational) -> Float {
    Float::with_val_round(BREAKPOINT_PREC, x, Round::Down).0
}

/// `E[min(y0, min_i max(X_i, g_i))]` by [`kww_quadrature`].
#[derive(Clone, Debug)]
struct KwwObjective {
    value: Float,
    error_estimate: Float,
    lower: Float,
    upper: Float,
}

/// The KWW objective by piecewise quadrature (module docs): estimate, error estimate and
/// certified enclosure.
///
/// The integrand actually integrated, `f̃`, switches box `i`'s factor on at the midpoint of its
/// index enclosure and jumps at the converted atoms and `y0`; it differs from the true
/// `P(W > t)` (both in `[0, 1]`) only on intervals of total length `flips` = the half-widths of
/// the index enclosures plus the conversion errors of the atoms and `y0` whose intervals meet the
/// range of integration (elsewhere a breakpoint's uncertainty cannot change `f̃`), so
/// `|∫ P(W > t) - ∫ f̃| ≤ flips`. Between its breakpoints `f̃` is a positive constant times a
/// product of normal survival functions: non-increasing and log-concave, as the certified
/// enclosure of [`integrate_survival`] needs. The range ends at `y0` or, when it comes first,
/// at `T_j = max(μ_j + 40σ_j, upper_j)` for the normal box `j` with the smallest `T_j`; beyond
/// it `P(W > t) ≤ P(X_j > t)`, whose integral is `σ_j·h(-40) < σ_j·2^-1150`.
fn kww_quadrature(
    instance: &Instance,
    indices: &[GeneralIndex],
    progress: &mut dyn FnMut(Progress),
) -> KwwObjective {
    // Each uncertain breakpoint as (lowest, highest, half-width): it can move `f̃` only inside
    // its own interval, so it counts towards `flips` only where that interval meets the range
    // of integration (a box far above `y0` adds nothing).
    let mut uncertain: Vec<(Float, Float, Float)> = Vec::new();
    let spread = |centre: &Float, error: Float| {
        let lo = Float::with_val_round(PREC, centre - &error, Round::Down).0;
        let hi = Float::with_val_round(PREC, centre + &error, Round::Up).0;
        (lo, hi, error)
    };
    let mut switches = Vec::with_capacity(indices.len());
    let mut start: Option<Float> = None;
    let take_min = |x: Float, start: &mut Option<Float>| {
        if start.as_ref().map_or(true, |s| x < *s) {
            *start = Some(x);
        }
    };
    for g in indices {
        match &g.exact {
            Some(x) => {
                let (s, error) = breakpoint(x);
                uncertain.push(spread(&s, error));
                switches.push(s);
                take_min(breakpoint_down(x), &mut start);
            }
            None => {
                let half_width = Float::with_val_round(
                    PREC,
                    exact_difference(&g.upper, &g.lower) / 2u32,
                    Round::Up,
                )
                .0;
                let mid = exact_sum(&g.lower, &g.upper) / 2u32;
                uncertain.push((g.lower.clone(), g.upper.clone(), half_width));
                switches.push(mid);
                take_min(g.lower.clone(), &mut start);
            }
        }
    }
    let outside = instance.outside().map(|y| {
        let (y_float, error) = breakpoint(y);
        uncertain.push(spread(&y_float, error));
        take_min(breakpoint_down(y), &mut start);
        y_float
    });
    let start = start.expect("at least one box");
    let mut breaks: Vec<Float> = switches.clone();
    let mut tail: Option<(Float, Float)> = None;
    enum Survival {
        Atoms(Vec<(Float, Float)>),
        Normal(Float, Float),
    }
    let mut survivals = Vec::with_capacity(indices.len());
    for (b, g) in instance.boxes().iter().zip(indices) {
        match b.distribution() {
            Distribution::Discrete(d) => {
                let mut atoms = Vec::with_capacity(d.atoms().len());
                for (x, p) in d.atoms() {
                    let (x_float, error) = breakpoint(x);
                    uncertain.push(spread(&x_float, error));
                    breaks.push(x_float.clone());
                    atoms.push((x_float, Float::with_val(PREC, p)));
                }
                survivals.push(Survival::Atoms(atoms));
            }
            Distribution::Normal { mean, sd } => {
                let mu = Float::with_val(53, binary64(mean));
                let sigma = Float::with_val(53, binary64(sd));
                for k in NORMAL_SPLITS {
                    breaks.push(exact_sum(&mu, &Float::with_val(53, &sigma * k)));
                }
                let reach = exact_sum(&mu, &Float::with_val(53, &sigma * TAIL_SDS));
                let end = if reach > g.upper {
                    reach
                } else {
                    g.upper.clone()
                };
                if tail.as_ref().map_or(true, |(t, _)| end < *t) {
                    tail = Some((end, sigma.clone()));
                }
                survivals.push(Survival::Normal(mu, sigma));
            }
        }
    }
    let mut tail_bound = Float::with_val(PREC, 0);
    let end = match (&outside, tail) {
        (Some(y), Some((t, sigma))) if t < *y => {
            tail_bound = Float::with_val(PREC, &sigma >> TAIL_BITS);
            t
        }
        (Some(y), _) => y.clone(),
        (None, Some((t, sigma))) => {
            tail_bound = Float::with_val(PREC, &sigma >> TAIL_BITS);
            t
        }
        (None, None) => breaks
            .iter()
            .max_by(|a, b| a.partial_cmp(b).expect("finite"))
            .expect("non-empty")
            .clone(),
    };
    let mut flips = Float::with_val(PREC, 0);
    for (lo, hi, error) in &uncertain {
        if *hi >= start && *lo <= end {
            flips += error;
        }
    }
    breaks.push(start.clone());
    breaks.push(end.clone());
    breaks.retain(|x| *x >= start && *x <= end);
    breaks.sort_by(|a, b| a.partial_cmp(b).expect("finite"));
    breaks.dedup();
    let integrand = |t: &Float| -> Float {
        let mut prob = Float::with_val(PREC, 1);
        for (i, survival) in survivals.iter().enumerate() {
            if *t < switches[i] {
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
    // First pass: the estimate and a coarse enclosure of every piece, which give the scale of
    // the result; second pass: refine the enclosure of the pieces that matter at that scale
    // (pieces in far tails contribute nothing and are not refined).
    let piece_count = breaks.len().saturating_sub(1);
    let total = 2 * piece_count;
    let unrefined = Float::with_val(PREC, f64::INFINITY);
    let pieces: Vec<Quadrature> = breaks
        .windows(2)
        .enumerate()
        .map(|(k, w)| {
            progress(Progress {
                stage: QUADRATURE_STAGE,
                done: k,
                total,
            });
            integrate_survival(integrand, &w[0], &w[1], 90, ENCLOSURE_LEVEL, &unrefined)
        })
        .collect();
    let mut scale = Float::with_val(PREC, start.abs_ref());
    for q in &pieces {
        scale += Float::with_val(PREC, q.value.abs_ref());
    }
    let target = Float::with_val(PREC, &scale >> ENCLOSURE_TARGET_BITS) / breaks.len() as u32;
    let mut value = Float::with_val(PREC, 0);
    let mut estimate = Float::with_val(PREC, 0);
    let mut lower = Float::with_val(PREC, 0);
    let mut upper = Float::with_val(PREC, 0);
    for (k, (w, coarse)) in breaks.windows(2).zip(pieces).enumerate() {
        progress(Progress {
            stage: QUADRATURE_STAGE,
            done: piece_count + k,
            total,
        });
        let q = if Float::with_val(PREC, &coarse.upper - &coarse.lower) <= target {
            coarse
        } else {
            integrate_survival(integrand, &w[0], &w[1], 90, ENCLOSURE_LEVEL, &target)
        };
        value += q.value;
        estimate += q.error_estimate;
        lower += q.lower;
        upper += q.upper;
    }
    // Sums of non-negative terms at PREC bits: relative rounding below 2^-110.
    let rounding = Float::with_val(PREC, value.abs_ref()) >> ROUNDING_ALLOWANCE_BITS;
    let lower_rounding = Float::with_val(PREC, lower.abs_ref()) >> ROUNDING_ALLOWANCE_BITS;
    let upper_rounding = Float::with_val(PREC, upper.abs_ref()) >> ROUNDING_ALLOWANCE_BITS;
    let error_estimate = estimate + &rounding + &flips + &tail_bound;
    let below = Float::with_val(PREC, &flips + &lower_rounding);
    let above = Float::with_val(PREC, &flips + &upper_rounding) + &tail_bound;
    KwwObjective {
        value: exact_sum(&start, &value),
        error_estimate,
        lower: exact_difference(&exact_sum(&start, &lower), &below),
        upper: exact_sum(&exact_sum(&start, &upper), &above),
    }
}

/// The stage named in the quadrature's [`Progress`].
pub const QUADRATURE_STAGE: &str = "normal-box quadrature";

/// Work units of one piece of the quadrature per box of the instance (each node evaluates every
/// box's survival function, MPFR's `erfc` at 128 bits and more): calibrated so that
/// [`quadrature_work`] divided by [`WORK_UNITS_PER_SECOND`] is the measured time of
/// `pbgi pandora` (20 normal boxes: 37 s; 40 boxes: 147 s, on this project's 2-core machine).
pub const QUADRATURE_UNITS_PER_PIECE_AND_BOX: f64 = 2.3e7;

/// Upper bound on the pieces of the quadrature of `instance` (a piece between consecutive
/// breakpoints: the indices, the atoms, `μ_j + kσ_j` for each normal box, the ends).
pub fn quadrature_pieces(instance: &Instance) -> usize {
    instance
        .boxes()
        .iter()
        .map(|b| {
            1 + match b.distribution() {
                Distribution::Discrete(d) => d.atoms().len(),
                Distribution::Normal { .. } => NORMAL_SPLITS.len(),
            }
        })
        .sum::<usize>()
        + 2
}

/// Estimated work of the quadrature of `instance` ([`quadrature_pieces`] pieces × boxes ×
/// [`QUADRATURE_UNITS_PER_PIECE_AND_BOX`]), the dominant part of [`evaluate_general`].
pub fn quadrature_work(instance: &Instance) -> f64 {
    quadrature_pieces(instance) as f64
        * instance.boxes().len() as f64
        * QUADRATURE_UNITS_PER_PIECE_AND_BOX
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
    let unlimited = WorkLimits {
        max_work: f64::INFINITY,
        ..WorkLimits::default()
    };
    evaluate_general_with(instance, tie, &unlimited, &mut |_| {})
}

/// [`evaluate_general`] within `limits.max_work` (the quadrature's estimated work,
/// [`quadrature_work`], is checked before anything starts), reporting `progress` once per piece of
/// the quadrature (two passes).
///
/// # Errors
/// As [`evaluate_general`]; an estimated work above `limits.max_work` (field `"limit"`).
pub fn evaluate_general_with(
    instance: &Instance,
    tie: &Tie,
    limits: &WorkLimits,
    progress: &mut dyn FnMut(Progress),
) -> Result<GeneralEvaluation, InstanceError> {
    tie.validate()?;
    let estimate = quadrature_work(instance);
    if estimate > limits.max_work {
        return Err(too_much_work(format!(
            "the normal-box quadrature needs about {estimate:.1e} work units (up to {} pieces × \
             {} boxes; about {:.0} s here), above the limit of {:.1e}",
            quadrature_pieces(instance),
            instance.boxes().len(),
            estimate / WORK_UNITS_PER_SECOND,
            limits.max_work
        )));
    }
    let mut rounded = Vec::new();
    let n = instance.boxes().len();
    let mut indices = Vec::with_capacity(n);
    for i in 0..n {
        indices.push(certified_index(instance, i, &mut rounded)?);
    }
    for i in 0..n {
        for j in i + 1..n {
            if indices[i].compare(&indices[j]).is_none() {
                return Err(undecidable(
                    i,
                    format!("the order of the indices of boxes {i} and {j}"),
                ));
            }
        }
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| {
        indices[a]
            .compare(&indices[b])
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
    let kww = kww_quadrature(instance, &indices, progress);
    Ok(GeneralEvaluation {
        indices,
        order,
        cost_lower,
        cost_upper,
        objective: kww.value,
        objective_error: kww.error_estimate,
        objective_lower: kww.lower,
        objective_upper: kww.upper,
        rounded_parameters: rounded,
    })
}

//! The instance on which EI-per-cost has an unbounded approximation ratio (Astudillo et al.,
//! supplement, Theorem 1, part 1; MATH.md, "The instance where EI-per-cost fails").
//!
//! Stated, as in the source, in **maximisation**: hard budget `B = 1 + δ`, `f(0) = 0` observed;
//! `K = ⌈(1+δ)/ε⌉` cheap boxes `f ~ N(0, ε²)` of cost `ε`; one expensive box `f ~ N(0, 1)` of
//! cost `1 + δ`. Conversion to this project's minimisation: the loss is `-f`, whose boxes have
//! the same (symmetric) distributions; the outside option is `y0 = -f(0) = 0`; a reward `V`
//! (expected best `f`) is the loss `-V`, and "ratio of rewards" is the ratio of the
//! improvements `y0 - E[best loss]`.
//!
//! * EI-per-cost: `EI/c` is `E[Z⁺]` for a cheap box and `E[Z⁺]/(1+δ)` for the expensive one, so
//!   it opens a cheap box, after which the expensive box is unaffordable; it opens
//!   `N = ⌊(1+δ)/ε⌋` cheap boxes and earns `ε·E[max(0, Z_1, …, Z_N)]`.
//! * "Open the expensive box once" spends exactly `B` and earns `E[Z⁺] = 1/√(2π)`.
//! * The Gittins index (minimisation form, costs `λ·c`): a cheap box has index
//!   `ε·PBGI(0, 1, λ)`, the expensive one `PBGI(0, 1, λ(1+δ))`. At `λ = 1` both are above
//!   `y0 = 0`, so the PBGI stopping rule stops at once (in the cost-per-sample problem nothing is
//!   worth its cost). The expensive box has the smaller index, hence is PBGI's first choice,
//!   exactly for `λ < λ_switch`, found here by bisection; under the hard budget that choice
//!   exhausts `B` and earns `E[Z⁺]`.
//!
//! `E[max(0, Z_1, …, Z_N)] = ∫_0^∞ (1 - Φ(t)^N) dt`, integrated by [`super::quadrature`] on unit
//! pieces of `[0, T]`, `T = ⌈√(2 ln N)⌉ + 12`, with `1 - Φ^N = -expm1(N·ln1p(-Q(t)))` (no
//! cancellation) and the tail bounded by `N·∫_T^∞ Q = N·h(-T) ≤ N·φ(T)/T²`.
use super::instance::InstanceError;
use super::quadrature::{integrate_survival, Quadrature, PREC};
use rug::float::Constant;
use rug::float::Round;
use rug::{Float, Integer, Rational};

/// Everything the report needs about one `(ε, δ)`.
#[derive(Clone, Debug)]
pub struct Counterexample {
    /// `ε`.
    pub epsilon: Rational,
    /// `δ`.
    pub delta: Rational,
    /// `K = ⌈(1+δ)/ε⌉` cheap boxes.
    pub cheap_boxes: Integer,
    /// `N = ⌊(1+δ)/ε⌋` cheap boxes opened by EI-per-cost.
    pub opened_by_ei_per_cost: Integer,
    /// EI-per-cost's expected reward `ε·E[max(0, Z_1..Z_N)]`.
    pub ei_per_cost_value: Float,
    /// Error estimate of `ei_per_cost_value` (quadrature estimate + tail bound): not a bound.
    pub ei_per_cost_error: Float,
    /// Certified enclosure of EI-per-cost's expected reward.
    pub ei_per_cost_bounds: (Float, Float),
    /// "Open the expensive box once": `E[Z⁺] = 1/√(2π)`.
    pub expensive_once_value: Float,
    /// `expensive_once_value / ei_per_cost_value`.
    pub ratio: Float,
    /// Gittins indices (minimisation form) at `λ = 1`: (cheap, expensive), nearest f64.
    pub indices_at_unit_lambda: (f64, f64),
    /// PBGI opens the expensive box first iff `λ < lambda_switch` (bisection to relative
    /// `1e-13` on the certified indices; `None` if the cheap box is preferred for every `λ` tried).
    pub lambda_switch: Option<f64>,
}

fn invalid(field: &str, message: String) -> InstanceError {
    InstanceError {
        box_index: None,
        field: field.into(),
        message,
    }
}

/// Node level of the certified enclosure of `E[max(0, Z_1, …, Z_N)]` (relative width below
/// `4e-5`, a check on the estimate; each level more costs twice the time for a width four times
/// smaller).
const CERTIFIED_LEVEL: u32 = 6;

/// `E[max(0, Z_1, …, Z_N)]` for `N` iid standard normals.
///
/// # Accuracy
/// `value` with an error *estimate* `error_estimate` (quadrature estimate plus the tail bound),
/// and a certified enclosure `[lower, upper]`: the integrand `1 - Φ(t)^N` is the survival
/// function of the maximum, whose density `N·φ·Φ^(N-1)` is log-concave, so it is non-increasing
/// and log-concave ([`integrate_survival`]); the tail beyond `T` is at most `N·φ(T)/T²`.
/// Checked against mpmath in `reference/tests/pandora_counterexample.rs`.
pub fn expected_max_with_zero(n: &Integer) -> Quadrature {
    let n_f = Float::with_val(PREC, n);
    let sqrt2 = Float::with_val(PREC, 2).sqrt();
    let t_max = Float::with_val(PREC, n_f.ln_ref()) * 2u32;
    let t_max = t_max.sqrt().ceil() + 12u32;
    let pieces = t_max.to_u32_saturating().unwrap_or(u32::MAX);
    let integrand = |t: &Float| -> Float {
        let q = Float::with_val(PREC, t / &sqrt2).erfc() / 2u32;
        let log_phi_n = Float::with_val(PREC, -q).ln_1p() * &n_f;
        -log_phi_n.exp_m1()
    };
    let mut value = Float::with_val(PREC, 0);
    let mut error = Float::with_val(PREC, 0);
    let mut lower = Float::with_val(PREC, 0);
    let mut upper = Float::with_val(PREC, 0);
    // The result is at least E[Z⁺] = 0.39…: pieces are refined to an absolute 2^-40.
    let target = Float::with_val(PREC, 1) >> 40u32;
    for k in 0..pieces {
        let a = Float::with_val(PREC, k);
        let b = Float::with_val(PREC, k + 1);
        let q = integrate_survival(integrand, &a, &b, 90, CERTIFIED_LEVEL, &target);
        value += q.value;
        error += q.error_estimate;
        lower += q.lower;
        upper += q.upper;
    }
    // Tail: N·φ(T)/T², rounded up generously.
    let t = Float::with_val(PREC, pieces);
    let t2 = Float::with_val(PREC, t.square_ref());
    let phi = (-Float::with_val(PREC, &t2 / 2u32)).exp()
        / Float::with_val(PREC, Float::with_val(PREC, Constant::Pi) * 2u32).sqrt();
    let tail = phi * &n_f / t2;
    let tail = Float::with_val(PREC, &tail + Float::with_val(PREC, &tail >> 100u32));
    error += &tail;
    // Sums of non-negative terms at PREC bits: relative rounding far below 2^-100.
    let lower_slack = Float::with_val(PREC, &lower >> 100u32);
    let upper_slack = Float::with_val(PREC, &upper >> 100u32);
    Quadrature {
        value,
        error_estimate: error,
        lower: lower - lower_slack,
        upper: upper + upper_slack + tail,
    }
}

/// The index `PBGI(0, 1, c)` (nearest f64) from the certified reference.
fn unit_index(c: f64) -> Result<f64, InstanceError> {
    crate::pbgi::pbgi(0.0, 1.0, c)
        .map(|x| x.value)
        .map_err(|e| invalid("lambda", format!("certified PBGI failed at cost {c}: {e}")))
}

/// `(K, N) = (⌈(1+δ)/ε⌉, ⌊(1+δ)/ε⌋)`, exactly.
pub fn counterexample_sizes(epsilon: &Rational, delta: &Rational) -> (Integer, Integer) {
    let ratio = Rational::from(1 + delta) / epsilon;
    let floor = ratio.clone().floor().into_numer_denom().0;
    let ceil = ratio.ceil().into_numer_denom().0;
    (ceil, floor)
}

/// Builds and solves the counterexample for `ε, δ > 0`.
///
/// # Errors
/// `ε ≤ 0`, `δ ≤ 0`, `ε > 1 + δ`, or `N` beyond `2^64`.
/// # Accuracy
/// `K`, `N` exact; values by quadrature at 128 bits with the stated error estimate; indices
/// certified; `λ_switch` to relative `1e-13` (bisection).
pub fn counterexample(
    epsilon: &Rational,
    delta: &Rational,
) -> Result<Counterexample, InstanceError> {
    if *epsilon <= 0 {
        return Err(invalid(
            "epsilon",
            format!("must be > 0, got \"{epsilon}\""),
        ));
    }
    if *delta <= 0 {
        return Err(invalid("delta", format!("must be > 0, got \"{delta}\"")));
    }
    let budget = Rational::from(1 + delta);
    if *epsilon > budget {
        return Err(invalid(
            "epsilon",
            format!("must be ≤ 1 + δ = {budget}, got \"{epsilon}\""),
        ));
    }
    let (ceil, floor) = counterexample_sizes(epsilon, delta);
    if floor.significant_bits() > 64 {
        return Err(invalid(
            "epsilon",
            format!("too small: N = {floor} cheap boxes"),
        ));
    }
    let m = expected_max_with_zero(&floor);
    let eps = Float::with_val(PREC, epsilon);
    let ei_per_cost_value = Float::with_val(PREC, &m.value * &eps);
    let ei_per_cost_error = Float::with_val(PREC, &m.error_estimate * &eps);
    let eps_low = Float::with_val_round(PREC, epsilon, Round::Down).0;
    let eps_high = Float::with_val_round(PREC, epsilon, Round::Up).0;
    let ei_per_cost_bounds = (
        Float::with_val_round(PREC, &m.lower * &eps_low, Round::Down).0,
        Float::with_val_round(PREC, &m.upper * &eps_high, Round::Up).0,
    );

    let two_pi = Float::with_val(PREC, Constant::Pi) * 2u32;
    let expensive_once_value = two_pi.sqrt().recip();
    let ratio_value = Float::with_val(PREC, &expensive_once_value / &ei_per_cost_value);
    let eps_f = eps.to_f64();
    let budget_f = Float::with_val(53, &budget).to_f64();
    let indices_at_unit_lambda = (eps_f * unit_index(1.0)?, unit_index(budget_f)?);
    // f(λ) = g_expensive(λ) - g_cheap(λ): negative (expensive first) for small λ.
    let prefers_expensive = |lambda: f64| -> Result<bool, InstanceError> {
        Ok(unit_index(lambda * budget_f)? < eps_f * unit_index(lambda)?)
    };
    let upper = 0.3989422804014327 / budget_f;
    let lambda_switch = if !prefers_expensive(upper * 1e-12)? {
        None
    } else {
        let (mut lo, mut hi) = (upper * 1e-12, upper);
        while hi - lo > 1e-13 * hi {
            let mid = 0.5 * (lo + hi);
            if prefers_expensive(mid)? {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        Some(hi)
    };
    Ok(Counterexample {
        epsilon: epsilon.clone(),
        delta: delta.clone(),
        cheap_boxes: ceil,
        opened_by_ei_per_cost: floor,
        ei_per_cost_value,
        ei_per_cost_error,
        ei_per_cost_bounds,
        expensive_once_value,
        ratio: ratio_value,
        indices_at_unit_lambda,
        lambda_switch,
    })
}

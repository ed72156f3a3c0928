//! Error measures in units in the last place (ULP), one per function.
//!
//! Every measure compares a computed f64 with the reference's **correctly rounded** f64 (libm-test
//! convention), so a correctly rounded implementation scores 0 and a faithful one at most 1.
//!
//! | function | measure |
//! |---|---|
//! | `h`, `ei`, `log-ndtr`, every gradient column | plain ULP distance: the number of f64 values between the two (subnormals count; `+0 = -0`) |
//! | `ln h`, `log_ei` | `|computed − exact|` in ULPs of `max(|exact|, 1)`: relative near large values, absolute (in ULPs of 1) near 0, where the logarithm's own condition number makes a relative measure meaningless |
//! | `pbgi` | `|computed − exact|` in ULPs of `|μ| + σ·|u|` (`u = (g − μ)/σ`, so `σ·|u| = |g − μ|`): the size of the two terms of `g = μ + σ·u`, the scale at which any f64 evaluation of that sum rounds |
//! | `log_eipc` | `|computed − exact|` in ULPs of `max(|exact|, |ln cost|, 1)`: `ln EI − ln cost` cancels near a tie, so the error is measured at the scale of the larger term |
//! | `log_eipc_inv`, `log_eipc_exp` | `|computed − exact|` in ULPs of `max(|exact|, |LogEI|, |m ∓ s²/2|, 1)` (`LogEI = exact + (m ∓ s²/2)`): the largest of the result and the two terms it is the difference of, as for `log_eipc` |
//! | `pbgi_lognormal` | `|computed − exact|` in ULPs of `|μ| + |g − μ| + E[c]/Φ(u)` (`E[c] = exp(m + s²/2)`, `u = (g − μ)/σ`; `E[c]` when `σ = 0`): PBGI's scale plus `g`'s sensitivity `c·∂g/∂c` to the rounding of `E[c]` (MATH.md, "PBGI", derivatives) |
//!
//! Matching non-finite values (`-inf` = `-inf`) score 0; a NaN, or a non-finite value where the
//! other is finite, scores `+inf`.
use crate::function::Function;

/// Maps f64 to integers so that consecutive f64 values map to consecutive integers, with
/// `-0` and `+0` both at 0.
fn ordered_key(x: f64) -> i128 {
    let bits = x.to_bits() as i64;
    if bits < 0 {
        i128::from(i64::MIN) - i128::from(bits)
    } else {
        i128::from(bits)
    }
}

/// The number of f64 values between `a` and `b` (0 when equal, `+0 = -0`); `+inf` if either is
/// NaN or exactly one is infinite.
pub fn ulp_distance(a: f64, b: f64) -> f64 {
    if a == b {
        return 0.0;
    }
    if a.is_nan() || b.is_nan() || a.is_infinite() || b.is_infinite() {
        return f64::INFINITY;
    }
    (ordered_key(a) - ordered_key(b)).unsigned_abs() as f64
}

/// The spacing of f64 values at `|x|`: `2^(e−52)` for `2^e ≤ |x| < 2^(e+1)`, and `2^−1074` in the
/// subnormal range (and at 0).
pub fn ulp_of(x: f64) -> f64 {
    let magnitude = x.abs();
    if magnitude < f64::MIN_POSITIVE {
        return libm::ldexp(1.0, -1074);
    }
    let exponent = ((magnitude.to_bits() >> 52) as i32) - 1023;
    libm::ldexp(1.0, exponent - 52)
}

/// `|computed − exact|` in ULPs of `scale` (see the module table), with the non-finite rules of
/// the module.
pub fn scaled_error(computed: f64, exact: f64, scale: f64) -> f64 {
    if computed == exact {
        return 0.0;
    }
    if !computed.is_finite() || !exact.is_finite() {
        return f64::INFINITY;
    }
    (computed - exact).abs() / ulp_of(scale)
}

/// The error of `computed` against the correctly rounded `exact` for `function` at `args`
/// (in [`Function::input_columns`] order), by the measure of the module table (the same for
/// every output column of a gradient).
pub fn error_in_ulps(function: Function, args: &[f64], computed: f64, exact: f64) -> f64 {
    match function {
        // ln Φ(x) < 0 never crosses 0, and the gradients' columns are products and ratios of
        // Φ, φ and h, so the plain distance is the relative measure there.
        Function::H
        | Function::Ei
        | Function::LogNdtr
        | Function::EiGrad
        | Function::LogEiGrad
        | Function::PbgiGrad => ulp_distance(computed, exact),
        Function::LnH | Function::LogEi => scaled_error(computed, exact, exact.abs().max(1.0)),
        Function::Pbgi => {
            let mu = args[0];
            scaled_error(computed, exact, mu.abs() + (exact - mu).abs())
        }
        Function::LogEipc => {
            let ln_cost = args[3].ln();
            scaled_error(computed, exact, exact.abs().max(ln_cost.abs()).max(1.0))
        }
        Function::LogEipcInv | Function::LogEipcExp => {
            let (m, half_s2) = (args[3], 0.5 * args[4] * args[4]);
            let ln_cost = if function == Function::LogEipcInv {
                m - half_s2
            } else {
                m + half_s2
            };
            let log_ei = exact + ln_cost;
            let scale = exact.abs().max(log_ei.abs()).max(ln_cost.abs()).max(1.0);
            scaled_error(computed, exact, scale)
        }
        Function::PbgiLognormal => {
            let (mu, sigma, m, s) = (args[0], args[1], args[2], args[3]);
            let expected_cost = (m + 0.5 * s * s).exp();
            // c·∂g/∂c = c/Φ(u) (MATH.md); Φ from libm's erfc, for the scale only.
            let sensitivity = if sigma > 0.0 {
                let u = (exact - mu) / sigma;
                expected_cost / (0.5 * libm::erfc(-u * std::f64::consts::FRAC_1_SQRT_2))
            } else {
                expected_cost
            };
            scaled_error(computed, exact, mu.abs() + (exact - mu).abs() + sensitivity)
        }
    }
}

/// One line saying how [`error_in_ulps`] measures `function`'s error (printed in reports).
pub fn measure_description(function: Function) -> &'static str {
    match function {
        Function::H | Function::Ei | Function::LogNdtr => {
            "ULP distance to the correctly rounded value (f64 values between them)"
        }
        Function::EiGrad | Function::LogEiGrad | Function::PbgiGrad => {
            "ULP distance to the correctly rounded value, per output column (f64 values between \
             them)"
        }
        Function::LnH | Function::LogEi => "|error| in ULPs of max(|exact|, 1)",
        Function::Pbgi => "|error| in ULPs of |mu| + sigma*|u| = |mu| + |g - mu|",
        Function::LogEipc => "|error| in ULPs of max(|exact|, |ln cost|, 1)",
        Function::LogEipcInv | Function::LogEipcExp => {
            "|error| in ULPs of max(|exact|, |LogEI|, |m -/+ s^2/2|, 1)"
        }
        Function::PbgiLognormal => "|error| in ULPs of |mu| + |g - mu| + E[c]/Phi(u)",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_counts_representable_values() {
        assert_eq!(ulp_distance(1.0, 1.0 + f64::EPSILON), 1.0);
        assert_eq!(ulp_distance(1.0, 1.0 - f64::EPSILON / 2.0), 1.0);
        assert_eq!(ulp_distance(0.0, -0.0), 0.0);
        assert_eq!(ulp_distance(5e-324, -5e-324), 2.0);
        assert_eq!(
            ulp_distance(f64::MAX, -f64::MAX),
            2.0 * (0x7fefffffffffffffu64 as f64)
        );
        assert_eq!(ulp_distance(f64::NEG_INFINITY, f64::NEG_INFINITY), 0.0);
        assert_eq!(ulp_distance(f64::NEG_INFINITY, -1e308), f64::INFINITY);
        assert_eq!(ulp_distance(f64::NAN, f64::NAN), f64::INFINITY);
    }

    #[test]
    fn ulp_of_is_the_spacing_above_a_power_of_two() {
        assert_eq!(ulp_of(1.0), f64::EPSILON);
        assert_eq!(ulp_of(1.9999), f64::EPSILON);
        assert_eq!(ulp_of(-2.0), 2.0 * f64::EPSILON);
        assert_eq!(ulp_of(0.0), 5e-324);
        assert_eq!(ulp_of(1e-310), 5e-324);
        assert_eq!(ulp_of(f64::MIN_POSITIVE), 5e-324);
    }

    #[test]
    fn log_errors_are_absolute_below_one() {
        // 1e-17 off at a result of 1e-10 is 1e7 relative ULPs but a tenth of an ULP of 1.
        let e = error_in_ulps(Function::LogEi, &[0.0, 1.0, 0.0], 1e-10 + 1e-17, 1e-10);
        assert!((e - 1e-17 / f64::EPSILON).abs() < 1e-3, "{e}");
        let e = error_in_ulps(
            Function::LogEi,
            &[0.0, 1.0, 0.0],
            -100.0 - 2.0 * 1.4210854715202004e-14,
            -100.0,
        );
        assert_eq!(e, 2.0);
        assert_eq!(
            error_in_ulps(
                Function::LogEi,
                &[0.0, 0.0, -1.0],
                f64::NEG_INFINITY,
                f64::NEG_INFINITY
            ),
            0.0
        );
    }

    #[test]
    fn pbgi_error_is_at_the_scale_of_mu_and_the_offset() {
        // g = mu + sigma*u with mu = 1e6, g - mu = -3: the scale is 1e6 + 3.
        let exact = 1e6 - 3.0;
        let computed = exact + 2.0 * ulp_of(1e6 + 3.0);
        assert_eq!(
            error_in_ulps(Function::Pbgi, &[1e6, 1.0, 1e-3], computed, exact),
            2.0
        );
    }
}

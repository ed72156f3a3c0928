//! Evaluation-cost functions of the stopping paper's Bayesian-regret experiments (App. B,
//! "Cost functions: Bayesian regret"), before the scaling by `λ`. Each is normalised so that
//! its average over `[0, 1]^d` is (about) 1.
//!
//! - uniform: `c(x) = 1`;
//! - linear: `c(x) = (1 + 20·mean_i(x_i))/11`;
//! - periodic: `c(x) = exp((α/d)·Σ_i cos(2πβ(x_i - x*_i))) / I₀(α/d)^d` with `α = β = 2`,
//!   where the paper takes `x*` = the global minimiser of `f` (see [`PeriodicAnchor`]).

/// Where the periodic cost is centred (its maximum is at `x*`).
#[derive(Clone, Debug, PartialEq)]
pub enum PeriodicAnchor {
    /// `x*` drawn uniformly from `[0, 1]^d`, independently of the objective. The cost is then
    /// independent of `f`, as Theorem 1 assumes (a known cost function).
    Independent,
    /// `x*` = the domain point minimising the objective: the paper's choice (App. B). The cost
    /// then carries information about `f` that the GP posterior ignores, so the choice of
    /// `x_t` is not a function of the observations alone: **outside Theorem 1**.
    ObjectiveArgmin,
    /// A fixed `x*` (one coordinate per dimension).
    Fixed(Vec<f64>),
}

/// An (unscaled) evaluation-cost function.
#[derive(Clone, Debug, PartialEq)]
pub enum CostFunction {
    /// `c ≡ 1`.
    Uniform,
    /// `c(x) = (1 + 20·mean_i x_i)/11`, from `1/11` at the origin to `21/11` at `(1..1)`.
    Linear,
    /// Periodic cost centred at an anchor `x*` (see the module documentation).
    Periodic {
        /// Amplitude `α > 0` (paper: 2).
        alpha: f64,
        /// Frequency `β > 0` (paper: 2).
        beta: f64,
        /// How `x*` is chosen.
        anchor: PeriodicAnchor,
    },
}

impl CostFunction {
    /// The paper's periodic cost (`α = β = 2`) with the given anchor rule.
    pub fn periodic(anchor: PeriodicAnchor) -> CostFunction {
        CostFunction::Periodic {
            alpha: 2.0,
            beta: 2.0,
            anchor,
        }
    }

    /// Short name used in tables (`uniform`, `linear`, `periodic`, `periodic@argmin`, …).
    pub fn name(&self) -> String {
        match self {
            CostFunction::Uniform => "uniform".into(),
            CostFunction::Linear => "linear".into(),
            CostFunction::Periodic { anchor, .. } => match anchor {
                PeriodicAnchor::Independent => "periodic".into(),
                PeriodicAnchor::ObjectiveArgmin => "periodic@argmin".into(),
                PeriodicAnchor::Fixed(_) => "periodic@fixed".into(),
            },
        }
    }

    /// Whether this cost function satisfies Theorem 1's assumption (cost known and not a
    /// function of the objective).
    pub fn within_theorem(&self) -> bool {
        !matches!(
            self,
            CostFunction::Periodic {
                anchor: PeriodicAnchor::ObjectiveArgmin,
                ..
            }
        )
    }

    /// Checks the parameters against a domain dimension `dim`.
    pub fn validate(&self, dim: usize) -> Result<(), String> {
        if let CostFunction::Periodic {
            alpha,
            beta,
            anchor,
        } = self
        {
            if !(alpha.is_finite() && *alpha > 0.0 && *alpha / dim as f64 <= 100.0) {
                return Err(format!(
                    "periodic cost alpha must be finite, > 0 and alpha/d ≤ 100, got {alpha}"
                ));
            }
            if !(beta.is_finite() && *beta > 0.0) {
                return Err(format!(
                    "periodic cost beta must be finite and > 0, got {beta}"
                ));
            }
            if let PeriodicAnchor::Fixed(x) = anchor {
                if x.len() != dim || x.iter().any(|v| !v.is_finite()) {
                    return Err(format!(
                        "periodic cost anchor must have {dim} finite coordinates, got {x:?}"
                    ));
                }
            }
        }
        Ok(())
    }

    /// `c(x)` for a resolved anchor `x*` (ignored unless periodic).
    ///
    /// Accuracy: a few ULP for uniform/linear; for periodic, the `exp`/`cos` rounding plus the
    /// normaliser's (`bessel_i0`, ≤ 2 ULP), so ~1e-15 relative.
    pub fn eval(&self, x: &[f64], anchor: &[f64]) -> f64 {
        match self {
            CostFunction::Uniform => 1.0,
            CostFunction::Linear => {
                let m = x.iter().sum::<f64>() / x.len() as f64;
                (1.0 + 20.0 * m) / 11.0
            }
            CostFunction::Periodic { alpha, beta, .. } => {
                let d = x.len() as f64;
                let a = alpha / d;
                let s: f64 = x
                    .iter()
                    .zip(anchor)
                    .map(|(xi, ai)| (2.0 * std::f64::consts::PI * beta * (xi - ai)).cos())
                    .sum();
                (a * s).exp() / bessel_i0(a).powi(x.len() as i32)
            }
        }
    }
}

impl CostFunction {
    /// `c(x)` and its gradient in `x` (written to `grad`, length `d`) for a resolved anchor.
    ///
    /// uniform: 0; linear: `20/(11·d)` in every coordinate; periodic:
    /// `∂c/∂x_i = -c(x)·(α/d)·2πβ·sin(2πβ(x_i - x*_i))`. Accuracy as [`CostFunction::eval`].
    pub fn eval_with_gradient(&self, x: &[f64], anchor: &[f64], grad: &mut [f64]) -> f64 {
        let d = x.len() as f64;
        match self {
            CostFunction::Uniform => {
                grad.fill(0.0);
                1.0
            }
            CostFunction::Linear => {
                grad.fill(20.0 / (11.0 * d));
                self.eval(x, anchor)
            }
            CostFunction::Periodic { alpha, beta, .. } => {
                let c = self.eval(x, anchor);
                let w = 2.0 * std::f64::consts::PI * beta;
                for ((g, xi), ai) in grad.iter_mut().zip(x).zip(anchor) {
                    *g = -c * (alpha / d) * w * (w * (xi - ai)).sin();
                }
                c
            }
        }
    }
}

/// `λ·c(x)` at every point of `domain` for the objective `objective` (whose minimiser centres
/// the periodic cost under [`PeriodicAnchor::ObjectiveArgmin`]); `independent_anchor` is the
/// centre for [`PeriodicAnchor::Independent`], drawn by the caller independently of `f`.
pub fn scaled_costs(
    domain: &crate::gp::Domain,
    cost: &CostFunction,
    lambda: f64,
    objective: &[f64],
    independent_anchor: &[f64],
) -> Vec<f64> {
    let argmin = (0..objective.len())
        .min_by(|&a, &b| objective[a].total_cmp(&objective[b]))
        .unwrap_or(0);
    let anchor: &[f64] = match cost {
        CostFunction::Periodic { anchor, .. } => match anchor {
            PeriodicAnchor::Independent => independent_anchor,
            PeriodicAnchor::ObjectiveArgmin => domain.point(argmin),
            PeriodicAnchor::Fixed(x) => x,
        },
        _ => &[],
    };
    (0..domain.len())
        .map(|i| lambda * cost.eval(domain.point(i), anchor))
        .collect()
}

/// Modified Bessel function of the first kind `I₀(x) = Σ_k (x/2)^{2k}/(k!)²`, for
/// `0 ≤ x ≤ 100` (the periodic cost's normaliser).
///
/// The series has positive terms, so summing until a term falls below `2⁻⁵⁴` of the sum gives
/// ~1 ULP per term of rounding and a truncation below 1 ULP: ≤ 2 ULP in practice (checked
/// against published values in the tests).
pub fn bessel_i0(x: f64) -> f64 {
    let q = 0.25 * x * x;
    let mut term = 1.0;
    let mut sum = 1.0;
    let mut k = 1.0;
    while term > sum * f64::EPSILON * 0.25 {
        term *= q / (k * k);
        sum += term;
        k += 1.0;
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bessel_i0_matches_published_values() {
        // Abramowitz & Stegun Table 9.8; digits from mpmath `besseli(0, x)` at 30 digits:
        // I0(1) = 1.26606587775200833559…, I0(2) = 2.27958530233606726743…,
        // I0(0.25) = 1.01568614122360792335… (literals below: the nearest f64).
        for (x, want) in [
            (1.0, 1.266_065_877_752_008_4),
            (2.0, 2.279_585_302_336_067_3),
            (0.25, 1.015_686_141_223_608),
        ] {
            let got = bessel_i0(x);
            assert!(
                (got - want).abs() <= 2.0 * f64::EPSILON * want,
                "I0({x}) = {got}"
            );
        }
    }

    #[test]
    fn linear_cost_spans_one_eleventh_to_twenty_one_elevenths() {
        let c = CostFunction::Linear;
        assert_eq!(c.eval(&[0.0], &[]), 1.0 / 11.0);
        assert_eq!(c.eval(&[1.0, 1.0], &[]), 21.0 / 11.0);
    }

    #[test]
    fn cost_gradients_match_central_differences() {
        let x = [0.13, 0.71, 0.42];
        let anchor = [0.6, 0.2, 0.9];
        for cost in [
            CostFunction::Uniform,
            CostFunction::Linear,
            CostFunction::periodic(PeriodicAnchor::Independent),
        ] {
            let mut grad = [0.0; 3];
            let c = cost.eval_with_gradient(&x, &anchor, &mut grad);
            assert_eq!(c, cost.eval(&x, &anchor));
            for i in 0..3 {
                let h = 1e-6;
                let (mut up, mut down) = (x, x);
                up[i] += h;
                down[i] -= h;
                let fd = (cost.eval(&up, &anchor) - cost.eval(&down, &anchor)) / (2.0 * h);
                assert!((grad[i] - fd).abs() < 1e-8, "{} {i}", cost.name());
            }
        }
    }

    #[test]
    fn periodic_cost_averages_to_one_in_one_dimension() {
        // ∫₀¹ exp(α cos(2πβ(x - a))) dx = I₀(α) for integer β: the normalisation is exact.
        let c = CostFunction::periodic(PeriodicAnchor::Independent);
        let n = 20000;
        let mean: f64 = (0..n)
            .map(|i| c.eval(&[(i as f64 + 0.5) / n as f64], &[0.3]))
            .sum::<f64>()
            / n as f64;
        assert!((mean - 1.0).abs() < 1e-9, "mean periodic cost {mean}");
        let peak = c.eval(&[0.3], &[0.3]);
        assert!((peak - 2.0_f64.exp() / bessel_i0(2.0)).abs() < 1e-14);
    }
}

//! Stationary covariance kernels of the GP prior (stopping paper, App. B: Matérn-5/2,
//! length scale 0.1; squared exponential offered as a smoother alternative).

/// Which stationary kernel shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KernelKind {
    /// Matérn-5/2: `s²·(1 + √5·r/ℓ + 5r²/(3ℓ²))·exp(-√5·r/ℓ)`.
    Matern52,
    /// Squared exponential (RBF): `s²·exp(-r²/(2ℓ²))` (GPyTorch/BoTorch convention).
    SquaredExponential,
}

/// A stationary kernel `k(x, x') = s²·ρ(‖x - x'‖/ℓ)` with Euclidean distance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Kernel {
    /// Shape `ρ`.
    pub kind: KernelKind,
    /// Length scale `ℓ > 0` (default 0.1, as in the stopping paper's Bayesian-regret runs).
    pub length_scale: f64,
    /// Output scale (prior variance) `s² > 0` (default 1).
    pub outputscale: f64,
}

impl Default for Kernel {
    fn default() -> Self {
        Kernel {
            kind: KernelKind::Matern52,
            length_scale: 0.1,
            outputscale: 1.0,
        }
    }
}

impl Kernel {
    /// Checks that `ℓ` and `s²` are finite and positive.
    pub fn validate(&self) -> Result<(), String> {
        if !(self.length_scale.is_finite() && self.length_scale > 0.0) {
            return Err(format!(
                "kernel length_scale must be finite and > 0, got {}",
                self.length_scale
            ));
        }
        if !(self.outputscale.is_finite() && self.outputscale > 0.0) {
            return Err(format!(
                "kernel outputscale must be finite and > 0, got {}",
                self.outputscale
            ));
        }
        Ok(())
    }

    /// `k(a, b)` for two points of equal dimension.
    ///
    /// Domain: any finite coordinates. `k(a, a) = s²`. Accuracy: a few ULP (one `exp`, a few
    /// products); the prior's jitter (see `prior.rs`) dominates any rounding here.
    pub fn eval(&self, a: &[f64], b: &[f64]) -> f64 {
        debug_assert_eq!(a.len(), b.len());
        let r2: f64 = a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum();
        self.outputscale * self.shape_of_squared_distance(r2)
    }

    /// `k` at Euclidean distance `r ≥ 0` (stationary kernels depend on nothing else).
    pub fn at_distance(&self, r: f64) -> f64 {
        self.outputscale * self.shape_of_squared_distance(r * r)
    }

    /// `k(x, b)` and its gradient in `x`, written to `grad` (length `d`).
    ///
    /// Matérn-5/2 with `a = √5/ℓ`: `∇ₓk = -s²·(a²/3)·(1 + a·r)·e^{-a·r}·(x - b)`; squared
    /// exponential: `∇ₓk = -k·(x - b)/ℓ²`. Both are smooth at `r = 0` (gradient 0 there).
    /// Accuracy: a few ULP per component, as [`Kernel::eval`].
    #[inline]
    pub fn eval_with_gradient(&self, x: &[f64], b: &[f64], grad: &mut [f64]) -> f64 {
        debug_assert!(x.len() == b.len() && grad.len() == x.len());
        let (value, factor) = self.eval_with_factor(x, b);
        for ((g, p), q) in grad.iter_mut().zip(x).zip(b) {
            *g = factor * (p - q);
        }
        value
    }

    /// `k(x, b)` and the factor `φ` of its gradient `∇ₓk = φ·(x − b)`
    /// ([`Kernel::eval_with_gradient`] writes exactly `φ·(x_i − b_i)`, so callers that
    /// recompute the gradient from `φ` get the same numbers).
    #[inline]
    pub fn eval_with_factor(&self, x: &[f64], b: &[f64]) -> (f64, f64) {
        debug_assert!(x.len() == b.len());
        let r2: f64 = x.iter().zip(b).map(|(p, q)| (p - q) * (p - q)).sum();
        let l = self.length_scale;
        match self.kind {
            KernelKind::Matern52 => {
                let a = 5.0_f64.sqrt() / l;
                let s = a * r2.sqrt();
                let e = (-s).exp();
                (
                    self.outputscale * (1.0 + s + s * s / 3.0) * e,
                    -self.outputscale * (a * a / 3.0) * (1.0 + s) * e,
                )
            }
            KernelKind::SquaredExponential => {
                let k = self.outputscale * (-0.5 * r2 / (l * l)).exp();
                (k, -k / (l * l))
            }
        }
    }

    fn shape_of_squared_distance(&self, r2: f64) -> f64 {
        let l = self.length_scale;
        match self.kind {
            KernelKind::Matern52 => {
                let s = 5.0_f64.sqrt() * r2.sqrt() / l;
                (1.0 + s + s * s / 3.0) * (-s).exp()
            }
            KernelKind::SquaredExponential => (-0.5 * r2 / (l * l)).exp(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matern52_matches_closed_form_at_one_length_scale() {
        // r = ℓ: (1 + √5 + 5/3)·e^{-√5}, evaluated independently.
        let k = Kernel::default();
        let expected = (1.0 + 5.0_f64.sqrt() + 5.0 / 3.0) * (-(5.0_f64.sqrt())).exp();
        let got = k.eval(&[0.3], &[0.4]);
        assert!((got - expected).abs() <= 1e-14, "{got} vs {expected}");
        assert_eq!(k.eval(&[0.7, 0.2], &[0.7, 0.2]), 1.0);
    }

    #[test]
    fn kernel_gradients_match_central_differences() {
        for kind in [KernelKind::Matern52, KernelKind::SquaredExponential] {
            let k = Kernel {
                kind,
                length_scale: 0.1,
                outputscale: 1.3,
            };
            let (x, b) = ([0.31, 0.52, 0.47], [0.27, 0.58, 0.40]);
            let mut grad = [0.0; 3];
            let value = k.eval_with_gradient(&x, &b, &mut grad);
            // Two formulas for the same value: equal to a few ULP.
            assert!((value - k.eval(&x, &b)).abs() < 4.0 * f64::EPSILON * value);
            for i in 0..3 {
                let h = 1e-6;
                let (mut up, mut down) = (x, x);
                up[i] += h;
                down[i] -= h;
                let fd = (k.eval(&up, &b) - k.eval(&down, &b)) / (2.0 * h);
                assert!(
                    (grad[i] - fd).abs() < 1e-7,
                    "{kind:?} {i}: {} vs {fd}",
                    grad[i]
                );
            }
            // At r = 0 the gradient vanishes (a maximum of the kernel).
            let value = k.eval_with_gradient(&x, &x, &mut grad);
            assert_eq!(value, 1.3);
            assert_eq!(grad, [0.0; 3]);
        }
    }

    #[test]
    fn squared_exponential_matches_closed_form() {
        let k = Kernel {
            kind: KernelKind::SquaredExponential,
            length_scale: 0.2,
            outputscale: 2.0,
        };
        // r² = 0.04 + 0.09 = 0.13 → 2·exp(-0.13/0.08)
        let expected = 2.0 * (-0.13_f64 / 0.08).exp();
        let got = k.eval(&[0.0, 0.0], &[0.2, 0.3]);
        assert!((got - expected).abs() <= 1e-14 * expected);
    }
}

//! The statistics both studies report: a sample mean with its standard error (two-pass, in
//! sample order, so results do not depend on thread counts), and the order statistics some
//! stopping rules rest on (median, inter-quartile range).

/// `z` of a two-sided 95% normal interval, `Φ⁻¹(0.975)`.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A sample mean and its standard error.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Sample mean.
    pub mean: f64,
    /// Standard error `s/√N` (`s` with the `N − 1` divisor); `+∞` when `N < 2`.
    pub standard_error: f64,
    /// Sample size `N`.
    pub count: usize,
}

impl Estimate {
    /// Mean and standard error of `values`, in order.
    ///
    /// Two passes with the corrected sum of squares (Chan, Golub & LeVeque 1983, eq. 1.7):
    /// `Σ(x − x̄)² − (Σ(x − x̄))²/N`, whose second term removes the first-order effect of the
    /// rounding in `x̄`; unlike the one-pass `Σx² − N·x̄²` it does not cancel when the mean is
    /// large against the spread. Empty input: mean NaN.
    pub fn of(values: &[f64]) -> Estimate {
        let n = values.len() as f64;
        let mean = values.iter().sum::<f64>() / n;
        if values.len() < 2 {
            return Estimate {
                mean,
                standard_error: f64::INFINITY,
                count: values.len(),
            };
        }
        let (squares, deviations) = values.iter().fold((0.0, 0.0), |(sq, dev), &v| {
            let d = v - mean;
            (sq + d * d, dev + d)
        });
        let variance = ((squares - deviations * deviations / n) / (n - 1.0)).max(0.0);
        Estimate {
            mean,
            standard_error: (variance / n).sqrt(),
            count: values.len(),
        }
    }

    /// The ratio of means `Σa/Σb` of paired samples `(a_i, b_i)` with its delta-method
    /// standard error: `R = ā/b̄`, `SE(R) = SE(a_i − R·b_i)/|b̄|` (the first-order variance of a
    /// ratio estimator, Cochran, *Sampling Techniques*, 3rd ed., §6.3). Panics never: unequal
    /// lengths use the common prefix; `b̄ = 0` gives an infinite ratio and error.
    pub fn ratio_of_means(a: &[f64], b: &[f64]) -> Estimate {
        let n = a.len().min(b.len());
        let (a, b) = (&a[..n], &b[..n]);
        let ratio = Estimate::of(a).mean / Estimate::of(b).mean;
        let residuals: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - ratio * y).collect();
        let spread = Estimate::of(&residuals).standard_error;
        Estimate {
            mean: ratio,
            standard_error: spread / Estimate::of(b).mean.abs(),
            count: n,
        }
    }

    /// Half-width of the normal-approximation 95% interval, `1.96·SE`.
    pub fn half_width_95(&self) -> f64 {
        Z95 * self.standard_error
    }

    /// Two standard errors (the stopping paper's error bars).
    pub fn two_se(&self) -> f64 {
        2.0 * self.standard_error
    }

    /// Lower end of the 95% interval.
    pub fn lower_95(&self) -> f64 {
        self.mean - self.half_width_95()
    }

    /// Upper end of the 95% interval.
    pub fn upper_95(&self) -> f64 {
        self.mean + self.half_width_95()
    }
}

/// The `q`-quantile of `values` with linear interpolation between order statistics: position
/// `q·(n − 1)` in the sorted sample (numpy's default `percentile`, "type 7" of Hyndman & Fan,
/// which Ax's global stopping strategy uses for its IQR).
///
/// # Domain
/// `values` non-empty and free of NaN, `0 ≤ q ≤ 1`; otherwise `None`.
pub fn quantile(values: &[f64], q: f64) -> Option<f64> {
    if values.is_empty() || values.iter().any(|v| v.is_nan()) || !(0.0..=1.0).contains(&q) {
        return None;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let position = q * (sorted.len() - 1) as f64;
    let below = position.floor() as usize;
    let above = position.ceil() as usize;
    let weight = position - below as f64;
    // Written as a convex combination so equal neighbours (including ±∞) reproduce exactly.
    if below == above || sorted[below] == sorted[above] {
        return Some(sorted[below]);
    }
    Some(sorted[below] + weight * (sorted[above] - sorted[below]))
}

/// The median: the middle order statistic, or the mean of the two middle ones for even `n`.
/// Same domain as [`quantile`].
pub fn median(values: &[f64]) -> Option<f64> {
    quantile(values, 0.5)
}

/// Inter-quartile range `Q(0.75) − Q(0.25)` with [`quantile`]. Same domain.
pub fn interquartile_range(values: &[f64]) -> Option<f64> {
    Some(quantile(values, 0.75)? - quantile(values, 0.25)?)
}

#[cfg(test)]
mod tests {

    #[test]
    fn ratio_of_means_is_the_delta_method_by_hand() {
        // a = (1, 2, 3, 6), b = (1, 2, 2, 3): R = 12/8 = 1.5; residuals a - 1.5b =
        // (-0.5, -1, 0, 1.5), mean 0, sample variance (0.25 + 1 + 0 + 2.25)/3 = 7/6,
        // SE = sqrt(7/6/4) / 2.
        let r = Estimate::ratio_of_means(&[1.0, 2.0, 3.0, 6.0], &[1.0, 2.0, 2.0, 3.0]);
        assert_eq!(r.mean, 1.5);
        assert!((r.standard_error - (7.0f64 / 24.0).sqrt() / 2.0).abs() < 1e-15);
        assert_eq!(r.count, 4);
        let exact = Estimate::ratio_of_means(&[2.0, 4.0, 6.0], &[1.0, 2.0, 3.0]);
        assert_eq!((exact.mean, exact.standard_error), (2.0, 0.0));
    }

    use super::*;

    #[test]
    fn standard_error_survives_a_large_mean() {
        // 1e9 + {1, 2, 3, 4}: sample variance exactly 5/3, SE = √(5/12). The one-pass
        // Σx² − N·x̄² loses every digit here (Σx² ≈ 4e18, spacing 512).
        let values = [1e9 + 1.0, 1e9 + 2.0, 1e9 + 3.0, 1e9 + 4.0];
        let e = Estimate::of(&values);
        assert_eq!(e.mean, 1e9 + 2.5);
        assert!((e.standard_error - (5.0_f64 / 12.0).sqrt()).abs() < 1e-15);
        assert_eq!(e.count, 4);
        assert_eq!(Estimate::of(&[3.0]).standard_error, f64::INFINITY);
    }
}

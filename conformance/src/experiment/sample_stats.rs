//! Order statistics and summary statistics of small samples: the median (LogEIPC-med,
//! SRGap-med thresholds), the inter-quartile range (GSS), mean ± standard error (reports).

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

/// Sample mean and its standard error `s/√n` (`s` with the `n − 1` divisor; 0 when `n = 1`).
/// `None` for an empty sample.
pub fn mean_and_standard_error(values: &[f64]) -> Option<(f64, f64)> {
    if values.is_empty() {
        return None;
    }
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    if values.len() == 1 {
        return Some((mean, 0.0));
    }
    let sum_sq: f64 = values.iter().map(|v| (v - mean) * (v - mean)).sum();
    Some((mean, (sum_sq / (n - 1.0)).sqrt() / n.sqrt()))
}

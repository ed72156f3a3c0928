//! Summaries of ULP errors: count, max, median, percentiles, and the worst cases.
//!
//! Percentiles use the nearest-rank definition (the `⌈p·n⌉`-th smallest error), so every
//! reported figure is an error that actually occurred; the median is the 50th percentile.

/// Errors seen so far, with the `keep` worst cases and their descriptions.
#[derive(Clone, Debug)]
pub struct ErrorSummary<T> {
    errors: Vec<f64>,
    worst: Vec<(f64, T)>,
    keep: usize,
}

impl<T> ErrorSummary<T> {
    /// An empty summary that remembers the `keep` worst cases.
    pub fn new(keep: usize) -> Self {
        ErrorSummary {
            errors: Vec::new(),
            worst: Vec::new(),
            keep,
        }
    }

    /// Records one error; `describe` is called only if the case is among the worst kept.
    pub fn add(&mut self, error: f64, describe: impl FnOnce() -> T) {
        self.errors.push(error);
        if self.keep == 0 {
            return;
        }
        let enters = self.worst.len() < self.keep
            || self
                .worst
                .last()
                .is_some_and(|(e, _)| error.total_cmp(e).is_gt());
        if enters {
            let at = self
                .worst
                .partition_point(|(e, _)| e.total_cmp(&error).is_ge());
            self.worst.insert(at, (error, describe()));
            self.worst.truncate(self.keep);
        }
    }

    /// Number of errors recorded.
    pub fn count(&self) -> usize {
        self.errors.len()
    }

    /// The largest error (0 when empty).
    pub fn max(&self) -> f64 {
        self.errors.iter().copied().fold(0.0, f64::max)
    }

    /// The nearest-rank `p`-quantile (`0 < p ≤ 1`), 0 when empty.
    pub fn quantile(&self, p: f64) -> f64 {
        if self.errors.is_empty() {
            return 0.0;
        }
        let mut sorted = self.errors.clone();
        sorted.sort_by(f64::total_cmp);
        let rank = ((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
        sorted[rank - 1]
    }

    /// The median (nearest rank).
    pub fn median(&self) -> f64 {
        self.quantile(0.5)
    }

    /// The worst cases kept, largest error first.
    pub fn worst(&self) -> &[(f64, T)] {
        &self.worst
    }
}

/// Formats an ULP error for tables: integers as such, fractions with two significant decimals,
/// large values in scientific notation, `inf` as such.
pub fn format_ulps(error: f64) -> String {
    if error.is_infinite() {
        "inf".to_string()
    } else if error >= 1e6 {
        format!("{error:.1e}")
    } else if error == error.trunc() {
        format!("{error:.0}")
    } else if error >= 10.0 {
        format!("{error:.0}")
    } else {
        format!("{error:.2}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_statistics() {
        let mut s = ErrorSummary::new(2);
        for (i, e) in [3.0, 0.0, 1.0, 7.0, 2.0].into_iter().enumerate() {
            s.add(e, || i);
        }
        assert_eq!(s.count(), 5);
        assert_eq!(s.max(), 7.0);
        assert_eq!(s.median(), 2.0);
        assert_eq!(s.quantile(0.99), 7.0);
        assert_eq!(s.worst(), &[(7.0, 3), (3.0, 0)]);
    }

    #[test]
    fn infinite_errors_rank_highest() {
        let mut s = ErrorSummary::new(1);
        s.add(5.0, || "a");
        s.add(f64::INFINITY, || "b");
        s.add(6.0, || "c");
        assert_eq!(s.max(), f64::INFINITY);
        assert_eq!(s.worst(), &[(f64::INFINITY, "b")]);
    }

    #[test]
    fn ulp_formatting() {
        assert_eq!(format_ulps(0.0), "0");
        assert_eq!(format_ulps(0.5), "0.50");
        assert_eq!(format_ulps(3.0), "3");
        assert_eq!(format_ulps(1234.6), "1235");
        assert_eq!(format_ulps(2.5e9), "2.5e9");
        assert_eq!(format_ulps(f64::INFINITY), "inf");
    }
}

//! The moving average of a rule's statistic over its last `w` values: the stopping paper's
//! device against the oscillations of approximately optimised statistics in 8-D (App. B,
//! Figure 6). A window of 1 leaves the statistic unchanged.
use std::collections::VecDeque;

/// The mean of the last `window` values pushed.
#[derive(Clone, Debug)]
pub struct MovingAverage {
    window: usize,
    recent: VecDeque<f64>,
}

impl MovingAverage {
    /// An empty average over `window ≥ 1` values (a window of 0 is treated as 1).
    pub fn new(window: usize) -> Self {
        let window = window.max(1);
        Self {
            window,
            recent: VecDeque::with_capacity(window.min(1024)),
        }
    }

    /// Adds `value`; returns the mean of the last `window` values once that many have been
    /// pushed, `None` before. The sum is recomputed each time (no drift from a running sum);
    /// an infinite value makes the mean infinite while it is in the window.
    pub fn push(&mut self, value: f64) -> Option<f64> {
        if self.recent.len() == self.window {
            self.recent.pop_front();
        }
        self.recent.push_back(value);
        (self.recent.len() == self.window)
            .then(|| self.recent.iter().sum::<f64>() / self.window as f64)
    }
}

/// The longest window of a moving average or a rule (its values are held, 8 bytes each): far
/// beyond any run's evaluation cap, where a window never fills.
pub const MAX_WINDOW: usize = 1_000_000;

/// Checks a `moving_average` parameter (`≥ 1`; 1 means off; at most [`MAX_WINDOW`]); the
/// error names `what`.
pub(crate) fn require_window(what: &str, window: usize) -> Result<(), String> {
    if window == 0 {
        return Err(format!("{what} = 0 must be at least 1 (1 means off)"));
    }
    if window > MAX_WINDOW {
        return Err(format!(
            "{what} = {window} is above the bound of {MAX_WINDOW} (a window longer than any run)"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn averages_the_last_window_values_once_full() {
        let mut average = MovingAverage::new(3);
        assert_eq!(average.push(1.0), None);
        assert_eq!(average.push(2.0), None);
        assert_eq!(average.push(6.0), Some(3.0));
        assert_eq!(average.push(-2.0), Some(2.0));
        assert_eq!(average.push(f64::NEG_INFINITY), Some(f64::NEG_INFINITY));
    }

    #[test]
    fn window_one_is_the_statistic_itself() {
        let mut average = MovingAverage::new(1);
        for v in [0.5, -3.0, 1e300] {
            assert_eq!(average.push(v), Some(v));
        }
    }
}

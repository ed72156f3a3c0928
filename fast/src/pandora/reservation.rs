//! Reservation values in f64: `g` with `E[max(g - X, 0)] = c` (MATH.md, "Pandora's Box").
use super::instance::{Distribution, PandoraBox};

/// The reservation value (Weitzman index) of a box.
///
/// Discrete: the root on the piecewise-linear segment `[x_k, x_{k+1}]` where
/// `E[max(x_k - X, 0)] ≤ c < E[max(x_{k+1} - X, 0)]`, `g = (c + S_k)/P_k` (`P_k`, `S_k`
/// partial sums of `p_j`, `p_j·x_j`). Normal: [`crate::pbgi`]`(mean, sd, cost)`.
/// # Accuracy
/// Normal: that of `pbgi` (a few ULP, see its docs). Discrete: a few ULP of the inputs'
/// magnitude for well-scaled atoms (running sums, one division); measured against the exact
/// rationals in `conformance/tests/pandora_fast_vs_reference.rs`. Near an atom the computed
/// `g` may fall on either side of it, which can flip a tie (documented there).
pub fn reservation_value(b: &PandoraBox) -> f64 {
    match &b.distribution {
        Distribution::Normal { mean, sd } => crate::pbgi::pbgi(*mean, *sd, b.cost),
        Distribution::Discrete { values, probs } => {
            let c = b.cost;
            let (mut mass, mut moment) = (0.0, 0.0);
            for k in 0..values.len() {
                mass += probs[k];
                moment += probs[k] * values[k];
                match values.get(k + 1) {
                    // E[max(x_{k+1} - X, 0)] = P_k·x_{k+1} - S_k.
                    Some(&next) if mass * next - moment <= c => continue,
                    _ => break,
                }
            }
            (c + moment) / mass
        }
    }
}

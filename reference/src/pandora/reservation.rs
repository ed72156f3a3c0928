//! Reservation values (Weitzman indices) of discrete boxes, exactly.
//!
//! The index `g` of a box with cost `c > 0` and value `X` solves `E[max(g - X, 0)] = c`
//! (MATH.md, "Pandora's Box"; PBGI paper eq. 5, sign-flipped). For a discrete `X` with sorted
//! atoms `x_1 < … < x_m` the left-hand side is continuous, zero up to `x_1`, and on
//! `[x_k, x_{k+1}]` equals `P_k·g - S_k` with `P_k = Σ_{j≤k} p_j`, `S_k = Σ_{j≤k} p_j·x_j`,
//! so the root is the rational `g = (c + S_k)/P_k` on the first segment whose right end has
//! `E[max(x_{k+1} - X, 0)] > c` (the last segment extends to `+∞` with slope 1).
use super::instance::Discrete;
use rug::Rational;

/// The exact reservation value `g` with `E[max(g - X, 0)] = cost` for discrete `X`.
///
/// # Domain
/// `cost > 0` (guaranteed by [`super::instance::PandoraBox`]); then `g > x_1` (the smallest
/// atom) and `g` is unique because the left-hand side is strictly increasing past `x_1`.
/// # Accuracy
/// Exact (rational arithmetic). Checked in `reference/tests/pandora_reservation.rs` by
/// substituting back and against hand-computed values.
pub fn discrete_reservation_value(x: &Discrete, cost: &Rational) -> Rational {
    let atoms = x.atoms();
    let mut mass = Rational::new();
    let mut first_moment = Rational::new();
    for (k, (value, prob)) in atoms.iter().enumerate() {
        mass += prob;
        first_moment += Rational::from(value * prob);
        // The last segment (k = m-1) extends to +∞, so it always contains the root.
        let root_in_segment = atoms
            .get(k + 1)
            .map_or(true, |(next, _)| x.expected_shortfall(next) > *cost);
        if root_in_segment {
            break;
        }
    }
    Rational::from(cost + &first_moment) / mass
}

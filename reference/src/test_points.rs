//! Input sets shared by the reference's tests: the doubles at f64's edges, and the points on
//! which the front doors are checked against the Ziv loop (`ei`, `log_ei`), so that the tests
//! draw on one list and one generator.

use rand::Rng;

/// Doubles at f64's edges: zeros of both signs, the smallest subnormals, the largest subnormal
/// and the smallest normal, ±1, ±0.1, ±`f64::MAX` and `f64::EPSILON`.
pub(crate) const EDGE_DOUBLES: [f64; 15] = [
    0.0,
    -0.0,
    5e-324,
    -5e-324,
    2.225073858507201e-308,
    2.2250738585072014e-308,
    -2.2250738585072014e-308,
    1.0,
    -1.0,
    0.1,
    -0.1,
    f64::MAX,
    -f64::MAX,
    f64::EPSILON,
    -f64::EPSILON,
];

/// `n_bo_like` BO-like points `(μ, σ, y)`: `σ = 10^U(-2, 2)`, `μ = U(-1, 1)`, `z ~ N(0, 2²)`,
/// `y = μ + zσ`; then `n_scaled` stress points: scales from `10^-300` to `10^300`, `y = μ`,
/// `|z|` at, just below and just above 6 and 8, tiny `|z|`, and `z = U(-8.5, 8.5)`.
pub(crate) fn bo_like_and_scaled(
    rng: &mut impl Rng,
    n_bo_like: usize,
    n_scaled: usize,
) -> Vec<(f64, f64, f64)> {
    let mut points = Vec::with_capacity(n_bo_like + n_scaled);
    for _ in 0..n_bo_like {
        let sigma = 10f64.powf(rng.gen_range(-2.0..2.0));
        let mu = rng.gen_range(-1.0..1.0);
        // N(0, 2²) by Box–Muller.
        let (u1, u2): (f64, f64) = (rng.gen_range(f64::MIN_POSITIVE..1.0), rng.gen());
        let z = 2.0 * (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
        points.push((mu, sigma, mu + z * sigma));
    }
    for i in 0..n_scaled {
        let scale = 10f64.powi(rng.gen_range(-300..300));
        let sigma = rng.gen_range(0.5..2.0) * scale;
        let mu = rng.gen_range(-3.0..3.0) * scale;
        let z = match i % 8 {
            0 => 0.0,
            1 => [6.0, 8.0][i % 2] * if rng.gen() { 1.0 } else { -1.0 },
            2 => rng.gen_range(7.999..8.001) * if rng.gen() { 1.0 } else { -1.0 },
            3 => rng.gen_range(-1e-12..1e-12),
            4 => rng.gen_range(5.999..6.001) * if rng.gen() { 1.0 } else { -1.0 },
            _ => rng.gen_range(-8.5..8.5),
        };
        let y = if i % 8 == 0 { mu } else { mu + z * sigma };
        points.push((mu, sigma, y));
    }
    points
}

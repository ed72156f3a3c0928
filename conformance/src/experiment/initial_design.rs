//! The initial design: `n` quasi-random points on the grid (stopping paper, App. B: "a
//! quasirandom Sobol sequence"). In one dimension the Sobol sequence is the base-2 van der
//! Corput sequence `0, 1/2, 1/4, 3/4, …`; a uniform random shift modulo 1 (Cranley–Patterson
//! rotation) randomises it per seed while keeping its stratification.
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// The `i`-th base-2 van der Corput point (bit reversal of `i` behind the binary point).
pub fn van_der_corput(i: u64) -> f64 {
    (i.reverse_bits() >> 11) as f64 / (1u64 << 53) as f64
}

/// `n` distinct indices of a grid of `grid_points` points on `[0, 1]`: the shifted van der
/// Corput points `frac(u + vdc(i))`, `i = 0..n`, rounded to the nearest grid point; should two
/// round to the same point, the next free grid point (cyclically) is used.
///
/// # Domain
/// `1 ≤ n ≤ grid_points`, `grid_points ≥ 2` (checked by the experiment's config).
pub fn initial_design(n: usize, grid_points: usize, rng: &mut ChaCha8Rng) -> Vec<usize> {
    let shift: f64 = rng.gen();
    let mut taken = vec![false; grid_points];
    let mut design = Vec::with_capacity(n);
    for i in 0..n as u64 {
        let x = (shift + van_der_corput(i)).fract();
        let mut j = (x * (grid_points - 1) as f64).round() as usize;
        while taken[j] {
            j = (j + 1) % grid_points;
        }
        taken[j] = true;
        design.push(j);
    }
    design
}

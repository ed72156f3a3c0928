//! The initial design: the first `n` points of an Owen-scrambled Sobol sequence in `[0, 1]^d`
//! (stopping paper, App. B: "a quasirandom Sobol sequence", as BoTorch's `draw_sobol_samples`
//! with scrambling), snapped to the finite domain.
//!
//! The scramble seed is drawn from the run's design stream, so each seed gets its own design;
//! every point of a scrambled sequence is uniform on the cube and independent of the
//! objective, as Theorem 1 needs of its starting point. `sobol_burley` (Burley 2020) gives the
//! coordinates as `f32`, 24 bits: far finer than any grid used here.
use crate::gp::Domain;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// The first `n` scrambled Sobol points in `[0, 1]^d` (row after row, `n·d` values), with
/// the scramble seed drawn from `rng`.
///
/// Domain: `n ≤ 2^32`, `d ≤ 256` (`sobol_burley`'s dimension limit).
pub fn scrambled_sobol(n: usize, dim: usize, rng: &mut ChaCha8Rng) -> Vec<f64> {
    let seed: u32 = rng.gen();
    (0..n as u32)
        .flat_map(|i| (0..dim as u32).map(move |k| sobol_burley::sample(i, k, seed) as f64))
        .collect()
}

/// `n` distinct domain points: each scrambled Sobol point is snapped to the nearest domain
/// point (on the regular grid: the nearest grid index; otherwise the nearest point in
/// Euclidean distance, lowest index on ties); should two snap to the same point, the next
/// free index (cyclically) is used.
///
/// # Domain
/// `1 ≤ n ≤ domain.len()` (checked by the study configurations).
pub fn initial_design(n: usize, domain: &Domain, rng: &mut ChaCha8Rng) -> Vec<usize> {
    let dim = domain.dim();
    let points = scrambled_sobol(n, dim, rng);
    let size = domain.len();
    let mut taken = vec![false; size];
    let mut design = Vec::with_capacity(n);
    for x in points.chunks_exact(dim) {
        let mut j = match domain.grid_spacing() {
            Some(_) => ((x[0] * (size - 1) as f64).round() as usize).min(size - 1),
            None => nearest_point(domain, x),
        };
        while taken[j] {
            j = (j + 1) % size;
        }
        taken[j] = true;
        design.push(j);
    }
    design
}

/// Index of the domain point nearest to `x` (lowest index on ties).
fn nearest_point(domain: &Domain, x: &[f64]) -> usize {
    (0..domain.len())
        .map(|i| {
            let d2: f64 = domain
                .point(i)
                .iter()
                .zip(x)
                .map(|(a, b)| (a - b) * (a - b))
                .sum();
            (d2, i)
        })
        .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
        .map_or(0, |(_, i)| i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn first_sobol_points_are_stratified() {
        // Scrambling keeps the (0, m, 1)-net property in each dimension: the first 2^m points
        // fall one in each interval [k/2^m, (k+1)/2^m).
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let x = scrambled_sobol(8, 3, &mut rng);
        for k in 0..3 {
            let mut cells: Vec<usize> = (0..8).map(|i| (x[3 * i + k] * 8.0) as usize).collect();
            cells.sort_unstable();
            assert_eq!(cells, (0..8).collect::<Vec<_>>(), "dimension {k}");
        }
    }

    #[test]
    fn designs_are_distinct_and_seeded() {
        let grid = Domain::grid_1d(11).unwrap();
        let a = initial_design(11, &grid, &mut ChaCha8Rng::seed_from_u64(1));
        let mut sorted = a.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..11).collect::<Vec<_>>());
        let b = initial_design(4, &grid, &mut ChaCha8Rng::seed_from_u64(1));
        assert_eq!(&a[..4], &b[..]);
        let cube = Domain::random_cube(8, 300, 2).unwrap();
        let c = initial_design(18, &cube, &mut ChaCha8Rng::seed_from_u64(3));
        let mut sorted = c.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 18);
    }
}

//! Finite search domains in `[0, 1]^d`: the 1-D grid and a fixed random point set.
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A finite set of points in `[0, 1]^d`, stored row by row (`n·d` coordinates).
#[derive(Clone, Debug, PartialEq)]
pub struct Domain {
    dim: usize,
    coords: Vec<f64>,
    /// Whether the points are the regular grid `i/(n-1)` (enables Toeplitz structure).
    regular_grid: bool,
}

impl Domain {
    /// The grid `{i/(n-1) : i = 0..n}` over `[0, 1]` (`n ≥ 2`; the default is 1001 points).
    pub fn grid_1d(n: usize) -> Result<Domain, String> {
        if n < 2 {
            return Err(format!("a 1-D grid needs at least 2 points, got {n}"));
        }
        let step = 1.0 / (n - 1) as f64;
        let coords = (0..n).map(|i| i as f64 * step).collect();
        Ok(Domain {
            dim: 1,
            coords,
            regular_grid: true,
        })
    }

    /// `n` points drawn uniformly from `[0, 1]^dim` with a ChaCha8 stream seeded by `seed`
    /// (the same seed always gives the same domain; e.g. `dim = 8`, `n = 2000`).
    pub fn random_cube(dim: usize, n: usize, seed: u64) -> Result<Domain, String> {
        if dim == 0 || n == 0 {
            return Err(format!(
                "a random domain needs dim ≥ 1 and points ≥ 1, got dim = {dim}, points = {n}"
            ));
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let coords = (0..n * dim).map(|_| rng.gen::<f64>()).collect();
        Ok(Domain {
            dim,
            coords,
            regular_grid: false,
        })
    }

    /// The spacing `1/(n-1)` if this is the regular 1-D grid, else `None`.
    pub fn grid_spacing(&self) -> Option<f64> {
        self.regular_grid.then(|| 1.0 / (self.len() - 1) as f64)
    }

    /// Dimension `d`.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// Number of points `n`.
    pub fn len(&self) -> usize {
        self.coords.len() / self.dim
    }

    /// Always false: constructors reject empty domains.
    pub fn is_empty(&self) -> bool {
        self.coords.is_empty()
    }

    /// Coordinates of point `i`.
    pub fn point(&self, i: usize) -> &[f64] {
        &self.coords[i * self.dim..(i + 1) * self.dim]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_has_exact_endpoints() {
        let g = Domain::grid_1d(1001).unwrap();
        assert_eq!(g.len(), 1001);
        assert_eq!(g.point(0), &[0.0]);
        assert_eq!(g.point(1000), &[1.0]);
        assert_eq!(g.point(500), &[0.5]);
        assert!(Domain::grid_1d(1).is_err());
    }

    #[test]
    fn random_cube_is_seeded_and_inside_the_cube() {
        let a = Domain::random_cube(8, 50, 7).unwrap();
        let b = Domain::random_cube(8, 50, 7).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.dim(), 8);
        assert!((0..a.len()).all(|i| a.point(i).iter().all(|&x| (0.0..1.0).contains(&x))));
        assert!(Domain::random_cube(0, 5, 1).is_err());
    }
}

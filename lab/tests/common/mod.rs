//! Helpers several of the lab's test files share (each test file is its own crate and takes
//! this module with `mod common;`).
use pbgi_lab::gp::{Domain, Kernel, Problem};

/// The prior most tests run on: the default kernel (Matérn-5/2, length scale 0.1, output
/// scale 1) on the `n`-point grid over `[0, 1]`, mean 0, jitter `1e-8`.
pub fn grid_problem(n: usize) -> Problem {
    Problem::new(Domain::grid_1d(n).unwrap(), Kernel::default(), 0.0, 1e-8).unwrap()
}

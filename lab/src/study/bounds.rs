//! The one rule for the sizes a configuration or a flag sets: each is checked against a
//! documented bound **before any work starts**, and the error names the key and the estimate
//! of what it would take, instead of growing until the allocator aborts (`[domain] points =
//! 1e8`, `prb.max_paths = 1e11`) or running for ever (`--samples 18446744073709551615`).
//!
//! | key | bound | why |
//! |---|---|---|
//! | `samples` | [`MAX_SAMPLES`] | each sample's results are kept until the report |
//! | `domain.points` (grid) | [`MAX_GRID_POINTS`] | the posterior holds `points × max_evals` covariances per run |
//! | `domain.points` (random) | [`MAX_RANDOM_POINTS`] | the prior's Cholesky factor holds `points²` numbers |
//! | `domain.dim` | [`MAX_DIM`] | as on the continuous cube |
//! | `max_evals` (cube) | [`MAX_CUBE_EVALS`] | the posterior's inverse holds `max_evals²` numbers |
//! | `points × max_evals` | [`MAX_RUN_BYTES`] per run | the posterior's cross-covariances |
//! | `rules.prb.max_paths × points` | [`MAX_RUN_BYTES`] | PRB's joint posterior paths |
//! | `samples × runs per sample × max_evals` | [`MAX_RESULT_BYTES`] | the trajectories kept for the report |

/// Most prior samples of a study (1e6: the paper's scale is 1e3–1e4).
pub const MAX_SAMPLES: usize = 1_000_000;
/// Most points of a regular grid (the prior by FFT on `2·points`).
pub const MAX_GRID_POINTS: usize = 1 << 22;
/// Most points of a random point set (the prior's Cholesky factor: `points²` numbers, 3.2 GB
/// at 20,000).
pub const MAX_RANDOM_POINTS: usize = 20_000;
/// Most dimensions of a random point set or of the continuous cube.
pub const MAX_DIM: usize = 256;
/// Most evaluations of a run on the continuous cube.
pub const MAX_CUBE_EVALS: usize = 10_000;
/// Most memory one run may hold for its posterior or its paths: 1 GiB.
pub const MAX_RUN_BYTES: f64 = (1u64 << 30) as f64;
/// Most memory the results of a study may hold until the report: 8 GiB.
pub const MAX_RESULT_BYTES: f64 = (8u64 << 30) as f64;

/// `key = value` within `1..=bound`, or an error naming both.
pub fn at_most(key: &str, value: usize, bound: usize, why: &str) -> Result<(), String> {
    if value > bound {
        return Err(format!(
            "{key}: {value} is above the bound of {bound} ({why})"
        ));
    }
    Ok(())
}

/// An estimate of `bytes` within `bound`, or an error naming the keys and the estimate.
pub fn memory_at_most(what: &str, bytes: f64, bound: f64) -> Result<(), String> {
    if bytes > bound {
        return Err(format!(
            "{what}: about {} of memory, above the bound of {}",
            describe_bytes(bytes),
            describe_bytes(bound)
        ));
    }
    Ok(())
}

/// `bytes` in B, KiB, MiB, GiB, TiB or as a power of ten beyond.
pub fn describe_bytes(bytes: f64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes;
    for unit in UNITS {
        if value < 1024.0 {
            return format!("{value:.1} {unit}");
        }
        value /= 1024.0;
    }
    format!("{bytes:.1e} B")
}

/// The sizes shared by both studies on a finite domain: samples, points, evaluations, and the
/// posterior's memory per run.
pub fn check_finite_domain(
    samples: usize,
    points: usize,
    random_points: bool,
    dim: usize,
    max_evals: usize,
) -> Result<(), String> {
    at_most(
        "samples",
        samples,
        MAX_SAMPLES,
        "each sample's results are kept until the report",
    )?;
    if random_points {
        at_most(
            "domain.dim",
            dim,
            MAX_DIM,
            "the cube's dimensions, as on the continuous cube",
        )?;
        at_most(
            "domain.points",
            points,
            MAX_RANDOM_POINTS,
            "a random point set's prior holds a Cholesky factor of points² numbers",
        )?;
    } else {
        at_most(
            "domain.points",
            points,
            MAX_GRID_POINTS,
            "the grid's prior is an FFT of 2·points",
        )?;
    }
    memory_at_most(
        &format!(
            "domain.points × max_evals = {points} × {max_evals} posterior covariances per run"
        ),
        points as f64 * max_evals as f64 * 8.0,
        MAX_RUN_BYTES,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_at_the_bound_pass_and_beyond_fail_naming_the_key() {
        assert!(at_most("samples", MAX_SAMPLES, MAX_SAMPLES, "").is_ok());
        let e = at_most("samples", usize::MAX, MAX_SAMPLES, "kept").unwrap_err();
        assert!(
            e.starts_with(&format!("samples: {} is above the bound", usize::MAX)),
            "{e}"
        );
        let e = check_finite_domain(10, 100_000_000, false, 1, 100).unwrap_err();
        assert!(e.starts_with("domain.points: 100000000"), "{e}");
        let e = check_finite_domain(10, 1 << 20, false, 1, 1 << 20).unwrap_err();
        assert!(e.contains("TiB of memory"), "{e}");
        assert!(check_finite_domain(1000, 1001, false, 1, 100).is_ok());
    }

    #[test]
    fn bytes_read_in_binary_units() {
        assert_eq!(describe_bytes(512.0), "512.0 B");
        assert_eq!(describe_bytes(3.0 * 1024.0 * 1024.0 * 1024.0), "3.0 GiB");
        assert_eq!(describe_bytes(1e30), "1.0e30 B");
    }
}

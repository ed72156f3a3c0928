//! `pbgi conformance`: prints the fast-vs-reference per-region ULP error table.
//!
//! ```text
//! pbgi conformance [--function F]... [--per-stratum N | --points N] [--markdown] [--regression-table]
//! ```
//!
//! With the default sizes the table is the one kept as the snapshot
//! `conformance/tests/snapshots/fast_vs_reference__conformance_table.snap`. `--markdown` prints
//! the function × region matrix of docs/results/conformance.md; `--regression-table` prints the measured maxima
//! as the `MEASURED` entries of `conformance/src/tolerances.rs` (after the matrix when both are
//! asked for). Exit status 1 when any cell
//! exceeds its guarantee or its regression bound (`conformance/src/tolerances.rs`), or the
//! reference failed on an input.
use crate::io;
use crate::CliResult;
use pbgi_conformance::cross_check::{self, Cell};
use pbgi_conformance::function::Function;
use pbgi_conformance::inputs;
use pbgi_conformance::ulp::measure_description;
use std::fmt::Write as _;
use std::process::ExitCode;

/// Arguments of `pbgi conformance`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Only these functions (h, ln-h, ei, log-ei, pbgi, log-eipc, ei-grad, log-ei-grad,
    /// pbgi-grad, log-eipc-inv, log-eipc-exp, pbgi-lognormal); default all.
    #[arg(long = "function", value_parser = parse_function)]
    pub functions: Vec<Function>,
    /// Points per stratum of each input set (default: the test suite's sizes); at most 1e7
    /// points per function in all.
    #[arg(long, conflicts_with = "points")]
    pub per_stratum: Option<usize>,
    /// Points per function, split evenly over its strata (the regression bounds come from
    /// `--points 1000000`); at most 1e7.
    #[arg(long)]
    pub points: Option<usize>,
    /// Print the function × region matrix as Markdown (docs/results/conformance.md's table).
    #[arg(long)]
    pub markdown: bool,
    /// Print the measured maxima as the `MEASURED` entries of `conformance/src/tolerances.rs`.
    #[arg(long)]
    pub regression_table: bool,
}

fn parse_function(name: &str) -> Result<Function, String> {
    Function::CONFORMANCE
        .into_iter()
        .find(|f| f.cli_name() == name)
        .ok_or_else(|| {
            let names: Vec<_> = Function::CONFORMANCE.iter().map(|f| f.cli_name()).collect();
            format!(
                "unknown function `{name}` (expected one of {})",
                names.join(", ")
            )
        })
}

/// The most points one function's scan may hold: its inputs and errors stay in memory (about
/// [`BYTES_PER_POINT`] each, measured: 1e6 `ei` points, 298 MB), so 1e7 points take about 3 GB
/// and minutes (the regression bounds are measured at 1e6).
pub const MAX_POINTS_PER_FUNCTION: usize = 10_000_000;
/// Memory per point of a scan (module docs of [`MAX_POINTS_PER_FUNCTION`]).
pub const BYTES_PER_POINT: f64 = 300.0;

/// Refuses, before any work, a scan of more than [`MAX_POINTS_PER_FUNCTION`] points.
fn check_points(
    function: Function,
    per_stratum: usize,
    flags: (Option<usize>, Option<usize>),
) -> Result<(), String> {
    let strata = inputs::strata_count(function);
    let points = per_stratum.saturating_mul(strata);
    if points <= MAX_POINTS_PER_FUNCTION {
        return Ok(());
    }
    let flag = match flags {
        (Some(n), _) => format!("--per-stratum {n}"),
        (None, Some(p)) => format!("--points {p}"),
        (None, None) => "the default size".to_string(),
    };
    Err(format!(
        "{flag}: {} would scan {per_stratum} points × {strata} strata = {:.1e} points, about \
         {:.1e} bytes of memory; at most {MAX_POINTS_PER_FUNCTION} points per function",
        function.cli_name(),
        per_stratum as f64 * strata as f64,
        per_stratum as f64 * strata as f64 * BYTES_PER_POINT
    ))
}

/// Runs `pbgi conformance`.
pub fn run(args: Args) -> CliResult {
    let functions = if args.functions.is_empty() {
        Function::CONFORMANCE.to_vec()
    } else {
        args.functions
    };
    let mut cells: Vec<Cell> = Vec::new();
    let mut failures = Vec::new();
    let mut sizes = Vec::new();
    for function in functions {
        let n = match (args.per_stratum, args.points) {
            (Some(n), _) => n,
            (None, Some(points)) => cross_check::per_stratum_for_points(function, points),
            (None, None) => cross_check::default_per_stratum(function),
        };
        check_points(function, n, (args.per_stratum, args.points))?;
        sizes.push(format!(
            "{} {n} x {}",
            function.cli_name(),
            inputs::strata_count(function)
        ));
        let (measured, failed) = cross_check::measure(function, n);
        cells.extend(measured);
        failures.extend(failed);
    }
    let mut text = String::new();
    let w = &mut text;
    if args.markdown {
        w.push_str(&cross_check::render_markdown(&cells));
    }
    if args.markdown && args.regression_table {
        w.push('\n');
    }
    if args.regression_table {
        w.push_str(&cross_check::render_regression_entries(&cells));
    }
    if !args.markdown && !args.regression_table {
        let _ = writeln!(
            w,
            "pbgi-fast against pbgi-reference (correctly rounded f64), by region of z"
        );
        let _ = writeln!(
            w,
            "(pbgi, pbgi-lognormal: u = (g - mu)/sigma), points per stratum x strata: {}.",
            sizes.join(", ")
        );
        let _ = writeln!(w, "Error measures:");
        let mut seen = Vec::new();
        for cell in &cells {
            if !seen.contains(&cell.function) {
                seen.push(cell.function);
                let _ = writeln!(
                    w,
                    "  {:<14} {}",
                    cell.function.cli_name(),
                    measure_description(cell.function)
                );
            }
        }
        let _ = writeln!(w);
        w.push_str(&cross_check::render(&cells));
    }
    if !failures.is_empty() {
        eprint!(
            "the reference gave no consistent answer for {} input(s) (not in the table):\n{}",
            failures.len(),
            cross_check::render_failures(&failures)
        );
    }
    let violations: Vec<String> = cells.iter().flat_map(Cell::violations).collect();
    let code = if violations.is_empty() && failures.is_empty() {
        if !args.markdown && !args.regression_table {
            let _ = writeln!(
                w,
                "\nevery cell within its guarantee and its regression bound \
                 (conformance/src/tolerances.rs)"
            );
        }
        ExitCode::SUCCESS
    } else {
        for violation in &violations {
            eprintln!("FAILED: {violation}");
        }
        ExitCode::from(1)
    };
    io::print(&text)?;
    Ok(code)
}

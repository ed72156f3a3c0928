//! `pbgi conformance`: prints the fast-vs-reference per-region ULP error table.
//!
//! ```text
//! pbgi conformance [--function F]... [--per-stratum N]
//! ```
//!
//! With the default sizes the table is the one kept as the snapshot
//! `conformance/tests/snapshots/fast_vs_reference__conformance_table.snap`. Exit status 1 when
//! any cell exceeds its bound in `conformance/src/tolerances.rs`.
use super::io;
use super::CliResult;
use crate::cross_check;
use crate::function::Function;
use crate::ulp::measure_description;
use std::fmt::Write as _;
use std::process::ExitCode;

/// Arguments of `pbgi conformance`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Only these functions (h, ln-h, ei, log-ei, pbgi, log-eipc); default all.
    #[arg(long = "function", value_parser = parse_function)]
    pub functions: Vec<Function>,
    /// Points per stratum of each input set (default: the test suite's sizes).
    #[arg(long)]
    pub per_stratum: Option<usize>,
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

/// Runs `pbgi conformance`.
pub fn run(args: Args) -> CliResult {
    let functions = if args.functions.is_empty() {
        Function::CONFORMANCE.to_vec()
    } else {
        args.functions
    };
    let mut cells = Vec::new();
    let mut failures = Vec::new();
    for function in functions {
        let n = args
            .per_stratum
            .unwrap_or_else(|| cross_check::default_per_stratum(function));
        let (measured, failed) = cross_check::measure(function, n);
        cells.extend(measured);
        failures.extend(failed);
    }
    let mut text = String::new();
    let w = &mut text;
    let _ = writeln!(
        w,
        "pbgi-fast against pbgi-reference (correctly rounded f64), by region of z"
    );
    let _ = writeln!(w, "(pbgi: u = (g - mu)/sigma). Error measures:");
    let mut seen = Vec::new();
    for cell in &cells {
        if !seen.contains(&cell.function) {
            seen.push(cell.function);
            let _ = writeln!(
                w,
                "  {:<9} {}",
                cell.function.cli_name(),
                measure_description(cell.function)
            );
        }
    }
    let _ = writeln!(w);
    w.push_str(&cross_check::render(&cells));
    if !failures.is_empty() {
        let _ = writeln!(
            w,
            "\nthe reference gave no consistent answer for {} input(s) (not in the table):\n{}",
            failures.len(),
            cross_check::render_failures(&failures)
        );
    }
    let failing: Vec<_> = cells.iter().filter(|c| !c.passes()).collect();
    let code = if failing.is_empty() && failures.is_empty() {
        let _ = writeln!(
            w,
            "\nevery cell within its bound (conformance/src/tolerances.rs)"
        );
        ExitCode::SUCCESS
    } else {
        for cell in &failing {
            let _ = writeln!(
                w,
                "FAILED: {} in {}: max {} ULP > bound {} ({})",
                cell.function.cli_name(),
                cell.region.label(),
                cell.errors.max(),
                cell.tolerance.max_ulp,
                cell.tolerance.reason
            );
        }
        ExitCode::from(1)
    };
    io::print(&text)?;
    Ok(code)
}

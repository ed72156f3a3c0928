//! `pbgi check`: grades another implementation's results against the oracle.
//!
//! ```text
//! pbgi check FUNCTION their.csv [--max-ulp N] [--worst K]
//! ```
//!
//! `their.csv` has the columns of `pbgi eval FUNCTION` plus `value` (their answer; `inf`,
//! `-inf`, `nan` allowed). For each row the reference's correctly rounded result is computed and
//! the error measured in ULPs (`conformance/src/ulp.rs` states the measure of each function). The
//! report gives the count, max / median / 99th-percentile error, the worst rows (inputs in
//! decimal and hex bits, so they can be reproduced exactly) and the errors by region of `z`.
//! Exit status: 0 when every error is within `--max-ulp` (or no bound is given), 1 when the bound
//! is exceeded, 2 when the file cannot be read (the message names line, column and reason).
use super::io;
use super::CliResult;
use crate::csv_io::{format_hex_bits, format_shortest, ArgumentReader};
use crate::error_stats::{format_ulps, ErrorSummary};
use crate::function::Function;
use crate::oracle;
use crate::regions::Region;
use crate::text_table;
use crate::ulp::{error_in_ulps, measure_description};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::BufRead;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `pbgi check`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The function: ei, log-ei, pbgi or log-eipc.
    #[arg(value_enum)]
    pub function: Function,
    /// CSV with the function's input columns and a `value` column (their results).
    pub file: PathBuf,
    /// Fail (exit status 1) when any row's error exceeds this many ULPs.
    #[arg(long)]
    pub max_ulp: Option<f64>,
    /// How many of the worst rows to list.
    #[arg(long, default_value_t = 10)]
    pub worst: usize,
}

/// Runs `pbgi check`.
pub fn run(args: Args) -> CliResult {
    let file = std::fs::File::open(&args.file)
        .map_err(|e| format!("cannot open {}: {e}", args.file.display()))?;
    let report = grade(
        args.function,
        std::io::BufReader::new(file),
        &args.file.display().to_string(),
        args.max_ulp,
        args.worst,
    )?;
    io::print(&report.text)?;
    Ok(if report.passed {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The outcome of grading one file.
#[derive(Debug)]
pub struct Report {
    /// The printed report.
    pub text: String,
    /// Whether every error is within the bound (true when no bound is given).
    pub passed: bool,
    /// The largest error, in ULPs.
    pub max_error: f64,
}

/// One of the worst rows.
#[derive(Clone, Debug)]
struct GradedRow {
    line: u64,
    args: Vec<f64>,
    theirs: f64,
    oracle: f64,
}

/// Grades the rows of `input` (named `name` in the report) for `function`.
pub fn grade(
    function: Function,
    input: impl BufRead,
    name: &str,
    max_ulp: Option<f64>,
    worst: usize,
) -> Result<Report, String> {
    let mut reader =
        ArgumentReader::new(input, function, &["value"], &[]).map_err(|e| e.to_string())?;
    let mut all = ErrorSummary::new(worst);
    let mut by_region: BTreeMap<Region, ErrorSummary<u64>> = BTreeMap::new();
    let mut above = 0u64;
    while let Some(row) = reader.next_row().map_err(|e| e.to_string())? {
        let certified = oracle::reference(function, &row.args).map_err(|e| match e.column {
            Some(column) => format!("line {}, column `{column}`: {}", row.line, e.message),
            None => format!("line {}: {}", row.line, e.message),
        })?;
        let theirs = row.extras[0];
        let error = error_in_ulps(function, &row.args, theirs, certified.value);
        if max_ulp.is_some_and(|bound| !(error <= bound)) {
            above += 1;
        }
        let region = Region::of_row(function, &row.args, certified.value);
        by_region
            .entry(region)
            .or_insert_with(|| ErrorSummary::new(1))
            .add(error, || row.line);
        all.add(error, || GradedRow {
            line: row.line,
            args: row.args.clone(),
            theirs,
            oracle: certified.value,
        });
    }
    let mut text = String::new();
    let w = &mut text;
    let _ = writeln!(
        w,
        "pbgi check {} {name}: {} rows graded against pbgi-reference (correctly rounded f64)",
        function.cli_name(),
        all.count()
    );
    let _ = writeln!(w, "error measure: {}", measure_description(function));
    let _ = writeln!(
        w,
        "ULP error: max {}, median {}, 99th percentile {}",
        format_ulps(all.max()),
        format_ulps(all.median()),
        format_ulps(all.quantile(0.99))
    );
    if !all.worst().is_empty() {
        let _ = writeln!(w, "\nworst rows:");
        let mut table = vec![vec![
            "line".to_string(),
            "arguments (hex bits)".to_string(),
            "their value".to_string(),
            "oracle value".to_string(),
            "ULP error".to_string(),
        ]];
        for (error, row) in all.worst() {
            let arguments = function
                .input_columns()
                .iter()
                .zip(&row.args)
                .map(|(n, v)| format!("{n}={} ({})", format_shortest(*v), format_hex_bits(*v)))
                .collect::<Vec<_>>()
                .join(" ");
            table.push(vec![
                row.line.to_string(),
                arguments,
                format_shortest(row.theirs),
                format_shortest(row.oracle),
                format_ulps(*error),
            ]);
        }
        w.push_str(&text_table::render(&table));
    }
    let z_name = match function {
        Function::Pbgi => "u = (g - mu)/sigma",
        Function::H | Function::LnH => "z",
        _ => "z = (y - mu)/sigma",
    };
    let _ = writeln!(w, "\nby region of {z_name}:");
    let mut table = vec![vec![
        "region".to_string(),
        "rows".to_string(),
        "max ULP".to_string(),
        "median ULP".to_string(),
        "worst line".to_string(),
    ]];
    for (region, summary) in &by_region {
        table.push(vec![
            region.label().to_string(),
            summary.count().to_string(),
            format_ulps(summary.max()),
            format_ulps(summary.median()),
            summary
                .worst()
                .first()
                .map_or(String::new(), |(_, line)| line.to_string()),
        ]);
    }
    w.push_str(&text_table::render(&table));
    let passed = above == 0;
    if let Some(bound) = max_ulp {
        let _ = if passed {
            writeln!(w, "\n--max-ulp {bound}: passed")
        } else {
            writeln!(
                w,
                "\n--max-ulp {bound}: FAILED ({above} of {} rows above the bound)",
                all.count()
            )
        };
    }
    Ok(Report {
        text,
        passed,
        max_error: all.max(),
    })
}

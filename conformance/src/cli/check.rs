//! `pbgi check`: grades another implementation's results against the oracle.
//!
//! ```text
//! pbgi check FUNCTION their.csv [--max-ulp N] [--worst K] [--json] [--rows FILE.csv] [--z]
//! ```
//!
//! `their.csv` has the input columns of `pbgi eval FUNCTION` plus their answers in the function's
//! output columns (`value`; `inf`, `-inf`, `nan` allowed). For each row the reference's correctly
//! rounded result is computed and the error measured in ULPs (`conformance/src/ulp.rs` states the
//! measure of each function). The report ([`crate::check_report::CheckReport`]) gives the count,
//! max / median / 99th-percentile error, the worst rows (inputs in decimal and hex bits, so they
//! can be reproduced exactly) and the errors by region of `z` (PBGI: of `u`). `--json` prints the
//! whole report as JSON instead of text; `--rows FILE.csv` also writes every row's error (written
//! atomically, before the report is printed). `--z` (for `ei` and `log-ei`) grades the `h(z)` or
//! `ln h(z)` inside them at a `z` column, so that an implementer can tell the error of forming
//! `z = (y − μ)/σ` in f64 from the error of their `h`.
//!
//! Exit status: 0 when every error is within `--max-ulp` (or no bound is given); 1 when the bound
//! is exceeded, or no row was graded although a bound was given; 2 when the input cannot be read
//! or graded (the message names line, column and reason; nothing is printed and no `--rows` file
//! is written); 141 when standard output's reader went away.
use super::io;
use super::CliResult;
use crate::check_report::{CheckReport, OracleSource, RowToGrade};
use crate::csv_io::ArgumentReader;
use crate::function::Function;
use std::io::BufRead;
use std::path::PathBuf;
use std::process::ExitCode;

/// Rows graded in one parallel batch.
const BATCH: usize = 1024;

/// Arguments of `pbgi check`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The function: h, ln-h, log-ndtr, ei, log-ei, pbgi, log-eipc, ei-grad, log-ei-grad,
    /// pbgi-grad.
    #[arg(value_enum)]
    pub function: Function,
    /// CSV with the function's input columns and its output columns (their results).
    pub file: PathBuf,
    /// Fail (exit status 1) when any row's error exceeds this many ULPs (a finite number >= 0).
    #[arg(long, value_parser = parse_max_ulp, allow_negative_numbers = true)]
    pub max_ulp: Option<f64>,
    /// How many of the worst rows to list.
    #[arg(long, default_value_t = 10)]
    pub worst: usize,
    /// Print the whole report as JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Also write every row's error to this CSV file.
    #[arg(long, value_name = "FILE.csv")]
    pub rows: Option<PathBuf>,
    /// z-column mode, for ei and log-ei: grade their h(z) (ei) or ln h(z) (log-ei) at the `z`
    /// column of the file, apart from the error of forming z = (y - mu)/sigma.
    #[arg(long)]
    pub z: bool,
}

/// The function graded: `function` itself, or in z-column mode the `h` or `ln h` inside it.
fn graded_function(function: Function, z_mode: bool) -> Result<Function, String> {
    match (function, z_mode) {
        (function, false) => Ok(function),
        (Function::Ei, true) => Ok(Function::H),
        (Function::LogEi, true) => Ok(Function::LnH),
        (other, true) => Err(format!(
            "--z grades the h(z) inside ei or the ln h(z) inside log-ei; `{}` has no z mode",
            other.cli_name()
        )),
    }
}

/// `--max-ulp`: a finite number >= 0 (NaN would pass nothing silently, a negative bound fails
/// correctly rounded answers).
fn parse_max_ulp(text: &str) -> Result<f64, String> {
    let bound: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number"))?;
    if bound.is_finite() && bound >= 0.0 {
        Ok(bound)
    } else {
        Err(format!("must be a finite number >= 0, got {text}"))
    }
}

/// Runs `pbgi check`.
pub fn run(args: Args) -> CliResult {
    let file = std::fs::File::open(&args.file)
        .map_err(|e| format!("cannot open {}: {e}", args.file.display()))?;
    let function = graded_function(args.function, args.z)?;
    let name = if args.z {
        format!(
            "{} (z-column mode of {}: {} at the file's z)",
            args.file.display(),
            args.function.cli_name(),
            if function == Function::H {
                "h(z)"
            } else {
                "ln h(z)"
            }
        )
    } else {
        args.file.display().to_string()
    };
    let report = grade(function, std::io::BufReader::new(file), &name)?;
    if let Some(path) = &args.rows {
        let mut file = io::AtomicFile::create(path)?;
        report
            .write_rows_csv(&mut file)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        file.commit()?;
    }
    let text = if args.json {
        let summary = report.summary(args.worst, args.max_ulp);
        let mut json = serde_json::to_string_pretty(&summary)
            .map_err(|e| format!("cannot encode the report as JSON: {e}"))?;
        json.push('\n');
        json
    } else {
        report.render_text(args.worst, args.max_ulp)
    };
    io::print(&text)?;
    Ok(match args.max_ulp {
        Some(bound) if !report.passed(bound) => ExitCode::from(1),
        _ => ExitCode::SUCCESS,
    })
}

/// Grades the rows of `input` (named `name` in the report) for `function` against the reference.
/// The error names the line, and the column when there is one.
pub fn grade(function: Function, input: impl BufRead, name: &str) -> Result<CheckReport, String> {
    let mut reader = ArgumentReader::new(input, function, function.output_columns(), &[])
        .map_err(|e| e.to_string())?;
    let mut report = CheckReport::new(function, name, OracleSource::Reference);
    let mut batch = Vec::with_capacity(BATCH);
    loop {
        batch.clear();
        let mut read_error = None;
        while batch.len() < BATCH {
            match reader.next_row() {
                Ok(Some(row)) => batch.push(RowToGrade {
                    line: row.line,
                    args: row.args,
                    theirs: row.extras,
                    group: None,
                }),
                Ok(None) => break,
                Err(e) => {
                    read_error = Some(e.to_string());
                    break;
                }
            }
        }
        // Rows before a bad row are graded first, so that an earlier error is the one reported.
        report
            .grade_batch(&batch)
            .map_err(|e| match e.error.column {
                Some(column) => format!("line {}, column `{column}`: {}", e.line, e.error.message),
                None => format!("line {}: {}", e.line, e.error.message),
            })?;
        if let Some(error) = read_error {
            return Err(error);
        }
        if batch.len() < BATCH {
            return Ok(report);
        }
    }
}

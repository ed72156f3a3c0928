//! `pbgi eval`: the oracle. Reads CSV rows from standard input, writes them back with the result.
//!
//! ```text
//! pbgi eval FUNCTION [--engine reference|fast] < input.csv > output.csv
//! pbgi eval --example
//! ```
//!
//! The contract (kept stable; other implementations test against it):
//! - FUNCTION is `ei`, `log-ei`, `pbgi` or `log-eipc`. The header row names the columns:
//!   `mu,sigma,y` (`ei`, `log-ei`), `mu,sigma,cost` (`pbgi`), `mu,sigma,y,cost` (`log-eipc`), in
//!   any order; other columns are passed through unchanged. Blank lines and lines starting with
//!   `#` are skipped.
//! - Output: the input columns, then `value`, the result as the shortest decimal that parses back
//!   to the same f64 (`-inf` where LogEI is minus infinity). With the reference engine (the
//!   default) `value` is the correctly rounded f64 of the exact value at the parsed inputs, and
//!   `lower`, `upper` follow: the certified enclosure with 40 significant digits, rounded outward.
//! - A malformed or out-of-domain row stops the run with `pbgi: error: line L, column `C`:
//!   reason` and exit status 2. The rows before it have been written in full (the output is
//!   flushed before the message); the failing row and the rows after it are not written. No row
//!   is ever written in part.
//! - Streaming: one row in memory at a time; output is buffered (8 KiB) and flushed at the end or
//!   on error.
use super::io::{self, CliError};
use super::CliResult;
use crate::csv_io::{format_shortest, ArgumentReader, InputError};
use crate::decimal::{self, DIGITS};
use crate::function::Function;
use crate::oracle::{self, Engine};
use crate::text_table;
use std::io::{BufRead, Write};
use std::process::ExitCode;

/// Arguments of `pbgi eval`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The function: ei, log-ei, pbgi or log-eipc.
    #[arg(value_enum, required_unless_present = "example")]
    pub function: Option<Function>,
    /// Which implementation evaluates the rows.
    #[arg(long, value_enum, default_value_t = Engine::Reference)]
    pub engine: Engine,
    /// Print a small table of well-known values (MATH.md's sanity values and tail cases) instead
    /// of reading standard input, from the engine chosen with --engine.
    #[arg(long, conflicts_with = "function")]
    pub example: bool,
}

/// Runs `pbgi eval`.
pub fn run(args: Args) -> CliResult {
    let Some(function) = args.function.filter(|_| !args.example) else {
        io::print(&example_table(args.engine)?)?;
        return Ok(ExitCode::SUCCESS);
    };
    let mut stdout = io::Stdout::lock();
    eval_stream(function, args.engine, std::io::stdin().lock(), &mut stdout)?;
    stdout.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// Evaluates every row of `input` and writes the output CSV to `output`; returns the number of
/// rows written. On a bad row, everything before it is written and flushed, and the error names
/// the row's line, the column and the reason. A write error on `output` is reported as a write
/// error on standard output ([`io::stdout_error`]).
pub fn eval_stream(
    function: Function,
    engine: Engine,
    input: impl BufRead,
    output: impl Write,
) -> Result<u64, CliError> {
    let appended: &[&str] = match engine {
        Engine::Reference => &["value", "lower", "upper"],
        Engine::Fast => &["value"],
    };
    let mut reader = ArgumentReader::new(input, function, &[], appended)
        .map_err(|e| CliError::Message(e.to_string()))?;
    let mut writer = csv::WriterBuilder::new().from_writer(output);
    let header = reader
        .headers()
        .iter()
        .map(String::as_str)
        .chain(appended.iter().copied());
    writer.write_record(header).map_err(io::csv_stdout_error)?;
    let mut rows = 0u64;
    loop {
        let outcome = reader.next_row().and_then(|row| match row {
            None => Ok(None),
            Some(row) => {
                evaluate(function, engine, &row.args)
                    .map(Some)
                    .map_err(|(column, reason)| InputError {
                        line: row.line,
                        column,
                        reason,
                    })
            }
        });
        match outcome {
            Ok(None) => break,
            Ok(Some(results)) => {
                let fields = reader
                    .record()
                    .iter()
                    .map(String::as_str)
                    .chain(results.iter().map(String::as_str));
                writer.write_record(fields).map_err(io::csv_stdout_error)?;
                rows += 1;
            }
            Err(error) => {
                writer.flush().map_err(io::stdout_error)?;
                return Err(CliError::Message(format!(
                    "{error} ({rows} row{} before it written)",
                    if rows == 1 { "" } else { "s" }
                )));
            }
        }
    }
    writer.flush().map_err(io::stdout_error)?;
    Ok(rows)
}

/// The output fields of one row: `value` (and `lower`, `upper` for the reference), or the column
/// and reason of a failure.
fn evaluate(
    function: Function,
    engine: Engine,
    args: &[f64],
) -> Result<Vec<String>, (Option<String>, String)> {
    match engine {
        Engine::Reference => {
            let certified = oracle::reference(function, args).map_err(|e| (e.column, e.message))?;
            Ok(vec![
                format_shortest(certified.value),
                decimal::lower(&certified, DIGITS),
                decimal::upper(&certified, DIGITS),
            ])
        }
        Engine::Fast => {
            let value = oracle::fast(function, args);
            if value.is_nan() {
                return Err((None, "the fast engine returned NaN".to_string()));
            }
            Ok(vec![format_shortest(value)])
        }
    }
}

/// The built-in example: MATH.md's public sanity values and a few tail cases, as an aligned
/// table. With the reference engine each value comes with its certified enclosure; with the fast
/// engine the table shows pbgi-fast's f64 values.
pub fn example_table(engine: Engine) -> Result<String, String> {
    let rows: [(Function, &[f64]); 9] = [
        (Function::Ei, &[0.0, 1.0, 0.0]),
        (Function::Ei, &[0.0, 1.0, 1.0]),
        (Function::Ei, &[0.0, 1.0, -38.5]),
        (Function::LogEi, &[0.0, 1.0, -38.5]),
        (Function::LogEi, &[0.0, 1.0, -1e5]),
        (Function::Pbgi, &[0.0, 1.0, 1e-4]),
        (Function::Pbgi, &[0.0, 1.0, 0.1]),
        (Function::Pbgi, &[0.0, 0.0, 0.25]),
        (Function::LogEipc, &[0.0, 1.0, 0.0, 0.1]),
    ];
    let mut header = vec!["function".to_string(), "arguments".to_string()];
    match engine {
        Engine::Reference => {
            header.push("value (correctly rounded f64)".to_string());
            header.push(format!("certified enclosure ({DIGITS} digits)"));
        }
        Engine::Fast => header.push("value (pbgi-fast, f64)".to_string()),
    }
    let mut table = vec![header];
    for (function, args) in rows {
        let arguments = function
            .input_columns()
            .iter()
            .zip(args)
            .map(|(name, value)| format!("{name}={}", format_shortest(*value)))
            .collect::<Vec<_>>()
            .join(" ");
        let mut line = vec![function.cli_name().to_string(), arguments];
        match engine {
            Engine::Reference => {
                let certified = oracle::reference(function, args).map_err(|e| e.message)?;
                line.push(format_shortest(certified.value));
                line.push(format!(
                    "[{}, {}]",
                    decimal::lower(&certified, DIGITS),
                    decimal::upper(&certified, DIGITS)
                ));
            }
            Engine::Fast => line.push(format_shortest(oracle::fast(function, args))),
        }
        table.push(line);
    }
    Ok(text_table::render(&table))
}

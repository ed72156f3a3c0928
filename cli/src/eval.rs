//! `pbgi eval`: the oracle. Reads CSV rows from standard input, writes them back with the result.
//!
//! ```text
//! pbgi eval FUNCTION [--engine reference|fast] < input.csv > output.csv
//! pbgi eval --example [--engine reference|fast]
//! ```
//!
//! The contract (kept stable; other implementations test against it):
//! - FUNCTION and its columns ([`pbgi_conformance::function`]): `h`, `ln-h` (`z`), `log-ndtr` (`x`), `ei`,
//!   `log-ei`, `ei-grad`, `log-ei-grad` (`mu,sigma,y`), `pbgi`, `pbgi-grad` (`mu,sigma,cost`),
//!   `log-eipc` (`mu,sigma,y,cost`). The header row names the columns, in any order; other
//!   columns are passed through unchanged. Blank lines and lines starting with `#` (after
//!   optional spaces) are skipped.
//! - Output: the input columns, then the function's output columns, each the result as the
//!   shortest decimal that parses back to the same f64 (`-inf` where LogEI is minus infinity).
//!   With the reference engine (the default) each is the correctly rounded f64 of the exact value
//!   at the parsed inputs, followed by its certified enclosure with 40 significant digits,
//!   rounded outward: `value,lower,upper` for one output; for the gradients `d_mu,d_mu_lower,
//!   d_mu_upper,d_sigma,d_sigma_lower,d_sigma_upper[,d_cost,d_cost_lower,d_cost_upper]`. The
//!   fast engine writes the output columns alone.
//! - A malformed or out-of-domain row stops the run with `pbgi: error: line L, column `C`:
//!   reason` and exit status 2. The rows before it have been written in full (the output is
//!   flushed before the message); the failing row and the rows after it are not written. No row
//!   is ever written in part.
//! - Streaming: rows are read and evaluated in batches of [`BATCH`] (in parallel), so memory does
//!   not grow with the input; progress is shown on standard error when it is a terminal and the
//!   run lasts over a second.
use crate::choices::{EngineChoice, FunctionChoice};
use crate::io::{self, CliError};
use crate::CliResult;
use pbgi_conformance::csv_io::{
    format_shortest, push_shortest, ArgumentReader, Fields, InputError,
};
use pbgi_conformance::csv_row;
use pbgi_conformance::decimal::{self, DIGITS};
use pbgi_conformance::function::Function;
use pbgi_conformance::oracle::{self, Engine};
use pbgi_conformance::text_table;
use pbgi_reference::{Accuracy, Certified};
use rayon::prelude::*;
use std::io::{BufRead, Write};
use std::process::ExitCode;

/// Rows read and evaluated together (in parallel) before they are written.
pub const BATCH: usize = 256;

/// Arguments of `pbgi eval`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The function: h, ln-h, log-ndtr, ei, log-ei, pbgi, log-eipc, ei-grad, log-ei-grad,
    /// pbgi-grad.
    #[arg(value_enum, required_unless_present = "example")]
    pub function: Option<FunctionChoice>,
    /// Which implementation evaluates the rows.
    #[arg(long, value_enum, default_value_t = EngineChoice::Reference)]
    pub engine: EngineChoice,
    /// Print a small table of well-known values (MATH.md's sanity values and tail cases) instead
    /// of reading standard input, from the engine chosen with --engine.
    #[arg(long, conflicts_with = "function")]
    pub example: bool,
}

/// Runs `pbgi eval`.
pub fn run(args: Args) -> CliResult {
    let engine = Engine::from(args.engine);
    let Some(function) = args.function.filter(|_| !args.example).map(Function::from) else {
        io::print(&example_table(engine)?)?;
        return Ok(ExitCode::SUCCESS);
    };
    let mut stdout = io::Stdout::lock();
    let mut progress = io::Progress::new("rows evaluated");
    let outcome = eval_stream_with_progress(
        function,
        engine,
        std::io::stdin().lock(),
        &mut stdout,
        &mut progress,
    );
    progress.finish();
    outcome?;
    stdout.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// The columns `eval` appends to the input's: the output columns, each with `_lower` and
/// `_upper` from the reference engine (`value,lower,upper` for a single `value`).
pub fn appended_columns(function: Function, engine: Engine) -> Vec<String> {
    let outputs = function.output_columns();
    match engine {
        Engine::Fast => outputs.iter().map(|c| c.to_string()).collect(),
        Engine::Reference if outputs == ["value"] => {
            vec!["value".into(), "lower".into(), "upper".into()]
        }
        Engine::Reference => outputs
            .iter()
            .flat_map(|c| [c.to_string(), format!("{c}_lower"), format!("{c}_upper")])
            .collect(),
    }
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
    let mut progress = io::Progress::new("rows evaluated");
    let outcome = eval_stream_with_progress(function, engine, input, output, &mut progress);
    progress.finish();
    outcome
}

fn eval_stream_with_progress(
    function: Function,
    engine: Engine,
    input: impl BufRead,
    mut output: impl Write,
    progress: &mut io::Progress,
) -> Result<u64, CliError> {
    if engine == Engine::Fast && !oracle::fast_has(function) {
        return Err(CliError::Message(format!(
            "pbgi-fast has no {}; the reference engine (the default) evaluates it",
            function.cli_name()
        )));
    }
    let appended = appended_columns(function, engine);
    let reserved: Vec<&str> = appended.iter().map(String::as_str).collect();
    let mut reader = ArgumentReader::new(input, function, &[], &reserved)
        .map_err(|e| CliError::Message(e.to_string()))?;
    // The text written and not yet handed to `output` (whole rows only).
    let mut text = Vec::with_capacity(WRITE_CHUNK + 4096);
    let header: Vec<&str> = reader
        .headers()
        .iter()
        .map(String::as_str)
        .chain(reserved.iter().copied())
        .collect();
    csv_row::push_fields(&mut text, &header);
    text.push(b'\n');
    let mut rows = 0u64;
    // `eval` asks for no extra columns: this stays empty.
    let mut no_extras = Vec::new();
    // The batch's rows; their buffers are reused from batch to batch (`filled` of them hold
    // the current batch), so that reading and writing a row allocates nothing once they have
    // grown.
    let mut slots: Vec<Slot> = Vec::with_capacity(BATCH);
    loop {
        let mut filled = 0usize;
        let mut read_error = None;
        while filled < BATCH {
            if filled == slots.len() {
                slots.push(Slot::new());
            }
            let slot = &mut slots[filled];
            match reader.next_row_into(&mut slot.args, &mut no_extras) {
                Ok(Some(line)) => {
                    slot.line = line;
                    slot.row.clear();
                    match reader.fields() {
                        // The csv writer writes a plain record's fields as they are.
                        Fields::Plain(text) => slot.row.extend_from_slice(text),
                        Fields::Split(fields) => csv_row::push_fields(&mut slot.row, fields),
                    }
                    filled += 1;
                }
                Ok(None) => break,
                Err(error) => {
                    read_error = Some(error);
                    break;
                }
            }
        }
        let batch = &mut slots[..filled];
        batch
            .par_iter_mut()
            .for_each(|slot| slot.failure = evaluate_into(function, engine, slot).err());
        // Write in input order up to the first failure; an evaluation failure comes before the
        // read error after the batch.
        let mut failure = read_error;
        for slot in batch.iter_mut() {
            if let Some((column, reason)) = slot.failure.take() {
                failure = Some(InputError {
                    line: slot.line,
                    column,
                    reason,
                });
                break;
            }
            text.extend_from_slice(&slot.row);
            rows += 1;
            if text.len() >= WRITE_CHUNK {
                output.write_all(&text).map_err(io::stdout_error)?;
                text.clear();
            }
        }
        progress.advance(filled as u64);
        if let Some(error) = failure {
            output.write_all(&text).map_err(io::stdout_error)?;
            output.flush().map_err(io::stdout_error)?;
            return Err(CliError::Message(format!(
                "{error} ({rows} row{} before it written)",
                if rows == 1 { "" } else { "s" }
            )));
        }
        if filled < BATCH {
            break;
        }
    }
    output.write_all(&text).map_err(io::stdout_error)?;
    output.flush().map_err(io::stdout_error)?;
    Ok(rows)
}

/// Bytes of whole rows gathered before they are handed to the output.
const WRITE_CHUNK: usize = 1 << 16;

/// One row of a batch: where it was read, its arguments, and its output text.
struct Slot {
    line: u64,
    args: Vec<f64>,
    /// The input's fields as CSV, then (after [`evaluate_into`]) the appended columns and the
    /// line end.
    row: Vec<u8>,
    /// The reference's results for the row (only the vector is kept from row to row).
    results: Vec<Certified>,
    /// The column and reason of a failure.
    failure: Option<(Option<String>, String)>,
}

impl Slot {
    /// An empty slot whose buffers hold a typical row without growing (a row of `pbgi eval ei`
    /// is about 170 bytes; a longer one grows its buffer once, which is then kept).
    fn new() -> Slot {
        Slot {
            line: 0,
            args: Vec::with_capacity(8),
            row: Vec::with_capacity(256),
            results: Vec::with_capacity(3),
            failure: None,
        }
    }
}

/// Appends the output fields of one row (each after a comma) and the line end to `slot.row`,
/// or gives the column and reason of a failure. The fields are numbers (digits, `.`, `e`, `-`,
/// `inf`, `NaN`), which CSV never quotes.
fn evaluate_into(
    function: Function,
    engine: Engine,
    slot: &mut Slot,
) -> Result<(), (Option<String>, String)> {
    let row = &mut slot.row;
    match engine {
        Engine::Reference => {
            oracle::reference_all_into(
                function,
                &slot.args,
                &Accuracy::default(),
                &mut slot.results,
            )
            .map_err(|e| {
                (
                    e.argument().map(|a| a.name.to_string()),
                    e.message().to_string(),
                )
            })?;
            for c in &slot.results {
                row.push(b',');
                push_shortest(c.value, row);
                row.push(b',');
                decimal::push_ends(c, DIGITS, row);
            }
            // Released now, not when the slot is next used: the limbs of their floats go back
            // to the reference's per-thread cache for the next row's.
            slot.results.clear();
        }
        Engine::Fast => {
            let values = oracle::fast_checked(function, &slot.args).map_err(|e| {
                (
                    e.argument().map(|a| a.name.to_string()),
                    e.message().to_string(),
                )
            })?;
            for value in values {
                row.push(b',');
                push_shortest(value, row);
            }
        }
    }
    row.push(b'\n');
    Ok(())
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
                let certified =
                    oracle::reference(function, args).map_err(|e| e.message().to_string())?;
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

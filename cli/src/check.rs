//! `pbgi check`: grades another implementation's results against the oracle.
//!
//! ```text
//! pbgi check FUNCTION their.csv [--max-ulp N] [--worst K] [--json] [--rows FILE.csv]
//!                               [--z] [--oracle OUT.csv] [--group-by COLUMN]
//! pbgi check --edges FUNCTION their.csv [--max-ulp N]
//! ```
//!
//! `their.csv` has the input columns of `pbgi eval FUNCTION` plus their answers in the function's
//! output columns (`value`; `inf`, `-inf`, `nan` allowed). For each row the reference's correctly
//! rounded result is computed and the error measured in ULPs (`conformance/src/ulp.rs` states the
//! measure of each function). The report ([`pbgi_conformance::check_report::CheckReport`]) gives the count,
//! max / median / 99th-percentile error, the worst rows (inputs in decimal and hex bits, so they
//! can be reproduced exactly) and the errors by region of `z` (PBGI: of `u`). `--json` prints the
//! whole report as JSON instead of text; `--rows FILE.csv` also writes every row's error (written
//! atomically, before the report is printed). `--z` (for `ei` and `log-ei`) grades the `h(z)` or
//! `ln h(z)` inside them at a `z` column, so that an implementer can tell the error of forming
//! `z = (y − μ)/σ` in f64 from the error of their `h`. `--oracle OUT.csv` grades against an
//! earlier `pbgi eval` output of the same inputs instead of recomputing (a slow reference row is
//! paid once); that file is checked first ([`grade_against_eval_output`]). `--group-by COLUMN` adds a table by the values of any column of their file.
//! `--edges` grades their behaviour at the special inputs of [`pbgi_conformance::edges`] by class. Progress
//! is shown on standard error when it is a terminal and grading lasts over a second.
//!
//! Exit status: 0 when every error is within `--max-ulp` (or no bound is given); 1 when the bound
//! is exceeded, or no row was graded although a bound was given (`--edges`: an edge case failed
//! or is missing); 2 when the input cannot be read or graded (the message names file, line,
//! column and reason; nothing is printed and no `--rows` file is written); 141 when standard
//! output's reader went away.
use crate::choices::FunctionChoice;
use crate::io;
use crate::CliResult;
use pbgi_conformance::check_report::{CheckReport, OracleSource, RowToGrade};
use pbgi_conformance::csv_io::{format_shortest, ArgumentReader};
use pbgi_conformance::edges;
use pbgi_conformance::function::Function;
use pbgi_conformance::oracle::Engine;
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
    pub function: FunctionChoice,
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
    /// Grade against an earlier `pbgi eval FUNCTION` output (same inputs, row by row) instead of
    /// recomputing the reference.
    #[arg(long, value_name = "OUT.csv")]
    pub oracle: Option<PathBuf>,
    /// Also group the errors by the values of this column of their file.
    #[arg(long, value_name = "COLUMN")]
    pub group_by: Option<String>,
    /// Grade their behaviour at the edge cases of FUNCTION (fixtures/edges/FUNCTION.csv) by
    /// class: their file has the edge inputs and their answers (numbers, nan, inf, or error).
    /// Numbers are graded within --max-ulp (default 4).
    #[arg(long, conflicts_with_all = ["json", "rows", "z", "oracle", "group_by"])]
    pub edges: bool,
}

/// The bound for numbers in `--edges` without `--max-ulp`: the house bound of `pbgi-fast`.
pub const EDGE_MAX_ULP: f64 = 4.0;

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
    let chosen = Function::from(args.function);
    let open = |path: &PathBuf| {
        std::fs::File::open(path)
            .map(std::io::BufReader::new)
            .map_err(|e| format!("cannot open {}: {e}", path.display()))
    };
    if let Some(path) = &args.rows {
        let mut inputs = vec![args.file.as_path()];
        inputs.extend(args.oracle.as_deref());
        crate::output_paths::check_output_file("--rows", path, &inputs)?;
    }
    let input = open(&args.file)?;
    if args.edges {
        let bound = args.max_ulp.unwrap_or(EDGE_MAX_ULP);
        let report = edges::grade(chosen, input, &args.file.display().to_string(), bound)?;
        io::print(&report.render_text())?;
        return Ok(if report.passed() {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        });
    }
    let function = graded_function(chosen, args.z)?;
    let name = if args.z {
        format!(
            "{} (z-column mode of {}: {} at the file's z)",
            args.file.display(),
            chosen.cli_name(),
            if function == Function::H {
                "h(z)"
            } else {
                "ln h(z)"
            }
        )
    } else {
        args.file.display().to_string()
    };
    let mut progress = io::Progress::new("rows graded");
    let report = match &args.oracle {
        None => grade(
            function,
            input,
            &name,
            args.group_by.as_deref(),
            &mut progress,
        ),
        Some(path) => grade_against_eval_output(
            function,
            input,
            &name,
            open(path)?,
            &path.display().to_string(),
            args.group_by.as_deref(),
        ),
    };
    progress.finish();
    let report = report?;
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

/// The column of `headers` called `column`, for `--group-by`.
fn group_column(headers: &[String], column: &str) -> Result<usize, String> {
    headers
        .iter()
        .position(|h| h.trim() == column)
        .ok_or_else(|| {
            format!(
                "line 1: no column `{column}` to group by (the columns are {})",
                headers.join(",")
            )
        })
}

/// Grades the rows of `input` (named `name` in the report) for `function` against the reference,
/// grouped by the column `group_by` when given. The error names the line, and the column when
/// there is one.
pub fn grade(
    function: Function,
    input: impl BufRead,
    name: &str,
    group_by: Option<&str>,
    progress: &mut io::Progress,
) -> Result<CheckReport, String> {
    let mut reader = ArgumentReader::new(input, function, function.output_columns(), &[])
        .map_err(|e| e.to_string())?;
    let group = group_by
        .map(|column| group_column(reader.headers(), column))
        .transpose()?;
    let mut report = CheckReport::new(function, name, OracleSource::Reference);
    if let Some(column) = group_by {
        report = report.grouped_by(column);
    }
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
                    group: group.map(|g| reader.record()[g].trim().to_string()),
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
            .map_err(|e| match e.error.argument() {
                Some(a) => format!("line {}, column `{}`: {}", e.line, a.name, a.message),
                None => format!("line {}: {}", e.line, e.error.message()),
            })?;
        progress.advance(batch.len() as u64);
        if let Some(error) = read_error {
            return Err(error);
        }
        if batch.len() < BATCH {
            return Ok(report);
        }
    }
}

/// Grades the rows of `input` against the values of an earlier `pbgi eval FUNCTION` output
/// (`oracle`, named `oracle_name`) instead of recomputing them. The two files must hold the same
/// arguments row by row (compared as f64 bit patterns, so `0.1` and `1e-1` agree); the eval
/// output must come from the reference engine (it has the enclosure columns), and is checked
/// before its values are used: each value lies in its own enclosure, and the reference
/// recomputes rows 1, 2, 4, 8, … and the last, which must agree (so a file of another function,
/// such as a LogEI output given to grade EI, is refused at its first row).
pub fn grade_against_eval_output(
    function: Function,
    input: impl BufRead,
    name: &str,
    oracle: impl BufRead,
    oracle_name: &str,
    group_by: Option<&str>,
) -> Result<CheckReport, String> {
    let outputs = function.output_columns();
    let mut theirs =
        ArgumentReader::new(input, function, outputs, &[]).map_err(|e| format!("{name}: {e}"))?;
    let mut eval = ArgumentReader::new(oracle, function, outputs, &[])
        .map_err(|e| format!("{oracle_name}: {e}"))?;
    for column in crate::eval::appended_columns(function, Engine::Reference) {
        if !eval.headers().iter().any(|h| h.trim() == column) {
            return Err(format!(
                "{oracle_name}: line 1: no column `{column}`; --oracle takes the output of \
                 `pbgi eval {}` with the reference engine (the default)",
                function.cli_name()
            ));
        }
    }
    let group = group_by
        .map(|column| group_column(theirs.headers(), column))
        .transpose()
        .map_err(|e| format!("{name}: {e}"))?;
    let mut report = CheckReport::new(
        function,
        name,
        OracleSource::EarlierEval(oracle_name.to_string()),
    );
    if let Some(column) = group_by {
        report = report.grouped_by(column);
    }
    let enclosures = enclosure_columns(function, eval.headers());
    let columns = function.input_columns();
    let mut last: Option<(u64, Vec<f64>, Vec<f64>)> = None;
    while let Some(row) = theirs.next_row().map_err(|e| format!("{name}: {e}"))? {
        let Some(answer) = eval.next_row().map_err(|e| format!("{oracle_name}: {e}"))? else {
            return Err(format!(
                "{name}: line {}: {oracle_name} has no row for it (it ends after {} rows)",
                row.line,
                report.len()
            ));
        };
        if let Some(i) =
            (0..columns.len()).find(|&i| row.args[i].to_bits() != answer.args[i].to_bits())
        {
            return Err(format!(
                "{name}: line {}, column `{}`: the inputs differ from {oracle_name} line {} ({} vs \
                 {}); --oracle grades row by row against the eval output of the same inputs",
                row.line,
                columns[i],
                answer.line,
                format_shortest(row.args[i]),
                format_shortest(answer.args[i])
            ));
        }
        if let Some(o) = answer.extras.iter().position(|v| v.is_nan()) {
            return Err(format!(
                "{oracle_name}: line {}, column `{}`: NaN is not an oracle value",
                answer.line, outputs[o]
            ));
        }
        check_own_enclosure(eval.record(), &enclosures, &answer.extras, answer.line)
            .map_err(|e| format!("{oracle_name}: {e}"))?;
        // Rows 1, 2, 4, 8, … are recomputed (and the last one below): a file of another
        // function, or one edited consistently, fails on its first row.
        let recomputed = (report.len() + 1).is_power_of_two();
        if recomputed {
            check_recomputed(function, &answer.args, &answer.extras, answer.line)
                .map_err(|e| format!("{oracle_name}: {e}"))?;
        }
        report.push(
            &RowToGrade {
                line: row.line,
                args: row.args,
                theirs: row.extras,
                group: group.map(|g| theirs.record()[g].trim().to_string()),
            },
            &answer.extras,
        );
        // The last row is recomputed after the loop unless it just was (moved, not copied).
        last = (!recomputed).then_some((answer.line, answer.args, answer.extras));
    }
    if let Some(extra) = eval.next_row().map_err(|e| format!("{oracle_name}: {e}"))? {
        return Err(format!(
            "{oracle_name}: line {}: more rows than {name} (which ends after {} rows); the files \
             must hold the same inputs",
            extra.line,
            report.len()
        ));
    }
    if let Some((line, args, values)) = last {
        check_recomputed(function, &args, &values, line)
            .map_err(|e| format!("{oracle_name}: {e}"))?;
    }
    Ok(report)
}

/// Per output column of `function`: its name and the positions, in an eval output with
/// `headers`, of the value and of its enclosure's ends (checked present by the caller).
fn enclosure_columns(function: Function, headers: &[String]) -> Vec<(String, [usize; 3])> {
    let find = |column: &str| {
        headers
            .iter()
            .position(|h| h.trim() == column)
            .expect("the caller checked the eval output's columns")
    };
    let appended = crate::eval::appended_columns(function, Engine::Reference);
    appended
        .chunks(3)
        .map(|c| (c[0].clone(), [find(&c[0]), find(&c[1]), find(&c[2])]))
        .collect()
}

/// An eval output's value must lie in its own enclosure: rounding is monotone, so the correctly
/// rounded value of a number in `[lower, upper]` lies between the roundings of `lower` and
/// `upper`. A value edited by even one ULP falls outside (the enclosure is far narrower).
fn check_own_enclosure(
    record: &[String],
    enclosures: &[(String, [usize; 3])],
    values: &[f64],
    line: u64,
) -> Result<(), String> {
    for ((column, [_, lo, hi]), &value) in enclosures.iter().zip(values) {
        let end = |i: usize| -> Result<f64, String> {
            record[i]
                .trim()
                .parse::<f64>()
                .map_err(|_| format!("line {line}: `{}` is not a number", record[i].trim()))
        };
        let (lower, upper) = (end(*lo)?, end(*hi)?);
        if !(lower <= value && value <= upper) {
            return Err(format!(
                "line {line}, column `{column}`: {} lies outside the file's own enclosure [{}, \
                 {}]; the oracle is inconsistent (edited?), and is not used",
                format_shortest(value),
                record[*lo].trim(),
                record[*hi].trim()
            ));
        }
    }
    Ok(())
}

/// The reference's correctly rounded values at `args` must be the file's `values`.
fn check_recomputed(
    function: Function,
    args: &[f64],
    values: &[f64],
    line: u64,
) -> Result<(), String> {
    let exact = pbgi_conformance::oracle::reference_outputs(function, args)
        .map_err(|e| format!("line {line}: {}", e.message()))?;
    if let Some(o) = (0..values.len()).find(|&o| exact[o] != values[o]) {
        return Err(format!(
            "line {line}, column `{}`: {} is not the value of `pbgi eval {}` for these inputs \
             ({}); --oracle takes the output of `pbgi eval {}` (is it another function's output, \
             or edited?), and is not used",
            function.output_columns()[o],
            format_shortest(values[o]),
            function.cli_name(),
            format_shortest(exact[o]),
            function.cli_name()
        ));
    }
    Ok(())
}

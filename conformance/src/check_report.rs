//! The grading report of `pbgi check`, as a library type: another implementation's results,
//! row by row, against the oracle's correctly rounded f64, with the error measures of
//! [`crate::ulp`].
//!
//! A [`CheckReport`] keeps every graded row (inputs, their value, the oracle's value, the error
//! in ULPs, the region, an optional group), so that any summary can be drawn from it: max /
//! median / 99th-percentile error, the `k` worst rows, the errors by region of `z` (PBGI: of
//! `u = (g − μ)/σ`, the variable its regions are computed in), by a pass-through column of the
//! input, or by output column for functions with several outputs. The command line renders it
//! as text ([`CheckReport::render_text`]), as JSON ([`CheckReport::summary`], serde) and as a
//! per-row CSV ([`CheckReport::write_rows_csv`]); the Python package wraps the same type.
//!
//! Percentiles are nearest-rank ([`crate::error_stats`]): every figure is an error that occurred.
//! A row's error is the largest over its output columns. A report with no rows never passes a
//! bound ([`CheckReport::passed`]): nothing was shown to be within it.
use crate::csv_io::{format_hex_bits, format_shortest};
use crate::error_stats::{format_ulps, ErrorSummary};
use crate::function::Function;
use crate::oracle::{self, OracleError};
use crate::regions::Region;
use crate::text_table;
use crate::ulp::{error_in_ulps, measure_description};
use rayon::prelude::*;
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

/// The most arguments of any function (`log-eipc`: `mu, sigma, y, cost`).
pub const MAX_ARGS: usize = 4;
/// The most output columns of any function (`pbgi-grad`: `d_mu, d_sigma, d_cost`).
pub const MAX_OUTPUTS: usize = 3;

/// One output column of one row: their value, the oracle's, and the error.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GradedValue {
    /// Their result.
    pub theirs: f64,
    /// The oracle's correctly rounded f64.
    pub oracle: f64,
    /// The error in ULPs ([`crate::ulp::error_in_ulps`]); `inf` for a NaN or a wrong infinity.
    pub ulp: f64,
}

/// One graded row. Stored inline (no allocation per row), so a million rows stay small.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GradedRow {
    /// Where the row came from: the input line (CSV) or the element index (arrays).
    pub line: u64,
    /// The region of `z` (or `u`) the row falls in.
    pub region: Region,
    args: [f64; MAX_ARGS],
    values: [GradedValue; MAX_OUTPUTS],
    arg_count: u8,
    value_count: u8,
    group: Option<u32>,
}

impl GradedRow {
    /// The arguments, in [`Function::input_columns`] order.
    pub fn args(&self) -> &[f64] {
        &self.args[..usize::from(self.arg_count)]
    }

    /// One graded value per output column, in [`Function::output_columns`] order.
    pub fn values(&self) -> &[GradedValue] {
        &self.values[..usize::from(self.value_count)]
    }

    /// The row's error: the largest over its output columns.
    pub fn ulp(&self) -> f64 {
        self.values()
            .iter()
            .map(|v| v.ulp)
            .fold(0.0, |a, b| if b.total_cmp(&a).is_gt() { b } else { a })
    }
}

/// Where the oracle's values come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OracleSource {
    /// Computed now by `pbgi-reference`.
    Reference,
    /// Read from an earlier `pbgi eval` output file (named).
    EarlierEval(String),
}

impl OracleSource {
    fn describe(&self) -> String {
        match self {
            OracleSource::Reference => "pbgi-reference (correctly rounded f64)".to_string(),
            OracleSource::EarlierEval(file) => {
                format!("the pbgi eval output {file} (correctly rounded f64)")
            }
        }
    }
}

/// A row to grade: where it is, its arguments, their values (one per output column) and,
/// when grouping, its group's name.
#[derive(Clone, Debug, PartialEq)]
pub struct RowToGrade {
    /// Input line or element index.
    pub line: u64,
    /// Arguments in [`Function::input_columns`] order, in the domain.
    pub args: Vec<f64>,
    /// Their results in [`Function::output_columns`] order.
    pub theirs: Vec<f64>,
    /// The group (the value of the `--group-by` column), if any.
    pub group: Option<String>,
}

/// The oracle could not answer a row (it names the line and, when it can, the argument).
#[derive(Clone, Debug, PartialEq)]
pub struct RowError {
    /// The row's line or index.
    pub line: u64,
    /// What the oracle said.
    pub error: OracleError,
}

/// Every graded row of one function, and the summaries drawn from them.
#[derive(Clone, Debug)]
pub struct CheckReport {
    function: Function,
    source: String,
    oracle: OracleSource,
    group_column: Option<String>,
    group_names: Vec<String>,
    group_index: HashMap<String, u32>,
    rows: Vec<GradedRow>,
}

/// Error statistics of a set of rows.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct UlpStats {
    /// Number of rows.
    pub rows: usize,
    /// The largest error (0 with no rows).
    #[serde(serialize_with = "number")]
    pub max: f64,
    /// The nearest-rank median.
    #[serde(serialize_with = "number")]
    pub median: f64,
    /// The nearest-rank 99th percentile.
    #[serde(serialize_with = "number")]
    pub p99: f64,
}

/// The statistics of one group of rows (a region, a value of the group-by column, an output).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GroupStats {
    /// The group's label (`-5 <= z < -0.5`, the column's value, `d_mu`).
    pub label: String,
    /// Its statistics.
    #[serde(flatten)]
    pub stats: UlpStats,
    /// The line of its worst row (`None` with no rows).
    pub worst_line: Option<u64>,
}

/// The outcome of holding the report to `--max-ulp`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BoundVerdict {
    /// The bound.
    #[serde(serialize_with = "number")]
    pub max_ulp: f64,
    /// Rows with an error above it (NaN answers count as above).
    pub rows_above: usize,
    /// Whether it passed: at least one row, none above.
    pub passed: bool,
}

/// The whole report as data (what `pbgi check --json` prints, and Python's `to_dict()`).
/// Non-finite numbers are written as the strings `"inf"`, `"-inf"`, `"nan"` (JSON has no such
/// numbers); finite ones as JSON numbers that parse back to the same f64.
#[derive(Clone, Debug, Serialize)]
pub struct ReportSummary {
    /// The function's command-line name.
    pub function: String,
    /// What was graded (file name, or a description).
    pub source: String,
    /// What the values were graded against.
    pub oracle: String,
    /// How the error is measured.
    pub error_measure: String,
    /// The variable of the region table (`z = (y - mu)/sigma`, `u = (g - mu)/sigma`, ...).
    pub region_variable: String,
    /// The output columns graded.
    pub outputs: Vec<String>,
    /// Statistics over all rows (a row's error is its largest over the outputs).
    pub ulp: UlpStats,
    /// The worst rows, largest error first.
    pub worst: Vec<RowSummary>,
    /// Statistics by region, in the regions' order.
    pub regions: Vec<GroupStats>,
    /// Statistics by output column (functions with several outputs only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub by_output: Vec<GroupStats>,
    /// Statistics by the group-by column, if one was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group_by: Option<GroupTable>,
    /// The verdict against `--max-ulp`, if given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bound: Option<BoundVerdict>,
}

/// Statistics by the values of one column.
#[derive(Clone, Debug, Serialize)]
pub struct GroupTable {
    /// The column.
    pub column: String,
    /// One entry per value, in order of first appearance.
    pub groups: Vec<GroupStats>,
}

/// One row as data.
#[derive(Clone, Debug, Serialize)]
pub struct RowSummary {
    /// Input line or element index.
    pub line: u64,
    /// The arguments by column name.
    pub args: NamedNumbers,
    /// The arguments' IEEE-754 bits (`0x...`), to reproduce them exactly.
    pub args_hex: NamedText,
    /// One entry per output column.
    pub values: Vec<ValueSummary>,
    /// The row's error (largest over the outputs).
    #[serde(serialize_with = "number")]
    pub ulp: f64,
    /// Its region's label.
    pub region: String,
    /// Its group, when grouping.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
}

/// One output column of a row as data.
#[derive(Clone, Debug, Serialize)]
pub struct ValueSummary {
    /// The output column.
    pub column: String,
    /// Their value.
    #[serde(serialize_with = "number")]
    pub theirs: f64,
    /// The oracle's value.
    #[serde(serialize_with = "number")]
    pub oracle: f64,
    /// The error in ULPs.
    #[serde(serialize_with = "number")]
    pub ulp: f64,
}

/// Numbers by name, serialised as a JSON object in column order.
#[derive(Clone, Debug, PartialEq)]
pub struct NamedNumbers(pub Vec<(String, f64)>);

/// Text by name, serialised as a JSON object in column order.
#[derive(Clone, Debug, PartialEq)]
pub struct NamedText(pub Vec<(String, String)>);

impl Serialize for NamedNumbers {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, value) in &self.0 {
            map.serialize_entry(name, &JsonNumber(*value))?;
        }
        map.end()
    }
}

impl Serialize for NamedText {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, value) in &self.0 {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

/// An f64 for JSON: a number when finite, else `"inf"`, `"-inf"` or `"nan"`.
struct JsonNumber(f64);

impl Serialize for JsonNumber {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        number(&self.0, serializer)
    }
}

fn number<S: Serializer>(x: &f64, serializer: S) -> Result<S::Ok, S::Error> {
    if x.is_finite() {
        serializer.serialize_f64(*x)
    } else {
        serializer.serialize_str(&format_shortest(*x).to_lowercase())
    }
}

/// Nearest-rank statistics of `errors`.
fn stats_of(errors: impl Iterator<Item = f64>) -> UlpStats {
    let mut summary = ErrorSummary::<()>::new(0);
    for error in errors {
        summary.add(error, || ());
    }
    UlpStats {
        rows: summary.count(),
        max: summary.max(),
        median: summary.median(),
        p99: summary.quantile(0.99),
    }
}

/// Groups rows by `key` (in the key's order; rows without a key are left out) into statistics.
fn grouped<K: Ord + Clone>(
    rows: &[GradedRow],
    key: impl Fn(&GradedRow) -> Option<K>,
    error: impl Fn(&GradedRow) -> f64,
    label: impl Fn(&K) -> String,
) -> Vec<GroupStats> {
    let mut groups: BTreeMap<K, (Vec<f64>, Option<(f64, u64)>)> = BTreeMap::new();
    for row in rows {
        let Some(k) = key(row) else { continue };
        let e = error(row);
        let entry = groups.entry(k).or_default();
        entry.0.push(e);
        if entry.1.is_none_or(|(worst, _)| e.total_cmp(&worst).is_gt()) {
            entry.1 = Some((e, row.line));
        }
    }
    groups
        .into_iter()
        .map(|(k, (errors, worst))| GroupStats {
            label: label(&k),
            stats: stats_of(errors.into_iter()),
            worst_line: worst.map(|(_, line)| line),
        })
        .collect()
}

impl CheckReport {
    /// An empty report for `function`'s results from `source` (a file name, or a description),
    /// graded against `oracle`.
    pub fn new(function: Function, source: &str, oracle: OracleSource) -> Self {
        CheckReport {
            function,
            source: source.to_string(),
            oracle,
            group_column: None,
            group_names: Vec::new(),
            group_index: HashMap::new(),
            rows: Vec::new(),
        }
    }

    /// Groups the rows by the values of `column` as well (give each row's value in
    /// [`RowToGrade::group`]).
    pub fn grouped_by(mut self, column: &str) -> Self {
        self.group_column = Some(column.to_string());
        self
    }

    /// The function graded.
    pub fn function(&self) -> Function {
        self.function
    }

    /// The graded rows, in input order.
    pub fn rows(&self) -> &[GradedRow] {
        &self.rows
    }

    /// Number of graded rows.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether no row was graded.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The group name of a row (when grouping).
    pub fn group_of(&self, row: &GradedRow) -> Option<&str> {
        row.group.map(|g| self.group_names[g as usize].as_str())
    }

    /// Grades `rows` against the reference (computed in parallel, recorded in order). On a row
    /// the reference cannot answer, the rows before it are recorded and its error returned.
    pub fn grade_batch(&mut self, rows: &[RowToGrade]) -> Result<(), RowError> {
        let function = self.function;
        let answers: Vec<Result<Vec<f64>, OracleError>> = rows
            .par_iter()
            .map(|row| oracle::reference_outputs(function, &row.args))
            .collect();
        for (row, answer) in rows.iter().zip(answers) {
            let oracle = answer.map_err(|error| RowError {
                line: row.line,
                error,
            })?;
            self.push(row, &oracle);
        }
        Ok(())
    }

    /// Records `row` graded against the oracle values `oracle` (one per output column), e.g.
    /// read from an earlier `pbgi eval` output.
    pub fn push(&mut self, row: &RowToGrade, oracle: &[f64]) {
        let function = self.function;
        let outputs = function.output_columns().len();
        debug_assert_eq!(row.args.len(), function.input_columns().len());
        debug_assert_eq!(row.theirs.len(), outputs);
        debug_assert_eq!(oracle.len(), outputs);
        let mut args = [0.0; MAX_ARGS];
        args[..row.args.len()].copy_from_slice(&row.args);
        let mut values = [GradedValue::default(); MAX_OUTPUTS];
        for (i, (&theirs, &exact)) in row.theirs.iter().zip(oracle).enumerate() {
            values[i] = GradedValue {
                theirs,
                oracle: exact,
                ulp: error_in_ulps(function, &row.args, theirs, exact),
            };
        }
        let group = row.group.as_ref().map(|name| {
            let next = self.group_names.len() as u32;
            *self.group_index.entry(name.clone()).or_insert_with(|| {
                self.group_names.push(name.clone());
                next
            })
        });
        self.rows.push(GradedRow {
            line: row.line,
            region: Region::of_row(function, &row.args, oracle[0]),
            args,
            values,
            arg_count: row.args.len() as u8,
            value_count: outputs as u8,
            group,
        });
    }

    /// Every row's error (the largest over its outputs), in input order.
    pub fn ulp(&self) -> Vec<f64> {
        self.rows.iter().map(GradedRow::ulp).collect()
    }

    /// Statistics over all rows.
    pub fn stats(&self) -> UlpStats {
        stats_of(self.rows.iter().map(GradedRow::ulp))
    }

    /// The largest error (0 with no rows).
    pub fn max_ulp(&self) -> f64 {
        self.stats().max
    }

    /// The `k` worst rows, largest error first (ties: earlier rows first).
    pub fn worst(&self, k: usize) -> Vec<&GradedRow> {
        let mut order: Vec<&GradedRow> = self.rows.iter().collect();
        order.sort_by(|a, b| b.ulp().total_cmp(&a.ulp()).then(a.line.cmp(&b.line)));
        order.truncate(k);
        order
    }

    /// Rows whose error is above `max_ulp` (a NaN error counts as above).
    pub fn rows_above(&self, max_ulp: f64) -> usize {
        self.rows.iter().filter(|r| !(r.ulp() <= max_ulp)).count()
    }

    /// Whether at least one row was graded and none is above `max_ulp`.
    pub fn passed(&self, max_ulp: f64) -> bool {
        !self.rows.is_empty() && self.rows_above(max_ulp) == 0
    }

    /// Statistics by region, in the regions' order.
    pub fn by_region(&self) -> Vec<GroupStats> {
        let variable = self.function.region_variable_name();
        grouped(
            &self.rows,
            |r| Some(r.region),
            GradedRow::ulp,
            |region| region.label_of(variable),
        )
    }

    /// Statistics by the group-by column, in order of first appearance; `None` when not
    /// grouping.
    pub fn by_group(&self) -> Option<GroupTable> {
        let column = self.group_column.clone()?;
        let groups = grouped(
            &self.rows,
            |r| r.group,
            GradedRow::ulp,
            |&g| self.group_names[g as usize].clone(),
        );
        Some(GroupTable { column, groups })
    }

    /// Statistics by output column (empty for functions with one output).
    pub fn by_output(&self) -> Vec<GroupStats> {
        let columns = self.function.output_columns();
        if columns.len() < 2 {
            return Vec::new();
        }
        (0..columns.len())
            .map(|i| {
                let worst = self.rows.iter().max_by(|a, b| {
                    a.values[i]
                        .ulp
                        .total_cmp(&b.values[i].ulp)
                        .then(b.line.cmp(&a.line))
                });
                GroupStats {
                    label: columns[i].to_string(),
                    stats: stats_of(self.rows.iter().map(|r| r.values[i].ulp)),
                    worst_line: worst.map(|r| r.line),
                }
            })
            .collect()
    }

    /// One row as data.
    pub fn row_summary(&self, row: &GradedRow) -> RowSummary {
        let columns = self.function.input_columns();
        RowSummary {
            line: row.line,
            args: NamedNumbers(
                columns
                    .iter()
                    .zip(row.args())
                    .map(|(n, &v)| (n.to_string(), v))
                    .collect(),
            ),
            args_hex: NamedText(
                columns
                    .iter()
                    .zip(row.args())
                    .map(|(n, &v)| (n.to_string(), format_hex_bits(v)))
                    .collect(),
            ),
            values: self
                .function
                .output_columns()
                .iter()
                .zip(row.values())
                .map(|(column, v)| ValueSummary {
                    column: column.to_string(),
                    theirs: v.theirs,
                    oracle: v.oracle,
                    ulp: v.ulp,
                })
                .collect(),
            ulp: row.ulp(),
            region: row.region.label_of(self.function.region_variable_name()),
            group: self.group_of(row).map(str::to_string),
        }
    }

    /// The report as data: statistics, the `worst` worst rows, the tables, and the verdict
    /// against `max_ulp` when given.
    pub fn summary(&self, worst: usize, max_ulp: Option<f64>) -> ReportSummary {
        ReportSummary {
            function: self.function.cli_name().to_string(),
            source: self.source.clone(),
            oracle: self.oracle.describe(),
            error_measure: measure_description(self.function).to_string(),
            region_variable: self.function.region_variable().to_string(),
            outputs: self
                .function
                .output_columns()
                .iter()
                .map(|c| c.to_string())
                .collect(),
            ulp: self.stats(),
            worst: self
                .worst(worst)
                .into_iter()
                .map(|r| self.row_summary(r))
                .collect(),
            regions: self.by_region(),
            by_output: self.by_output(),
            group_by: self.by_group(),
            bound: max_ulp.map(|bound| BoundVerdict {
                max_ulp: bound,
                rows_above: self.rows_above(bound),
                passed: self.passed(bound),
            }),
        }
    }

    /// The report as text (what `pbgi check` prints).
    pub fn render_text(&self, worst: usize, max_ulp: Option<f64>) -> String {
        let function = self.function;
        let stats = self.stats();
        let mut text = String::new();
        let w = &mut text;
        let _ = writeln!(
            w,
            "pbgi check {} {}: {} row{} graded against {}",
            function.cli_name(),
            self.source,
            stats.rows,
            if stats.rows == 1 { "" } else { "s" },
            self.oracle.describe()
        );
        let _ = writeln!(w, "error measure: {}", measure_description(function));
        if stats.rows == 0 {
            let _ = writeln!(
                w,
                "no rows to grade: the file has a header and no data rows"
            );
        } else {
            let _ = writeln!(
                w,
                "ULP error: max {}, median {}, 99th percentile {}",
                format_ulps(stats.max),
                format_ulps(stats.median),
                format_ulps(stats.p99)
            );
        }
        let worst_rows = self.worst(worst);
        if !worst_rows.is_empty() {
            let _ = writeln!(w, "\nworst rows:");
            let multiple = function.output_columns().len() > 1;
            let mut table = vec![vec![
                "line".to_string(),
                "arguments (hex bits)".to_string(),
                if multiple { "column" } else { "" }.to_string(),
                "their value".to_string(),
                "oracle value".to_string(),
                "ULP error".to_string(),
            ]];
            for row in worst_rows {
                let arguments = function
                    .input_columns()
                    .iter()
                    .zip(row.args())
                    .map(|(n, v)| format!("{n}={} ({})", format_shortest(*v), format_hex_bits(*v)))
                    .collect::<Vec<_>>()
                    .join(" ");
                // The output column with the row's largest error.
                let (column, value) = function
                    .output_columns()
                    .iter()
                    .zip(row.values())
                    .fold(None::<(&str, GradedValue)>, |best, (c, v)| match best {
                        Some((_, b)) if !v.ulp.total_cmp(&b.ulp).is_gt() => best,
                        _ => Some((c, *v)),
                    })
                    .expect("every function has an output column");
                table.push(vec![
                    row.line.to_string(),
                    arguments,
                    if multiple { column } else { "" }.to_string(),
                    format_shortest(value.theirs),
                    format_shortest(value.oracle),
                    format_ulps(value.ulp),
                ]);
            }
            if !multiple {
                for line in &mut table {
                    line.remove(2);
                }
            }
            w.push_str(&text_table::render(&table));
        }
        let stats_table = |first: &str, groups: &[GroupStats]| {
            let mut table = vec![vec![
                first.to_string(),
                "rows".to_string(),
                "max ULP".to_string(),
                "median ULP".to_string(),
                "worst line".to_string(),
            ]];
            for group in groups {
                table.push(vec![
                    group.label.clone(),
                    group.stats.rows.to_string(),
                    format_ulps(group.stats.max),
                    format_ulps(group.stats.median),
                    group.worst_line.map_or(String::new(), |l| l.to_string()),
                ]);
            }
            text_table::render(&table)
        };
        if stats.rows > 0 {
            let by_output = self.by_output();
            if !by_output.is_empty() {
                let _ = writeln!(w, "\nby output column:");
                w.push_str(&stats_table("column", &by_output));
            }
            let _ = writeln!(w, "\nby region of {}:", function.region_variable());
            w.push_str(&stats_table("region", &self.by_region()));
            if let Some(table) = self.by_group() {
                let _ = writeln!(w, "\nby {}:", table.column);
                w.push_str(&stats_table(&table.column, &table.groups));
            }
        }
        if let Some(bound) = max_ulp {
            let above = self.rows_above(bound);
            let _ = if stats.rows == 0 {
                writeln!(w, "\n--max-ulp {bound}: FAILED (0 rows graded)")
            } else if above == 0 {
                writeln!(w, "\n--max-ulp {bound}: passed")
            } else {
                writeln!(
                    w,
                    "\n--max-ulp {bound}: FAILED ({above} of {} rows above the bound)",
                    stats.rows
                )
            };
        }
        text
    }

    /// Writes one CSV row per graded row: `line`, the input columns, the group column (when
    /// grouping), then per output column `their_<c>`, `oracle_<c>`, `ulp_<c>` (for one output
    /// `their_value`, `oracle_value`, `ulp`), then `ulp` (the row's error, several outputs only)
    /// and `region`. Numbers are shortest round-trip decimals.
    pub fn write_rows_csv<W: std::io::Write>(&self, output: W) -> csv::Result<()> {
        let function = self.function;
        let outputs = function.output_columns();
        let mut writer = csv::Writer::from_writer(output);
        let mut header: Vec<String> = vec!["line".to_string()];
        header.extend(function.input_columns().iter().map(|c| c.to_string()));
        if let Some(column) = &self.group_column {
            header.push(column.clone());
        }
        for column in outputs {
            if outputs.len() == 1 {
                header.extend(["their_value", "oracle_value", "ulp"].map(String::from));
            } else {
                header.push(format!("their_{column}"));
                header.push(format!("oracle_{column}"));
                header.push(format!("ulp_{column}"));
            }
        }
        if outputs.len() > 1 {
            header.push("ulp".to_string());
        }
        header.push("region".to_string());
        writer.write_record(&header)?;
        let variable = function.region_variable_name();
        let mut record: Vec<String> = Vec::with_capacity(header.len());
        for row in &self.rows {
            record.clear();
            record.push(row.line.to_string());
            record.extend(row.args().iter().map(|&a| format_shortest(a)));
            if self.group_column.is_some() {
                record.push(self.group_of(row).unwrap_or("").to_string());
            }
            for v in row.values() {
                record.push(format_shortest(v.theirs));
                record.push(format_shortest(v.oracle));
                record.push(format_shortest(v.ulp));
            }
            if outputs.len() > 1 {
                record.push(format_shortest(row.ulp()));
            }
            record.push(row.region.label_of(variable));
            writer.write_record(&record)?;
        }
        writer.flush()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(line: u64, args: &[f64], theirs: f64, group: Option<&str>) -> RowToGrade {
        RowToGrade {
            line,
            args: args.to_vec(),
            theirs: vec![theirs],
            group: group.map(str::to_string),
        }
    }

    /// `x` moved up by `n` ULPs.
    fn up(x: f64, n: u64) -> f64 {
        f64::from_bits(x.to_bits() + n)
    }

    #[test]
    fn statistics_worst_rows_and_verdicts() {
        let mut report = CheckReport::new(Function::Ei, "t.csv", OracleSource::Reference);
        // Oracle values given (MATH.md's sanity values), their values off by 0, 3 and NaN.
        let ei_0 = 0.3989422804014327;
        let ei_1 = 1.0833154705876863;
        report.push(&row(2, &[0.0, 1.0, 0.0], ei_0, None), &[ei_0]);
        report.push(&row(3, &[0.0, 1.0, 1.0], up(ei_1, 3), None), &[ei_1]);
        assert_eq!(report.ulp(), [0.0, 3.0]);
        assert_eq!(report.max_ulp(), 3.0);
        assert!(report.passed(3.0));
        assert!(!report.passed(2.0));
        assert_eq!(report.rows_above(2.0), 1);
        report.push(&row(4, &[1.0, 0.0, 3.0], f64::NAN, None), &[2.0]);
        assert_eq!(report.max_ulp(), f64::INFINITY);
        assert_eq!(
            report.worst(2).iter().map(|r| r.line).collect::<Vec<_>>(),
            [4, 3]
        );
        let regions = report.by_region();
        let labels: Vec<_> = regions.iter().map(|g| g.label.as_str()).collect();
        assert_eq!(labels, ["-0.5 <= z <= 0.5", "0.5 < z <= 1e4", "sigma = 0"]);
        assert_eq!(regions[2].worst_line, Some(4));
    }

    #[test]
    fn an_empty_report_never_passes() {
        let report = CheckReport::new(Function::Pbgi, "t.csv", OracleSource::Reference);
        assert!(!report.passed(1e300));
        assert_eq!(report.stats().rows, 0);
        assert!(report
            .render_text(10, Some(4.0))
            .contains("--max-ulp 4: FAILED (0 rows graded)"));
    }

    #[test]
    fn pbgi_regions_are_labelled_by_u() {
        let mut report = CheckReport::new(Function::Pbgi, "t.csv", OracleSource::Reference);
        // PBGI(0,1,0.1) = -0.9023463475100345 (MATH.md): u = g.
        let g = -0.9023463475100345;
        report.push(&row(2, &[0.0, 1.0, 0.1], g, None), &[g]);
        assert_eq!(report.by_region()[0].label, "-5 <= u < -0.5");
        assert!(report
            .render_text(1, None)
            .contains("by region of u = (g - mu)/sigma:"));
    }

    #[test]
    fn groups_follow_first_appearance_and_json_spells_non_finite_numbers() {
        let mut report =
            CheckReport::new(Function::Ei, "t.csv", OracleSource::Reference).grouped_by("batch");
        report.push(&row(2, &[0.0, 1.0, 0.0], 0.5, Some("b")), &[0.5]);
        report.push(&row(3, &[0.0, 1.0, 0.0], f64::NAN, Some("a")), &[0.5]);
        report.push(&row(4, &[0.0, 1.0, 0.0], up(0.5, 1), Some("b")), &[0.5]);
        let groups = report.by_group().unwrap();
        assert_eq!(groups.column, "batch");
        // BTreeMap over first-appearance indices: `b` (index 0) before `a`.
        assert_eq!(
            groups
                .groups
                .iter()
                .map(|g| (g.label.as_str(), g.stats.rows))
                .collect::<Vec<_>>(),
            [("b", 2), ("a", 1)]
        );
        let json = serde_json::to_value(report.summary(1, Some(1.0))).unwrap();
        assert_eq!(json["ulp"]["max"], "inf");
        assert_eq!(json["worst"][0]["values"][0]["theirs"], "nan");
        assert_eq!(json["worst"][0]["args"]["sigma"], 1.0);
        assert_eq!(json["worst"][0]["args_hex"]["sigma"], "0x3ff0000000000000");
        assert_eq!(json["worst"][0]["group"], "a");
        assert_eq!(json["bound"]["rows_above"], 1);
        assert_eq!(json["bound"]["passed"], false);
        assert_eq!(json["group_by"]["groups"][1]["label"], "a");
    }

    #[test]
    fn rows_csv_has_one_line_per_row() {
        let mut report = CheckReport::new(Function::Ei, "t.csv", OracleSource::Reference);
        report.push(&row(7, &[0.0, 1.0, 0.0], up(0.5, 2), None), &[0.5]);
        let mut out = Vec::new();
        report.write_rows_csv(&mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "line,mu,sigma,y,their_value,oracle_value,ulp,region\n\
             7,0,1,0,0.5000000000000002,0.5,2,-0.5 <= z <= 0.5\n"
        );
    }
}

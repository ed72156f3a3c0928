//! Fast against reference: the per-function, per-region ULP error table.
//!
//! For each function, every point of its stratified input set ([`crate::inputs`]) is evaluated by
//! both engines; the error of the fast result against the reference's correctly rounded f64 is
//! measured by [`crate::ulp::error_in_ulps`] and grouped by region of `z`
//! ([`crate::regions::Region`]). Each group is held to its bound in
//! [`crate::tolerances::fast_tolerance`].
use crate::csv_io::{format_hex_bits, format_shortest};
use crate::error_stats::{format_ulps, ErrorSummary};
use crate::function::Function;
use crate::inputs::{self, Case};
use crate::oracle;
use crate::regions::Region;
use crate::text_table;
use crate::tolerances::{fast_tolerance, Tolerance};
use crate::ulp::error_in_ulps;
use rayon::prelude::*;
use std::collections::BTreeMap;

/// Points per stratum for each function, sized so that the whole table takes a few seconds of CPU
/// (a reference PBGI call is the most expensive: a certified root).
pub fn default_per_stratum(function: Function) -> usize {
    match function {
        Function::Pbgi | Function::PbgiGrad => 100,
        _ => 200,
    }
}

/// One function × region cell of the table.
#[derive(Clone, Debug)]
pub struct Cell {
    /// The function.
    pub function: Function,
    /// The region of `z`.
    pub region: Region,
    /// The errors, with the worst input.
    pub errors: ErrorSummary<Case>,
    /// The bound the cell is held to.
    pub tolerance: Tolerance,
}

impl Cell {
    /// Whether the cell's max error is within its bound.
    pub fn passes(&self) -> bool {
        self.errors.max() <= self.tolerance.max_ulp
    }
}

/// An input of the set for which the reference gave no (consistent) answer.
#[derive(Clone, Debug, PartialEq)]
pub struct ReferenceFailure {
    /// The function.
    pub function: Function,
    /// The input.
    pub case: Case,
    /// What the reference (or the consistency check of [`oracle::reference`]) said.
    pub message: String,
}

/// Evaluates `function` on its input set (`per_stratum` points per stratum) with both engines.
/// Inputs the reference cannot answer are returned apart (never dropped silently): the tests
/// hold them to the known-failure list of [`crate::tolerances`].
pub fn measure(function: Function, per_stratum: usize) -> (Vec<Cell>, Vec<ReferenceFailure>) {
    let cases = inputs::cases(function, per_stratum);
    let outcomes: Vec<Result<(Region, f64, Case), ReferenceFailure>> = cases
        .into_par_iter()
        .map(|case| {
            let exact = match oracle::reference(function, &case.args) {
                Ok(certified) => certified.value,
                Err(e) => {
                    return Err(ReferenceFailure {
                        function,
                        case,
                        message: e.message,
                    })
                }
            };
            let fast = oracle::fast(function, &case.args);
            let error = error_in_ulps(function, &case.args, fast, exact);
            Ok((Region::of_row(function, &case.args, exact), error, case))
        })
        .collect();
    let mut cells: BTreeMap<Region, ErrorSummary<Case>> = BTreeMap::new();
    let mut failures = Vec::new();
    for outcome in outcomes {
        match outcome {
            Ok((region, error, case)) => cells
                .entry(region)
                .or_insert_with(|| ErrorSummary::new(1))
                .add(error, || case),
            Err(failure) => failures.push(failure),
        }
    }
    let cells = cells
        .into_iter()
        .map(|(region, errors)| Cell {
            function,
            region,
            errors,
            tolerance: fast_tolerance(function, region),
        })
        .collect();
    (cells, failures)
}

/// The reference failures as text, one line per input (decimal and hex bits).
pub fn render_failures(failures: &[ReferenceFailure]) -> String {
    let mut out = String::new();
    for failure in failures {
        out.push_str(&format!(
            "{} {} [{}]: {}\n",
            failure.function.cli_name(),
            describe_args(failure.function, &failure.case.args),
            failure.case.stratum,
            failure.message
        ));
    }
    out
}

/// `name=value (hex bits)` for each argument.
pub fn describe_args(function: Function, args: &[f64]) -> String {
    function
        .input_columns()
        .iter()
        .zip(args)
        .map(|(name, v)| format!("{name}={} ({})", format_shortest(*v), format_hex_bits(*v)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The table as text: one row per function and region, with the count, max and median error,
/// the bound, and the worst input (decimal and hex bits).
pub fn render(cells: &[Cell]) -> String {
    let mut rows = vec![vec![
        "function".to_string(),
        "region".to_string(),
        "n".to_string(),
        "max ULP".to_string(),
        "median ULP".to_string(),
        "bound".to_string(),
        "worst input".to_string(),
    ]];
    for cell in cells {
        let worst = cell
            .errors
            .worst()
            .first()
            .map_or(String::new(), |(_, case)| {
                describe_args(cell.function, &case.args)
            });
        rows.push(vec![
            cell.function.cli_name().to_string(),
            cell.region.label().to_string(),
            cell.errors.count().to_string(),
            format_ulps(cell.errors.max()),
            format_ulps(cell.errors.median()),
            format_ulps(cell.tolerance.max_ulp),
            if cell.errors.max() > 0.0 {
                worst
            } else {
                String::new()
            },
        ]);
    }
    text_table::render(&rows)
}

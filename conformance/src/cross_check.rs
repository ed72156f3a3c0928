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

/// Points per stratum for each function, sized so that the whole table takes seconds on 2 cores
/// (a reference PBGI call is the most expensive: a certified root).
pub fn default_per_stratum(function: Function) -> usize {
    match function {
        Function::H | Function::LnH => 60,
        Function::Ei | Function::LogEi => 40,
        Function::LogEipc => 30,
        Function::Pbgi => 16,
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

/// Evaluates `function` on its input set (`per_stratum` points per stratum) with both engines.
/// Fails with a message if the reference cannot certify a point of the set.
pub fn measure(function: Function, per_stratum: usize) -> Result<Vec<Cell>, String> {
    let cases = inputs::cases(function, per_stratum);
    let graded: Vec<(Region, f64, Case)> = cases
        .into_par_iter()
        .map(|case| {
            let exact = oracle::reference(function, &case.args)
                .map_err(|e| {
                    format!(
                        "reference failed on {} {:?} ({}): {}",
                        function.cli_name(),
                        case.args,
                        case.stratum,
                        oracle::describe_reference_error(&e).1
                    )
                })?
                .value;
            let fast = oracle::fast(function, &case.args);
            let error = error_in_ulps(function, &case.args, fast, exact);
            Ok((Region::of_row(function, &case.args, exact), error, case))
        })
        .collect::<Result<_, String>>()?;
    let mut cells: BTreeMap<Region, ErrorSummary<Case>> = BTreeMap::new();
    for (region, error, case) in graded {
        cells
            .entry(region)
            .or_insert_with(|| ErrorSummary::new(1))
            .add(error, || case);
    }
    Ok(cells
        .into_iter()
        .map(|(region, errors)| Cell {
            function,
            region,
            errors,
            tolerance: fast_tolerance(function, region),
        })
        .collect())
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
        let worst = cell.errors.worst().first().map_or(String::new(), |(_, case)| {
            cell.function
                .input_columns()
                .iter()
                .zip(&case.args)
                .map(|(name, v)| format!("{name}={} ({})", format_shortest(*v), format_hex_bits(*v)))
                .collect::<Vec<_>>()
                .join(" ")
        });
        rows.push(vec![
            cell.function.cli_name().to_string(),
            cell.region.label().to_string(),
            cell.errors.count().to_string(),
            format_ulps(cell.errors.max()),
            format_ulps(cell.errors.median()),
            format_ulps(cell.tolerance.max_ulp),
            if cell.errors.max() > 0.0 { worst } else { String::new() },
        ]);
    }
    text_table::render(&rows)
}

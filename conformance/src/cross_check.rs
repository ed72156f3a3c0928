//! Fast against reference: the per-function, per-region ULP error table, on every path.
//!
//! For each function, every point of its stratified input set ([`crate::inputs`]) is evaluated by
//! the reference and by each [`Path`] of the fast crate; the error of each fast result against
//! the reference's correctly rounded f64 is measured by [`crate::ulp::error_in_ulps`] and grouped
//! by region of `z` (of `u` for PBGI, [`crate::regions::Region`]). Each function × region cell is
//! held to two bounds of the one tolerance table ([`crate::tolerances`]): the guarantee, and the
//! regression bound measured by the large scan.
use crate::csv_io::{format_hex_bits, format_shortest};
use crate::error_stats::{format_ulps, ErrorSummary};
use crate::function::Function;
use crate::inputs::{self, Case};
use crate::oracle;
use crate::regions::Region;
use crate::text_table;
use crate::tolerances::{
    fast_tolerance, known_fast_failure, regression_bound, RegressionBound, Tolerance,
};
use crate::ulp::error_in_ulps;
use rayon::prelude::*;
use std::collections::BTreeMap;

/// A way of calling the fast crate. The regression bounds hold on every path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Path {
    /// The scalar function (`pbgi_fast::ei`, ...).
    Scalar,
    /// The slice form (`pbgi_fast::ei_slice`, ...), whatever kernel it dispatches to on this
    /// machine. Functions whose slice form shares one `y` over the slice (`ei_slice`,
    /// `log_ei_slice`, `log_eipc_slice`) are called on blocks of [`SLICE_BLOCK`] consecutive
    /// points, once per point of the block with that point's `y`, so that every point of the set
    /// is evaluated in a lane next to other points of the set.
    Slice,
}

/// Points per slice call for the slice forms that share `y` (a few vector widths).
pub const SLICE_BLOCK: usize = 16;

impl Path {
    /// The column label.
    pub fn label(self) -> &'static str {
        match self {
            Path::Scalar => "scalar",
            Path::Slice => "slice",
        }
    }

    /// The paths `function` has in `pbgi-fast`.
    pub fn of(function: Function) -> &'static [Path] {
        match function {
            Function::LogNdtr
            | Function::Ei
            | Function::LogEi
            | Function::Pbgi
            | Function::LogEipc
            | Function::EiGrad
            | Function::LogEiGrad
            | Function::PbgiGrad => &[Path::Scalar, Path::Slice],
            _ => &[Path::Scalar],
        }
    }
}

/// Points per stratum of the test command's set for each function: fifty times the earlier
/// suite's 200 (forty times its 100 for the PBGI forms, whose certified reference is a root,
/// ~0.4 ms a call), about 1.6e6 points in all with the gradients, sized so that the whole table
/// takes under a minute on the two shared cores (49 s measured on 2026-11-22).
pub fn default_per_stratum(function: Function) -> usize {
    match function {
        Function::H
        | Function::LnH
        | Function::Ei
        | Function::LogEi
        | Function::LogEipc
        | Function::LogEipcInv
        | Function::LogEipcExp => 10_000,
        Function::Pbgi | Function::PbgiLognormal | Function::PbgiGrad => 4_000,
        Function::LogNdtr | Function::EiGrad | Function::LogEiGrad => 10_000,
    }
}

/// Points per stratum when `points` points in total are asked of `function` (split evenly over
/// its strata, at least one each).
pub fn per_stratum_for_points(function: Function, points: usize) -> usize {
    (points / inputs::strata_count(function)).max(1)
}

/// One function × region cell of the table.
#[derive(Clone, Debug)]
pub struct Cell {
    /// The function.
    pub function: Function,
    /// The region of `z` (of `u` for PBGI).
    pub region: Region,
    /// The errors of each path, with the worst input, in [`Path::of`] order.
    pub paths: Vec<(Path, ErrorSummary<Sample>)>,
    /// The guarantee the cell is held to.
    pub tolerance: Tolerance,
    /// The regression bound, if the cell was measured.
    pub regression: Option<RegressionBound>,
    /// For PBGI, the papers' 100-step bisection ([`pbgi_fast::pbgi_bisection100`]) on the
    /// cell's inputs with `σ ∈ [1e-3, 1e3]` (its bracket resolution is absolute): a comparison,
    /// held to no bound.
    pub baseline: Option<ErrorSummary<Sample>>,
}

/// An input of the set with the output column its error was measured on (the worst column of a
/// gradient; `value` for the other functions).
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The input, with its stratum.
    pub case: Case,
    /// The output column ([`Function::output_columns`]).
    pub column: &'static str,
}

impl Sample {
    /// `column at name=value (bits) ... [stratum]` (the column only for functions with several).
    pub fn describe(&self, function: Function) -> String {
        let column = if function.output_columns().len() > 1 {
            format!("{} at ", self.column)
        } else {
            String::new()
        };
        format!(
            "{column}{} [stratum: {}]",
            describe_args(function, &self.case.args),
            self.case.stratum
        )
    }
}

impl Cell {
    /// Number of inputs in the cell.
    pub fn count(&self) -> usize {
        self.paths[0].1.count()
    }

    /// The largest error over every path.
    pub fn max(&self) -> f64 {
        self.paths.iter().map(|(_, e)| e.max()).fold(0.0, f64::max)
    }

    /// The largest error of `path` (`None` if the function has no such path).
    pub fn max_of(&self, path: Path) -> Option<f64> {
        self.paths
            .iter()
            .find(|(p, _)| *p == path)
            .map(|(_, e)| e.max())
    }

    /// The median error of the scalar path.
    pub fn median(&self) -> f64 {
        self.paths[0].1.median()
    }

    /// The path with the largest error and its worst input.
    pub fn worst(&self) -> Option<(Path, f64, &Sample)> {
        self.paths
            .iter()
            .filter_map(|(p, e)| e.worst().first().map(|(err, case)| (*p, *err, case)))
            .max_by(|a, b| a.1.total_cmp(&b.1))
    }

    /// Whether the cell's max error is within its guarantee.
    pub fn passes(&self) -> bool {
        self.max() <= self.tolerance.max_ulp
    }

    /// What is wrong with the cell, one sentence per broken bound naming the function, the
    /// region, the path and the worst input; empty when the cell passes both tiers.
    pub fn violations(&self) -> Vec<String> {
        let mut out = Vec::new();
        let worst = || {
            self.worst().map_or(String::new(), |(path, _, sample)| {
                format!(
                    " on the {} path; worst input {}",
                    path.label(),
                    sample.describe(self.function)
                )
            })
        };
        let name = self.function.cli_name();
        let region = self.region.label_of(self.function.region_variable_name());
        let known = known_fast_failure(self.function, self.region);
        if let Some(known) = known {
            if self.passes() {
                out.push(format!(
                    "{name} in {region}: within its guarantee now, but listed as a known failure \
                     ({}): remove it from KNOWN_FAST_FAILURES in conformance/src/tolerances.rs \
                     and re-measure the regression bound",
                    known.reason
                ));
            }
        } else if !self.passes() {
            out.push(format!(
                "{name} in {region}: max {} ULP > guarantee {} ({}){}",
                format_ulps(self.max()),
                format_ulps(self.tolerance.max_ulp),
                self.tolerance.reason,
                worst()
            ));
        }
        match self.regression {
            None => out.push(format!(
                "{name} in {region}: no regression bound in conformance/src/tolerances.rs \
                 (a region that was never measured: measure it with `pbgi conformance --points \
                 1000000 --regression-table` and add it to MEASURED)"
            )),
            Some(bound) if self.max() > bound.max_ulp => out.push(format!(
                "{name} in {region} got worse: max {} ULP > regression bound {} (measured {} \
                 + margin){}",
                format_ulps(self.max()),
                format_ulps(bound.max_ulp),
                format_ulps(bound.measured),
                worst()
            )),
            Some(_) => {}
        }
        out
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

/// The slice form of `function` on every case, one result per output column
/// ([`Function::output_columns`]); `None` if it has none (see [`Path::Slice`]).
fn slice_values(function: Function, cases: &[Case]) -> Option<Vec<Vec<f64>>> {
    let column = |k: usize, block: &[Case]| block.iter().map(|c| c.args[k]).collect::<Vec<f64>>();
    let n = cases.len();
    let out = match function {
        Function::LogNdtr => {
            let mut out = vec![f64::NAN; n];
            pbgi_fast::log_ndtr_slice(&column(0, cases), &mut out).expect("equal lengths");
            out.into_iter().map(|v| vec![v]).collect()
        }
        Function::Pbgi => {
            let mut out = vec![f64::NAN; n];
            pbgi_fast::pbgi_slice(
                &column(0, cases),
                &column(1, cases),
                &column(2, cases),
                &mut out,
            )
            .expect("equal lengths");
            out.into_iter().map(|v| vec![v]).collect()
        }
        Function::PbgiGrad => {
            let (mut value, mut d_sigma, mut d_cost) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
            pbgi_fast::pbgi_grad_slice(
                &column(0, cases),
                &column(1, cases),
                &column(2, cases),
                &mut value,
                &mut d_sigma,
                &mut d_cost,
            )
            .expect("equal lengths");
            // ∂g/∂μ = 1 is not written by the slice form; a NaN value is NaN in every column.
            (0..n)
                .map(|i| {
                    let d_mu = if value[i].is_nan() { f64::NAN } else { 1.0 };
                    vec![d_mu, d_sigma[i], d_cost[i]]
                })
                .collect()
        }
        Function::Ei
        | Function::LogEi
        | Function::LogEipc
        | Function::EiGrad
        | Function::LogEiGrad => {
            let mut out = vec![Vec::new(); n];
            let mut lanes = [
                vec![0.0; SLICE_BLOCK],
                vec![0.0; SLICE_BLOCK],
                vec![0.0; SLICE_BLOCK],
            ];
            for (block, out_block) in cases.chunks(SLICE_BLOCK).zip(out.chunks_mut(SLICE_BLOCK)) {
                let (mu, sigma) = (column(0, block), column(1, block));
                let [a, b, c] = &mut lanes;
                let (a, b, c) = (
                    &mut a[..block.len()],
                    &mut b[..block.len()],
                    &mut c[..block.len()],
                );
                for (i, case) in block.iter().enumerate() {
                    let y = case.args[2];
                    out_block[i] = match function {
                        Function::Ei => {
                            pbgi_fast::ei_slice(&mu, &sigma, y, a).expect("equal lengths");
                            vec![a[i]]
                        }
                        Function::LogEi => {
                            pbgi_fast::log_ei_slice(&mu, &sigma, y, a).expect("equal lengths");
                            vec![a[i]]
                        }
                        Function::LogEipc => {
                            pbgi_fast::log_eipc_slice(&mu, &sigma, y, &column(3, block), a)
                                .expect("equal lengths");
                            vec![a[i]]
                        }
                        Function::EiGrad => {
                            pbgi_fast::ei_grad_slice(&mu, &sigma, y, a, b, c)
                                .expect("equal lengths");
                            vec![b[i], c[i]]
                        }
                        _ => {
                            pbgi_fast::log_ei_grad_slice(&mu, &sigma, y, a, b, c)
                                .expect("equal lengths");
                            vec![b[i], c[i]]
                        }
                    };
                }
            }
            out
        }
        _ => return None,
    };
    Some(out)
}

/// The largest error over the output columns of one result, with that column.
fn worst_column(
    function: Function,
    args: &[f64],
    computed: &[f64],
    exact: &[f64],
) -> (f64, &'static str) {
    function
        .output_columns()
        .iter()
        .zip(computed.iter().zip(exact))
        .map(|(&column, (&c, &e))| (error_in_ulps(function, args, c, e), column))
        .fold((f64::NEG_INFINITY, "value"), |best, next| {
            if next.0.total_cmp(&best.0).is_gt() {
                next
            } else {
                best
            }
        })
}

/// Evaluates `function` on its input set (`per_stratum` points per stratum) with the reference
/// and every fast path, every output column (a gradient's error in a cell is the largest over
/// its columns; its points where it does not exist, [`inputs::differentiable`], are left out). Inputs the reference cannot answer are returned apart (never dropped
/// silently): the tests hold them to the known-failure list of [`crate::tolerances`].
pub fn measure(function: Function, per_stratum: usize) -> (Vec<Cell>, Vec<ReferenceFailure>) {
    let mut cases = inputs::cases(function, per_stratum);
    // A gradient is compared where it exists (its kinks at σ = 0 are edge cases).
    cases.retain(|case| inputs::differentiable(function, &case.args));
    let exact: Vec<Result<Vec<f64>, String>> = cases
        .par_iter()
        .map(|case| {
            oracle::reference_outputs(function, &case.args).map_err(|e| e.message().to_string())
        })
        .collect();
    let paths = Path::of(function);
    let fast: Vec<Vec<Vec<f64>>> = paths
        .iter()
        .map(|path| match path {
            Path::Scalar => cases
                .iter()
                .map(|c| oracle::fast_all(function, &c.args).expect("in the fast crate"))
                .collect(),
            Path::Slice => slice_values(function, &cases).expect("listed in Path::of"),
        })
        .collect();
    let baseline: Option<Vec<Option<f64>>> = (function == Function::Pbgi).then(|| {
        cases
            .iter()
            .map(|c| {
                let (mu, sigma, cost) = (c.args[0], c.args[1], c.args[2]);
                (1e-3..=1e3)
                    .contains(&sigma)
                    .then(|| pbgi_fast::pbgi_bisection100(mu, sigma, cost))
            })
            .collect()
    });
    let mut cells: BTreeMap<Region, Vec<ErrorSummary<Sample>>> = BTreeMap::new();
    let mut baselines: BTreeMap<Region, ErrorSummary<Sample>> = BTreeMap::new();
    let mut failures = Vec::new();
    for (i, (case, exact)) in cases.into_iter().zip(exact).enumerate() {
        let exact = match exact {
            Ok(values) => values,
            Err(message) => {
                failures.push(ReferenceFailure {
                    function,
                    case,
                    message,
                });
                continue;
            }
        };
        let region = Region::of_row(function, &case.args, exact[0]);
        let summaries = cells
            .entry(region)
            .or_insert_with(|| paths.iter().map(|_| ErrorSummary::new(1)).collect());
        for (summary, values) in summaries.iter_mut().zip(&fast) {
            let (error, column) = worst_column(function, &case.args, &values[i], &exact);
            summary.add(error, || Sample {
                case: case.clone(),
                column,
            });
        }
        if let Some(Some(value)) = baseline.as_ref().map(|b| b[i]) {
            let error = error_in_ulps(function, &case.args, value, exact[0]);
            baselines
                .entry(region)
                .or_insert_with(|| ErrorSummary::new(1))
                .add(error, || Sample {
                    case: case.clone(),
                    column: "value",
                });
        }
    }
    let cells = cells
        .into_iter()
        .map(|(region, summaries)| Cell {
            function,
            region,
            paths: paths.iter().copied().zip(summaries).collect(),
            tolerance: fast_tolerance(function, region),
            regression: regression_bound(function, region),
            baseline: baselines.remove(&region),
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

/// The table as text: one row per function and region, with the count, the max error of each
/// path, the median, the guarantee, the regression bound, and the worst input (decimal and hex
/// bits).
pub fn render(cells: &[Cell]) -> String {
    let mut rows = vec![vec![
        "function".to_string(),
        "region".to_string(),
        "n".to_string(),
        "max ULP".to_string(),
        "slice max".to_string(),
        "median ULP".to_string(),
        "guarantee".to_string(),
        "regression".to_string(),
        "worst input".to_string(),
    ]];
    for cell in cells {
        let worst = match cell.worst() {
            Some((_, error, sample)) if error > 0.0 => sample.describe(cell.function),
            _ => String::new(),
        };
        rows.push(vec![
            cell.function.cli_name().to_string(),
            cell.region.label_of(cell.function.region_variable_name()),
            cell.count().to_string(),
            format_ulps(cell.max_of(Path::Scalar).unwrap_or(0.0)),
            cell.max_of(Path::Slice)
                .map_or("-".to_string(), format_ulps),
            format_ulps(cell.median()),
            match known_fast_failure(cell.function, cell.region) {
                Some(_) => format!("{} known failure", format_ulps(cell.tolerance.max_ulp)),
                None => format_ulps(cell.tolerance.max_ulp),
            },
            cell.regression
                .map_or("none".to_string(), |b| format_ulps(b.max_ulp)),
            worst,
        ]);
    }
    let mut out = text_table::render(&rows);
    let baselines: Vec<&Cell> = cells.iter().filter(|c| c.baseline.is_some()).collect();
    if !baselines.is_empty() {
        let mut rows = vec![vec![
            "baseline".to_string(),
            "region".to_string(),
            "n".to_string(),
            "max ULP".to_string(),
            "median ULP".to_string(),
        ]];
        for cell in baselines {
            let errors = cell.baseline.as_ref().expect("filtered");
            rows.push(vec![
                "pbgi_bisection100".to_string(),
                cell.region.label_of(cell.function.region_variable_name()),
                errors.count().to_string(),
                format_ulps(errors.max()),
                format_ulps(errors.median()),
            ]);
        }
        out.push_str(
            "\nFor comparison, no bound: the papers' 100-step bisection on the PBGI inputs with \
             sigma in [1e-3, 1e3]\n",
        );
        out.push_str(&text_table::render(&rows));
    }
    out
}

/// The table as Markdown, one row per function and one column per region: the max error over
/// every path (`–` where the set has no input in that region), then the guarantee.
pub fn render_markdown(cells: &[Cell]) -> String {
    let mut functions: Vec<Function> = Vec::new();
    for cell in cells {
        if !functions.contains(&cell.function) {
            functions.push(cell.function);
        }
    }
    let mut out = String::from("| function |");
    for region in Region::ALL {
        out.push_str(&format!(" {} |", markdown_region(region)));
    }
    out.push_str(" guarantee |\n|---|");
    for _ in Region::ALL {
        out.push_str("---|");
    }
    out.push_str("---|\n");
    for function in functions {
        let name = match function.region_variable_name() {
            "u" => format!("{} (by u)", function.cli_name()),
            _ => function.cli_name().to_string(),
        };
        out.push_str(&format!("| {name} |"));
        for region in Region::ALL {
            match cells
                .iter()
                .find(|c| c.function == function && c.region == region)
            {
                Some(cell) => {
                    let mark = match known_fast_failure(function, region) {
                        Some(_) => " (known failure)",
                        None => "",
                    };
                    out.push_str(&format!(" {}{mark} |", format_ulps(cell.max())));
                }
                None => out.push_str(" – |"),
            }
        }
        // The gradients' guarantee grows with |z| region by region: its range.
        let (least, general) = Region::ALL
            .into_iter()
            .filter(|&r| r != Region::SigmaZero)
            .map(|r| fast_tolerance(function, r).max_ulp)
            .fold((f64::INFINITY, 0.0f64), |(lo, hi), b| {
                (lo.min(b), hi.max(b))
            });
        let sigma_zero = fast_tolerance(function, Region::SigmaZero).max_ulp;
        let mut guarantee = if least == general {
            format_ulps(general)
        } else {
            format!("{}–{} by region", format_ulps(least), format_ulps(general))
        };
        if sigma_zero != general {
            guarantee.push_str(&format!(" (σ=0: {})", format_ulps(sigma_zero)));
        }
        out.push_str(&format!(" {guarantee} |\n"));
        if cells
            .iter()
            .any(|c| c.function == function && c.baseline.is_some())
        {
            out.push_str("| papers' 100-step bisection (σ ∈ [1e-3, 1e3]) |");
            for region in Region::ALL {
                let errors = cells
                    .iter()
                    .find(|c| c.function == function && c.region == region)
                    .and_then(|c| c.baseline.as_ref());
                match errors {
                    Some(errors) => out.push_str(&format!(" {} |", format_ulps(errors.max()))),
                    None => out.push_str(" – |"),
                }
            }
            out.push_str(" none |\n");
        }
    }
    out
}

/// A short column heading for `region` (the region's label without the variable).
fn markdown_region(region: Region) -> &'static str {
    match region {
        Region::ExtremeLeft => "<−1e6",
        Region::FarLeft => "−1e6..−1e4",
        Region::Underflowed => "−1e4..−40",
        Region::UnderflowEdge => "−40..−37",
        Region::LeftTail => "−37..−5",
        Region::NearMinusOne => "−5..−0.5",
        Region::Central => "±0.5",
        Region::Right => "0.5..1e4",
        Region::FarRight => "1e4..1e6",
        Region::ExtremeRight => ">1e6",
        Region::SigmaZero => "σ=0",
    }
}

/// The measured maxima as the entries of `MEASURED` in `conformance/src/tolerances.rs`: one
/// line `(Function::X, Region::Y, max),` per cell, the max rounded up to a multiple of 0.01.
pub fn render_regression_entries(cells: &[Cell]) -> String {
    let mut out = String::new();
    for cell in cells {
        let rounded_up = (cell.max() * 100.0).ceil() / 100.0;
        out.push_str(&format!(
            "    (Function::{:?}, Region::{:?}, {}),\n",
            cell.function,
            cell.region,
            format_rust_f64(rounded_up)
        ));
    }
    out
}

/// `x` as a Rust f64 literal (`1.0`, `0.25`).
fn format_rust_f64(x: f64) -> String {
    let s = format!("{x}");
    if s.contains('.') || s.contains('e') || s.contains("inf") {
        s
    } else {
        format!("{s}.0")
    }
}

//! One call of either engine on one row: the reference (certified, MPFR) or the fast crate (f64).
//!
//! A function has one output column or several (the gradients); the `*_all` calls give one
//! result per output column, in [`Function::output_columns`] order.
use crate::csv_io::format_shortest;
use crate::function::{ArgumentError, Function};
use pbgi_reference::{Accuracy, Certified};

/// Which implementation evaluates the rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// `pbgi-reference`: certified enclosure and correctly rounded f64.
    Reference,
    /// `pbgi-fast`: f64 only, a few ULP (see `conformance/src/tolerances.rs`).
    Fast,
}

/// Why the oracle has no answer for a row.
#[derive(Clone, Debug, PartialEq)]
pub enum OracleError {
    /// An argument at fault (outside the reference's domain, or the largest argument of a row
    /// where `pbgi-fast` failed): its position, name and the message.
    Argument(ArgumentError),
    /// Anything else (the reference could not certify, an inconsistency), as a sentence.
    Failed(String),
}

impl OracleError {
    /// What happened, as a sentence for users.
    pub fn message(&self) -> &str {
        match self {
            OracleError::Argument(e) => &e.message,
            OracleError::Failed(message) => message,
        }
    }

    /// The argument at fault, when there is one.
    pub fn argument(&self) -> Option<&ArgumentError> {
        match self {
            OracleError::Argument(e) => Some(e),
            OracleError::Failed(_) => None,
        }
    }
}

/// The reference's certified results for `function` at `args` ([`Function::input_columns`]
/// order), one per output column, at the reference's default accuracy, each checked for
/// self-consistency: rounding is monotone, so the correctly rounded `value` of a number in
/// `[lower, upper]` must lie between the roundings of `lower` and `upper`; a `value` outside is
/// an error here instead of a silently wrong answer. (Both ends need not round to `value`: at an
/// exact rounding midpoint the reference decides the rounding by the sign of a remainder its
/// enclosure cannot show.)
pub fn reference_all(function: Function, args: &[f64]) -> Result<Vec<Certified>, OracleError> {
    reference_all_with(function, args, &Accuracy::default())
}

/// As [`reference_all`], with an explicit accuracy policy (the fixtures ask for tight
/// enclosures).
pub fn reference_all_with(
    function: Function,
    args: &[f64],
    accuracy: &Accuracy,
) -> Result<Vec<Certified>, OracleError> {
    let mut results = Vec::with_capacity(function.output_columns().len());
    reference_all_into(function, args, accuracy, &mut results)?;
    Ok(results)
}

/// As [`reference_all_with`], into the caller's reused vector: `results` is cleared, then holds
/// the results (the same, checked the same way) when this returns `Ok`; after an error it holds
/// none or some of them, to be ignored. `pbgi eval` keeps one such vector per row of a batch, so
/// that a row allocates no vector of its own.
pub fn reference_all_into(
    function: Function,
    args: &[f64],
    accuracy: &Accuracy,
    results: &mut Vec<Certified>,
) -> Result<(), OracleError> {
    results.clear();
    reference_unchecked(function, args, accuracy, results)
        .map_err(|e| reference_error(function, &e))?;
    for (certified, output) in results.iter().zip(function.output_columns()) {
        consistent(function, args, output, certified)?;
    }
    Ok(())
}

/// The reference's certified result for a function with one output column (the value), as
/// [`reference_all`].
pub fn reference(function: Function, args: &[f64]) -> Result<Certified, OracleError> {
    reference_with(function, args, &Accuracy::default())
}

/// As [`reference`], with an explicit accuracy policy.
pub fn reference_with(
    function: Function,
    args: &[f64],
    accuracy: &Accuracy,
) -> Result<Certified, OracleError> {
    let mut results = reference_all_with(function, args, accuracy)?;
    if results.len() != 1 {
        return Err(OracleError::Failed(format!(
            "{} has several output columns ({}); ask for all of them",
            function.cli_name(),
            function.output_columns().join(", ")
        )));
    }
    Ok(results.remove(0))
}

/// The reference's correctly rounded f64 of each output column of `function` at `args`.
pub fn reference_outputs(function: Function, args: &[f64]) -> Result<Vec<f64>, OracleError> {
    Ok(reference_all(function, args)?
        .into_iter()
        .map(|c| c.value)
        .collect())
}

fn consistent(
    function: Function,
    args: &[f64],
    output: &str,
    certified: &Certified,
) -> Result<(), OracleError> {
    let (low, high) = certified.nearest_ends();
    if low <= certified.value && certified.value <= high {
        return Ok(());
    }
    Err(OracleError::Failed(format!(
        "pbgi-reference inconsistency: {} ({output}) at {:?} returned value {:e} but its \
         enclosure [{}, {}] rounds to [{low:e}, {high:e}]",
        function.cli_name(),
        args,
        certified.value,
        certified.lower_decimal(20),
        certified.upper_decimal(20)
    )))
}

/// The reference's results, appended to `results` in output-column order.
fn reference_unchecked(
    function: Function,
    args: &[f64],
    accuracy: &Accuracy,
    results: &mut Vec<Certified>,
) -> Result<(), pbgi_reference::Error> {
    use pbgi_reference as r;
    match function {
        Function::H => results.push(r::h_with(args[0], accuracy)?),
        Function::LnH => results.push(r::ln_h_with(args[0], accuracy)?),
        Function::LogNdtr => results.push(r::log_ndtr_with(args[0], accuracy)?),
        Function::Ei => results.push(r::ei_with(args[0], args[1], args[2], accuracy)?),
        Function::LogEi => results.push(r::log_ei_with(args[0], args[1], args[2], accuracy)?),
        Function::Pbgi => results.push(r::pbgi_with(args[0], args[1], args[2], accuracy)?),
        Function::LogEipc => results.push(r::log_eipc_with(
            args[0], args[1], args[2], args[3], accuracy,
        )?),
        Function::EiGrad => {
            let g = r::ei_grad_with(args[0], args[1], args[2], accuracy)?;
            results.extend([g.d_mu, g.d_sigma]);
        }
        Function::LogEiGrad => {
            let g = r::log_ei_grad_with(args[0], args[1], args[2], accuracy)?;
            results.extend([g.d_mu, g.d_sigma]);
        }
        Function::PbgiGrad => {
            let g = r::pbgi_grad_with(args[0], args[1], args[2], accuracy)?;
            results.extend([g.d_mu, g.d_sigma, g.d_cost]);
        }
        Function::LogEipcInv => results.push(r::log_eipc_inv_with(
            args[0], args[1], args[2], args[3], args[4], accuracy,
        )?),
        Function::LogEipcExp => results.push(r::log_eipc_exp_with(
            args[0], args[1], args[2], args[3], args[4], accuracy,
        )?),
        Function::PbgiLognormal => results.push(r::pbgi_lognormal_with(
            args[0], args[1], args[2], args[3], accuracy,
        )?),
    }
    Ok(())
}

/// Whether `pbgi-fast` has `function` (it has every function of the oracle).
pub fn fast_has(_function: Function) -> bool {
    true
}

/// The fast crate's f64 results for `function` at `args`, one per output column; `None` for a
/// function `pbgi-fast` does not have ([`fast_has`]). NaN where `pbgi-fast` gives no result.
pub fn fast_all(function: Function, args: &[f64]) -> Option<Vec<f64>> {
    use pbgi_fast as f;
    if !fast_has(function) {
        return None;
    }
    Some(match function {
        Function::H => vec![f::h(args[0])],
        Function::LnH => vec![f::ln_h(args[0])],
        Function::LogNdtr => vec![f::log_ndtr(args[0])],
        Function::Ei => vec![f::ei(args[0], args[1], args[2])],
        Function::LogEi => vec![f::log_ei(args[0], args[1], args[2])],
        Function::Pbgi => vec![f::pbgi(args[0], args[1], args[2])],
        Function::LogEipc => vec![f::log_eipc(args[0], args[1], args[2], args[3])],
        Function::EiGrad => {
            let g = f::ei_grad(args[0], args[1], args[2]);
            vec![g.d_mu, g.d_sigma]
        }
        Function::LogEiGrad => {
            let g = f::log_ei_grad(args[0], args[1], args[2]);
            vec![g.d_mu, g.d_sigma]
        }
        Function::PbgiGrad => {
            let g = f::pbgi_grad(args[0], args[1], args[2]);
            vec![g.d_mu, g.d_sigma, g.d_cost]
        }
        Function::LogEipcInv => vec![f::log_eipc_inv(args[0], args[1], args[2], args[3], args[4])],
        Function::LogEipcExp => vec![f::log_eipc_exp(args[0], args[1], args[2], args[3], args[4])],
        Function::PbgiLognormal => vec![f::pbgi_lognormal(args[0], args[1], args[2], args[3])],
    })
}

/// The fast crate's f64 result for a function with one output column that `pbgi-fast` has; NaN
/// for any other (use [`fast_all`] for the gradients).
pub fn fast(function: Function, args: &[f64]) -> f64 {
    match fast_all(function, args).as_deref() {
        Some([value]) => *value,
        _ => f64::NAN,
    }
}

/// The fast crate's results for `function` at `args` (arguments in the oracle's domain), or an
/// error when it has none. `pbgi-fast` covers the whole domain (`pbgi_fast::check_arguments`,
/// the same rule as [`Function::check_domain`]), so a NaN here would be a bug in it: it is
/// reported, naming the argument of largest magnitude (the one that drives an overflow of
/// `y − μ`, `z²` or `c/σ`), never written as a result.
pub fn fast_checked(function: Function, args: &[f64]) -> Result<Vec<f64>, OracleError> {
    let Some(values) = fast_all(function, args) else {
        return Err(OracleError::Failed(format!(
            "pbgi-fast has no {}; the reference engine (the default) evaluates it",
            function.cli_name()
        )));
    };
    if !values.iter().any(|v| v.is_nan()) {
        return Ok(values);
    }
    let columns = function.input_columns();
    // The first argument of largest magnitude.
    let index = (0..args.len())
        .max_by(|&i, &j| args[i].abs().total_cmp(&args[j].abs()).then(j.cmp(&i)))
        .unwrap_or(0);
    Err(OracleError::Argument(function.argument_error(
        columns[index],
        format!(
            "pbgi-fast returned NaN for this row inside its domain (a bug in pbgi-fast; the \
             largest argument is {} = {}); the reference engine (the default) evaluates it",
            columns[index],
            format_shortest(args[index])
        ),
    )))
}

/// A reference error as the oracle's: an invalid input names its argument (position and name,
/// [`Function::argument_error`]) and says why in a sentence for users; anything else is
/// [`OracleError::Failed`] with the reference's message.
fn reference_error(function: Function, error: &pbgi_reference::Error) -> OracleError {
    match error {
        pbgi_reference::Error::InvalidInput {
            name,
            value,
            reason,
        } => {
            OracleError::Argument(function.argument_error(name, format!("{reason} (got {value})")))
        }
        other => OracleError::Failed(other.to_string()),
    }
}

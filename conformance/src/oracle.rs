//! One call of either engine on one row: the reference (certified, MPFR) or the fast crate (f64).
use crate::function::Function;
use pbgi_reference::{Accuracy, Certified};

/// Which implementation evaluates the rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Engine {
    /// `pbgi-reference`: certified enclosure and correctly rounded f64.
    Reference,
    /// `pbgi-fast`: f64 only, a few ULP (see `conformance/src/tolerances.rs`).
    Fast,
}

/// Why the oracle has no answer for a row.
#[derive(Clone, Debug, PartialEq)]
pub struct OracleError {
    /// The argument (CSV column) at fault, when the reference names one.
    pub column: Option<String>,
    /// What happened.
    pub message: String,
}

/// The reference's certified result for `function` at `args` ([`Function::input_columns`]
/// order), at the reference's default accuracy, checked for self-consistency: rounding is
/// monotone, so the correctly rounded `value` of a number in `[lower, upper]` must lie between
/// the roundings of `lower` and `upper`; a `value` outside is an error here instead of a
/// silently wrong answer. (Both ends need not round to `value`: at an exact rounding midpoint
/// the reference decides the rounding by the sign of a remainder its enclosure cannot show.)
pub fn reference(function: Function, args: &[f64]) -> Result<Certified, OracleError> {
    consistent(function, args, reference_unchecked(function, args))
}

/// As [`reference`], with an explicit accuracy policy (the fixtures ask for tight enclosures).
pub fn reference_with(
    function: Function,
    args: &[f64],
    accuracy: &Accuracy,
) -> Result<Certified, OracleError> {
    consistent(
        function,
        args,
        reference_with_unchecked(function, args, accuracy),
    )
}

/// The reference's correctly rounded f64 of each output column of `function` at `args`
/// ([`Function::output_columns`] order), checked as [`reference`].
pub fn reference_outputs(function: Function, args: &[f64]) -> Result<Vec<f64>, OracleError> {
    Ok(vec![reference(function, args)?.value])
}

fn consistent(
    function: Function,
    args: &[f64],
    result: Result<Certified, pbgi_reference::Error>,
) -> Result<Certified, OracleError> {
    let certified = result.map_err(|e| {
        let (column, message) = describe_reference_error(&e);
        OracleError { column, message }
    })?;
    let (low, high) = (certified.lower.to_f64(), certified.upper.to_f64());
    if !(low <= certified.value && certified.value <= high) {
        return Err(OracleError {
            column: None,
            message: format!(
                "pbgi-reference inconsistency: {} at {:?} returned value {:e} but its enclosure \
                 [{}, {}] rounds to [{low:e}, {high:e}]",
                function.cli_name(),
                args,
                certified.value,
                certified.lower_decimal(20),
                certified.upper_decimal(20)
            ),
        });
    }
    Ok(certified)
}

fn reference_unchecked(
    function: Function,
    args: &[f64],
) -> Result<Certified, pbgi_reference::Error> {
    match function {
        Function::H => pbgi_reference::h(args[0]),
        Function::LnH => pbgi_reference::ln_h(args[0]),
        Function::Ei => pbgi_reference::ei(args[0], args[1], args[2]),
        Function::LogEi => pbgi_reference::log_ei(args[0], args[1], args[2]),
        Function::Pbgi => pbgi_reference::pbgi(args[0], args[1], args[2]),
        Function::LogEipc => pbgi_reference::log_eipc(args[0], args[1], args[2], args[3]),
        Function::LogEipcInv => {
            pbgi_reference::log_eipc_inv(args[0], args[1], args[2], args[3], args[4])
        }
        Function::LogEipcExp => {
            pbgi_reference::log_eipc_exp(args[0], args[1], args[2], args[3], args[4])
        }
        Function::PbgiLognormal => {
            pbgi_reference::pbgi_lognormal(args[0], args[1], args[2], args[3])
        }
    }
}

fn reference_with_unchecked(
    function: Function,
    args: &[f64],
    accuracy: &Accuracy,
) -> Result<Certified, pbgi_reference::Error> {
    match function {
        Function::H => pbgi_reference::h_with(args[0], accuracy),
        Function::LnH => pbgi_reference::ln_h_with(args[0], accuracy),
        Function::Ei => pbgi_reference::ei_with(args[0], args[1], args[2], accuracy),
        Function::LogEi => pbgi_reference::log_ei_with(args[0], args[1], args[2], accuracy),
        Function::Pbgi => pbgi_reference::pbgi_with(args[0], args[1], args[2], accuracy),
        Function::LogEipc => {
            pbgi_reference::log_eipc_with(args[0], args[1], args[2], args[3], accuracy)
        }
        Function::LogEipcInv => {
            pbgi_reference::log_eipc_inv_with(args[0], args[1], args[2], args[3], args[4], accuracy)
        }
        Function::LogEipcExp => {
            pbgi_reference::log_eipc_exp_with(args[0], args[1], args[2], args[3], args[4], accuracy)
        }
        Function::PbgiLognormal => {
            pbgi_reference::pbgi_lognormal_with(args[0], args[1], args[2], args[3], accuracy)
        }
    }
}

/// The fast crate's f64 result for `function` at `args`.
pub fn fast(function: Function, args: &[f64]) -> f64 {
    match function {
        Function::H => pbgi_fast::h(args[0]),
        Function::LnH => pbgi_fast::ln_h(args[0]),
        Function::Ei => pbgi_fast::ei(args[0], args[1], args[2]),
        Function::LogEi => pbgi_fast::log_ei(args[0], args[1], args[2]),
        Function::Pbgi => pbgi_fast::pbgi(args[0], args[1], args[2]),
        Function::LogEipc => pbgi_fast::log_eipc(args[0], args[1], args[2], args[3]),
        Function::LogEipcInv => {
            pbgi_fast::log_eipc_inv(args[0], args[1], args[2], args[3], args[4])
        }
        Function::LogEipcExp => {
            pbgi_fast::log_eipc_exp(args[0], args[1], args[2], args[3], args[4])
        }
        Function::PbgiLognormal => pbgi_fast::pbgi_lognormal(args[0], args[1], args[2], args[3]),
    }
}

/// A reference error as the column it concerns (if one) and a sentence for users.
fn describe_reference_error(error: &pbgi_reference::Error) -> (Option<String>, String) {
    match error {
        pbgi_reference::Error::InvalidInput {
            name,
            value,
            reason,
        } => (Some(name.to_string()), format!("{reason} (got {value})")),
        other => (None, other.to_string()),
    }
}

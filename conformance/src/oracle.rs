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

/// The reference's certified result for `function` at `args` ([`Function::input_columns`]
/// order), at the reference's default accuracy.
pub fn reference(function: Function, args: &[f64]) -> Result<Certified, pbgi_reference::Error> {
    match function {
        Function::H => pbgi_reference::h(args[0]),
        Function::LnH => pbgi_reference::ln_h(args[0]),
        Function::Ei => pbgi_reference::ei(args[0], args[1], args[2]),
        Function::LogEi => pbgi_reference::log_ei(args[0], args[1], args[2]),
        Function::Pbgi => pbgi_reference::pbgi(args[0], args[1], args[2]),
        Function::LogEipc => pbgi_reference::log_eipc(args[0], args[1], args[2], args[3]),
    }
}

/// As [`reference`], with an explicit accuracy policy (the fixtures ask for tight enclosures).
pub fn reference_with(
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
    }
}

/// A reference error as a sentence for users (the argument names are the CSV column names).
pub fn describe_reference_error(error: &pbgi_reference::Error) -> (Option<String>, String) {
    match error {
        pbgi_reference::Error::InvalidInput {
            name,
            value,
            reason,
        } => (Some(name.to_string()), format!("{reason} (got {value})")),
        pbgi_reference::Error::PrecisionExhausted { function, max_bits } => (
            None,
            format!("the reference could not certify {function} within {max_bits} bits"),
        ),
    }
}

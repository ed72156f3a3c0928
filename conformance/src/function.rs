//! The functions the oracle evaluates, with their CSV input columns and domains.
//!
//! One enum names every quantity the conformance suite compares (`h`, `ln h`, EI, LogEI, PBGI,
//! LogEIPC); `pbgi eval` and `pbgi check` accept the four public ones (`ei`, `log-ei`, `pbgi`,
//! `log-eipc`), the table of `pbgi conformance` also covers `h` and `ln h`.

/// A function of the oracle (MATH.md names in the doc of each variant).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, clap::ValueEnum)]
pub enum Function {
    /// `h(z) = zΦ(z) + φ(z)` (MATH.md, "Gaussian building blocks"). Columns `z`.
    #[value(skip)]
    H,
    /// `ln h(z)`. Columns `z`.
    #[value(skip)]
    LnH,
    /// `EI(μ, σ; y)` (MATH.md, "Expected improvement"). Columns `mu,sigma,y`.
    Ei,
    /// `ln EI(μ, σ; y)`; `-inf` where EI = 0. Columns `mu,sigma,y`.
    LogEi,
    /// The Pandora's Box Gittins index `g`: `EI(μ, σ; g) = cost` (MATH.md, "PBGI").
    /// Columns `mu,sigma,cost`.
    Pbgi,
    /// `ln EI(μ, σ; y) − ln cost` (stopping paper, eq. 4). Columns `mu,sigma,y,cost`.
    LogEipc,
}

impl Function {
    /// Every function, in table order.
    pub const ALL: [Function; 6] = [
        Function::H,
        Function::LnH,
        Function::Ei,
        Function::LogEi,
        Function::Pbgi,
        Function::LogEipc,
    ];

    /// The spelling used on the command line and in fixture file names.
    pub fn cli_name(self) -> &'static str {
        match self {
            Function::H => "h",
            Function::LnH => "ln-h",
            Function::Ei => "ei",
            Function::LogEi => "log-ei",
            Function::Pbgi => "pbgi",
            Function::LogEipc => "log-eipc",
        }
    }

    /// The CSV columns holding the arguments, in argument order.
    pub fn input_columns(self) -> &'static [&'static str] {
        match self {
            Function::H | Function::LnH => &["z"],
            Function::Ei | Function::LogEi => &["mu", "sigma", "y"],
            Function::Pbgi => &["mu", "sigma", "cost"],
            Function::LogEipc => &["mu", "sigma", "y", "cost"],
        }
    }

    /// The output columns of `pbgi eval` (each with `_lower`/`_upper` from the reference engine
    /// when there are several) and the graded columns of `pbgi check`.
    pub fn output_columns(self) -> &'static [&'static str] {
        &["value"]
    }

    /// The variable whose regions group the errors in reports, with its definition:
    /// `z = (y - mu)/sigma`, or for PBGI `u = (g - mu)/sigma` (the standardised index, the
    /// variable the index is computed in).
    pub fn region_variable(self) -> &'static str {
        match self {
            Function::H | Function::LnH => "z",
            Function::Pbgi => "u = (g - mu)/sigma",
            Function::Ei | Function::LogEi | Function::LogEipc => "z = (y - mu)/sigma",
        }
    }

    /// The name alone of [`Function::region_variable`] (`z` or `u`).
    pub fn region_variable_name(self) -> &'static str {
        match self {
            Function::Pbgi => "u",
            _ => "z",
        }
    }

    /// Checks that `args` (in [`Function::input_columns`] order) lie in the domain: every
    /// argument finite, `sigma ≥ 0`, `cost > 0`. On failure returns the index of the offending
    /// argument and the reason.
    pub fn check_domain(self, args: &[f64]) -> Result<(), (usize, String)> {
        let columns = self.input_columns();
        debug_assert_eq!(columns.len(), args.len());
        for (index, (&name, &value)) in columns.iter().zip(args).enumerate() {
            if !value.is_finite() {
                return Err((index, format!("{name} must be finite, got {value}")));
            }
            match name {
                "sigma" if value < 0.0 => {
                    return Err((index, format!("sigma must be >= 0, got {value}")));
                }
                "cost" if value <= 0.0 => {
                    return Err((index, format!("cost must be > 0, got {value}")));
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// The argument called `name`, if this function has it.
    pub fn arg(self, args: &[f64], name: &str) -> Option<f64> {
        self.input_columns()
            .iter()
            .position(|&c| c == name)
            .map(|i| args[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn domain_rejects_each_kind_of_bad_argument() {
        assert_eq!(Function::Ei.check_domain(&[0.0, 1.0, 0.0]), Ok(()));
        assert_eq!(Function::Ei.check_domain(&[0.0, 0.0, 0.0]), Ok(()));
        assert_eq!(
            Function::Ei.check_domain(&[0.0, -1.0, 0.0]),
            Err((1, "sigma must be >= 0, got -1".to_string()))
        );
        assert_eq!(
            Function::Pbgi.check_domain(&[0.0, 1.0, 0.0]),
            Err((2, "cost must be > 0, got 0".to_string()))
        );
        assert_eq!(
            Function::LogEipc.check_domain(&[f64::NAN, 1.0, 0.0, 1.0]),
            Err((0, "mu must be finite, got NaN".to_string()))
        );
        assert_eq!(
            Function::H.check_domain(&[f64::NEG_INFINITY]),
            Err((0, "z must be finite, got -inf".to_string()))
        );
    }

    #[test]
    fn arguments_are_found_by_column_name() {
        assert_eq!(
            Function::LogEipc.arg(&[1.0, 2.0, 3.0, 4.0], "cost"),
            Some(4.0)
        );
        assert_eq!(Function::Pbgi.arg(&[1.0, 2.0, 3.0], "y"), None);
    }
}

//! The functions the oracle evaluates, with their CSV input columns and domains.
//!
//! One enum names every quantity the conformance suite compares (`h`, `ln h`, EI, LogEI, PBGI,
//! LogEIPC, and the unknown-cost variants LogEIPC-inv, LogEIPC-exp and PBGI with a log-normal
//! cost); `pbgi eval` and `pbgi check` accept the four public ones (`ei`, `log-ei`, `pbgi`,
//! `log-eipc`), the table of `pbgi conformance` covers them all ([`Function::CONFORMANCE`]).

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
    /// LogEIPC-inv: `ln EI(μ, σ; y) − (m − s²/2)`, the cost replaced by `E[1/c]⁻¹` for
    /// `ln c ~ N(m, s²)` (stopping paper, eq. 13; MATH.md, "Unknown (log-normal) costs").
    /// Columns `mu,sigma,y,m,s`.
    #[value(skip)]
    LogEipcInv,
    /// LogEIPC-exp: `ln EI(μ, σ; y) − (m + s²/2)`, the cost replaced by `E[c]` (stopping paper,
    /// eq. 14). Columns `mu,sigma,y,m,s`.
    #[value(skip)]
    LogEipcExp,
    /// PBGI with the cost replaced by `E[c] = exp(m + s²/2)` for `ln c ~ N(m, s²)` (PBGI paper,
    /// B.4). Columns `mu,sigma,m,s`.
    #[value(skip)]
    PbgiLognormal,
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

    /// Every function of the fast-against-reference table (`pbgi conformance`): [`Function::ALL`]
    /// (the functions with fixtures, the public ones offered by `eval` and `check`), then the
    /// unknown-cost variants. Positions are stable: [`crate::inputs`] seeds each function's
    /// input streams with its index here.
    pub const CONFORMANCE: [Function; 9] = [
        Function::H,
        Function::LnH,
        Function::Ei,
        Function::LogEi,
        Function::Pbgi,
        Function::LogEipc,
        Function::LogEipcInv,
        Function::LogEipcExp,
        Function::PbgiLognormal,
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
            Function::LogEipcInv => "log-eipc-inv",
            Function::LogEipcExp => "log-eipc-exp",
            Function::PbgiLognormal => "pbgi-lognormal",
        }
    }

    /// The CSV columns holding the arguments, in argument order.
    pub fn input_columns(self) -> &'static [&'static str] {
        match self {
            Function::H | Function::LnH => &["z"],
            Function::Ei | Function::LogEi => &["mu", "sigma", "y"],
            Function::Pbgi => &["mu", "sigma", "cost"],
            Function::LogEipc => &["mu", "sigma", "y", "cost"],
            Function::LogEipcInv | Function::LogEipcExp => &["mu", "sigma", "y", "m", "s"],
            Function::PbgiLognormal => &["mu", "sigma", "m", "s"],
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
            Function::Pbgi | Function::PbgiLognormal => "u = (g - mu)/sigma",
            Function::Ei
            | Function::LogEi
            | Function::LogEipc
            | Function::LogEipcInv
            | Function::LogEipcExp => "z = (y - mu)/sigma",
        }
    }

    /// The name alone of [`Function::region_variable`] (`z` or `u`).
    pub fn region_variable_name(self) -> &'static str {
        match self {
            Function::Pbgi | Function::PbgiLognormal => "u",
            _ => "z",
        }
    }

    /// Checks that `args` (in [`Function::input_columns`] order) lie in the domain: every
    /// argument finite, `sigma ≥ 0`, `cost > 0`, `s ≥ 0`. On failure returns the index of the offending
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
                "s" if value < 0.0 => {
                    return Err((index, format!("s must be >= 0, got {value}")));
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

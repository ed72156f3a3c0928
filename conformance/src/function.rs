//! The functions the oracle evaluates (the registry of `pbgi eval`, `pbgi check` and the
//! fixtures), with their CSV input and output columns and domains.
//!
//! | function | input columns | output columns |
//! |---|---|---|
//! | `h`, `ln-h` | `z` | `value` |
//! | `log-ndtr` | `x` | `value` |
//! | `ei`, `log-ei` | `mu,sigma,y` | `value` |
//! | `pbgi` | `mu,sigma,cost` | `value` |
//! | `log-eipc` | `mu,sigma,y,cost` | `value` |
//! | `ei-grad`, `log-ei-grad` | `mu,sigma,y` | `d_mu,d_sigma` |
//! | `pbgi-grad` | `mu,sigma,cost` | `d_mu,d_sigma,d_cost` |
//! | `log-eipc-inv`, `log-eipc-exp` (table only) | `mu,sigma,y,m,s` | `value` |
//! | `pbgi-lognormal` (table only) | `mu,sigma,m,s` | `value` |
//!
//! The fast-vs-reference table (`pbgi conformance`) covers [`Function::CONFORMANCE`], the
//! functions with a bound in `conformance/src/tolerances.rs`: the functions of [`Function::ALL`]
//! that `pbgi-fast` has (the gradients per output column), and the unknown-cost variants, which
//! are not (yet) offered by `eval`, `check` and the fixtures.

/// An argument a function refuses (outside its domain, or refused by the reference): which one,
/// by its position in [`Function::input_columns`] order **and** its name (the CSV column of
/// `pbgi eval`/`check`, the parameter of the Python functions), the element of a vectorised
/// call when there is one, and why. The command line prints the name, the Python extension the
/// position and the element; both read them here, neither turns one into the other.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgumentError {
    /// Position of the argument in [`Function::input_columns`] order.
    pub position: usize,
    /// Name of the argument (its CSV column).
    pub name: &'static str,
    /// The element (index into the arrays) of a vectorised call; `None` for one row.
    pub element: Option<usize>,
    /// What was wrong, as a sentence for users.
    pub message: String,
}

impl ArgumentError {
    /// The same error, at element `element` of a vectorised call.
    pub fn at_element(self, element: usize) -> ArgumentError {
        ArgumentError {
            element: Some(element),
            ..self
        }
    }
}

impl std::fmt::Display for ArgumentError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// What the domain asks of one argument besides being finite ([`Function::check_domain`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// Any finite value.
    Free,
    /// `≥ 0` (`sigma`, `s`; `-0` included).
    NonNegative,
    /// `> 0` (`cost`).
    Positive,
}

impl Bound {
    /// The bound of the argument called `name`.
    pub fn of(name: &str) -> Bound {
        match name {
            "sigma" | "s" => Bound::NonNegative,
            "cost" => Bound::Positive,
            _ => Bound::Free,
        }
    }

    /// Whether `value` is in the domain as an argument with this bound (finite, and the bound).
    #[inline(always)]
    pub fn admits(self, value: f64) -> bool {
        value.is_finite()
            && match self {
                Bound::Free => true,
                Bound::NonNegative => !(value < 0.0),
                Bound::Positive => value > 0.0,
            }
    }
}

/// A function of the oracle (MATH.md names in the doc of each variant).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Function {
    /// `h(z) = zΦ(z) + φ(z)` (MATH.md, "Gaussian building blocks"). Columns `z`.
    H,
    /// `ln h(z)`. Columns `z`.
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
    /// `ln Φ(x)` (SciPy's `log_ndtr`; MATH.md, "Gaussian building blocks"). Columns `x`.
    LogNdtr,
    /// `(∂EI/∂μ, ∂EI/∂σ) = (−Φ(z), φ(z))` (MATH.md, "Expected improvement"). Columns
    /// `mu,sigma,y`; outputs `d_mu,d_sigma`.
    EiGrad,
    /// `(∂LogEI/∂μ, ∂LogEI/∂σ) = (−Φ(z), φ(z))/(σ·h(z))`. Columns `mu,sigma,y`; outputs
    /// `d_mu,d_sigma`.
    LogEiGrad,
    /// `(∂g/∂μ, ∂g/∂σ, ∂g/∂cost) = (1, −φ(u)/Φ(u), 1/Φ(u))` (MATH.md, "PBGI"). Columns
    /// `mu,sigma,cost`; outputs `d_mu,d_sigma,d_cost`.
    PbgiGrad,
    /// LogEIPC-inv: `ln EI(μ, σ; y) − (m − s²/2)`, the cost replaced by `E[1/c]⁻¹` for
    /// `ln c ~ N(m, s²)` (stopping paper, eq. 13; MATH.md, "Unknown (log-normal) costs").
    /// Columns `mu,sigma,y,m,s`. In the conformance table only.
    LogEipcInv,
    /// LogEIPC-exp: `ln EI(μ, σ; y) − (m + s²/2)`, the cost replaced by `E[c]` (stopping paper,
    /// eq. 14). Columns `mu,sigma,y,m,s`. In the conformance table only.
    LogEipcExp,
    /// PBGI with the cost replaced by `E[c] = exp(m + s²/2)` for `ln c ~ N(m, s²)` (PBGI paper,
    /// B.4). Columns `mu,sigma,m,s`. In the conformance table only.
    PbgiLognormal,
}

impl Function {
    /// Every function of `eval`, `check` and the fixtures, in table order. (The declaration
    /// order of the variants seeds each function's input set in [`crate::inputs`]: new
    /// functions go at the end.)
    pub const ALL: [Function; 10] = [
        Function::H,
        Function::LnH,
        Function::Ei,
        Function::LogEi,
        Function::Pbgi,
        Function::LogEipc,
        Function::LogNdtr,
        Function::EiGrad,
        Function::LogEiGrad,
        Function::PbgiGrad,
    ];

    /// The functions of the fast-vs-reference table, each with its bound in
    /// `conformance/src/tolerances.rs`.
    pub const CONFORMANCE: [Function; 13] = [
        Function::H,
        Function::LnH,
        Function::LogNdtr,
        Function::Ei,
        Function::LogEi,
        Function::Pbgi,
        Function::LogEipc,
        Function::EiGrad,
        Function::LogEiGrad,
        Function::PbgiGrad,
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
            Function::LogNdtr => "log-ndtr",
            Function::EiGrad => "ei-grad",
            Function::LogEiGrad => "log-ei-grad",
            Function::PbgiGrad => "pbgi-grad",
            Function::LogEipcInv => "log-eipc-inv",
            Function::LogEipcExp => "log-eipc-exp",
            Function::PbgiLognormal => "pbgi-lognormal",
        }
    }

    /// The function whose command-line name is `name`.
    pub fn named(name: &str) -> Option<Function> {
        Function::ALL.into_iter().find(|f| f.cli_name() == name)
    }

    /// The CSV columns holding the arguments, in argument order.
    pub fn input_columns(self) -> &'static [&'static str] {
        match self {
            Function::H | Function::LnH => &["z"],
            Function::LogNdtr => &["x"],
            Function::Ei | Function::LogEi | Function::EiGrad | Function::LogEiGrad => {
                &["mu", "sigma", "y"]
            }
            Function::Pbgi | Function::PbgiGrad => &["mu", "sigma", "cost"],
            Function::LogEipc => &["mu", "sigma", "y", "cost"],
            Function::LogEipcInv | Function::LogEipcExp => &["mu", "sigma", "y", "m", "s"],
            Function::PbgiLognormal => &["mu", "sigma", "m", "s"],
        }
    }

    /// The output columns of `pbgi eval` (with `_lower`/`_upper` from the reference engine when
    /// there are several) and the graded columns of `pbgi check`.
    pub fn output_columns(self) -> &'static [&'static str] {
        match self {
            Function::EiGrad | Function::LogEiGrad => &["d_mu", "d_sigma"],
            Function::PbgiGrad => &["d_mu", "d_sigma", "d_cost"],
            _ => &["value"],
        }
    }

    /// The function whose value a gradient differentiates (`ei` for `ei-grad`, ...); the
    /// function itself otherwise. Gradients share their function's inputs and regions.
    pub fn differentiated(self) -> Function {
        match self {
            Function::EiGrad => Function::Ei,
            Function::LogEiGrad => Function::LogEi,
            Function::PbgiGrad => Function::Pbgi,
            other => other,
        }
    }

    /// The variable whose regions group the errors in reports, with its definition:
    /// `z = (y - mu)/sigma`, or for PBGI `u = (g - mu)/sigma` (the standardised index, the
    /// variable the index is computed in).
    pub fn region_variable(self) -> &'static str {
        match self.differentiated() {
            Function::H | Function::LnH => "z",
            Function::LogNdtr => "x",
            Function::Pbgi | Function::PbgiLognormal => "u = (g - mu)/sigma",
            _ => "z = (y - mu)/sigma",
        }
    }

    /// The name alone of [`Function::region_variable`] (`z`, `u` or `x`).
    pub fn region_variable_name(self) -> &'static str {
        match self.differentiated() {
            Function::Pbgi | Function::PbgiLognormal => "u",
            Function::LogNdtr => "x",
            _ => "z",
        }
    }

    /// Checks that `args` (in [`Function::input_columns`] order) lie in the domain: every
    /// argument finite, `sigma ≥ 0`, `cost > 0`, `s ≥ 0` (each argument's [`Bound`]). On failure
    /// returns the offending argument (position and name) and the reason.
    pub fn check_domain(self, args: &[f64]) -> Result<(), ArgumentError> {
        let columns = self.input_columns();
        debug_assert_eq!(columns.len(), args.len());
        let refuse = |position: usize, message: String| ArgumentError {
            position,
            name: columns[position],
            element: None,
            message,
        };
        for (index, (&name, &value)) in columns.iter().zip(args).enumerate() {
            if !value.is_finite() {
                return Err(refuse(index, format!("{name} must be finite, got {value}")));
            }
            // Every condition below asks for `value ≤ 0`: positive values skip the names.
            if value > 0.0 {
                continue;
            }
            match Bound::of(name) {
                Bound::NonNegative if value < 0.0 => {
                    return Err(refuse(index, format!("{name} must be >= 0, got {value}")));
                }
                Bound::Positive if value <= 0.0 => {
                    return Err(refuse(index, format!("{name} must be > 0, got {value}")));
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// The argument error for the argument called `name` (a name of
    /// [`Function::input_columns`]; position 0 for any other, which no caller passes).
    pub fn argument_error(self, name: &'static str, message: String) -> ArgumentError {
        ArgumentError {
            position: self
                .input_columns()
                .iter()
                .position(|&c| c == name)
                .unwrap_or(0),
            name,
            element: None,
            message,
        }
    }

    /// The [`Bound`] of each argument, in [`Function::input_columns`] order.
    pub fn bounds(self) -> Vec<Bound> {
        self.input_columns()
            .iter()
            .map(|name| Bound::of(name))
            .collect()
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

    /// The error of argument `position` called `name`, on one row.
    fn refused(position: usize, name: &'static str, message: &str) -> ArgumentError {
        ArgumentError {
            position,
            name,
            element: None,
            message: message.to_string(),
        }
    }

    /// The bounds admit exactly the arguments `check_domain` accepts: every function, 200 000
    /// rows of NaN, infinities, signed zeros, the smallest subnormals and ordinary values of
    /// both signs.
    #[test]
    fn bounds_admit_what_check_domain_accepts() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(182);
        let values = [
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            0.0,
            -0.0,
            5e-324,
            -5e-324,
            1.0,
            -1.0,
            f64::MAX,
            -f64::MAX,
        ];
        for function in Function::ALL {
            let bounds = function.bounds();
            for _ in 0..200_000 / Function::ALL.len() {
                let args: Vec<f64> = bounds
                    .iter()
                    .map(|_| values[rng.gen_range(0..values.len())])
                    .collect();
                let admitted = args.iter().zip(&bounds).all(|(&v, b)| b.admits(v));
                assert_eq!(
                    admitted,
                    function.check_domain(&args).is_ok(),
                    "{function:?} {args:?}"
                );
            }
        }
    }

    #[test]
    fn domain_rejects_each_kind_of_bad_argument() {
        assert_eq!(Function::Ei.check_domain(&[0.0, 1.0, 0.0]), Ok(()));
        assert_eq!(Function::Ei.check_domain(&[0.0, 0.0, 0.0]), Ok(()));
        assert_eq!(
            Function::Ei.check_domain(&[0.0, -1.0, 0.0]),
            Err(refused(1, "sigma", "sigma must be >= 0, got -1"))
        );
        assert_eq!(
            Function::Pbgi.check_domain(&[0.0, 1.0, 0.0]),
            Err(refused(2, "cost", "cost must be > 0, got 0"))
        );
        assert_eq!(
            Function::LogEipc.check_domain(&[f64::NAN, 1.0, 0.0, 1.0]),
            Err(refused(0, "mu", "mu must be finite, got NaN"))
        );
        assert_eq!(
            Function::H.check_domain(&[f64::NEG_INFINITY]),
            Err(refused(0, "z", "z must be finite, got -inf"))
        );
        assert_eq!(
            Function::PbgiLognormal.check_domain(&[0.0, 1.0, 0.0, -0.5]),
            Err(refused(3, "s", "s must be >= 0, got -0.5"))
        );
        // Signed zeros and the smallest magnitudes on each side of each condition.
        assert_eq!(
            Function::Pbgi.check_domain(&[0.0, 1.0, -0.0]),
            Err(refused(2, "cost", "cost must be > 0, got -0"))
        );
        assert_eq!(Function::Pbgi.check_domain(&[-5.0, -0.0, 5e-324]), Ok(()));
        assert_eq!(
            Function::Ei.check_domain(&[0.0, -0.25, 0.0]),
            Err(refused(1, "sigma", "sigma must be >= 0, got -0.25"))
        );
        assert!(Function::Ei.check_domain(&[0.0, -5e-324, 0.0]).is_err());
        assert_eq!(
            Function::PbgiLognormal.check_domain(&[-1.0, 0.0, -3.0, -0.0]),
            Ok(())
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

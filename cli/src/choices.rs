//! The command line's spellings of the library's choices: clap value enums mirroring
//! [`Function`] (the functions `eval` and `check` offer, [`Function::ALL`]) and [`Engine`], with
//! the help that `--help` lists. The library stays free of clap; the tests below hold the
//! spellings to [`Function::cli_name`].
use pbgi_conformance::function::Function;
use pbgi_conformance::oracle::Engine;

/// A function of `pbgi eval` and `pbgi check` ([`Function`], in its declaration order).
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum FunctionChoice {
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
}

impl From<FunctionChoice> for Function {
    fn from(choice: FunctionChoice) -> Function {
        match choice {
            FunctionChoice::H => Function::H,
            FunctionChoice::LnH => Function::LnH,
            FunctionChoice::Ei => Function::Ei,
            FunctionChoice::LogEi => Function::LogEi,
            FunctionChoice::Pbgi => Function::Pbgi,
            FunctionChoice::LogEipc => Function::LogEipc,
            FunctionChoice::LogNdtr => Function::LogNdtr,
            FunctionChoice::EiGrad => Function::EiGrad,
            FunctionChoice::LogEiGrad => Function::LogEiGrad,
            FunctionChoice::PbgiGrad => Function::PbgiGrad,
        }
    }
}

/// Which implementation evaluates the rows ([`Engine`]).
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineChoice {
    /// `pbgi-reference`: certified enclosure and correctly rounded f64.
    Reference,
    /// `pbgi-fast`: f64 only, a few ULP (see `conformance/src/tolerances.rs`).
    Fast,
}

impl From<EngineChoice> for Engine {
    fn from(choice: EngineChoice) -> Engine {
        match choice {
            EngineChoice::Reference => Engine::Reference,
            EngineChoice::Fast => Engine::Fast,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::ValueEnum;

    /// Every function of [`Function::ALL`] is offered, in its order, under its
    /// [`Function::cli_name`].
    #[test]
    fn function_choices_are_the_functions_under_their_names() {
        let choices = FunctionChoice::value_variants();
        let functions: Vec<Function> = choices.iter().map(|&c| Function::from(c)).collect();
        assert_eq!(functions, Function::ALL);
        for &choice in choices {
            let name = choice.to_possible_value().unwrap().get_name().to_string();
            assert_eq!(name, Function::from(choice).cli_name());
        }
    }

    #[test]
    fn engine_choices_are_the_engines() {
        let engines: Vec<Engine> = EngineChoice::value_variants()
            .iter()
            .map(|&c| Engine::from(c))
            .collect();
        assert_eq!(engines, [Engine::Reference, Engine::Fast]);
    }
}

//! Deterministic, stratified input sets for each function.
//!
//! Every stratum covers one hard place of the domain (MATH.md, "Gaussian building blocks" and
//! "PBGI") and draws its points from its own ChaCha8 stream seeded with [`SEED`], the function's
//! declaration index in [`Function`] and the stratum's index, so the sets are identical on
//! every machine and every run, and one stratum can grow (or a stratum be appended) without
//! moving the others: a set of `n` points per stratum is a prefix, stratum by stratum, of the set
//! of `N > n` points, so a larger scan sees every point of a smaller one. The "random" strata are
//! plain seeded random inputs over the practical range.
//!
//! | quantity | strata |
//! |---|---|
//! | `z` (EI, LogEI, the LogEIPC forms, `h`) | `z ≈ −1`, `|z| ≤ 5`, left tail `−37..−5`, underflow edge `−40..−37`, underflowed `−1e4..−40`, right `5..1e4`, `|z|` in `1e4..1e6` and `1e6..1e8` (both signs), `σ` from `1e-300` to `1e300` (near and far `z`), `σ = 0`, huge `|μ|` with small `σ` |
//! | `cost/σ` (PBGI, also with a log-normal cost) | `u ≈ −1`, central, left tail (`1e-300..1e-7`), `cost/σ` near `1e-300`, between the left tail and `u ≈ −1` (`1e-7..0.03`), near `h(0)` (`u ≈ 0`, relative accuracy of a tiny index), `4.5..40` and large (`5..1e300`), `σ` extremes (two ranges), `σ = 0`, huge `|μ|` |
//! | cost (LogEIPC) | around the EI of the point (near-tie and spread), clamped to `1e-300..1e300` |
//! | `(m, s)` (log-normal cost) | `ln` of the effective cost placed as LogEIPC's cost; `s` uniform on `[0, 2)` (PBGI: `[0, 1)`), and log-uniform on `[1, 30]` for every fourth point (`m` and `s²/2` then nearly cancel) |
//!
//! Named points (MATH.md's sanity values, exact cases, counterexamples found by earlier scans,
//! each named after the path it exercises) come first. The rough EI estimate used to place the
//! costs near a tie ([`rough_ln_ei`]) only chooses inputs; expected values always come from the
//! reference.
use crate::function::Function;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, Normal};

/// Base seed of every stratum's random stream.
pub const SEED: u64 = 0x5eed_2026_1121;

/// One input point, tagged with the stratum that produced it.
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    /// Name of the stratum.
    pub stratum: &'static str,
    /// Arguments in [`Function::input_columns`] order.
    pub args: Vec<f64>,
}

/// How `z` (or `cost/σ`) is drawn in a stratum.
#[derive(Clone, Copy, Debug)]
enum Draw {
    /// Uniform on `[a, b]`.
    Uniform(f64, f64),
    /// Log-uniform magnitude in `[a, b]` (`0 < a < b`), with the given sign.
    LogUniform(f64, f64, f64),
    /// Log-uniform magnitude in `[a, b]`, random sign.
    BothSigns(f64, f64),
    /// Normal with mean 0 and the given standard deviation.
    Normal(f64),
    /// `c·(1 + δ)`: `c` times one plus a log-uniform `|δ|` in `[a, b]`, random sign.
    Around(f64, f64, f64),
}

impl Draw {
    fn sample(self, rng: &mut ChaCha8Rng) -> f64 {
        match self {
            Draw::Uniform(a, b) => rng.gen_range(a..=b),
            Draw::LogUniform(a, b, sign) => sign * log_uniform(rng, a, b),
            Draw::BothSigns(a, b) => {
                let sign = if rng.gen_bool(0.5) { 1.0 } else { -1.0 };
                sign * log_uniform(rng, a, b)
            }
            Draw::Normal(sd) => Normal::new(0.0, sd).expect("positive sd").sample(rng),
            Draw::Around(c, a, b) => c * (1.0 + Draw::BothSigns(a, b).sample(rng)),
        }
    }
}

fn log_uniform(rng: &mut ChaCha8Rng, a: f64, b: f64) -> f64 {
    rng.gen_range(a.ln()..=b.ln()).exp().clamp(a, b)
}

/// How `μ` and `σ` are drawn in a stratum.
#[derive(Clone, Copy, Debug)]
enum Scale {
    /// `μ ~ U[−10, 10]`, `σ` log-uniform in `[1e-2, 1e2]`.
    Moderate,
    /// `σ` log-uniform in `[1e-300, 1e300]`, `μ = σ·U[−10, 10]`.
    SigmaExtremes,
    /// `σ = 0`, `μ ~ U[−10, 10]`.
    SigmaZero,
    /// `|μ|` log-uniform in `[1e10, 1e300]`, `σ = |μ|·` log-uniform in `[1e-16, 1e-6]`.
    HugeMu,
    /// `μ ~ U[−100, 100]`, `σ` log-uniform in `[1e-6, 1e6]`.
    Wide,
    /// `σ` log-uniform in `[1e-150, 1e150]`, `μ = σ·U[−10, 10]` (room for `cost/σ` far from 1).
    SigmaWide,
}

impl Scale {
    fn sample(self, rng: &mut ChaCha8Rng) -> (f64, f64) {
        match self {
            Scale::Moderate => (rng.gen_range(-10.0..=10.0), log_uniform(rng, 1e-2, 1e2)),
            Scale::SigmaExtremes => {
                let sigma = log_uniform(rng, 1e-300, 1e300);
                (sigma * rng.gen_range(-10.0..=10.0), sigma)
            }
            Scale::SigmaZero => (rng.gen_range(-10.0..=10.0), 0.0),
            Scale::HugeMu => {
                let mu = Draw::BothSigns(1e10, 1e300).sample(rng);
                (mu, mu.abs() * log_uniform(rng, 1e-16, 1e-6))
            }
            Scale::Wide => (rng.gen_range(-100.0..=100.0), log_uniform(rng, 1e-6, 1e6)),
            Scale::SigmaWide => {
                let sigma = log_uniform(rng, 1e-150, 1e150);
                (sigma * rng.gen_range(-10.0..=10.0), sigma)
            }
        }
    }
}

/// The strata of `z` for EI-like functions: name, draw of `z`, draw of `(μ, σ)`. New strata go
/// at the end (a stratum's seed is its index).
const Z_STRATA: [(&str, Draw, Scale); 15] = [
    ("z ≈ -1", Draw::Uniform(-1.5, -0.5), Scale::Moderate),
    ("|z| <= 5", Draw::Uniform(-5.0, 5.0), Scale::Moderate),
    (
        "left tail -37..-5",
        Draw::Uniform(-37.0, -5.0),
        Scale::Moderate,
    ),
    (
        "h underflow -40..-37",
        Draw::Uniform(-40.0, -37.0),
        Scale::Moderate,
    ),
    (
        "underflowed -1e4..-40",
        Draw::LogUniform(40.0, 1e4, -1.0),
        Scale::Moderate,
    ),
    (
        "right 5..1e4",
        Draw::LogUniform(5.0, 1e4, 1.0),
        Scale::Moderate,
    ),
    (
        "z in -1e6..-1e4",
        Draw::LogUniform(1e4, 1e6, -1.0),
        Scale::Moderate,
    ),
    (
        "z in 1e4..1e6",
        Draw::LogUniform(1e4, 1e6, 1.0),
        Scale::Moderate,
    ),
    (
        "z in -1e8..-1e6",
        Draw::LogUniform(1e6, 1e8, -1.0),
        Scale::Moderate,
    ),
    (
        "z in 1e6..1e8",
        Draw::LogUniform(1e6, 1e8, 1.0),
        Scale::Moderate,
    ),
    (
        "sigma 1e-300..1e300",
        Draw::Uniform(-45.0, 5.0),
        Scale::SigmaExtremes,
    ),
    ("sigma = 0", Draw::Uniform(-5.0, 5.0), Scale::SigmaZero),
    (
        "huge |mu|, small sigma",
        Draw::Uniform(-40.0, 5.0),
        Scale::HugeMu,
    ),
    ("random", Draw::Normal(10.0), Scale::Wide),
    (
        "sigma 1e-300..1e300, |z| 5..1e8",
        Draw::BothSigns(5.0, 1e8),
        Scale::SigmaExtremes,
    ),
];

/// `h(0) = 1/√(2π)`: `cost/σ` there gives the index `u = 0`.
const H_AT_ZERO: f64 = 0.3989422804014327;

/// The strata of `r = cost/σ` for PBGI: name, draw of `r`, draw of `(μ, σ)`. For `σ = 0` the
/// draw is the cost itself. New strata go at the end (a stratum's seed is its index).
const COST_STRATA: [(&str, Draw, Scale); 13] = [
    (
        "u ≈ -1 (cost/sigma 0.03..0.25)",
        Draw::LogUniform(0.03, 0.25, 1.0),
        Scale::Moderate,
    ),
    (
        "central (cost/sigma 0.2..5)",
        Draw::LogUniform(0.2, 5.0, 1.0),
        Scale::Moderate,
    ),
    (
        "left tail (cost/sigma 1e-300..1e-7)",
        Draw::LogUniform(1e-300, 1e-7, 1.0),
        Scale::Moderate,
    ),
    (
        "cost/sigma 1e-300..1e-250",
        Draw::LogUniform(1e-300, 1e-250, 1.0),
        Scale::Moderate,
    ),
    (
        "large (cost/sigma 5..1e300)",
        Draw::LogUniform(5.0, 1e300, 1.0),
        Scale::Moderate,
    ),
    (
        "sigma 1e-300..1e300",
        Draw::LogUniform(1e-10, 10.0, 1.0),
        Scale::SigmaExtremes,
    ),
    (
        "sigma = 0",
        Draw::LogUniform(1e-10, 1e3, 1.0),
        Scale::SigmaZero,
    ),
    (
        "huge |mu|, small sigma",
        Draw::LogUniform(1e-10, 10.0, 1.0),
        Scale::HugeMu,
    ),
    ("random", Draw::LogUniform(1e-20, 1e3, 1.0), Scale::Wide),
    (
        "cost/sigma 1e-7..0.03",
        Draw::LogUniform(1e-7, 0.03, 1.0),
        Scale::Moderate,
    ),
    (
        "u ≈ 0 (cost/sigma within 1e-2 of h(0))",
        Draw::Around(H_AT_ZERO, 1e-15, 1e-2),
        Scale::Moderate,
    ),
    (
        "cost/sigma 4.5..40",
        Draw::LogUniform(4.5, 40.0, 1.0),
        Scale::Moderate,
    ),
    (
        "sigma 1e-150..1e150, cost/sigma 1e-150..1e150",
        Draw::LogUniform(1e-150, 1e150, 1.0),
        Scale::SigmaWide,
    ),
];

/// The strata of `z` for `h` and `ln h`.
const H_STRATA: [(&str, Draw); 11] = [
    ("z ≈ -1", Draw::Uniform(-1.5, -0.5)),
    ("|z| <= 5", Draw::Uniform(-5.0, 5.0)),
    ("left tail -37..-5", Draw::Uniform(-37.0, -5.0)),
    ("h underflow -40..-37", Draw::Uniform(-40.0, -37.0)),
    ("underflowed -1e4..-40", Draw::LogUniform(40.0, 1e4, -1.0)),
    ("right 5..1e4", Draw::LogUniform(5.0, 1e4, 1.0)),
    ("z in -1e6..-1e4", Draw::LogUniform(1e4, 1e6, -1.0)),
    ("z in 1e4..1e6", Draw::LogUniform(1e4, 1e6, 1.0)),
    ("z in -1e8..-1e6", Draw::LogUniform(1e6, 1e8, -1.0)),
    ("z in 1e6..1e8", Draw::LogUniform(1e6, 1e8, 1.0)),
    ("random", Draw::Normal(20.0)),
];

/// The number of strata of `function`'s set (the named points not counted).
pub fn strata_count(function: Function) -> usize {
    match function.differentiated() {
        Function::H | Function::LnH | Function::LogNdtr => H_STRATA.len(),
        Function::Pbgi | Function::PbgiLognormal => COST_STRATA.len(),
        _ => Z_STRATA.len(),
    }
}

fn stream(function: Function, stratum: usize) -> ChaCha8Rng {
    // The declaration order of `Function` (new functions go at the end): for the functions of
    // `Function::ALL` their position there.
    let function_index = function as u64;
    ChaCha8Rng::seed_from_u64(SEED ^ (function_index << 16) ^ stratum as u64)
}

/// The input set of `function`: its [`named_cases`], then `per_stratum` points from each
/// stratum, in stratum order.
pub fn cases(function: Function, per_stratum: usize) -> Vec<Case> {
    if function.differentiated() != function {
        // A gradient at the same points as the function it differentiates.
        return cases(function.differentiated(), per_stratum);
    }
    let mut out = named_cases(function);
    match function {
        Function::H | Function::LnH | Function::LogNdtr => {
            for (index, &(stratum, draw)) in H_STRATA.iter().enumerate() {
                let mut rng = stream(function, index);
                for _ in 0..per_stratum {
                    out.push(Case {
                        stratum,
                        args: vec![draw.sample(&mut rng)],
                    });
                }
            }
        }
        Function::Ei
        | Function::LogEi
        | Function::LogEipc
        | Function::LogEipcInv
        | Function::LogEipcExp
        | Function::EiGrad
        | Function::LogEiGrad => {
            for (index, &(stratum, draw, scale)) in Z_STRATA.iter().enumerate() {
                let mut rng = stream(function, index);
                for i in 0..per_stratum {
                    let (mu, sigma) = scale.sample(&mut rng);
                    let y = if sigma == 0.0 {
                        // Exact ties y = μ in a third of the σ = 0 points.
                        if i % 3 == 0 {
                            mu
                        } else {
                            mu + draw.sample(&mut rng)
                        }
                    } else {
                        mu + draw.sample(&mut rng) * sigma
                    };
                    let mut args = vec![mu, sigma, y];
                    match function {
                        Function::LogEipc => {
                            let ln_cost = ln_cost_near_ei(&mut rng, mu, sigma, y, i);
                            args.push(ln_cost.exp().clamp(1e-300, 1e300));
                        }
                        Function::LogEipcInv | Function::LogEipcExp => {
                            let ln_cost = ln_cost_near_ei(&mut rng, mu, sigma, y, i)
                                .clamp(1e-300f64.ln(), 1e300f64.ln());
                            let s = log_normal_s(&mut rng, i, 2.0);
                            // The effective cost is exp(m ∓ s²/2).
                            let m = if function == Function::LogEipcInv {
                                ln_cost + 0.5 * s * s
                            } else {
                                ln_cost - 0.5 * s * s
                            };
                            args.extend([m, s]);
                        }
                        _ => {}
                    }
                    out.push(Case { stratum, args });
                }
            }
        }
        Function::Pbgi | Function::PbgiGrad | Function::PbgiLognormal => {
            for (index, &(stratum, draw, scale)) in COST_STRATA.iter().enumerate() {
                let mut rng = stream(function, index);
                for i in 0..per_stratum {
                    let (mu, sigma) = scale.sample(&mut rng);
                    let r = draw.sample(&mut rng);
                    let args = if function != Function::PbgiLognormal {
                        let cost = if sigma == 0.0 {
                            r
                        } else {
                            (r * sigma).max(1e-300)
                        };
                        vec![mu, sigma, cost]
                    } else {
                        // ln E[c] in log space: E[c] may lie below the f64 range.
                        let ln_cost = if sigma == 0.0 {
                            r.ln()
                        } else {
                            r.ln() + sigma.ln()
                        };
                        let s = log_normal_s(&mut rng, i, 1.0);
                        vec![mu, sigma, ln_cost - 0.5 * s * s, s]
                    };
                    out.push(Case { stratum, args });
                }
            }
        }
    }
    out
}

/// Whether the gradient `function` exists at `args` (the reference's convention): at `σ = 0`,
/// EI = `max(y − μ, 0)` has a kink at `y = μ`, and LogEI is `−∞` for `y ≤ μ`. (What an
/// implementation returns there is graded by the edge-case sets, `fixtures/edges/`; the
/// fixtures keep such points as comments saying the reference gives no value.)
pub fn differentiable(function: Function, args: &[f64]) -> bool {
    let sigma_zero = || args[1] == 0.0;
    match function {
        Function::EiGrad => !(sigma_zero() && args[2] == args[0]),
        Function::LogEiGrad => !(sigma_zero() && args[2] <= args[0]),
        _ => true,
    }
}

/// The log-normal `s` of point `i`: uniform on `[0, upper)`, and log-uniform on `[1, 30]` for
/// every fourth point.
fn log_normal_s(rng: &mut ChaCha8Rng, i: usize, upper: f64) -> f64 {
    if i % 4 == 3 {
        log_uniform(rng, 1.0, 30.0)
    } else {
        rng.gen_range(0.0..upper)
    }
}

/// A named point: the path or fact it pins, and its arguments.
type Named = (&'static str, Vec<f64>);

/// Named points with known or exactly checkable values, first in every set: MATH.md's public
/// sanity values, exact ties (`σ = 0`, `y = μ`), the underflow edge `z = −38.5`, far tails, and
/// counterexamples found by earlier scans (pinned with their bits, named after the path they
/// exercise).
pub fn named_cases(function: Function) -> Vec<Case> {
    let named = "named points";
    let bits = |b: [u64; 3]| b.map(f64::from_bits).to_vec();
    let points: Vec<Named> = match function.differentiated() {
        Function::H | Function::LnH => [0.0, 1.0, -1.0, -38.5, -1e5, 1e8, -1e8]
            .iter()
            .map(|&z| (named, vec![z]))
            .collect(),
        // ln Φ(0) = -ln 2; ln Φ rounds to -0 beyond x ≈ 38.5 and to -inf below x ≈ -1.9e154.
        Function::LogNdtr => [0.0, 1.0, -1.0, -38.5, 38.5, 40.0, -1e5, 1e8, -1e8, -2e154]
            .iter()
            .map(|&x| (named, vec![x]))
            .collect(),
        Function::Ei | Function::LogEi => vec![
            (named, vec![0.0, 1.0, 0.0]),
            (named, vec![0.0, 1.0, 1.0]),
            (named, vec![0.0, 1.0, -38.5]),
            (named, vec![0.0, 1.0, -1e5]),
            (named, vec![1.0, 0.0, 3.0]),
            (named, vec![1.0, 0.0, 1.0]),
            (named, vec![1.0, 0.0, -3.0]),
            (named, vec![1e300, 1e-300, 1e300]),
            // σ > 1e280 with z ≈ −48: the rescaled EI underflowed before being scaled back.
            (
                "pinned: huge sigma, lower tail",
                bits([0x7b998df7af1d7a8c, 0x7c4b1db84b8560af, 0xfca452027e782049]),
            ),
            // σ ≈ 1e291, z ≈ −20: LogEI through the rescaled kernel where EI is normal.
            (
                "pinned: huge sigma, EI normal",
                bits([0x0000000000000000, 0x7cae883c0bbc1f73, 0xfd0546172eb3b92c]),
            ),
        ],
        Function::Pbgi => vec![
            (named, vec![0.0, 1.0, 1e-4]),
            (named, vec![0.0, 1.0, 0.1]),
            // c = fl(1/√(2π)): the index is 2δ with δ = 2.49e-17, relative accuracy near u = 0.
            (named, vec![0.0, 1.0, H_AT_ZERO]),
            (named, vec![1.0, 0.0, 0.5]),
            (named, vec![0.0, 1.0, 1e-300]),
            (named, vec![0.0, 1.0, 1e300]),
        ],
        Function::LogEipc => vec![
            (named, vec![0.0, 1.0, 0.0, H_AT_ZERO]),
            (named, vec![0.0, 1.0, 0.0, 0.1]),
            (named, vec![1.0, 0.0, 1.5, 0.5]),
            (named, vec![0.0, 1.0, -38.5, 1e-300]),
        ],
        // m = s = 0 and m = s²/2 (the effective cost is 1 in one form), σ = 0 with a tie, a
        // large s where m and s²/2 nearly cancel.
        Function::LogEipcInv | Function::LogEipcExp => vec![
            (named, vec![0.0, 1.0, 0.0, 0.0, 0.0]),
            (named, vec![0.0, 1.0, 0.0, 2.0, 2.0]),
            (named, vec![0.0, 1.0, 0.0, -2.0, 2.0]),
            (named, vec![1.0, 0.0, 3.0, 0.0, 0.0]),
            (named, vec![1.0, 0.0, 1.5, -0.5, 1.0]),
            (named, vec![0.0, 1.0, -38.5, 450.0, 30.0]),
        ],
        // E[c] = 1 (m = s = 0 and m = −s²/2), σ = 0, E[c] = e^−1000 below the f64 range,
        // s = 30.
        Function::PbgiLognormal => vec![
            (named, vec![0.0, 1.0, 0.0, 0.0]),
            (named, vec![0.0, 1.0, -2.0, 2.0]),
            (named, vec![1.0, 0.0, 0.0, 0.0]),
            (named, vec![0.0, 1.0, -1000.0, 0.0]),
            (named, vec![0.0, 1.0, -448.0, 30.0]),
        ],
        // Not reached: `differentiated` maps a gradient to the function it differentiates.
        Function::EiGrad | Function::LogEiGrad | Function::PbgiGrad => vec![],
    };
    points
        .into_iter()
        .map(|(stratum, args)| Case { stratum, args })
        .collect()
}

/// The logarithm of a cost around the point's EI: for even `i` within a relative `1e-12..1e-2`
/// of it (near a tie, where `ln EI − ln cost` cancels), for odd `i` spread by a factor
/// `e^N(0,3)`. Callers keep the cost within `[1e-300, 1e300]`.
fn ln_cost_near_ei(rng: &mut ChaCha8Rng, mu: f64, sigma: f64, y: f64, i: usize) -> f64 {
    let ln_ei = rough_ln_ei(mu, sigma, y);
    let offset = if i % 2 == 0 {
        Draw::BothSigns(1e-12, 1e-2).sample(rng)
    } else {
        Draw::Normal(3.0).sample(rng)
    };
    let ln_cost = if ln_ei.is_finite() {
        ln_ei + offset
    } else {
        offset
    };
    ln_cost
}

/// A rough `ln EI(μ, σ; y)` (a few digits) for placing inputs: the closed form for `z ≥ −5`, the
/// leading asymptotic term `ln φ(z) − 2 ln|z|` below. Not an oracle.
pub fn rough_ln_ei(mu: f64, sigma: f64, y: f64) -> f64 {
    if sigma == 0.0 {
        return (y - mu).max(0.0).ln();
    }
    let z = (y - mu) / sigma;
    let ln_h = if z >= -5.0 {
        let cdf = 0.5 * libm::erfc(-z / std::f64::consts::SQRT_2);
        let pdf = (-0.5 * z * z).exp() / (2.0 * std::f64::consts::PI).sqrt();
        (z * cdf + pdf).ln()
    } else {
        -0.5 * z * z - 0.5 * (2.0 * std::f64::consts::PI).ln() - 2.0 * z.abs().ln()
    };
    sigma.ln() + ln_h
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::regions::Region;

    #[test]
    fn sets_are_deterministic_and_in_the_domain() {
        for function in Function::CONFORMANCE {
            let a = cases(function, 20);
            assert_eq!(a, cases(function, 20));
            for case in &a {
                assert_eq!(function.check_domain(&case.args), Ok(()), "{case:?}");
            }
        }
    }

    #[test]
    fn growing_one_set_keeps_its_prefix_per_stratum() {
        let named = named_cases(Function::Ei).len();
        let small = cases(Function::Ei, 5);
        let large = cases(Function::Ei, 8);
        assert_eq!(small[..named + 5], large[..named + 5]);
    }

    #[test]
    fn z_strata_reach_the_regions_they_are_named_after() {
        let set = cases(Function::Ei, 30);
        let regions: std::collections::BTreeSet<Region> = set
            .iter()
            .map(|c| Region::of_row(Function::Ei, &c.args, f64::NAN))
            .collect();
        for region in Region::ALL {
            assert!(regions.contains(&region), "no input in {region:?}");
        }
    }

    #[test]
    fn rough_ln_ei_is_close_to_known_values() {
        assert!((rough_ln_ei(0.0, 1.0, 0.0) - 0.3989422804014327f64.ln()).abs() < 1e-12);
        assert_eq!(rough_ln_ei(1.0, 0.0, 3.0), 2f64.ln());
    }
}

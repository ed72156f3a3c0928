//! Regions of the standardized argument `z`, where implementations of `h` succeed or fail.
//!
//! `z = (y − μ)/σ` for EI, LogEI and the LogEIPC forms; `z` itself for `h` and `ln h`; for PBGI
//! (also with a log-normal cost) the solution `u = (g − μ)/σ` of `h(u) = cost/σ` (from the
//! oracle's `g`). The boundaries mark where
//! the mathematics changes (MATH.md, "Gaussian building blocks"): the naive `zΦ(z) + φ(z)`
//! cancels for `z ≲ −5`; `h` underflows f64 near `z ≈ −38.5`; asymptotic series take over in the
//! far tails.
use crate::function::Function;

/// A region of `z` (or `σ = 0`, where there is no `z`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Region {
    /// `z < −1e6`.
    ExtremeLeft,
    /// `−1e6 ≤ z < −1e4`.
    FarLeft,
    /// `−1e4 ≤ z < −40`: `h` underflows f64, `ln h ≈ −z²/2` stays finite.
    Underflowed,
    /// `−40 ≤ z < −37`: around the f64 underflow of `h` at `z ≈ −38.5`.
    UnderflowEdge,
    /// `−37 ≤ z < −5`: the left tail, where `zΦ(z) + φ(z)` cancels catastrophically.
    LeftTail,
    /// `−5 ≤ z < −0.5`: around `z ≈ −1`, where typical BO candidates sit.
    NearMinusOne,
    /// `−0.5 ≤ z ≤ 0.5`.
    Central,
    /// `0.5 < z ≤ 1e4`.
    Right,
    /// `1e4 < z ≤ 1e6`.
    FarRight,
    /// `z > 1e6`.
    ExtremeRight,
    /// `σ = 0`: EI is `max(y − μ, 0)`, PBGI is `μ + cost`.
    SigmaZero,
}

impl Region {
    /// Every region, in table order.
    pub const ALL: [Region; 11] = [
        Region::ExtremeLeft,
        Region::FarLeft,
        Region::Underflowed,
        Region::UnderflowEdge,
        Region::LeftTail,
        Region::NearMinusOne,
        Region::Central,
        Region::Right,
        Region::FarRight,
        Region::ExtremeRight,
        Region::SigmaZero,
    ];

    /// The region containing `z` (`None` means `σ = 0`). `z = ±inf` (from an overflowing
    /// `(y − μ)/σ`) falls in the extreme regions; NaN cannot arise from arguments in the domain.
    pub fn of_z(z: Option<f64>) -> Region {
        let Some(z) = z else {
            return Region::SigmaZero;
        };
        match z {
            z if z < -1e6 => Region::ExtremeLeft,
            z if z < -1e4 => Region::FarLeft,
            z if z < -40.0 => Region::Underflowed,
            z if z < -37.0 => Region::UnderflowEdge,
            z if z < -5.0 => Region::LeftTail,
            z if z < -0.5 => Region::NearMinusOne,
            z if z <= 0.5 => Region::Central,
            z if z <= 1e4 => Region::Right,
            z if z <= 1e6 => Region::FarRight,
            _ => Region::ExtremeRight,
        }
    }

    /// The region of one input row; `oracle_value` is the oracle's first output (used for PBGI
    /// only, whose `u = (g − μ)/σ` comes from the index `g`). `ln Φ(x)` is placed by `x`;
    /// gradients by the variable of the function they differentiate (for `pbgi-grad`, whose
    /// outputs do not include `g`, by `cost/σ`: [`Region::of_pbgi_ratio`]).
    pub fn of_row(function: Function, args: &[f64], oracle_value: f64) -> Region {
        let z = match function {
            Function::H | Function::LnH | Function::LogNdtr => Some(args[0]),
            Function::Ei
            | Function::LogEi
            | Function::LogEipc
            | Function::LogEipcInv
            | Function::LogEipcExp
            | Function::EiGrad
            | Function::LogEiGrad => {
                let (mu, sigma, y) = (args[0], args[1], args[2]);
                (sigma > 0.0).then(|| (y - mu) / sigma)
            }
            Function::Pbgi | Function::PbgiLognormal => {
                let (mu, sigma) = (args[0], args[1]);
                (sigma > 0.0).then(|| (oracle_value - mu) / sigma)
            }
            Function::PbgiGrad => return Region::of_pbgi_ratio(args[1], args[2]),
        };
        Region::of_z(z)
    }

    /// The region of PBGI's `u` found from `cost/σ` alone: `h(u) = cost/σ` and `h` is
    /// increasing, so `u < b` exactly when `ln(cost/σ) < ln h(b)`. Compared in logarithms
    /// (`ln cost − ln σ`), since `cost/σ` may lie outside f64's range; a point within rounding of
    /// a boundary may fall on either side of it.
    pub fn of_pbgi_ratio(sigma: f64, cost: f64) -> Region {
        if sigma <= 0.0 {
            return Region::SigmaZero;
        }
        let ln_ratio = cost.ln() - sigma.ln();
        let below = |b: f64| ln_ratio < pbgi_fast::ln_h(b);
        let at_most = |b: f64| ln_ratio <= pbgi_fast::ln_h(b);
        match () {
            _ if below(-1e6) => Region::ExtremeLeft,
            _ if below(-1e4) => Region::FarLeft,
            _ if below(-40.0) => Region::Underflowed,
            _ if below(-37.0) => Region::UnderflowEdge,
            _ if below(-5.0) => Region::LeftTail,
            _ if below(-0.5) => Region::NearMinusOne,
            _ if at_most(0.5) => Region::Central,
            _ if at_most(1e4) => Region::Right,
            _ if at_most(1e6) => Region::FarRight,
            _ => Region::ExtremeRight,
        }
    }

    /// The label with the region's variable called `variable` (`u` for PBGI's regions, which
    /// are regions of the standardised index): each label names its variable once, as `z`.
    pub fn label_of(self, variable: &str) -> String {
        self.label().replacen('z', variable, 1)
    }

    /// The label printed in tables (in the variable `z`).
    pub fn label(self) -> &'static str {
        match self {
            Region::ExtremeLeft => "z < -1e6",
            Region::FarLeft => "-1e6 <= z < -1e4",
            Region::Underflowed => "-1e4 <= z < -40",
            Region::UnderflowEdge => "-40 <= z < -37",
            Region::LeftTail => "-37 <= z < -5",
            Region::NearMinusOne => "-5 <= z < -0.5",
            Region::Central => "-0.5 <= z <= 0.5",
            Region::Right => "0.5 < z <= 1e4",
            Region::FarRight => "1e4 < z <= 1e6",
            Region::ExtremeRight => "z > 1e6",
            Region::SigmaZero => "sigma = 0",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boundaries_fall_where_documented() {
        assert_eq!(Region::of_z(Some(-38.5)), Region::UnderflowEdge);
        assert_eq!(Region::of_z(Some(-40.0)), Region::UnderflowEdge);
        assert_eq!(Region::of_z(Some(-37.0)), Region::LeftTail);
        assert_eq!(Region::of_z(Some(-1.0)), Region::NearMinusOne);
        assert_eq!(Region::of_z(Some(0.5)), Region::Central);
        assert_eq!(Region::of_z(Some(f64::NEG_INFINITY)), Region::ExtremeLeft);
        assert_eq!(Region::of_z(Some(f64::INFINITY)), Region::ExtremeRight);
        assert_eq!(Region::of_z(None), Region::SigmaZero);
    }

    #[test]
    fn pbgi_ratio_regions_agree_with_the_index() {
        // PBGI(0,1,0.1) = -0.9023463475100345 (MATH.md): u = g, in -5..-0.5; PBGI(0,1,1e-4) =
        // -3.363...; cost/sigma = h(0) = 1/sqrt(2 pi) gives u = 0.
        assert_eq!(Region::of_pbgi_ratio(1.0, 0.1), Region::NearMinusOne);
        assert_eq!(Region::of_pbgi_ratio(2.0, 2e-4), Region::NearMinusOne);
        assert_eq!(
            Region::of_pbgi_ratio(3.0, 3.0 * 0.3989422804014327),
            Region::Central
        );
        // h(u) ≈ u for large u; ln h(-37) ≈ -692.6, ln h(-40) ≈ -808.3 (ln φ(z) − 2 ln|z|);
        // ln(7e-318) ≈ -730. cost/sigma >= 5e-324/f64::MAX: u never reaches -1e4.
        assert_eq!(Region::of_pbgi_ratio(1.0, 5e5), Region::FarRight);
        assert_eq!(Region::of_pbgi_ratio(1e10, 7e-308), Region::UnderflowEdge);
        assert_eq!(Region::of_pbgi_ratio(1e300, 1e-300), Region::Underflowed);
        assert_eq!(Region::of_pbgi_ratio(0.0, 1.0), Region::SigmaZero);
    }

    #[test]
    fn pbgi_region_comes_from_the_index() {
        // g = mu + sigma*u with u = -38: the underflow edge.
        assert_eq!(
            Region::of_row(Function::Pbgi, &[10.0, 2.0, 1e-300], 10.0 - 76.0),
            Region::UnderflowEdge
        );
        assert_eq!(
            Region::of_row(Function::Ei, &[1.0, 0.0, 3.0], 2.0),
            Region::SigmaZero
        );
    }
}

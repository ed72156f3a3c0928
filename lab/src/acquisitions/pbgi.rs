//! PBGI, the Pandora's Box Gittins index acquisition (PBGI paper eq. 6, MATH.md "PBGI"): the
//! exact pruned argmin over the unevaluated points ([`crate::bo::pbgi_scan`], which the
//! stopping rules' `min PBGI` shares).
use crate::bo::{Acquisition, StepView};
use rand_chacha::ChaCha8Rng;

/// The unevaluated point of `step` with the smallest PBGI index, and that index
/// ([`crate::bo::pbgi_scan::pbgi_argmin`]: exact, pruned; lowest domain index on ties).
pub fn pbgi_argmin(step: &StepView) -> Option<(usize, f64)> {
    crate::bo::pbgi_scan::pbgi_argmin(step.mean, step.sd, step.cost, step.evaluated)
}

/// PBGI (Pandora's Box Gittins index; PBGI paper eq. 6, MATH.md "PBGI"): the unevaluated
/// point with the smallest index `g(x)`, `EI(μ(x), σ(x); g) = λ·c(x)`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Pbgi;

impl Acquisition for Pbgi {
    fn name(&self) -> String {
        "PBGI".into()
    }

    fn choose(&self, step: &StepView, _rng: &mut ChaCha8Rng) -> Option<usize> {
        pbgi_argmin(step).map(|(i, _)| i)
    }
}

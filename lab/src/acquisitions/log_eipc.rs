//! LogEIPC, log expected improvement per unit cost (stopping paper eq. 4).
use super::argmin_unevaluated;
use crate::bo::{Acquisition, StepView};
use rand_chacha::ChaCha8Rng;

/// LogEIPC (stopping paper eq. 4, MATH.md): the unevaluated point with the largest
/// `ln EI(μ(x), σ(x); y*) - ln(λ·c(x))`.
#[derive(Clone, Copy, Debug, Default)]
pub struct LogEipc;

impl Acquisition for LogEipc {
    fn name(&self) -> String {
        "LogEIPC".into()
    }

    fn choose(&self, step: &StepView, _rng: &mut ChaCha8Rng) -> Option<usize> {
        argmin_unevaluated(step, |i| {
            -pbgi_fast::log_eipc(step.mean[i], step.sd[i], step.y_best, step.cost[i])
        })
    }
}

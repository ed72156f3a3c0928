//! Thompson sampling on the finite domain: one exact joint posterior draw per step.
use super::argmin_unevaluated;
use crate::bo::{Acquisition, StepView};
use rand_chacha::ChaCha8Rng;

/// Thompson sampling: one exact joint posterior draw, minimised over the unevaluated points.
/// **Outside Theorem 1** (no `EI ≥ c` guarantee), and cost-unaware.
#[derive(Clone, Copy, Debug, Default)]
pub struct Thompson;

impl Acquisition for Thompson {
    fn name(&self) -> String {
        "TS".into()
    }

    fn choose(&self, step: &StepView, rng: &mut ChaCha8Rng) -> Option<usize> {
        // The finite-domain loop always provides a sampler; without one there is no draw.
        let sampler = step.posterior?;
        let mut path = Vec::with_capacity(sampler.n_points());
        sampler.sample_paths(rng, 1, &mut path);
        argmin_unevaluated(step, |i| path[i])
    }
}

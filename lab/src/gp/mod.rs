//! The Gaussian-process model on a finite domain: kernel, domain, the prior `N(μ, K + εI)`
//! with exact joint sampling, the exact noiseless posterior updated one observation at a
//! time, and the fit of the model's length scale and output scale by maximum marginal
//! likelihood (`marginal_likelihood`).
pub mod circulant;
pub mod domain;
pub mod kernel;
pub mod marginal_likelihood;
pub mod posterior;
pub mod prior;

pub use domain::Domain;
pub use kernel::{Kernel, KernelKind};
pub use marginal_likelihood::MllFit;
pub use posterior::{PathBank, Posterior};
pub use prior::Problem;

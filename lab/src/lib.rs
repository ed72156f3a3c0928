//! `pbgi-lab`: the simulation lab of the pbgi project.
//!
//! - [`gp`]: the GP prior on a finite domain (exact joint sampling: circulant embedding on a
//!   regular grid, a Cholesky factor otherwise) and the exact noiseless posterior;
//! - [`continuous`]: the continuous cube `[0, 1]^d` (the 8-D setting): RFF objectives, the
//!   posterior with gradients, projected L-BFGS, multi-start acquisition search, its BO loop;
//! - [`bo`]: the BO loop, costs, the scrambled-Sobol initial design, and the view of a step
//!   that acquisitions and stopping rules read;
//! - [`acquisitions`]: PBGI, LogEIPC, LCB, Thompson sampling, and their name registry;
//! - [`rules`]: the stopping rules, one file each, and their registry;
//! - [`study`]: what both studies share: configuration pieces, seeding, statistics, shards,
//!   progress display, figures, output files;
//! - [`theorem1`]: Theorem 1 on trial (`pbgi validate`);
//! - [`experiment`]: the stopping paper's stopping-rule comparison (`pbgi experiment`).
//!
//! Minimisation throughout (MATH.md).
pub mod acquisitions;
pub mod bo;
pub mod continuous;
pub mod experiment;
pub mod gp;
pub mod rules;
pub mod study;
pub mod theorem1;

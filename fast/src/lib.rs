//! Fast f64 expected improvement, LogEI, the Pandora's Box Gittins index (PBGI) and the
//! PBGI/LogEIPC stopping rule, accurate to a few ulp (formulas and conventions: `MATH.md`,
//! minimisation throughout).
//!
//! Every function is a free `f64` function; invalid input gives NaN (never a panic), slice
//! forms return [`SliceLengthError`] on mismatched lengths. Every accuracy claim is a row of
//! the one tolerance table, `conformance/src/tolerances.rs` (the bound, why it holds, and the
//! maximum measured against the MPFR reference `pbgi-reference` per region, on the scalar and
//! the slice paths); the error analysis is `proofs-notes/fast-error-analysis.md`.
//!
//! The exact products behind that accuracy use a hardware FMA where the CPU has one: the
//! public scalar functions are compiled twice, with and without FMA, and choose at run time
//! (x86-64; a cached check), or always with it when compiled with `-C target-feature=+fma`.
//! Dekker's splitting otherwise. Both are exact, so both give the same bits (tested in
//! `fast/src/fma_tests.rs`).
//!
//! Every `*_slice` function except [`log_ndtr_slice`] computes four points at a time, with AVX2
//! and FMA when the CPU has them (and AVX-512VL's registers where it has that too; chosen at
//! run time, [`simd_path`]) and the baseline instruction set otherwise; [`ei_slice`],
//! [`log_ei_slice`] and [`log_eipc_slice`] eight at a time where the CPU has AVX-512F. On every
//! path they return the bits of the scalar functions. The `*_slice_per_point` forms of the EI
//! slices ([`ei_slice_per_point`], [`log_ei_slice_per_point`], [`log_eipc_slice_per_point`],
//! [`ei_grad_slice_per_point`], [`log_ei_grad_slice_per_point`]) take one threshold `y` per
//! point instead of one for all, on the same lanes, with the same guarantee.
//!
//! # Examples
//! The main functions' documentation ends with one each ([`ei`](ei()), [`log_ei`](log_ei()),
//! [`log_eipc`](log_eipc()), [`pbgi`](pbgi()), [`ei_grad`], [`pbgi_grad`], [`StoppingHelper`]),
//! its expected value from a closed form or MATH.md's "Sanity values".
// `unsafe` only to call the AVX2+FMA (and AVX-512) compilations of a kernel after checking
// that the CPU has them (`lanes::lanes_entry`), and for the intrinsics of the lane types those
// compilations use (`lanes::Avx4`, `lanes::Avx8`); and to call the FMA compilation of a scalar
// function after checking that the CPU has FMA (`dd::fma_dispatch`).
#![deny(unsafe_code)]
#![warn(missing_docs)]

mod bisection;
mod consts;
mod dd;
mod domain;
mod ei;
mod ei_lanes;
mod exp_reduced;
#[cfg(test)]
mod fma_tests;
mod gradients;
mod gradients_lanes;
mod h;
mod lanes;
#[cfg(test)]
mod lanes_tests;
mod log_ei;
mod log_ei_lanes;
mod log_eipc;
mod log_ndtr;
mod pbgi;
mod pbgi_lanes;
mod pbgi_start_coeffs;
mod scaled_h;
mod schedule;
mod slice_length;
mod standardize;
mod stopping;
mod tail;
mod tail_coeffs;
mod tail_lanes;

pub use bisection::pbgi_bisection100;
pub use domain::{check_argument, check_arguments, DomainError};
pub use ei::ei;
pub use ei_lanes::{ei_slice, ei_slice_per_point};
pub use gradients::{ei_grad, log_ei_grad, pbgi_grad, EiGrad, PbgiGrad};
pub use gradients_lanes::{
    ei_grad_slice, ei_grad_slice_per_point, log_ei_grad_slice, log_ei_grad_slice_per_point,
    pbgi_grad_slice,
};
pub use h::{h, ln_h};
pub use lanes::simd_path;
pub use log_ei::log_ei;
pub use log_ei_lanes::{
    log_ei_slice, log_ei_slice_per_point, log_eipc_slice, log_eipc_slice_per_point,
};
pub use log_eipc::{log_eipc, log_eipc_exp, log_eipc_inv};
pub use log_ndtr::{log_ndtr, log_ndtr_slice};
pub use pbgi::{pbgi, pbgi_lognormal, pbgi_small_cost};
pub use pbgi_lanes::pbgi_slice;
pub use schedule::{budget_lambda, PbgiDSchedule};
pub use slice_length::SliceLengthError;
pub use stopping::{
    max_log_eipc, pbgi_gap, stop_by_log_eipc, stop_by_pbgi, Candidate, StoppingHelper,
};

pub mod pandora;

/// The fitted coefficient tables of the kernels, for ports to other array libraries
/// (`fast/src/tables.rs`). Not a stable API.
#[doc(hidden)]
pub mod tables;

//! The fitted coefficient tables of the kernels, for ports of the same algorithms to other
//! array libraries: `pbgi.torch` reads them through the Python package, so that its tables are
//! these bits and never a copy. Not a stable API: the tables change whenever the fits in
//! `fast/tools/` are rerun.
pub use crate::pbgi::{P_SERIES, S_SERIES};
pub use crate::pbgi_start_coeffs::{R_BREAKS, U_OF_R, X_OF_V};
pub use crate::tail_coeffs::{ASYMPTOTIC, SMALL, W16, W32, W8};

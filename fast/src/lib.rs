//! Fast f64 implementations of the quantities in `MATH.md`.
//!
//! NOTE (skeleton): the API is agreed in issue 3; the implementation lands with it.

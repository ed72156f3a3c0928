//! Fast f64 implementations of the quantities in `MATH.md`.

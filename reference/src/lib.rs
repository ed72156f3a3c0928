//! Certified high-precision reference (MPFR via `rug`) for the quantities in `MATH.md`.

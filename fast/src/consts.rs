//! Shared constants (correctly rounded, with low parts where a double-double is needed).

/// `1/√(2π)` rounded to nearest.
pub(crate) const FRAC_1_SQRT_2PI: f64 = 0.398_942_280_401_432_7;
/// `1/√(2π) - FRAC_1_SQRT_2PI`.
pub(crate) const FRAC_1_SQRT_2PI_LO: f64 = -2.492_327_202_277_73e-17;
/// `ln 2` split for Cody–Waite reduction: `LN2_HI` has 32 significant bits, so `n·LN2_HI` is
/// exact for `|n| < 2^21`.
pub(crate) const LN2_HI: f64 = 6.931_471_803_691_238_164_90e-1;
pub(crate) const LN2_LO: f64 = 1.908_214_929_270_587_700_02e-10;
/// `1/ln 2`.
pub(crate) const INV_LN2: f64 = core::f64::consts::LOG2_E;

//! Counters of the work one call does, for tests that bound work without timing it: certified
//! comparisons and evaluations of the PBGI solver, the largest working precision of a Ziv loop
//! or comparison, and the largest precision of an exact sum (`arith::interval::exact_sum`).

use std::cell::Cell;

/// Work done by the calls inside one [`measure`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Work {
    /// Certified comparisons `EI(μ, σ; g) ≷ c` and certified Newton evaluations of
    /// `EI(μ, σ; g) - c` (each at one working precision).
    pub comparisons: u64,
    /// Largest working precision used, bits.
    pub max_working_bits: u32,
    /// Largest precision of an exact sum, bits (the exponent span of its terms).
    pub max_exact_bits: u32,
}

thread_local! {
    static WORK: Cell<Work> = Cell::new(Work::default());
}

/// Runs `f` and returns its result with the work it did in this thread.
pub fn measure<T>(f: impl FnOnce() -> T) -> (T, Work) {
    WORK.with(|w| w.set(Work::default()));
    let out = f();
    (out, WORK.with(Cell::get))
}

fn update(change: impl FnOnce(&mut Work)) {
    WORK.with(|w| {
        let mut v = w.get();
        change(&mut v);
        w.set(v);
    });
}

/// One certified comparison at `bits` of working precision.
pub(crate) fn comparison(bits: u32) {
    update(|w| {
        w.comparisons += 1;
        w.max_working_bits = w.max_working_bits.max(bits);
    });
}

/// One Ziv step at `bits` of working precision.
pub(crate) fn working(bits: u32) {
    update(|w| w.max_working_bits = w.max_working_bits.max(bits));
}

/// One exact sum at `bits` of precision.
pub(crate) fn exact(bits: u32) {
    update(|w| w.max_exact_bits = w.max_exact_bits.max(bits));
}

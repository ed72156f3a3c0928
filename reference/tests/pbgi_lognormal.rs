//! Source of truth: closed forms and mpmath for PBGI with a log-normal cost replaced by its mean
//! `E[c] = exp(m + s²/2)`: the error that names the larger term when `|m + s²/2|` leaves MPFR's
//! exponent range, the enclosure `μ + c - σ·h(0) < g < μ + c` beyond `c = 2^1130`, and the
//! outer loop that refines a cost enclosed too coarsely at the first precision (`σ = 0`: the
//! index is `μ + E[c]`). Found by mutation testing (`proofs-notes/mutants.md`).

use pbgi_reference::{pbgi_lognormal, pbgi_lognormal_with, Accuracy, Error, Float};

#[test]
fn a_log_normal_mean_beyond_mpfr_s_range_names_the_larger_term() {
    // `E[c] = exp(m + s²/2)` with `|m + s²/2|` beyond MPFR's widened exponent range (about
    // `3e18`): overflow (`m = 1e300`, or `s²/2 = 5e309` against `m = -1e300`) or underflow
    // (`m = -1e300`). The error names the term of larger magnitude, with its value.
    for (m, s, name, value) in [
        (1e300, 0.0, "m", 1e300),
        (-1e300, 0.0, "m", -1e300),
        (0.0, 1e155, "s", 1e155),
        (-1e300, 1e155, "s", 1e155),
    ] {
        match pbgi_lognormal(0.0, 1.0, m, s) {
            Err(Error::InvalidInput {
                name: n, value: v, ..
            }) => assert!(n == name && v == value, "m = {m:e}, s = {s:e}: {n} = {v:e}"),
            other => panic!("m = {m:e}, s = {s:e}: {other:?}"),
        }
    }
}

#[test]
fn a_log_normal_cost_beyond_2_to_1130_is_enclosed_with_the_root() {
    // c = e^784 = 3.068…e340 ≈ 2^1131.07 (mpmath, 60 digits): beyond 2^1130 the index is
    // +inf and its enclosure comes from `μ + c - σ·h(0) < g < μ + c` (the root has u > 0, where
    // `EI = (g - μ) + σ·h(-u)` with `0 < h(-u) < h(0) < 0.4`). With |μ| near 2^1024 that
    // enclosure is wider than the cost's rounding (`2^-144·c ≈ 2^987`): the returned ends must
    // still hold `g`, i.e. `lower ≤ μ + c` and `upper ≥ μ + c - 0.4σ`.
    let c = "3.06813038822832986815535509203005964114629022184457790478766e+340";
    let c = Float::with_val(2000, Float::parse(c).unwrap());
    let tol = Float::with_val(2000, &c >> 140u32); // beyond the decimal's 60 digits
    for mu in [-1.6e308, 1.6e308] {
        let r = pbgi_lognormal(mu, 1.0, 784.0, 0.0).unwrap();
        assert_eq!(r.value, f64::INFINITY, "μ = {mu:e}");
        let (above, below) = (
            Float::with_val(2000, &c + mu) + &tol,
            Float::with_val(2000, &c + mu) - &tol - 0.4,
        );
        assert!(r.lower <= above, "μ = {mu:e}: lower end above μ + c");
        assert!(r.upper >= below, "μ = {mu:e}: upper end below μ + c - 0.4σ");
    }
}

#[test]
fn a_log_normal_cost_enclosed_too_coarsely_at_first_is_refined() {
    // σ = 0: the index is μ + c exactly, here c = exp(m + s²/2) with m = -1e15 and s = 2^-60:
    // `m + s²/2 = -1e15 + 2^-121` spans 171 bits, so at the first precision (128 + 16 bits)
    // its rounding (2^-94 absolute) leaves c with a relative width of about 2^-94, short of the
    // 2^-100 target: only the outer loop's second pass (256 bits) settles it. The value
    // `e^(-1e15 + 2^-121)` is far below every double: +0, enclosed in `ln` by the closed form.
    let s = 2f64.powi(-60);
    let r = pbgi_lognormal(0.0, 0.0, -1e15, s).unwrap();
    assert_eq!(r.value.to_bits(), 0.0f64.to_bits());
    let exact_ln = Float::with_val(400, -1e15) + (Float::with_val(400, 1) >> 121u32);
    assert!(r.lower > 0);
    assert!(Float::with_val(400, r.lower.ln_ref()) <= exact_ln);
    assert!(Float::with_val(400, r.upper.ln_ref()) >= exact_ln);
    let width = Float::with_val(64, &r.upper - &r.lower) / Float::with_val(64, &r.lower);
    assert!(width <= Float::with_val(64, 1) >> 100u32);
    // With the precision capped at the first pass, the same call reports the cap.
    let capped = Accuracy {
        start_bits: 128,
        max_bits: 128,
        enclosure_bits: 100,
    };
    match pbgi_lognormal_with(0.0, 0.0, -1e15, s, &capped) {
        Err(Error::PrecisionExhausted {
            function: "pbgi_lognormal",
            max_bits: 128,
        }) => {}
        other => panic!("{other:?}"),
    }
}

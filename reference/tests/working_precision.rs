//! Source of truth: mpmath's values (60 to 100 digits; the enclosure must contain the exact
//! value) and the work counters of `pbgi_reference::work`. The Ziv loop's working precision:
//! an argument carried with enough bits beyond it that EI, LogEI and LogEIPC settle at their
//! first precision (`x = |y - μ|/σ` with `2·(log2 |y - μ| - log2 σ) + 48` extra bits, a ratio
//! `(y - μ)/c` near 1 at `p + 8` bits), and a coarse enclosure target that still waits for the
//! correctly rounded value. Found by mutation testing (`proofs-notes/mutants.md`).

use pbgi_reference::work::measure;
use pbgi_reference::{ei, ei_with, log_ei, log_eipc, Accuracy, Certified, Float};

/// `lower ≤ v + tol` and `upper ≥ v - tol` with `v` a decimal from mpmath (computed with
/// 60 to 80 digits and printed to 50) and `tol = 10^-45·|v|`: the enclosure contains the exact
/// value up to the decimal's own rounding.
fn contains_decimal(c: &Certified, decimal: &str) -> bool {
    let v = Float::with_val(256, Float::parse(decimal).unwrap());
    let tol =
        Float::with_val(256, v.abs_ref()) * Float::with_val(256, Float::parse("1e-45").unwrap());
    let (lo, hi) = (
        Float::with_val(256, &v - &tol),
        Float::with_val(256, &v + &tol),
    );
    c.lower <= hi && c.upper >= lo
}

#[test]
fn ei_carries_the_distance_with_enough_bits_to_settle_at_its_first_precision() {
    // `x = |y - μ|/σ` is enclosed with `2·(log2 |y - μ| - log2 σ) + 48` bits beyond the
    // working precision (the relative sensitivity of `h(-x)` to `x` is about `x²` for large
    // `x`, and the Taylor form's interval evaluation amplifies `x`'s width by about `e^{x²}`).
    // With those bits EI settles at its first working precision, `enclosure_bits + 3 = 103`
    // (`Accuracy::default`). Points where fewer bits would not: `x = 1.9` with `|y - μ|` and σ
    // of the same binary exponent (no bits from the logarithms, 48 in all), and `x ≈ 6` (the
    // end of the Taylor form, 54 bits); `y - μ` and σ chosen so that their quotient is not a
    // double (an exact `x` has no rounding to amplify). Values: mpmath's
    // `σ·(φ(z) + z·Φ(z))`, `z = (y - μ)/σ`, 60 digits.
    for (mu, sigma, y, exact) in [
        (
            0.0,
            1.1,
            -1.9,
            "0.018817490397438834053124187536272167396057811549889",
        ),
        (
            0.0,
            0.7,
            -4.2,
            "1.0944988571796720487721357739923911093120118918091e-10",
        ),
    ] {
        let (r, work) = measure(|| ei(mu, sigma, y).unwrap());
        assert_eq!(work.max_working_bits, 103, "ei({mu}, {sigma}, {y})");
        assert!(contains_decimal(&r, exact), "ei({mu}, {sigma}, {y})");
    }
    // EI = 2^-30·h(-2^30) ≈ exp(-5.8e17), inside MPFR's widened range (below f64's: value 0);
    // `x` enclosed with 2·30 + 48 bits (its exponent minus σ's). It needs more than the first
    // precision (`e^{-x²/2}` with `x²/2 = 2^59`), so only its enclosure is checked, against
    // mpmath's `ln(σ·(φ(z) + z·Φ(z)))` at 100 digits (60 lose too many to the cancellation).
    let r = ei(0.0, 2f64.powi(-30), -1.0).unwrap();
    assert!(r.value == 0.0 && r.lower > 0);
    let ln_lower = Float::with_val(256, r.lower.ln_ref());
    let ln_upper = Float::with_val(256, r.upper.ln_ref());
    let ln_exact = Float::with_val(
        256,
        Float::parse("-576460752303423551.302184783599750591933305881606719400374974250622844382574918693944529401834")
            .unwrap(),
    );
    assert!(ln_lower <= ln_exact && ln_upper >= ln_exact);
}

#[test]
fn log_ei_far_left_carries_the_distance_with_more_bits_than_the_working_precision() {
    // x = 2^40: `x` is enclosed with 2·40 + 48 = 128 bits beyond the working precision (103),
    // more than the working precision itself. ln EI = ln h(-2^40) ≈ -2^79 - 56.37 (mpmath,
    // 80 digits, `ln(φ(x) - x·Q(x))`).
    let r = log_ei(0.0, 1.0, -(2f64.powi(40))).unwrap();
    assert!(contains_decimal(
        &r,
        "-604462909807314587353144.37071297800029749515890193"
    ));
    assert_eq!(r.value, -(2f64.powi(79)));
}

#[test]
fn log_eipc_of_a_ratio_near_one_settles_at_its_first_precision() {
    // σ = 0: LogEIPC = ln((y - μ)/c), the ratio enclosed at `p + 8` bits before its logarithm.
    // Here the ratio `(3 + 2^-28)/3 = 1 + 2^-28/3` is not a double (its binary expansion does
    // not end, nor thin out) and its logarithm is about 2^-29.6, so the ratio's rounding is
    // amplified 2^29.6-fold relative: at 128 + 8 bits the enclosure meets the 2^-100 target
    // at the first precision (128, `Accuracy::default`). Exact value: mpmath, 60 digits.
    let (r, work) = measure(|| log_eipc(0.0, 0.0, 3.0 + 2f64.powi(-28), 3.0).unwrap());
    assert_eq!(work.max_working_bits, 128);
    assert!(contains_decimal(
        &r,
        "1.241763432049649809926342380710946910956845578798e-9"
    ));
}

/// The f64 nearest to an mpmath decimal (ties to even; the decimals here are far from ties).
fn rounded(decimal: &str) -> f64 {
    Float::with_val(256, Float::parse(decimal).unwrap()).to_f64()
}

#[test]
fn a_coarse_enclosure_target_still_gives_the_correctly_rounded_value() {
    // `enclosure_bits = 1` with the first precision at 32 bits: the enclosure meets the width
    // target at once, but its ends do not round to one double before 53 bits and more, so the
    // value must wait for the rounding to be decided. Values: mpmath's `σ·(φ(z) + z·Φ(z))`,
    // 60 digits. The second has EI = 1 + t, t ≈ 5e-12 (below 2^-31): at 32 bits the enclosure
    // is `(1, 1 + 2^-31]`, its lower end open (EI > y - μ), and the value is not 1.
    let coarse = Accuracy {
        start_bits: 32,
        max_bits: 8192,
        enclosure_bits: 1,
    };
    for (mu, sigma, y, exact) in [
        (
            0.0,
            1.1,
            -1.9,
            "0.018817490397438834053124187536272167396057811549889",
        ),
        (
            0.0,
            0.16,
            1.0,
            "1.0000000000050139483830475379368668417797566115718",
        ),
    ] {
        let r = ei_with(mu, sigma, y, &coarse).unwrap();
        assert_eq!(r.value, rounded(exact), "ei({mu}, {sigma}, {y})");
        assert!(contains_decimal(&r, exact), "ei({mu}, {sigma}, {y})");
    }
}

//! Cases that decide what a mutant of the reference's code would change (mutation testing:
//! `proofs-notes/mutants.md`), each with its answer in closed form or from mpmath (containment
//! of the exact value), or with the work a call is documented to take.
use pbgi_reference::work::measure;
use pbgi_reference::{
    ei, ei_with, log_ei, log_eipc, log_eipc_exp, log_eipc_inv, pbgi, pbgi_bisection_with,
    pbgi_lognormal, pbgi_lognormal_with, stop_decision, Accuracy, Candidate, Certified, Error,
    Float,
};

#[test]
fn smallest_pbgi_on_a_tie_is_the_first_index() {
    // σ = 0: PBGI = μ + c exactly, 1 + 1/2 = 1/2 + 1 = 3/2 (both exact in binary).
    let tied = [
        Candidate {
            mu: 1.0,
            sigma: 0.0,
            cost: 0.5,
        },
        Candidate {
            mu: 0.5,
            sigma: 0.0,
            cost: 1.0,
        },
    ];
    assert_eq!(stop_decision(&tied, 2.0).unwrap().min_pbgi, Some(0));
    // Identical σ > 0 candidates: the same certified PBGI, the first is reported.
    let same = Candidate {
        mu: 0.0,
        sigma: 1.0,
        cost: 0.1,
    };
    assert_eq!(
        stop_decision(&[same, same, same], 0.0).unwrap().min_pbgi,
        Some(0)
    );
}

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
fn a_zero_value_has_the_sign_of_the_exact_value() {
    // σ = 0, y - μ = 1: LogEIPC-exp = ln 1 - (m + s²/2) = -s²/2 and LogEIPC-inv = +s²/2, here
    // ∓2^-1201 exactly (a point enclosure), below every double: correctly rounded, -0 and +0.
    let s = 2f64.powi(-600);
    let tiny = Float::with_val(53, 1) >> 1201u32;
    let exp = log_eipc_exp(0.0, 0.0, 1.0, 0.0, s).unwrap();
    assert_eq!(exp.value.to_bits(), (-0.0f64).to_bits());
    assert!(exp.lower == exp.upper && exp.lower == -tiny.clone());
    let inv = log_eipc_inv(0.0, 0.0, 1.0, 0.0, s).unwrap();
    assert_eq!(inv.value.to_bits(), 0.0f64.to_bits());
    assert!(inv.lower == inv.upper && inv.lower == tiny);
    // σ = 2^-40, y - μ = 1, m = s = 0: both forms are ln EI = ln(1 + t), t = σ·h(-2^40) > 0,
    // positive and below every double (t ≈ e^(-2^79)): +0. The enclosure's lower end is
    // `0 - 0` rounded down, which is -0 in MPFR, and open (the exact value exceeds it).
    // (No `{:?}` of the enclosure in the messages: its upper end's exponent is near -2^79.)
    for (name, r) in [
        (
            "exp",
            log_eipc_exp(0.0, 2f64.powi(-40), 1.0, 0.0, 0.0).unwrap(),
        ),
        (
            "inv",
            log_eipc_inv(0.0, 2f64.powi(-40), 1.0, 0.0, 0.0).unwrap(),
        ),
        ("c = 1", log_eipc(0.0, 2f64.powi(-40), 1.0, 1.0).unwrap()),
    ] {
        assert_eq!(r.value.to_bits(), 0.0f64.to_bits(), "{name}: {}", r.value);
        assert!(r.lower <= 0 && r.upper > 0, "{name}");
    }
}

#[test]
fn values_next_to_the_overflow_threshold_round_by_the_side_they_lie_on() {
    // T = 2^1024 - 2^970, the midpoint between f64::MAX and 2^1024: T itself rounds to
    // infinity (ties to even), every real of smaller magnitude to ±f64::MAX. With y - μ = 1,
    // m = (2^53 - 2^28 - 3)·2^970 and s = (2^26 + 1)·2^486, m + s²/2 = T exactly, so
    // LogEIPC-exp = -T with σ = 0, and -T + ln(1 + t) with σ = 2^-40 (t = σ·h(-2^40) > 0, an
    // open lower end at -T); LogEIPC-inv with -m: +T and T + ln(1 + t).
    let m = (2f64.powi(53) - 2f64.powi(28) - 3.0) * 2f64.powi(970);
    let s = (2f64.powi(26) + 1.0) * 2f64.powi(486);
    let t = (Float::with_val(64, 1) << 1024u32) - (Float::with_val(64, 1) << 970u32);
    let sigma = 2f64.powi(-40);
    let point = log_eipc_exp(0.0, 0.0, 1.0, m, s).unwrap();
    assert_eq!(point.value, f64::NEG_INFINITY);
    assert!(point.lower == point.upper && point.lower == -t.clone());
    let open = log_eipc_exp(0.0, sigma, 1.0, m, s).unwrap();
    assert_eq!(open.value, -f64::MAX);
    assert!(open.lower == -t.clone() && open.upper > -t.clone());
    let point = log_eipc_inv(0.0, 0.0, 1.0, -m, s).unwrap();
    assert_eq!(point.value, f64::INFINITY);
    assert!(point.lower == point.upper && point.lower == t);
    let open = log_eipc_inv(0.0, sigma, 1.0, -m, s).unwrap();
    assert_eq!(open.value, f64::INFINITY);
    assert!(open.lower == t && open.upper > t);
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

#[test]
fn the_bisection_settles_in_a_few_comparisons_from_its_proposals() {
    // `pbgi_bisection_with` brackets the root from the asymptotics, then splits at points
    // proposed by a regula-falsi estimate of `ln EI(g) - ln c` (or, for a root with `u > 0`
    // whose tail the logarithm cannot see, one step of the fixed-point map): the rounding-cell
    // edges of its nearest double and `±2^-(bits+2)` around it. With a good estimate that takes
    // a handful of certified comparisons; without one, the bisection over the ordered doubles
    // and then over MPFR midpoints takes more than a hundred. Values: the fast path's (an
    // independent certified path, `tests/pbgi_fast_path.rs`).
    for (mu, sigma, cost) in [
        (0.0, 1.0, 0.1),
        (0.0, 1.0, 1e-4),
        (0.3, 1.2, 0.01),
        (1e6, 1.0, 1e-3),
        (0.0, 1.0, 0.5),
        (0.0, 1.0, 10.0),
        (0.0, 1.0, 40.0),
        (0.0, 1.0, 1e3),
        (0.0, 1.0, 1e10),
        (0.0, 1.0, 1e-300),
        (5.0, 1e-3, 2.0),
    ] {
        let (r, work) = measure(|| pbgi_bisection_with(mu, sigma, cost, &Accuracy::default()));
        let r = r.unwrap();
        assert_eq!(r.value, pbgi(mu, sigma, cost).unwrap().value);
        assert!(
            work.comparisons <= 12,
            "pbgi({mu:e}, {sigma:e}, {cost:e}): {} comparisons",
            work.comparisons
        );
    }
}

#[test]
fn a_positive_pbgi_below_half_the_smallest_subnormal_is_plus_zero() {
    // μ = 0, σ = 2^-1073, c = 2^-1074: the root is σ·u* with h(u*) = c/σ = 1/2, and
    // h(0) = 0.3989… < 1/2 < h(1/4) = 0.5363… (mpmath), so 0 < u* < 1/4 and
    // 0 < PBGI < 2^-1075: correctly rounded, +0.
    let (sigma, cost) = (2f64.powi(-1073), 2f64.powi(-1074));
    let half_tiny = Float::with_val(53, 1) >> 1075u32;
    for r in [
        pbgi(0.0, sigma, cost).unwrap(),
        pbgi_bisection_with(0.0, sigma, cost, &Accuracy::default()).unwrap(),
    ] {
        assert_eq!(r.value.to_bits(), 0.0f64.to_bits());
        assert!(r.lower > 0 && r.upper < half_tiny);
    }
}

#[test]
fn pbgi_next_to_minus_f64_max_rounds_by_the_overflow_threshold() {
    // c/σ = 1e-10: the root u* of h(u) = 1e-10 lies in (-6.25, -6) (h(-6.25) = 3.1e-11,
    // h(-6) = 1.6e-10, mpmath), so PBGI = -f64::MAX + σ·u*. With σ = 2^960 that is within
    // 6.25·2^960 < 2^970 of -f64::MAX, above -T (T = 2^1024 - 2^970, the midpoint between
    // f64::MAX and 2^1024): -f64::MAX. With σ = 2^968 it is beyond -f64::MAX - 6·2^968 < -T:
    // -inf.
    for (sigma, expected) in [
        (2f64.powi(960), -f64::MAX),
        (2f64.powi(968), f64::NEG_INFINITY),
    ] {
        let cost = sigma * 1e-10;
        for r in [
            pbgi(-f64::MAX, sigma, cost).unwrap(),
            pbgi_bisection_with(-f64::MAX, sigma, cost, &Accuracy::default()).unwrap(),
        ] {
            assert_eq!(r.value, expected, "σ = {sigma:e}");
        }
    }
}

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

#[test]
fn a_coarse_estimate_leaves_the_bisection_over_the_doubles_from_a_zero_bracket_end() {
    // `pbgi_bisection_with`'s regula-falsi estimate is only as accurate as `enclosure_bits`
    // asks (relative `2^-bits`), so with a coarse target its double is rarely the root's and the
    // bisection over the ordered doubles does the rounding. With `c = 0.41σ` and `μ = 0`, the
    // bracket's lower end `μ + c - 0.41σ` is exactly `+0` (key 0), and the bisection starts from
    // there when the estimate lies above the root. Values: `pbgi`'s fast path (an independent
    // certified path, `tests/pbgi_fast_path.rs`).
    for enclosure_bits in [7, 24] {
        let coarse = Accuracy {
            start_bits: 128,
            max_bits: 8192,
            enclosure_bits,
        };
        for (mu, sigma, cost) in [(0.0, 1.0, 0.41), (0.0, 4.0, 1.64)] {
            let (r, work) = measure(|| pbgi_bisection_with(mu, sigma, cost, &coarse));
            let r = r.unwrap();
            let fine = pbgi(mu, sigma, cost).unwrap();
            let at = format!("pbgi({mu}, {sigma}, {cost}) at {enclosure_bits} bits");
            assert_eq!(r.value, fine.value, "{at}");
            // Both enclosures hold the root, so they overlap.
            assert!(r.lower <= fine.upper && fine.lower <= r.upper, "{at}");
            // The path this test is about: dozens of comparisons, not the proposals' handful.
            assert!(
                work.comparisons > 20,
                "{at}: {} comparisons",
                work.comparisons
            );
        }
    }
}

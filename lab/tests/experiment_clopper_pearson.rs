//! Incomplete beta and Clopper–Pearson bounds against independent sources: exact rational
//! binomial sums (rug), an MPFR bisection on binomial tails, closed forms, and R's published
//! `binom.test` output.
use pbgi_lab::rules::clopper_pearson::beta_tails;
use pbgi_lab::rules::clopper_pearson::{clopper_pearson, level_side, LevelSide};
use pbgi_lab::rules::prb::sample_size_schedule;
use rug::ops::Pow;
use rug::{Float, Integer, Rational};

/// `I_x(a, b)` for integers `a, b ≥ 1` and `x = m/2^10`, exactly:
/// `I_x(a, b) = P(Bin(a + b − 1, x) ≥ a)`.
fn exact_lower_tail(a: u32, b: u32, m: u32) -> Rational {
    let n = a + b - 1;
    let denominator = Integer::from(1024u32).pow(n);
    let mut numerator = Integer::new();
    for j in a..=n {
        let term = Integer::from(Integer::binomial_u(n, j))
            * Integer::from(m).pow(j)
            * Integer::from(1024 - m).pow(n - j);
        numerator += term;
    }
    Rational::from((numerator, denominator))
}

#[test]
fn incomplete_beta_matches_exact_binomial_sums() {
    let shapes = [
        (1, 1),
        (1, 7),
        (7, 1),
        (3, 7),
        (20, 30),
        (64, 1),
        (1, 64),
        (63, 2),
        (500, 501),
        (999, 2),
        (2, 999),
        (640, 361),
        (975, 26),
        (26, 975),
    ];
    let numerators = [1, 10, 100, 300, 512, 700, 900, 1000, 1023];
    let mut worst = 0.0_f64;
    for &(a, b) in &shapes {
        for &m in &numerators {
            let exact = exact_lower_tail(a, b, m);
            let exact_lower = exact.to_f64();
            let exact_upper = (Rational::from(1) - exact).to_f64();
            let (lower, upper) = beta_tails(a as f64, b as f64, m as f64 / 1024.0).unwrap();
            // The smaller tail is computed directly: relative accuracy. The larger one is
            // `1 − small`: absolute accuracy.
            for (got, want, other_got, other_want) in [
                (lower, exact_lower, upper, exact_upper),
                (upper, exact_upper, lower, exact_lower),
            ] {
                if want <= other_want && want > 0.0 {
                    let rel = ((got - want) / want).abs();
                    // Documented bound: the rounding of the exponent of the front factor
                    // x^a (1−x)^b / B(a, b) dominates, ∝ ε·(|a ln x| + |b ln(1−x)| + ln B terms); statrs's
                    // ln_gamma (~1e-15 relative) makes the constant 1e-14.
                    let x = m as f64 / 1024.0;
                    let exponent = (a as f64 * x.ln()).abs()
                        + (b as f64 * (-x).ln_1p()).abs()
                        + libm::lgamma((a + b) as f64);
                    let bound = 1e-14 * (100.0 + exponent);
                    worst = worst.max(rel / bound);
                    assert!(
                        rel < bound,
                        "I tail a={a} b={b} x={m}/1024: got {got:e}, exact {want:e}, rel {rel:e}"
                    );
                    assert!(
                        (other_got - other_want).abs() <= bound * want + f64::EPSILON,
                        "large tail a={a} b={b} x={m}/1024: got {other_got}, exact {other_want}"
                    );
                }
            }
        }
    }
    eprintln!("worst small-tail error as a fraction of the documented bound: {worst:.3}");
}

#[test]
fn incomplete_beta_endpoints_and_bad_input() {
    assert_eq!(beta_tails(2.0, 3.0, 0.0).unwrap(), (0.0, 1.0));
    assert_eq!(beta_tails(2.0, 3.0, 1.0).unwrap(), (1.0, 0.0));
    assert!(beta_tails(0.0, 1.0, 0.5).unwrap_err().contains("shape a"));
    assert!(beta_tails(1.0, f64::NAN, 0.5)
        .unwrap_err()
        .contains("shape b"));
    assert!(beta_tails(1.0, 1.0, 1.5).unwrap_err().contains("x = 1.5"));
}

/// `P(Bin(n, p) ≥ k)` in 256-bit MPFR arithmetic.
fn binomial_upper_tail(k: u32, n: u32, p: &Float) -> Float {
    let prec = 256;
    let q = Float::with_val(prec, 1) - p;
    let mut total = Float::with_val(prec, 0);
    for j in k..=n {
        let c = Float::with_val(prec, &Integer::from(Integer::binomial_u(n, j)));
        total += c * p.clone().pow(j) * q.clone().pow(n - j);
    }
    total
}

/// Clopper–Pearson bounds by bisection in MPFR on binomial tails (Clopper & Pearson 1934):
/// `lower`: `P(Bin(n, p) ≥ k) = α/2`; `upper`: `P(Bin(n, p) ≤ k) = α/2`.
fn mpfr_clopper_pearson(k: u32, n: u32, alpha: f64) -> (f64, f64) {
    let prec = 256;
    let half = Float::with_val(prec, alpha) / 2;
    let solve = |increasing: &dyn Fn(&Float) -> Float| {
        let (mut lo, mut hi) = (Float::with_val(prec, 0), Float::with_val(prec, 1));
        for _ in 0..120 {
            let mid = Float::with_val(prec, &lo + &hi) / 2;
            if increasing(&mid) < half {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo.to_f64()
    };
    let lower = if k == 0 {
        0.0
    } else {
        solve(&|p| binomial_upper_tail(k, n, p))
    };
    // P(Bin(n, p) ≤ k) decreases in p, so solve on 1 − p where it increases.
    let upper = if k == n {
        1.0
    } else {
        1.0 - solve(&|q| {
            let p = Float::with_val(prec, 1) - q;
            Float::with_val(prec, 1) - binomial_upper_tail(k + 1, n, &p)
        })
    };
    (lower, upper)
}

#[test]
fn clopper_pearson_matches_mpfr_bisection() {
    let cases = [
        (0, 10, 0.05),
        (1, 10, 0.05),
        (5, 10, 0.05),
        (10, 10, 0.05),
        (1, 64, 1e-4),
        (63, 64, 1e-4),
        (64, 64, 2.4e-5),
        (700, 729, 3e-6),
        (975, 1000, 3e-6),
        (999, 1000, 0.01),
    ];
    for (k, n, alpha) in cases {
        let got = clopper_pearson(k as u64, n as u64, alpha).unwrap();
        let (lower, upper) = mpfr_clopper_pearson(k, n, alpha);
        let tol = |v: f64| 1e-10 * v.abs().max(1e-300);
        assert!(
            (got.lower - lower).abs() <= tol(lower),
            "lower k={k} n={n}: {} vs {lower}",
            got.lower
        );
        assert!(
            (got.upper - upper).abs() <= tol(upper),
            "upper k={k} n={n}: {} vs {upper}",
            got.upper
        );
    }
}

#[test]
fn clopper_pearson_matches_published_and_closed_forms() {
    // R, `binom.test(c(682, 243), p = 3/4)` (the example in R's documentation):
    // 95 percent confidence interval 0.7076683 0.7654066.
    let r = clopper_pearson(682, 925, 0.05).unwrap();
    assert!((r.lower - 0.7076683).abs() < 5e-8, "lower {}", r.lower);
    assert!((r.upper - 0.7654066).abs() < 5e-8, "upper {}", r.upper);
    // Closed forms: k = 0: upper = 1 − (α/2)^(1/n); k = n: lower = (α/2)^(1/n);
    // k = 1: lower = 1 − (1 − α/2)^(1/n); k = n − 1: upper = (1 − α/2)^(1/n).
    for (n, alpha) in [(10u64, 0.05), (64, 2.4e-5), (1000, 3e-6)] {
        let nf = n as f64;
        let zero = clopper_pearson(0, n, alpha).unwrap();
        assert_eq!(zero.lower, 0.0);
        let want = -(alpha / 2.0).ln().mul_add(1.0 / nf, 0.0).exp_m1();
        assert!(
            (zero.upper - want).abs() <= 1e-12 * want,
            "k=0 n={n}: {} vs {want}",
            zero.upper
        );
        let all = clopper_pearson(n, n, alpha).unwrap();
        assert_eq!(all.upper, 1.0);
        let want = ((alpha / 2.0).ln() / nf).exp();
        assert!(
            (all.lower - want).abs() <= 1e-12 * want,
            "k=n n={n}: {} vs {want}",
            all.lower
        );
        let one = clopper_pearson(1, n, alpha).unwrap();
        let want = -((-alpha / 2.0).ln_1p() / nf).exp_m1();
        assert!(
            (one.lower - want).abs() <= 1e-10 * want,
            "k=1 n={n}: {} vs {want}",
            one.lower
        );
        let most = clopper_pearson(n - 1, n, alpha).unwrap();
        let want = ((-alpha / 2.0).ln_1p() / nf).exp();
        assert!(
            (most.upper - want).abs() <= 1e-12,
            "k=n-1 n={n}: {} vs {want}",
            most.upper
        );
    }
}

#[test]
fn level_test_agrees_with_interval() {
    let levels = [0.5, 0.9, 0.975, 0.99];
    for n in [64u64, 96, 144, 729, 1000] {
        for k in (0..=n)
            .step_by(((n / 37) as usize).max(1))
            .chain([n - 1, n])
        {
            for &risk in &[1e-2, 2.4e-5, 3e-6] {
                let ci = clopper_pearson(k, n, risk).unwrap();
                for &level in &levels {
                    // Skip near-ties where the two computations may round differently.
                    if (level - ci.lower).abs() < 1e-9 || (level - ci.upper).abs() < 1e-9 {
                        continue;
                    }
                    let want = if level < ci.lower {
                        LevelSide::Below
                    } else if level > ci.upper {
                        LevelSide::Above
                    } else {
                        LevelSide::Inside
                    };
                    assert_eq!(
                        level_side(k, n, risk, level).unwrap(),
                        want,
                        "k={k} n={n} risk={risk} level={level}"
                    );
                }
            }
        }
    }
}

#[test]
fn clopper_pearson_rejects_bad_input() {
    assert!(clopper_pearson(1, 0, 0.05).unwrap_err().contains("draws"));
    assert!(clopper_pearson(5, 4, 0.05).unwrap_err().contains("exceeds"));
    assert!(clopper_pearson(1, 4, 1.0).unwrap_err().contains("risk"));
    assert!(level_side(1, 4, 0.05, 1.5).unwrap_err().contains("level"));
}

#[test]
fn prb_sample_sizes_follow_wilson_schedule() {
    // ⌈64·1.5^(j−1)⌉ = 64, 96, 144, 216, 324, 486, 729, 1094 → capped at 1000 (Wilson 2024, §3.2).
    assert_eq!(
        sample_size_schedule(64, 1.5, 1000),
        vec![64, 96, 144, 216, 324, 486, 729, 1000]
    );
    assert_eq!(sample_size_schedule(64, 1.5, 64), vec![64]);
}

//! End-to-end tests of `pbgi eval` (the oracle's public contract), run on the built binary.
//! Expected values are MATH.md's public sanity values and closed forms, never the code's output.
mod common;

use common::{pbgi_with_input as pbgi, stderr, stdout};
use std::process::Output;

/// Splits the output CSV into rows of fields (no quoting in these outputs).
fn rows(output: &Output) -> Vec<Vec<String>> {
    stdout(output)
        .lines()
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect()
}

/// Whether the decimal `printed` is the f64 nearest to the decimal `expected` (MATH.md prints
/// 17 significant digits, not always the shortest round-trip form).
fn same_f64(printed: &str, expected: &str) -> bool {
    printed.parse::<f64>().unwrap().to_bits() == expected.parse::<f64>().unwrap().to_bits()
}

/// The fields parsed as f64 (to compare exact results whatever their decimal spelling).
fn numbers(fields: &[String]) -> Vec<f64> {
    fields.iter().map(|f| f.parse().unwrap()).collect()
}

/// Checks `lower ≤ value ≤ upper` (decimal strings parsed to f64: rounding is monotone, so
/// a true bound of the exact value parses to a bound of its correctly rounded f64), and for an
/// irrational value that both bounds carry about 40 significant digits.
fn assert_enclosed(row: &[String], irrational: bool) {
    let n = row.len();
    let value: f64 = row[n - 3].parse().unwrap();
    let lower: f64 = row[n - 2].parse().unwrap();
    let upper: f64 = row[n - 1].parse().unwrap();
    assert!(lower <= value && value <= upper, "{row:?}");
    if irrational {
        let digits = |s: &str| {
            s.chars()
                .take_while(|&c| c != 'e')
                .filter(char::is_ascii_digit)
                .skip_while(|&c| c == '0')
                .count()
        };
        assert!(digits(&row[n - 2]) >= 38, "lower has 40 digits: {row:?}");
        assert!(digits(&row[n - 1]) >= 38, "upper has 40 digits: {row:?}");
        assert_ne!(
            row[n - 2],
            row[n - 1],
            "an irrational value has a proper enclosure"
        );
    }
}

#[test]
fn ei_gives_math_md_sanity_values_with_enclosures() {
    let out = pbgi(&["eval", "ei"], "mu,sigma,y\n0,1,0\n0,1,1\n1,0,3\n1,0,-3\n");
    assert!(out.status.success(), "{}", stderr(&out));
    let table = rows(&out);
    assert_eq!(table[0], ["mu", "sigma", "y", "value", "lower", "upper"]);
    assert!(
        same_f64(&table[1][3], "0.3989422804014327"),
        "{:?}",
        table[1]
    );
    assert!(
        same_f64(&table[2][3], "1.0833154705876863"),
        "{:?}",
        table[2]
    );
    // sigma = 0: EI = max(y - mu, 0), exact.
    assert_eq!(numbers(&table[3][3..]), [2.0, 2.0, 2.0]);
    assert_eq!(numbers(&table[4][3..]), [0.0, 0.0, 0.0]);
    assert_enclosed(&table[1], true);
    assert_enclosed(&table[2], true);
}

#[test]
fn pbgi_gives_math_md_sanity_values() {
    let out = pbgi(
        &["eval", "pbgi"],
        "mu,sigma,cost\n0,1,1e-4\n0,1,0.1\n1,0,0.5\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let table = rows(&out);
    assert_eq!(table[0], ["mu", "sigma", "cost", "value", "lower", "upper"]);
    assert!(
        same_f64(&table[1][3], "-3.3630153259270825"),
        "{:?}",
        table[1]
    );
    assert!(
        same_f64(&table[2][3], "-0.9023463475100345"),
        "{:?}",
        table[2]
    );
    // sigma = 0: g = mu + cost.
    assert_eq!(numbers(&table[3][3..]), [1.5, 1.5, 1.5]);
    assert_enclosed(&table[1], true);
    assert_enclosed(&table[2], true);
}

/// `-ln √(2π)` to 38 digits (the classical constant of Stirling's series, not computed here).
const LN_PHI_0: &str = "-0.91893853320467274178032973640561763986";

#[test]
fn log_ei_and_log_eipc_closed_forms() {
    // ln EI(0,1;0) = ln φ(0) = -ln √(2π) = -0.91893853320467274178032973640561763986...
    let out = pbgi(&["eval", "log-ei"], "mu,sigma,y\n0,1,0\n2,0,1\n");
    assert!(out.status.success(), "{}", stderr(&out));
    let table = rows(&out);
    assert!(same_f64(&table[1][3], LN_PHI_0), "{:?}", table[1]);
    assert_enclosed(&table[1], true);
    // sigma = 0 and y below mu: EI = 0, LogEI = -inf.
    assert_eq!(numbers(&table[2][3..]), [f64::NEG_INFINITY; 3]);

    let out = pbgi(
        &["eval", "log-eipc"],
        "mu,sigma,y,cost\n0,1,0,1\n1,0,1.5,0.5\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let table = rows(&out);
    assert_eq!(
        table[0],
        ["mu", "sigma", "y", "cost", "value", "lower", "upper"]
    );
    assert!(same_f64(&table[1][4], LN_PHI_0), "{:?}", table[1]);
    // An exact tie: EI = 0.5 = cost.
    assert_eq!(numbers(&table[2][4..]), [0.0, 0.0, 0.0]);
}

#[test]
fn columns_in_any_order_and_extra_columns_pass_through() {
    let out = pbgi(
        &["eval", "ei"],
        "id,y,note,sigma,mu\n7,1,\"a, quoted \"\"note\"\"\",1,0\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("id,y,note,sigma,mu,value,lower,upper"));
    let row = lines.next().unwrap();
    assert!(
        row.starts_with("7,1,\"a, quoted \"\"note\"\"\",1,0,1.0833154705876864,"),
        "{row}"
    );
}

#[test]
fn fast_engine_writes_value_only() {
    let out = pbgi(
        &["eval", "ei", "--engine", "fast"],
        "mu,sigma,y\n0,1,0\n1,0,3\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let table = rows(&out);
    assert_eq!(table[0], ["mu", "sigma", "y", "value"]);
    let value: f64 = table[1][3].parse().unwrap();
    assert!(
        (value - 0.3989422804014327).abs() <= 4.0 * f64::EPSILON,
        "{value}"
    );
    assert_eq!(table[2][3], "2");
}

/// Runs `pbgi eval function` on `input`, expects exit status 2 with exactly `message`, and the
/// rows before the bad one (`rows_before`, header included) written in full.
fn assert_fails(function: &str, input: &str, message: &str, lines_written: usize) {
    let out = pbgi(&["eval", function], input);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(stderr(&out), format!("pbgi: error: {message}\n"));
    let text = stdout(&out);
    assert_eq!(text.lines().count(), lines_written, "{text}");
    assert!(
        text.is_empty() || text.ends_with('\n'),
        "no half-written row: {text:?}"
    );
}

#[test]
fn each_bad_row_is_reported_with_line_column_and_reason() {
    assert_fails(
        "ei",
        "mu,sigma,y\n0,1,0\n0,-1,0\n0,1,0\n",
        "line 3, column `sigma`: sigma must be >= 0, got -1 (1 row before it written)",
        2,
    );
    assert_fails(
        "pbgi",
        "mu,sigma,cost\n0,1,0\n",
        "line 2, column `cost`: cost must be > 0, got 0 (0 rows before it written)",
        1,
    );
    assert_fails(
        "log-eipc",
        "mu,sigma,y,cost\n0,1,0,1\n0,1,0,-2\n",
        "line 3, column `cost`: cost must be > 0, got -2 (1 row before it written)",
        2,
    );
    assert_fails(
        "ei",
        "mu,sigma,y\n0,1,abc\n",
        "line 2, column `y`: `abc` is not a number (0 rows before it written)",
        1,
    );
    assert_fails(
        "log-ei",
        "mu,sigma,y\nnan,1,0\n",
        "line 2, column `mu`: mu must be finite, got NaN (0 rows before it written)",
        1,
    );
    assert_fails(
        "ei",
        "mu,sigma,y\n0,inf,0\n",
        "line 2, column `sigma`: sigma must be finite, got inf (0 rows before it written)",
        1,
    );
    assert_fails(
        "ei",
        "mu,sigma,y\n0,1,0\n\n0,1\n",
        "line 4: expected 3 fields (as in the header), found 2 (1 row before it written)",
        2,
    );
    assert_fails(
        "ei",
        "mu,sigma,y\n0,,0\n",
        "line 2, column `sigma`: the field is empty (0 rows before it written)",
        1,
    );
}

#[test]
fn header_problems_are_reported_before_any_output() {
    assert_fails(
        "pbgi",
        "mu,sigma,y\n0,1,0\n",
        "line 1: header has no column `cost`; `pbgi` needs the columns mu,sigma,cost (found: mu,sigma,y)",
        0,
    );
    assert_fails(
        "ei",
        "mu,sigma,y,y\n",
        "line 1, column `y`: the column appears more than once in the header",
        0,
    );
    assert_fails(
        "ei",
        "mu,sigma,y,value\n0,1,0,3\n",
        "line 1, column `value`: the input already has a column `value`, which the output appends; rename or drop it",
        0,
    );
    assert_fails(
        "ei",
        "",
        "line 1: the input is empty; `ei` needs a header row naming the columns mu,sigma,y",
        0,
    );
}

#[test]
fn unknown_function_is_a_usage_error() {
    let out = pbgi(&["eval", "gittins"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("invalid value 'gittins'"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn example_prints_the_sanity_values() {
    let out = pbgi(&["eval", "--example"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    // The shortest round-trip forms of MATH.md's values (MATH.md's 1.0833154705876863 is the
    // same f64 as 1.0833154705876864).
    for value in [
        "0.3989422804014327",
        "1.0833154705876864",
        "-3.3630153259270825",
        "-0.9023463475100345",
    ] {
        assert!(text.contains(value), "{value} missing from\n{text}");
    }
}

#[test]
fn many_rows_stream_through() {
    let mut input = String::from("mu,sigma,y\n");
    for i in 0..20_000 {
        input.push_str(&format!("{i},0,{}\n", i + 1));
    }
    let out = pbgi(&["eval", "ei", "--engine", "fast"], &input);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 20_001);
    assert!(text.lines().skip(1).all(|l| l.ends_with(",1")));
}

#[test]
fn numbers_beyond_f64_are_reported_as_such() {
    assert_fails(
        "ei",
        "mu,sigma,y\n1e400,1,0\n",
        "line 2, column `mu`: `1e400` overflows f64 (the largest finite f64 is \
         1.7976931348623157e308) (0 rows before it written)",
        1,
    );
    assert_fails(
        "pbgi",
        "mu,sigma,cost\n0,1,1e-400\n",
        "line 2, column `cost`: `1e-400` underflows f64: it is nonzero but rounds to 0 (the \
         smallest positive f64 is 5e-324); write 0 if 0 is meant (0 rows before it written)",
        1,
    );
    // Not silently evaluated at 0 while the output echoes 1e-400.
    assert_fails(
        "ei",
        "mu,sigma,y\n0,1,0\n1e-400,1,0\n",
        "line 3, column `mu`: `1e-400` underflows f64: it is nonzero but rounds to 0 (the \
         smallest positive f64 is 5e-324); write 0 if 0 is meant (1 row before it written)",
        2,
    );
}

#[test]
fn byte_order_mark_and_indented_comments_are_accepted() {
    let out = pbgi(
        &["eval", "ei"],
        "\u{feff}mu,sigma,y\n   # an indented comment\n0,1,0\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let table = rows(&out);
    assert_eq!(table[0], ["mu", "sigma", "y", "value", "lower", "upper"]);
    assert!(same_f64(&table[1][3], "0.3989422804014327"), "{table:?}");
    assert_eq!(table.len(), 2);
}

#[test]
fn example_honours_the_fast_engine() {
    let out = pbgi(&["eval", "--example", "--engine", "fast"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("value (pbgi-fast, f64)"), "{text}");
    assert!(!text.contains("certified enclosure"), "{text}");
    // pbgi-fast is within 4 ULP of MATH.md's EI(0,1;0) = 0.3989422804014327.
    let line = text.lines().nth(1).unwrap();
    let value: f64 = line.split_whitespace().last().unwrap().parse().unwrap();
    assert!(
        (value - 0.3989422804014327).abs() <= 4.0 * f64::EPSILON * 0.4,
        "{line}"
    );
}

#[test]
fn the_fast_engine_evaluates_rows_beyond_the_overflow_of_its_intermediates() {
    // log_ei(0, 1, -2e154): z²/2 overflows f64 (the exact value, about -2e308, lies below
    // -f64::MAX, so -inf); ei(-1e308, 1e308, 1e308): y - mu overflows f64 (exact 8.49e305, the
    // reliability sweep's reproducer). pbgi-fast covers the whole domain: its values agree with
    // the reference's within its bound.
    for (function, input) in [
        ("log-ei", "mu,sigma,y\n0,1,0\n0,1,-2e154\n"),
        ("ei", "mu,sigma,y\n-1e308,1e308,1e308\n"),
    ] {
        let fast = pbgi(&["eval", function, "--engine", "fast"], input);
        assert!(fast.status.success(), "{}", stderr(&fast));
        let reference = pbgi(&["eval", function], input);
        for (f, r) in rows(&fast).iter().zip(rows(&reference)).skip(1) {
            let (f, r) = (f[3].parse::<f64>().unwrap(), r[3].parse::<f64>().unwrap());
            assert!(
                f == r || (f - r).abs() <= 4.0 * r.abs() * f64::EPSILON,
                "{function}: fast {f} vs reference {r}"
            );
        }
    }
}

/// `ln 2` to 38 digits (a classical constant, not computed here).
const LN_2: &str = "0.69314718055994530941723212145817656807";
/// `√(π/2)` to 38 digits (a classical constant: `1/(2φ(0))`).
const SQRT_HALF_PI: &str = "1.2533141373155002512078826424055226265";

#[test]
fn h_ln_h_and_log_ndtr_read_their_own_columns() {
    let out = pbgi(&["eval", "h"], "z\n0\n");
    assert!(out.status.success(), "{}", stderr(&out));
    let table = rows(&out);
    assert_eq!(table[0], ["z", "value", "lower", "upper"]);
    assert!(same_f64(&table[1][1], "0.3989422804014327"), "{table:?}");
    assert_enclosed(&table[1], true);

    let out = pbgi(&["eval", "ln-h"], "z\n0\n");
    assert!(same_f64(&rows(&out)[1][1], LN_PHI_0), "{}", stdout(&out));

    // ln Φ(0) = -ln 2; ln Φ(-1e5) = -x²/2 - ln|x| - ln √(2π) - 1/x² + O(x⁻⁴); ln Φ(40) is
    // about -3.7e-350, which rounds to -0 (never +0).
    let out = pbgi(&["eval", "log-ndtr"], "x\n0\n-1e5\n40\n");
    assert!(out.status.success(), "{}", stderr(&out));
    let table = rows(&out);
    assert_eq!(table[0], ["x", "value", "lower", "upper"]);
    assert_eq!(
        table[1][1].parse::<f64>().unwrap(),
        -LN_2.parse::<f64>().unwrap()
    );
    assert_enclosed(&table[1], true);
    let asymptotic = -5e9 - 1e5f64.ln() + LN_PHI_0.parse::<f64>().unwrap() - 1e-10;
    let value: f64 = table[2][1].parse().unwrap();
    assert!(
        (value - asymptotic).abs() <= 2.0 * 9.5367431640625e-7,
        "{value} vs {asymptotic}"
    );
    assert_eq!(table[3][1], "-0");
    assert!(
        table[3][2].starts_with('-') && table[3][2].contains("e-350"),
        "{table:?}"
    );

    // The fast engine: ln Φ(0) = -ln 2 (0.5 is exact, so is its correctly rounded logarithm),
    // and ln Φ(40) rounds to -0 there too.
    let out = pbgi(&["eval", "log-ndtr", "--engine", "fast"], "x\n0\n40\n");
    assert!(out.status.success(), "{}", stderr(&out));
    let table = rows(&out);
    assert_eq!(table[0], ["x", "value"]);
    assert_eq!(
        table[1][1].parse::<f64>().unwrap(),
        -LN_2.parse::<f64>().unwrap()
    );
    assert_eq!(table[2][1], "-0");
}

#[test]
fn gradients_have_an_enclosure_per_column() {
    // ∂EI/∂μ = -Φ(0) = -1/2, ∂EI/∂σ = φ(0); σ = 0, y > μ: (-1, 0) exactly.
    let out = pbgi(&["eval", "ei-grad"], "mu,sigma,y\n0,1,0\n1,0,3\n");
    assert!(out.status.success(), "{}", stderr(&out));
    let table = rows(&out);
    assert_eq!(
        table[0],
        [
            "mu",
            "sigma",
            "y",
            "d_mu",
            "d_mu_lower",
            "d_mu_upper",
            "d_sigma",
            "d_sigma_lower",
            "d_sigma_upper"
        ]
    );
    assert_eq!(table[1][3], "-0.5");
    assert!(same_f64(&table[1][6], "0.3989422804014327"), "{table:?}");
    assert_enclosed(&table[1][..9], true);
    assert_eq!(numbers(&table[2][3..]), [-1.0, -1.0, -1.0, 0.0, 0.0, 0.0]);

    // LogEI: ∂/∂μ = -Φ(0)/h(0) = -√(π/2), ∂/∂σ = φ(0)/h(0) = 1; σ = 0, y > μ: (-1/(y - μ), 0).
    let out = pbgi(&["eval", "log-ei-grad"], "mu,sigma,y\n0,1,0\n1,0,3\n");
    assert!(out.status.success(), "{}", stderr(&out));
    let table = rows(&out);
    assert!(
        same_f64(&table[1][3], &format!("-{SQRT_HALF_PI}")),
        "{table:?}"
    );
    assert_eq!(table[1][6].parse::<f64>().unwrap(), 1.0);
    assert_eq!(numbers(&table[2][3..]), [-0.5, -0.5, -0.5, 0.0, 0.0, 0.0]);

    // PBGI at cost = h(0) (rounded): u ≈ 5e-17, so ∂g/∂σ = -φ(u)/Φ(u) is within 1 ULP of
    // -2φ(0) and ∂g/∂c = 1/Φ(u) rounds to 2; σ = 0: (1, 0, 1) exactly.
    let out = pbgi(
        &["eval", "pbgi-grad"],
        "mu,sigma,cost\n0,1,0.3989422804014327\n1,0,0.5\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let table = rows(&out);
    assert_eq!(
        table[0][3..],
        [
            "d_mu",
            "d_mu_lower",
            "d_mu_upper",
            "d_sigma",
            "d_sigma_lower",
            "d_sigma_upper",
            "d_cost",
            "d_cost_lower",
            "d_cost_upper"
        ]
    );
    assert_eq!(table[1][3], "1");
    let d_sigma: f64 = table[1][6].parse().unwrap();
    assert!((d_sigma + 0.7978845608028654).abs() <= 1.2e-16, "{d_sigma}");
    assert_eq!(table[1][9], "2");
    assert_eq!(
        numbers(&table[2][3..]),
        [1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0]
    );

    // The fast engine writes the output columns alone.
    let out = pbgi(
        &["eval", "pbgi-grad", "--engine", "fast"],
        "mu,sigma,cost\n1,0,0.5\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "mu,sigma,cost,d_mu,d_sigma,d_cost\n1,0,0.5,1,0,1\n"
    );
}

#[test]
fn a_point_without_a_derivative_is_an_error_naming_it() {
    // σ = 0, y = μ: EI = max(y - μ, 0) has a kink in μ.
    let out = pbgi(&["eval", "ei-grad"], "mu,sigma,y\n0,1,0\n1,0,1\n");
    assert_eq!(out.status.code(), Some(2));
    let message = stderr(&out);
    assert!(
        message.starts_with("pbgi: error: line 3: ") && message.contains("not differentiable"),
        "{message}"
    );
    assert_eq!(stdout(&out).lines().count(), 2);
}

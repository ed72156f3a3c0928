//! End-to-end tests of `pbgi check`: grading files whose errors are known by construction
//! (MATH.md's sanity values moved by an exact number of ULPs).
use std::path::PathBuf;
use std::process::{Command, Output};

fn write_temp(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pbgi-check-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn check(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pbgi"))
        .arg("check")
        .args(args)
        .output()
        .expect("pbgi runs")
}

/// `x` moved up by `n` ULPs.
fn ulps_up(x: f64, n: u64) -> f64 {
    f64::from_bits(x.to_bits() + n)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

#[test]
fn errors_are_counted_in_ulps_and_the_bound_decides_the_exit_status() {
    let ei_0 = 0.3989422804014327;
    let ei_1 = 1.0833154705876863;
    let file = write_temp(
        "three_ulps.csv",
        &format!(
            "mu,sigma,y,value\n0,1,0,{}\n0,1,1,{:e}\n1,0,3,2\n",
            ei_0,
            ulps_up(ei_1, 3)
        ),
    );
    let path = file.to_str().unwrap();

    let out = check(&["ei", path]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert!(report.contains("3 rows graded"), "{report}");
    assert!(
        report.contains("ULP error: max 3, median 0, 99th percentile 3"),
        "{report}"
    );
    assert!(report.contains("-0.5 <= z <= 0.5"), "{report}");
    assert!(report.contains("0.5 < z <= 1e4"), "{report}");
    assert!(report.contains("sigma = 0"), "{report}");
    assert!(
        report.contains("y=1 (0x3ff0000000000000)"),
        "worst row in hex: {report}"
    );

    let out = check(&["ei", path, "--max-ulp", "2"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains("--max-ulp 2: FAILED (1 of 3 rows above the bound)"));

    let out = check(&["ei", path, "--max-ulp", "3"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).contains("--max-ulp 3: passed"));
}

#[test]
fn pbgi_is_graded_at_the_scale_of_mu_and_the_offset() {
    // PBGI(0,1,0.1) = -0.9023463475100345 (MATH.md); mu = 0 so the scale is |g|.
    let g = -0.9023463475100345f64;
    let file = write_temp(
        "pbgi.csv",
        &format!(
            "mu,sigma,cost,value\n0,1,0.1,{:e}\n",
            f64::from_bits(g.to_bits() + 2)
        ),
    );
    let out = check(&["pbgi", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("ULP error: max 2,"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn nan_and_wrong_infinities_score_infinite_error() {
    let file = write_temp("nan.csv", "mu,sigma,y,value\n0,1,0,nan\n2,0,1,-inf\n");
    let out = check(&["log-ei", file.to_str().unwrap(), "--max-ulp", "1e300"]);
    assert_eq!(out.status.code(), Some(1));
    let report = text(&out.stdout);
    assert!(report.contains("ULP error: max inf"), "{report}");
    assert!(
        report.contains("FAILED (1 of 2 rows above the bound)"),
        "{report}"
    );
}

#[test]
fn unreadable_input_is_reported_with_line_and_column() {
    let file = write_temp("bad.csv", "mu,sigma,y,value\n0,1,0,0.39\n0,1,0,zero\n");
    let out = check(&["ei", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "pbgi: error: line 3, column `value`: `zero` is not a number\n"
    );
    let file = write_temp("novalue.csv", "mu,sigma,y\n0,1,0\n");
    let out = check(&["ei", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "pbgi: error: line 1: header has no column `value`; `ei` needs the columns mu,sigma,y,value (found: mu,sigma,y)\n"
    );
    let out = check(&["ei", "/nonexistent/their.csv"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).starts_with("pbgi: error: cannot open /nonexistent/their.csv"));
}

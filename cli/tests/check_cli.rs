//! End-to-end tests of `pbgi check`: grading files whose errors are known by construction
//! (MATH.md's sanity values moved by an exact number of ULPs).
mod common;

use common::{pbgi, pbgi_with_input, text};
use std::path::PathBuf;
use std::process::Output;

fn write_temp(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pbgi-check-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn check(args: &[&str]) -> Output {
    pbgi().arg("check").args(args).output().expect("pbgi runs")
}

/// `x` moved up by `n` ULPs.
fn ulps_up(x: f64, n: u64) -> f64 {
    f64::from_bits(x.to_bits() + n)
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

#[test]
fn json_report_holds_the_whole_report() {
    let ei_1 = 1.0833154705876863;
    let file = write_temp(
        "json.csv",
        &format!(
            "mu,sigma,y,value\n0,1,0,0.3989422804014327\n0,1,1,{:e}\n1,0,3,nan\n",
            ulps_up(ei_1, 3)
        ),
    );
    let out = check(&[
        "ei",
        file.to_str().unwrap(),
        "--json",
        "--worst",
        "2",
        "--max-ulp",
        "4",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    assert_eq!(json["function"], "ei");
    assert_eq!(json["ulp"]["rows"], 3);
    assert_eq!(json["ulp"]["max"], "inf");
    assert_eq!(json["worst"][0]["line"], 4);
    assert_eq!(json["worst"][0]["values"][0]["theirs"], "nan");
    assert_eq!(json["worst"][1]["line"], 3);
    assert_eq!(json["worst"][1]["ulp"], 3.0);
    assert_eq!(json["worst"][1]["args_hex"]["y"], "0x3ff0000000000000");
    assert_eq!(json["regions"].as_array().unwrap().len(), 3);
    assert_eq!(json["regions"][2]["label"], "sigma = 0");
    assert_eq!(json["bound"]["rows_above"], 1);
    assert_eq!(json["bound"]["passed"], false);
}

#[test]
fn rows_file_gives_every_rows_error() {
    let g = -0.9023463475100345f64;
    let file = write_temp(
        "rows_in.csv",
        &format!(
            "id,mu,sigma,cost,value\na,0,1,0.1,{g:e}\nb,0,1,0.1,{:e}\n",
            ulps_up(g, 5)
        ),
    );
    let rows = file.with_file_name("rows_out.csv");
    let out = check(&[
        "pbgi",
        file.to_str().unwrap(),
        "--rows",
        rows.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // PBGI's regions are regions of u = (g - mu)/sigma, and say so.
    assert!(
        text(&out.stdout).contains("by region of u = (g - mu)/sigma:"),
        "{}",
        text(&out.stdout)
    );
    assert!(text(&out.stdout).contains("-5 <= u < -0.5"));
    let written = std::fs::read_to_string(&rows).unwrap();
    let lines: Vec<&str> = written.lines().collect();
    assert_eq!(
        lines[0],
        "line,mu,sigma,cost,their_value,oracle_value,ulp,region"
    );
    assert_eq!(
        lines[1],
        "2,0,1,0.1,-0.9023463475100345,-0.9023463475100345,0,-5 <= u < -0.5"
    );
    assert!(lines[2].starts_with("3,0,1,0.1,"), "{}", lines[2]);
    assert!(
        lines[2].ends_with(",-0.9023463475100345,5,-5 <= u < -0.5"),
        "{}",
        lines[2]
    );
    assert_eq!(lines.len(), 3);
}

#[test]
fn a_bound_must_be_a_finite_non_negative_number() {
    let file = write_temp("bound.csv", "mu,sigma,y,value\n0,1,0,0.3989422804014327\n");
    for bad in ["nan", "-1", "inf", "four"] {
        let out = check(&["ei", file.to_str().unwrap(), &format!("--max-ulp={bad}")]);
        assert_eq!(out.status.code(), Some(2), "--max-ulp={bad}");
        let message = text(&out.stderr);
        assert!(
            message.contains("invalid value") && message.contains("--max-ulp"),
            "--max-ulp={bad}: {message}"
        );
    }
    let out = check(&["ei", file.to_str().unwrap(), "--max-ulp", "-1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("must be a finite number >= 0, got -1"));
}

#[test]
fn a_file_without_rows_says_so_and_fails_a_bound() {
    let file = write_temp("header_only.csv", "mu,sigma,y,value\n# nothing yet\n");
    let out = check(&["ei", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    let report = text(&out.stdout);
    assert!(report.contains(": 0 rows graded against"), "{report}");
    assert!(report.contains("no rows to grade"), "{report}");
    let out = check(&["ei", file.to_str().unwrap(), "--max-ulp", "4"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains("--max-ulp 4: FAILED (0 rows graded)"));
}

#[test]
fn gradients_are_graded_per_output_column() {
    // ∂EI/∂μ(0,1,0) = -1/2 exactly; ∂EI/∂σ = φ(0) = 0.3989422804014327 (MATH.md's EI(0,1;0)).
    let phi0 = 0.3989422804014327f64;
    let file = write_temp(
        "ei_grad.csv",
        &format!(
            "mu,sigma,y,d_mu,d_sigma\n0,1,0,-0.5,{:e}\n1,0,3,-1,0\n",
            ulps_up(phi0, 2)
        ),
    );
    let out = check(&["ei-grad", file.to_str().unwrap(), "--max-ulp", "2"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert!(report.contains("ULP error: max 2, median"), "{report}");
    assert!(report.contains("by output column:"), "{report}");
    let d_sigma = report.lines().find(|l| l.starts_with("d_sigma ")).unwrap();
    assert_eq!(
        d_sigma.split_whitespace().collect::<Vec<_>>(),
        ["d_sigma", "2", "2", "0", "2"]
    );
    let out = check(&["ei-grad", file.to_str().unwrap(), "--max-ulp", "1"]);
    assert_eq!(out.status.code(), Some(1));
    // Missing an output column is named.
    let file = write_temp("ei_grad_short.csv", "mu,sigma,y,d_mu\n0,1,0,-0.5\n");
    let out = check(&["ei-grad", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("header has no column `d_sigma`"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn log_ndtr_and_h_are_graded_by_their_own_variable() {
    // ln Φ(0) = -ln 2 = -0.6931471805599453.
    let ln2 = 0.6931471805599453f64;
    let file = write_temp(
        "log_ndtr.csv",
        &format!("x,value\n0,{:e}\n", -ulps_up(ln2, 1)),
    );
    let out = check(&["log-ndtr", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert!(report.contains("ULP error: max 1,"), "{report}");
    assert!(report.contains("by region of x:"), "{report}");
    assert!(report.contains("-0.5 <= x <= 0.5"), "{report}");
    let file = write_temp("h.csv", "z,value\n0,0.3989422804014327\n");
    let out = check(&["h", file.to_str().unwrap(), "--max-ulp", "0"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
}

#[test]
fn z_column_mode_grades_the_h_inside_ei_and_log_ei() {
    // h(0) = 0.3989422804014327 moved by 3 ULPs; the file has z and no mu, sigma, y.
    let file = write_temp(
        "ei_z.csv",
        &format!("z,value\n0,{:e}\n", ulps_up(0.3989422804014327, 3)),
    );
    let out = check(&["ei", "--z", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert!(report.contains("z-column mode of ei: h(z)"), "{report}");
    assert!(report.contains("ULP error: max 3,"), "{report}");
    // ln h(0) = -ln √(2π) = -0.9189385332046728, exact: 0 ULP.
    let file = write_temp("log_ei_z.csv", "z,value\n0,-0.9189385332046728\n");
    let out = check(&["log-ei", "--z", file.to_str().unwrap(), "--max-ulp", "0"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    assert!(text(&out.stdout).contains("z-column mode of log-ei: ln h(z)"));
    let out = check(&["pbgi", "--z", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("`pbgi` has no z mode"),
        "{}",
        text(&out.stderr)
    );
}

/// Runs `pbgi eval FUNCTION` on `input`; returns its output (a file for `--oracle`).
fn eval_output(function: &str, args: &[&str], input: &str) -> String {
    let out = pbgi_with_input(&[&["eval", function], args].concat(), input);
    assert!(out.status.success());
    text(&out.stdout)
}

#[test]
fn grading_against_an_earlier_eval_output_needs_the_same_inputs() {
    let inputs = "mu,sigma,y\n0,1,0\n0,1,1\n1,0,3\n";
    let oracle = write_temp("oracle_out.csv", &eval_output("ei", &[], inputs));
    let oracle = oracle.to_str().unwrap();
    // Their file spells the inputs differently (1e0 for 1) and moves one value by 3 ULPs.
    let theirs = write_temp(
        "oracle_theirs.csv",
        &format!(
            "mu,sigma,y,value\n0,1,0,0.3989422804014327\n0,1e0,1,{:e}\n1,0,3,2\n",
            ulps_up(1.0833154705876863, 3)
        ),
    );
    let out = check(&[
        "ei",
        theirs.to_str().unwrap(),
        "--oracle",
        oracle,
        "--max-ulp",
        "3",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert!(
        report.contains("3 rows graded against the pbgi eval output"),
        "{report}"
    );
    assert!(report.contains("ULP error: max 3,"), "{report}");

    let differs = write_temp(
        "oracle_differs.csv",
        "mu,sigma,y,value\n0,1,0,0.39\n0,2,1,1\n",
    );
    let out = check(&["ei", differs.to_str().unwrap(), "--oracle", oracle]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        format!(
            "pbgi: error: {}: line 3, column `sigma`: the inputs differ from {oracle} line 3 (2 vs 1); \
             --oracle grades row by row against the eval output of the same inputs\n",
            differs.display()
        )
    );
    let longer = write_temp(
        "oracle_longer.csv",
        "mu,sigma,y,value\n0,1,0,0.39\n0,1,1,1\n1,0,3,2\n5,0,6,1\n",
    );
    let out = check(&["ei", longer.to_str().unwrap(), "--oracle", oracle]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("line 5: ")
            && text(&out.stderr).contains("has no row for it (it ends after 3 rows)"),
        "{}",
        text(&out.stderr)
    );
    let shorter = write_temp("oracle_shorter.csv", "mu,sigma,y,value\n0,1,0,0.39\n");
    let out = check(&["ei", shorter.to_str().unwrap(), "--oracle", oracle]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("line 3: more rows than"),
        "{}",
        text(&out.stderr)
    );
    // The fast engine's output has no enclosure: it is no oracle.
    let fast = write_temp(
        "oracle_fast.csv",
        &eval_output("ei", &["--engine", "fast"], inputs),
    );
    let out = check(&[
        "ei",
        theirs.to_str().unwrap(),
        "--oracle",
        fast.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no column `lower`; --oracle takes the output of `pbgi eval ei` with the reference engine"), "{}", text(&out.stderr));
}

#[test]
fn an_oracle_of_another_function_is_refused() {
    // Reported: EI graded against a LogEI output without complaint. The oracle's first row is
    // recomputed, so the function it holds is known before any value is used.
    let inputs = "mu,sigma,y\n0,1,0\n0,1,1\n1,0,3\n";
    let log_ei = write_temp("oracle_log_ei.csv", &eval_output("log-ei", &[], inputs));
    let theirs = write_temp(
        "oracle_ei_theirs.csv",
        "mu,sigma,y,value\n0,1,0,0.3989422804014327\n0,1,1,1.0833154705876863\n1,0,3,2\n",
    );
    let out = check(&[
        "ei",
        theirs.to_str().unwrap(),
        "--oracle",
        log_ei.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(out.stdout.is_empty());
    assert!(
        text(&out.stderr).contains(&format!(
            "{}: line 2, column `value`: -0.9189385332046728 is not the value of `pbgi eval ei` \
             for these inputs (0.3989422804014327)",
            log_ei.display()
        )),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn an_oracle_whose_value_leaves_its_own_enclosure_is_refused() {
    let inputs = "mu,sigma,y\n0,1,0\n0,1,1\n1,0,3\n";
    let genuine = eval_output("ei", &[], inputs);
    let theirs = write_temp(
        "enclosure_theirs.csv",
        "mu,sigma,y,value\n0,1,0,0.3989422804014327\n0,1,1,1.0833154705876863\n1,0,3,2\n",
    );
    // Every row of a genuine output, one value moved by one ULP (up or down): refused at that
    // row, whichever row it is (row 3 is neither a power of two nor recomputed before the end).
    let lines: Vec<&str> = genuine.lines().collect();
    for row in 1..lines.len() {
        for step in [1i64, -1] {
            let mut edited: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            let mut fields: Vec<String> = edited[row].split(',').map(str::to_string).collect();
            let value: f64 = fields[3].parse().unwrap();
            let moved = f64::from_bits((value.to_bits() as i64 + step) as u64);
            fields[3] = format!("{moved:e}");
            edited[row] = fields.join(",");
            let oracle = write_temp("enclosure_edited.csv", &(edited.join("\n") + "\n"));
            let out = check(&[
                "ei",
                theirs.to_str().unwrap(),
                "--oracle",
                oracle.to_str().unwrap(),
            ]);
            assert_eq!(out.status.code(), Some(2), "row {row}, step {step}");
            assert!(
                text(&out.stderr).contains(&format!(
                    "line {}, column `value`: {} lies outside the file's own enclosure",
                    row + 1,
                    pbgi_conformance::csv_io::format_shortest(moved)
                )),
                "row {row}, step {step}: {}",
                text(&out.stderr)
            );
        }
    }
}

#[test]
fn rows_go_only_to_a_new_path_or_a_regular_file_that_is_no_input() {
    // Reported: --rows replaced a device node (/dev/full as root), a FIFO, a symbolic link's
    // target, the input file itself and the oracle file. Every kind of destination:
    let inputs = "mu,sigma,y\n0,1,0\n";
    let oracle = write_temp("rows_oracle.csv", &eval_output("ei", &[], inputs));
    let theirs = write_temp(
        "rows_theirs.csv",
        "mu,sigma,y,value\n0,1,0,0.3989422804014327\n",
    );
    let dir = theirs.parent().unwrap().to_path_buf();
    let link = dir.join("rows_link.csv");
    let _ = std::fs::remove_file(&link);
    let fifo = dir.join("rows_fifo");
    let _ = std::fs::remove_file(&fifo);
    let mut refused: Vec<(PathBuf, &str)> = vec![
        (theirs.clone(), "is also an input of this command"),
        (
            dir.join(".").join("rows_theirs.csv"),
            "is also an input of this command",
        ),
        (oracle.clone(), "is also an input of this command"),
        (dir.clone(), "is a directory"),
    ];
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&oracle, &link).unwrap();
        refused.push((link.clone(), "is a symbolic link"));
        refused.push((PathBuf::from("/dev/null"), "is a device"));
        refused.push((PathBuf::from("/dev/full"), "is a device"));
        if std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .map_or(false, |s| s.success())
        {
            refused.push((fifo.clone(), "is a FIFO"));
        }
    }
    let oracle_before = std::fs::read(&oracle).unwrap();
    let theirs_before = std::fs::read(&theirs).unwrap();
    for (path, why) in &refused {
        let out = check(&[
            "ei",
            theirs.to_str().unwrap(),
            "--oracle",
            oracle.to_str().unwrap(),
            "--rows",
            path.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(2), "{}", path.display());
        assert!(out.stdout.is_empty(), "{}", path.display());
        assert!(
            text(&out.stderr).contains(&format!("--rows {}: {why}", path.display())),
            "{}: {}",
            path.display(),
            text(&out.stderr)
        );
    }
    assert_eq!(std::fs::read(&oracle).unwrap(), oracle_before);
    assert_eq!(std::fs::read(&theirs).unwrap(), theirs_before);
    // A new path and an existing regular file are written (the latter replaced whole).
    let rows = dir.join("rows_out.csv");
    let _ = std::fs::remove_file(&rows);
    for _ in 0..2 {
        let out = check(&[
            "ei",
            theirs.to_str().unwrap(),
            "--rows",
            rows.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        assert!(std::fs::read_to_string(&rows).unwrap().starts_with("line,"));
    }
}

#[test]
fn group_by_cells_and_column_names_of_any_length_are_reported() {
    // Reported: a cell or column name of 65,536+ characters panicked in the text table, after
    // --rows had been written.
    // A column name travels as an argument (at most 128 KiB on Linux); a cell up to a record.
    for (width, cell_width) in [(65_536usize, 65_536usize), (100_000, 900_000)] {
        let long = "g".repeat(width);
        let cell = "c".repeat(cell_width);
        let file = write_temp(
            "grouped_wide.csv",
            &format!("{long},mu,sigma,y,value\n{cell},0,1,0,0.3989422804014327\nb,0,1,1,1.0833154705876863\n"),
        );
        let out = check(&["ei", file.to_str().unwrap(), "--group-by", &long]);
        assert_eq!(out.status.code(), Some(0), "{width}: {}", text(&out.stderr));
        assert!(!text(&out.stderr).contains("panicked"));
        let report = text(&out.stdout);
        assert!(report.contains(&format!("by {long}:")), "{width}");
        assert!(
            report
                .lines()
                .any(|l| l.starts_with(&cell) && l.split_whitespace().nth(1) == Some("1")),
            "{width}"
        );
    }
}

#[test]
fn errors_are_grouped_by_any_column() {
    let file = write_temp(
        "grouped.csv",
        &format!(
            "library,mu,sigma,y,value\nours,0,1,0,0.3989422804014327\ntheirs,0,1,1,{:e}\nours,1,0,3,2\n",
            ulps_up(1.0833154705876863, 7)
        ),
    );
    let out = check(&["ei", file.to_str().unwrap(), "--group-by", "library"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    let table: Vec<&str> = report.lines().skip_while(|l| *l != "by library:").collect();
    assert_eq!(
        table[1].split_whitespace().collect::<Vec<_>>(),
        ["library", "rows", "max", "ULP", "median", "ULP", "worst", "line"]
    );
    assert_eq!(
        table[2].split_whitespace().collect::<Vec<_>>(),
        ["ours", "2", "0", "0", "2"]
    );
    assert_eq!(
        table[3].split_whitespace().collect::<Vec<_>>(),
        ["theirs", "1", "7", "7", "3"]
    );
    let out = check(&[
        "ei",
        file.to_str().unwrap(),
        "--group-by",
        "batch",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains(
            "line 1: no column `batch` to group by (the columns are library,mu,sigma,y,value)"
        ),
        "{}",
        text(&out.stderr)
    );
    // Progress goes to a terminal only: nothing on a piped standard error.
    let out = check(&[
        "ei",
        file.to_str().unwrap(),
        "--group-by",
        "library",
        "--json",
    ]);
    assert_eq!(text(&out.stderr), "");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["group_by"]["column"], "library");
    assert_eq!(json["group_by"]["groups"][1]["max"], 7.0);
}

#[test]
fn edge_cases_are_graded_by_class() {
    // The edge file itself, with their answers in `value`: the documented answers pass.
    let edges = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fixtures/edges/pbgi.csv"),
    )
    .unwrap();
    let file = write_temp("edges_documented.csv", &edges);
    let out = check(&["--edges", "pbgi", file.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    assert!(
        text(&out.stdout).contains("20 edge cases, 20 passed, 0 failed"),
        "{}",
        text(&out.stdout)
    );
    // An implementation that returns a finite index for cost = 0 and for NaN input fails there.
    let wrong = edges
        .replace("0,1,0,error,nan;-inf,", "0,1,0,-7.5,nan;-inf,")
        .replace("NaN,1,0.1,error,nan,", "NaN,1,0.1,0.1,nan,");
    let file = write_temp("edges_wrong.csv", &wrong);
    let out = check(&["pbgi", "--edges", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let report = text(&out.stdout);
    assert!(
        report.contains("20 edge cases, 18 passed, 2 failed"),
        "{report}"
    );
    assert!(report.contains("mu = NaN"), "{report}");
    assert!(report.contains("cost = 0, sigma > 0"), "{report}");
    assert!(report.contains("error       nan or -inf"), "{report}");
    let out = check(&["pbgi", "--edges", "--json", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
}

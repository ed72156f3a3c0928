//! `pbgi conformance` end to end, on small sets: the text table, the Markdown matrix of docs/results/conformance.md,
//! the regression entries of the tolerance table, and argument errors.
use pbgi_conformance::function::Function;
use pbgi_conformance::regions::Region;
use pbgi_conformance::tolerances::MEASURED;
use std::process::Output;

mod common;

use common::stdout;

fn pbgi(args: &[&str]) -> Output {
    common::pbgi()
        .arg("conformance")
        .args(args)
        .output()
        .expect("pbgi runs")
}

#[test]
fn text_table_names_measures_paths_and_bounds() {
    let out = pbgi(&[
        "--function",
        "ei",
        "--function",
        "log-eipc-exp",
        "--per-stratum",
        "20",
    ]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("ei 20 x 15, log-eipc-exp 20 x 15"), "{text}");
    assert!(
        text.contains("|error| in ULPs of max(|exact|, |LogEI|, |m -/+ s^2/2|, 1)"),
        "{text}"
    );
    let header = text
        .lines()
        .find(|l| l.starts_with("function"))
        .expect("a header");
    for column in ["slice max", "guarantee", "regression", "worst input"] {
        assert!(header.contains(column), "{header}");
    }
    // EI has a slice form, LogEIPC-exp has none.
    let ei_central = text
        .lines()
        .find(|l| l.starts_with("ei ") && l.contains("-0.5 <= z <= 0.5"))
        .expect("an EI row");
    let exp_central = text
        .lines()
        .find(|l| l.starts_with("log-eipc-exp ") && l.contains("-0.5 <= z <= 0.5"))
        .expect("a LogEIPC-exp row");
    assert!(
        !ei_central.split_whitespace().any(|w| w == "-"),
        "{ei_central}"
    );
    assert!(
        exp_central.split_whitespace().any(|w| w == "-"),
        "{exp_central}"
    );
    assert!(text.contains("every cell within its guarantee and its regression bound"));
}

#[test]
fn markdown_is_one_row_per_function_and_one_column_per_region() {
    let out = pbgi(&[
        "--function",
        "h",
        "--function",
        "pbgi",
        "--per-stratum",
        "10",
        "--markdown",
    ]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    let rows: Vec<&str> = text.lines().collect();
    assert!(rows[0].starts_with("| function |") && rows[0].ends_with("| guarantee |"));
    assert_eq!(
        rows[0].matches('|').count(),
        Region::ALL.len() + 3,
        "{}",
        rows[0]
    );
    assert!(rows[1].starts_with("|---|"));
    assert!(rows
        .iter()
        .any(|r| r.starts_with("| h |") && r.ends_with("| 4 |")));
    assert!(rows
        .iter()
        .any(|r| r.starts_with("| pbgi (by u) |") && r.ends_with("| 4 (σ=0: 0) |")));
    assert!(rows
        .iter()
        .any(|r| r.starts_with("| papers' 100-step bisection") && r.ends_with("| none |")));
    // h has no σ = 0 region.
    let h = rows.iter().find(|r| r.starts_with("| h |")).expect("h row");
    assert!(h.ends_with("| – | 4 |"), "{h}");
}

#[test]
fn regression_table_prints_entries_of_the_tolerance_table() {
    let out = pbgi(&[
        "--function",
        "ei",
        "--per-stratum",
        "10",
        "--regression-table",
    ]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    let entries: Vec<&str> = text.lines().collect();
    assert!(!entries.is_empty());
    for entry in &entries {
        assert!(
            entry.starts_with("    (Function::Ei, Region::") && entry.ends_with("),"),
            "{entry}"
        );
    }
    // Every region printed has an entry in the checked-in table (the sets are prefixes of the
    // measured one).
    for region in Region::ALL {
        let printed = entries
            .iter()
            .any(|e| e.contains(&format!("Region::{region:?},")));
        let listed = MEASURED
            .iter()
            .any(|&(f, r, _)| f == Function::Ei && r == region);
        assert!(!printed || listed, "{region:?} printed but not in MEASURED");
    }
}

#[test]
fn an_unknown_function_is_an_error_naming_the_choices() {
    let out = pbgi(&["--function", "erf"]);
    assert_eq!(out.status.code(), Some(2));
    let message = String::from_utf8_lossy(&out.stderr);
    assert!(
        message.contains("unknown function `erf`") && message.contains("pbgi-lognormal"),
        "{message}"
    );
}

#[test]
fn scan_sizes_are_bounded_before_any_work() {
    // Reported: --per-stratum 1e19 grew by 850 MB/s.
    for args in [
        vec!["--per-stratum", "18446744073709551615"],
        vec!["--per-stratum", "10000000000000000000"],
        vec!["--points", "18446744073709551615"],
        vec!["--function", "ei", "--points", "20000000"],
    ] {
        let started = std::time::Instant::now();
        let out = common::pbgi()
            .arg("conformance")
            .args(&args)
            .output()
            .unwrap();
        let message = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {message}");
        assert!(
            message.contains(&format!(
                "{} {}: ",
                args[args.len() - 2],
                args[args.len() - 1]
            )) && message.contains("at most 10000000 points per function"),
            "{args:?}: {message}"
        );
        assert!(started.elapsed().as_secs() < 5, "{args:?}");
    }
}

//! Fast against reference over the stratified input sets, on every path of the fast crate
//! (scalar and slice forms): every function × region cell must be within its guarantee and its
//! regression bound (`conformance/src/tolerances.rs`); a failure names the function, the region,
//! the path and the worst input. The measured table is kept as a snapshot so that any numeric
//! change is also a reviewed diff (`cargo insta review`). Inputs the reference cannot answer must
//! belong to a known failure class of the tolerance file, and every known class must still occur.
//!
//! Size: `cross_check::default_per_stratum` points per stratum (about 1.6e6 points in all), or
//! `PBGI_CONFORMANCE_POINTS=<n>` points per function (the regression bounds were measured with
//! `PBGI_CONFORMANCE_POINTS=1000000`; the snapshot is compared only at the default size).
use pbgi_conformance::cross_check::{
    default_per_stratum, measure, per_stratum_for_points, render, render_failures, Cell,
};
use pbgi_conformance::function::Function;
use pbgi_conformance::tolerances::{known_reference_failure, KNOWN_REFERENCE_FAILURES};
use std::time::Instant;

/// Points per function from `PBGI_CONFORMANCE_POINTS`, if set.
fn points_from_environment() -> Option<usize> {
    let text = std::env::var("PBGI_CONFORMANCE_POINTS").ok()?;
    let points = text
        .parse::<f64>()
        .ok()
        .filter(|p| p.is_finite() && *p >= 1.0)
        .unwrap_or_else(|| {
            panic!("PBGI_CONFORMANCE_POINTS must be a positive number, got {text:?}")
        });
    Some(points as usize)
}

#[test]
fn conformance_table() {
    let points = points_from_environment();
    let mut cells: Vec<Cell> = Vec::new();
    let mut failures = Vec::new();
    for function in Function::CONFORMANCE {
        let start = Instant::now();
        let per_stratum = points.map_or(default_per_stratum(function), |p| {
            per_stratum_for_points(function, p)
        });
        let (measured, failed) = measure(function, per_stratum);
        println!(
            "{}: {per_stratum} points per stratum, {} inputs, {:.1} s",
            function.cli_name(),
            measured.iter().map(Cell::count).sum::<usize>() + failed.len(),
            start.elapsed().as_secs_f64()
        );
        cells.extend(measured);
        failures.extend(failed);
    }
    let table = render(&cells);
    println!("{table}");
    let violations: Vec<String> = cells.iter().flat_map(Cell::violations).collect();
    assert!(
        violations.is_empty(),
        "bounds exceeded:\n{}\n\n{table}",
        violations.join("\n")
    );

    let unexpected: Vec<_> = failures
        .iter()
        .filter(|f| known_reference_failure(f.function, &f.message).is_none())
        .cloned()
        .collect();
    assert!(
        unexpected.is_empty(),
        "the reference failed on inputs outside the known failure classes:\n{}",
        render_failures(&unexpected)
    );
    for known in KNOWN_REFERENCE_FAILURES {
        let count = failures
            .iter()
            .filter(|f| f.function == known.function && f.message.contains(known.message_contains))
            .count();
        println!(
            "known reference failure ({} / {}): {count} inputs",
            known.function.cli_name(),
            known.message_contains
        );
        assert!(
            count > 0,
            "known reference failure `{}` for {} no longer occurs: remove it from conformance/src/tolerances.rs",
            known.message_contains,
            known.function.cli_name()
        );
    }
    if points.is_none() {
        let report = format!(
            "{table}\nreference failures (known classes, not in the table): {}\n{}",
            failures.len(),
            render_failures(&failures)
        );
        insta::assert_snapshot!("conformance_table", report);
    }
}

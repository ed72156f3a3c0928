//! Fast against reference over the stratified input sets: every function × region cell must be
//! within its bound (`conformance/src/tolerances.rs`), and the measured table is kept as a
//! snapshot so that any numeric change is a reviewed diff (`cargo insta review`). Inputs the
//! reference cannot answer must belong to a known failure class of the tolerance file, and every
//! known class must still occur.
use pbgi_conformance::cross_check::{default_per_stratum, measure, render, render_failures};
use pbgi_conformance::function::Function;
use pbgi_conformance::tolerances::{known_reference_failure, KNOWN_REFERENCE_FAILURES};

#[test]
fn conformance_table() {
    let mut cells = Vec::new();
    let mut failures = Vec::new();
    for function in Function::CONFORMANCE {
        let (measured, failed) = measure(function, default_per_stratum(function));
        cells.extend(measured);
        failures.extend(failed);
    }
    let table = render(&cells);
    println!("{table}");
    let failing: Vec<String> = cells
        .iter()
        .filter(|c| !c.passes())
        .map(|c| {
            let worst = c.errors.worst().first().map(|(_, case)| {
                pbgi_conformance::cross_check::describe_args(c.function, &case.args)
            });
            format!(
                "{} in {}: max {} ULP > bound {} ({}); worst input {}",
                c.function.cli_name(),
                c.region.label(),
                c.errors.max(),
                c.tolerance.max_ulp,
                c.tolerance.reason,
                worst.unwrap_or_default()
            )
        })
        .collect();
    assert!(
        failing.is_empty(),
        "bounds exceeded:\n{}\n\n{table}",
        failing.join("\n")
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
    let report = format!(
        "{table}\nreference failures (known classes, not in the table): {}\n{}",
        failures.len(),
        render_failures(&failures)
    );
    insta::assert_snapshot!("conformance_table", report);
}

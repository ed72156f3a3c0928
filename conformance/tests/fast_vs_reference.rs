//! Fast against reference over the stratified input sets: every function × region cell must be
//! within its bound (`conformance/src/tolerances.rs`), and the measured table is kept as a
//! snapshot so that any numeric change is a reviewed diff (`cargo insta review`).
use pbgi_conformance::cross_check::{default_per_stratum, measure, render};
use pbgi_conformance::function::Function;

#[test]
fn conformance_table() {
    let mut cells = Vec::new();
    for function in Function::ALL {
        cells.extend(measure(function, default_per_stratum(function)).expect("reference certifies the input set"));
    }
    let table = render(&cells);
    println!("{table}");
    let failing: Vec<String> = cells
        .iter()
        .filter(|c| !c.passes())
        .map(|c| {
            let worst = c.errors.worst().first().map(|(_, case)| {
                case.args.iter().map(|a| format!("{a:e} ({:#018x})", a.to_bits())).collect::<Vec<_>>().join(", ")
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
    assert!(failing.is_empty(), "bounds exceeded:\n{}\n\n{table}", failing.join("\n"));
    insta::assert_snapshot!("conformance_table", table);
}

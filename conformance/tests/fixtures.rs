//! The golden fixture files (values and edge cases): they must be exactly what the reference
//! produces now, and the fast crate must be within its bounds (`conformance/src/tolerances.rs`)
//! on every row of the values.
use pbgi_conformance::csv_io::{format_hex_bits, ArgumentReader};
use pbgi_conformance::fixtures_gen::{file_name, Fixture};
use pbgi_conformance::function::Function;
use pbgi_conformance::regions::Region;
use pbgi_conformance::tolerances::fast_tolerance;
use pbgi_conformance::ulp::error_in_ulps;
use std::path::PathBuf;

fn fixture_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fixtures")
}

#[test]
fn checked_in_fixtures_match_the_reference() {
    let mut differences = Vec::new();
    for fixture in Fixture::all() {
        if let Some(message) = fixture
            .difference(&fixture_dir())
            .expect("fixtures readable")
        {
            differences.push(message);
        }
    }
    assert!(
        differences.is_empty(),
        "regenerate with `pbgi fixtures --write` only together with the change that causes this:\n{}",
        differences.join("\n")
    );
}

#[test]
fn fast_is_within_its_bounds_on_every_fixture_row() {
    // The functions with a bound and fixtures (the unknown-cost variants have no fixtures yet).
    for function in Function::CONFORMANCE
        .into_iter()
        .filter(|f| Function::ALL.contains(f))
    {
        let path = fixture_dir().join(file_name(function));
        let file = std::fs::File::open(&path).expect("fixture file exists");
        let mut reader =
            ArgumentReader::new(std::io::BufReader::new(file), function, &["value"], &[])
                .expect("fixture header");
        let hex_column = reader
            .headers()
            .iter()
            .position(|h| h == "value_hex")
            .expect("value_hex column");
        let mut worst: Option<(f64, f64, Vec<f64>, f64, f64)> = None;
        let mut rows = 0;
        while let Some(row) = reader.next_row().expect("fixture row") {
            let value = row.extras[0];
            assert_eq!(
                format_hex_bits(value),
                reader.record()[hex_column],
                "{} line {}: value and value_hex agree",
                path.display(),
                row.line
            );
            let fast = pbgi_conformance::oracle::fast(function, &row.args);
            let error = error_in_ulps(function, &row.args, fast, value);
            let allowed =
                fast_tolerance(function, Region::of_row(function, &row.args, value)).max_ulp;
            let excess = error / allowed.max(f64::MIN_POSITIVE);
            if error > allowed && worst.as_ref().is_none_or(|w| excess > w.0) {
                worst = Some((excess, error, row.args.clone(), fast, value));
            }
            rows += 1;
        }
        assert!(rows > 0, "{} has rows", path.display());
        if let Some((_, error, args, fast, value)) = worst {
            let inputs: Vec<String> = function
                .input_columns()
                .iter()
                .zip(&args)
                .map(|(name, a)| format!("{name}={a:e} ({})", format_hex_bits(*a)))
                .collect();
            panic!(
                "pbgi-fast {} off by {error} ULP (beyond its bound) at {}: fast {fast:e} ({}), fixture {value:e} ({})",
                function.cli_name(),
                inputs.join(" "),
                format_hex_bits(fast),
                format_hex_bits(value)
            );
        }
    }
}

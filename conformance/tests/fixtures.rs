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
    // The functions with a bound and fixtures (the unknown-cost variants have no fixtures yet),
    // every output column (a gradient's columns are each held to the gradient's bound).
    for function in Function::CONFORMANCE
        .into_iter()
        .filter(|f| Function::ALL.contains(f))
    {
        let path = fixture_dir().join(file_name(function));
        let file = std::fs::File::open(&path).expect("fixture file exists");
        let columns = function.output_columns();
        let mut reader = ArgumentReader::new(std::io::BufReader::new(file), function, columns, &[])
            .expect("fixture header");
        let hex_columns: Vec<usize> = columns
            .iter()
            .map(|c| {
                let hex = format!("{c}_hex");
                reader
                    .headers()
                    .iter()
                    .position(|h| *h == hex)
                    .unwrap_or_else(|| panic!("{} has a {hex} column", path.display()))
            })
            .collect();
        let mut worst: Option<(f64, f64, Vec<f64>, &str, f64, f64)> = None;
        let mut rows = 0;
        while let Some(row) = reader.next_row().expect("fixture row") {
            for (k, &column) in columns.iter().enumerate() {
                assert_eq!(
                    format_hex_bits(row.extras[k]),
                    reader.record()[hex_columns[k]],
                    "{} line {}: {column} and {column}_hex agree",
                    path.display(),
                    row.line
                );
            }
            let fast =
                pbgi_conformance::oracle::fast_all(function, &row.args).expect("in the fast crate");
            let region = Region::of_row(function, &row.args, row.extras[0]);
            let allowed = fast_tolerance(function, region).max_ulp;
            for (k, &column) in columns.iter().enumerate() {
                let value = row.extras[k];
                let error = error_in_ulps(function, &row.args, fast[k], value);
                let excess = error / allowed.max(f64::MIN_POSITIVE);
                if error > allowed && worst.as_ref().is_none_or(|w| excess > w.0) {
                    worst = Some((excess, error, row.args.clone(), column, fast[k], value));
                }
            }
            rows += 1;
        }
        assert!(rows > 0, "{} has rows", path.display());
        if let Some((_, error, args, column, fast, value)) = worst {
            let inputs: Vec<String> = function
                .input_columns()
                .iter()
                .zip(&args)
                .map(|(name, a)| format!("{name}={a:e} ({})", format_hex_bits(*a)))
                .collect();
            panic!(
                "pbgi-fast {} ({column}) off by {error} ULP (beyond its bound) at {}: fast {fast:e} ({}), fixture {value:e} ({})",
                function.cli_name(),
                inputs.join(" "),
                format_hex_bits(fast),
                format_hex_bits(value)
            );
        }
    }
}

/// A scratch fixture directory holding `h.csv` with `contents` (or a link to `target`).
fn tampered_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pbgi-fixtures-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn h_difference(dir: &std::path::Path) -> String {
    Fixture::Values(Function::H)
        .difference(dir)
        .unwrap()
        .expect("the tampered file differs")
}

#[test]
fn line_ends_are_named_where_they_differ() {
    let genuine = Fixture::Values(Function::H).generate().unwrap();
    // Reported: CRLF, or a missing final newline, gave "(end of file)" on both sides.
    let dir = tampered_dir("crlf");
    std::fs::write(dir.join("h.csv"), genuine.replace('\n', "\r\n")).unwrap();
    let message = h_difference(&dir);
    assert!(message.contains("line 1 differs"), "{message}");
    let file_side = message
        .lines()
        .find(|l| l.trim_start().starts_with("file:"))
        .unwrap();
    assert!(file_side.ends_with("\\r"), "{message}");
    assert!(!message.contains("(end of file)"), "{message}");

    let dir = tampered_dir("no-final-newline");
    std::fs::write(dir.join("h.csv"), genuine.strip_suffix('\n').unwrap()).unwrap();
    let message = h_difference(&dir);
    let last = genuine.lines().count();
    assert!(
        message.contains(&format!("line {last} differs")),
        "{message}"
    );
    assert!(message.contains("(no newline at end of file)"), "{message}");
    assert!(!message.contains("(end of file)"), "{message}");
}

#[test]
fn a_huge_or_endless_file_costs_no_more_than_the_fixture() {
    let genuine = Fixture::Values(Function::H).generate().unwrap();
    // A 20 MB line in place of line 2: the message shows 200 characters of it.
    let dir = tampered_dir("huge-line");
    let first = genuine.lines().next().unwrap();
    std::fs::write(
        dir.join("h.csv"),
        format!("{first}\n{}\n", "7".repeat(20 << 20)),
    )
    .unwrap();
    let message = h_difference(&dir);
    assert!(message.contains("line 2 differs"), "{message}");
    assert!(message.len() < 1000, "{} bytes of message", message.len());
    assert!(message.contains("more characters"), "{message}");
    #[cfg(unix)]
    {
        // Endless: a link to /dev/zero (reported: 4.6 GB read).
        let dir = tampered_dir("endless");
        std::os::unix::fs::symlink("/dev/zero", dir.join("h.csv")).unwrap();
        let message = h_difference(&dir);
        assert!(message.contains("line 1 differs"), "{message}");
        // 200 NUL characters, each shown as `\u{0}`.
        assert!(message.len() < 2000, "{} bytes of message", message.len());
    }
}

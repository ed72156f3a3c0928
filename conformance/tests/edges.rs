//! The edge-case conformance set (`pbgi_conformance::edges`): its limit table is checked against
//! an independent implementation of the special values, `pbgi-fast` (whose rustdoc documents
//! its answers at NaN, ±inf, σ = 0, σ < 0 and cost ≤ 0), and its grading is checked on answers
//! known to be wrong.
use pbgi_conformance::csv_io::format_shortest;
use pbgi_conformance::edges::{edge_cases, grade, Answer, EdgeReport};
use pbgi_conformance::function::Function;
use pbgi_conformance::oracle::{fast_all, fast_has};

/// A file of answers at every edge case of `function`, from `answer`.
fn answers_file(function: Function, answer: impl Fn(&[f64]) -> Vec<String>) -> String {
    let mut text = function.input_columns().join(",");
    text.push(',');
    text.push_str(&function.output_columns().join(","));
    text.push('\n');
    for case in edge_cases(function).unwrap() {
        let args: Vec<String> = case.args.iter().map(|&a| format_shortest(a)).collect();
        text.push_str(&args.join(","));
        text.push(',');
        text.push_str(&answer(&case.args).join(","));
        text.push('\n');
    }
    text
}

fn graded(function: Function, text: &str) -> EdgeReport {
    grade(function, text.as_bytes(), "answers.csv", 4.0).unwrap()
}

/// The failing cases of a report, as `case` names.
fn failures(report: &EdgeReport) -> Vec<&'static str> {
    report
        .verdicts
        .iter()
        .filter(|v| !v.passed())
        .map(|v| v.case.case)
        .collect()
}

/// Where `pbgi-fast` knowingly differs from the convention, with the reason; the test fails when
/// one of these starts to pass (then the entry goes).
const FAST_KNOWN_DIFFERENCES: &[(Function, &str, &str)] = &[];

#[test]
fn pbgi_fast_meets_the_edge_convention() {
    let mut unexpected = Vec::new();
    for function in Function::ALL.into_iter().filter(|&f| fast_has(f)) {
        let text = answers_file(function, |args| {
            fast_all(function, args)
                .unwrap()
                .into_iter()
                .map(|v| {
                    if v.is_nan() {
                        "nan".to_string()
                    } else {
                        format_shortest(v)
                    }
                })
                .collect()
        });
        let report = graded(function, &text);
        let failing = failures(&report);
        for case in &failing {
            if !FAST_KNOWN_DIFFERENCES
                .iter()
                .any(|(f, c, _)| *f == function && c == case)
            {
                unexpected.push(format!("{}: {case}", function.cli_name()));
            }
        }
        for (f, case, reason) in FAST_KNOWN_DIFFERENCES
            .iter()
            .filter(|(f, ..)| *f == function)
        {
            assert!(
                failing.contains(case),
                "{} `{case}` passes now: remove it from FAST_KNOWN_DIFFERENCES ({reason})",
                f.cli_name()
            );
        }
        if !failing.is_empty() {
            println!("{}", report.render_text());
        }
    }
    assert!(
        unexpected.is_empty(),
        "pbgi-fast disagrees with the edge set (a wrong limit in conformance/src/edges.rs, or in \
         pbgi-fast): {unexpected:?}"
    );
}

#[test]
fn the_documented_answers_pass_and_wrong_ones_fail_by_class() {
    let function = Function::Ei;
    let documented = answers_file(function, |args| {
        let case = edge_cases(function)
            .unwrap()
            .into_iter()
            .find(|c| {
                c.args
                    .iter()
                    .zip(args)
                    .all(|(a, b)| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()))
            })
            .unwrap();
        case.documented.iter().map(|a| a.text()).collect()
    });
    assert!(graded(function, &documented).passed());

    // A finite number for NaN input, a clamped sigma (sigma < 0 treated as 0: EI = max(y - mu, 0)
    // = 0), the wrong limit at y = -inf, and +inf where the value is finite all fail.
    let wrong = documented
        .replace("NaN,1,0,error", "NaN,1,0,0.5")
        .replace("0,-1,0,error", "0,-1,0,0")
        .replace("0,1,-inf,error", "0,1,-inf,inf")
        .replace(
            "0,1.7976931348623157e308,0,7.171757986839725e307",
            "0,1.7976931348623157e308,0,inf",
        );
    let report = graded(function, &wrong);
    assert_eq!(
        failures(&report),
        ["mu = NaN", "sigma < 0", "y = -inf", "sigma = max finite"]
    );
    let text = report.render_text();
    assert!(text.contains("4 failed"), "{text}");

    // NaN or a limit where the reference refuses are accepted; a number 1 ULP off passes within
    // the bound.
    let lenient = documented
        .replace("NaN,1,0,error", "NaN,1,0,nan")
        .replace("0,1,inf,error", "0,1,inf,inf")
        .replace(
            "0,1.7976931348623157e308,0,7.171757986839725e307",
            &format!(
                "0,1.7976931348623157e308,0,{}",
                format_shortest(f64::from_bits(7.171757986839725e307f64.to_bits() + 1))
            ),
        );
    assert!(graded(function, &lenient).passed());
}

#[test]
fn missing_unknown_and_repeated_cases_are_reported() {
    let function = Function::Pbgi;
    let header = "mu,sigma,cost,value\n";
    let one = "NaN,1,0.1,nan\n";
    let report = graded(function, &format!("{header}{one}"));
    assert!(!report.passed());
    assert_eq!(
        report.verdicts.iter().filter(|v| v.line.is_none()).count(),
        report.verdicts.len() - 1
    );
    assert!(report.render_text().contains("(missing)"));
    let error = grade(
        function,
        format!("{header}0,1,0.2,1\n").as_bytes(),
        "x.csv",
        4.0,
    )
    .unwrap_err();
    assert!(
        error.starts_with("line 2: these arguments are not an edge case of pbgi"),
        "{error}"
    );
    let error = grade(
        function,
        format!("{header}{one}{one}").as_bytes(),
        "x.csv",
        4.0,
    )
    .unwrap_err();
    assert_eq!(
        error,
        "line 3: the edge case `mu = NaN` appears twice (first on line 2)"
    );
    let error = grade(
        function,
        format!("{header}NaN,1,0.1,maybe\n").as_bytes(),
        "x.csv",
        4.0,
    )
    .unwrap_err();
    assert!(
        error.starts_with("line 2, column `value`: `maybe` is not a number"),
        "{error}"
    );
    assert_eq!(Answer::parse("error").unwrap(), Answer::Error);
}

//! The Pandora instance format: exact number reading and error messages that name the box and
//! field. Expected values are hand-computed.
use pbgi_conformance::pandora::format::{parse_exact, read_instance};
use rug::Rational;

fn r(num: i64, den: i64) -> Rational {
    Rational::from((num, den))
}

#[test]
fn numbers_are_read_exactly() {
    assert_eq!(parse_exact("0.1").unwrap(), r(1, 10));
    assert_eq!(parse_exact("-2.5e-3").unwrap(), r(-1, 400));
    assert_eq!(parse_exact("3/10").unwrap(), r(3, 10));
    assert_eq!(parse_exact("-6/4").unwrap(), r(-3, 2));
    assert_eq!(parse_exact("1E2").unwrap(), r(100, 1));
    assert_eq!(
        parse_exact("0.30000000000000004").unwrap(),
        r(30000000000000004, 100000000000000000)
    );
    for bad in [
        "", "1/0", "inf", "NaN", "0x10", " 1", "1.", ".5", "1/-2", "--1", "1e", "1e99999",
    ] {
        assert!(parse_exact(bad).is_err(), "accepted {bad:?}");
    }
}

#[test]
fn json_numbers_keep_their_text() {
    let file = read_instance(
        r#"{"outside": 0.1, "boxes": [{"cost": 0.30000000000000004, "values": [0.1], "probs": [1]}]}"#,
    )
    .unwrap();
    assert_eq!(file.instance.outside(), Some(&r(1, 10)));
    assert_eq!(
        file.instance.boxes()[0].cost(),
        &r(30000000000000004, 100000000000000000)
    );
}

#[test]
fn errors_name_box_and_field() {
    let cases = [
        (
            r#"{"boxes": [{"cost": 1, "values": [0], "probs": [1]}, {"cost": -1, "values": [0], "probs": [1]}]}"#,
            r#"box 1: field "cost": must be > 0, got "-1""#,
        ),
        (
            r#"{"boxes": [{"cost": 1, "values": [0], "probs": [1], "colour": "red"}]}"#,
            r#"box 0: field "colour": unknown field"#,
        ),
        (
            r#"{"boxes": [{"cost": 1, "values": [0, 1], "probs": ["1/2", "1/3"]}]}"#,
            r#"box 0: field "probs": must sum to exactly 1, sum is "5/6""#,
        ),
        (
            r#"{"boxes": [{"cost": 1, "normal": {"mean": 0, "sd": "0"}}]}"#,
            r#"box 0: field "sd": must be > 0, got "0""#,
        ),
        (
            r#"{"boxes": [{"cost": 1, "values": ["x"], "probs": [1]}]}"#,
            r#"box 0: field "values[0]": not an exact number"#,
        ),
        (
            r#"{"boxes": []}"#,
            r#"field "boxes": must contain at least one box"#,
        ),
        (
            r#"{"boxes": [], "boxes": []}"#,
            "line 1, column 15: duplicate key",
        ),
        (
            r#"{"outside": true, "boxes": []}"#,
            r#"field "outside": expected a number"#,
        ),
    ];
    for (text, expected) in cases {
        let message = read_instance(text).unwrap_err();
        assert!(
            message.starts_with(expected),
            "{text}\n  gave: {message}\n  want: {expected}"
        );
    }
}

/// Text from the file is quoted with its line breaks escaped, so every error is one line.
#[test]
fn errors_quote_input_text_on_one_line() {
    let cases = [
        (
            r#"{"boxes": [{"cost": 1, "values": [0], "probs": [1], "a\nb": 1}]}"#,
            r#"box 0: field "a\nb": unknown field"#,
        ),
        (
            r#"{"boxes": [{"cost": "1\n2", "values": [0], "probs": [1]}]}"#,
            r#"box 0: field "cost": not an exact number (decimal or "p/q"): "1\n2""#,
        ),
        (
            r#"{"x\"y": 1, "x\"y": 2}"#,
            r#"line 1, column 13: duplicate key "x\"y""#,
        ),
        (
            r#"{"description": ["a"], "boxes": []}"#,
            r#"field "description": expected a string, got an array"#,
        ),
    ];
    for (text, expected) in cases {
        let message = read_instance(text).unwrap_err();
        assert!(message.starts_with(expected), "{text}: {message}");
        assert!(!message.contains('\n'), "{text}: {message}");
    }
}

/// Columns count characters, not bytes: "é" (2 bytes) and "→" (3 bytes) are one column each.
#[test]
fn columns_count_characters() {
    let message = read_instance("{\"é→\": 1 2}").unwrap_err();
    assert!(message.starts_with("line 1, column 10: "), "{message}");
    let message = read_instance("{\"boxes\": [],\n \"é\": \"→\" 2}").unwrap_err();
    assert!(message.starts_with("line 2, column 11: "), "{message}");
}

/// Duplicate keys are found by hashing: an object of 200 000 keys (3 MB) reads in milliseconds
/// and the duplicate at its end is found (comparing every pair took over a minute).
#[test]
fn many_keys_read_in_linear_time() {
    let n = 200_000;
    let keys: Vec<String> = (0..n).map(|i| format!("\"k{i}\": 0")).collect();
    let text = format!("{{\"x\": {{{}, \"k7\": 1}}}}", keys.join(","));
    let message = read_instance(&text).unwrap_err();
    assert!(message.contains("duplicate key \"k7\""), "{message}");
}

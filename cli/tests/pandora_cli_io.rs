//! `pbgi pandora` end to end under hostile conditions: a full disk, a reader that goes away,
//! malformed or endless instance files. Each ends in a one-line error with status 2 (or a quiet
//! stop with status 141), never a panic (statuses: `cli/src/io.rs`).
use std::path::PathBuf;
use std::process::{Output, Stdio};

mod common;

use common::{pandora_fixture as fixture, pbgi, stderr};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pbgi-pandora-cli-io-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Exit status 2 and exactly one line on standard error, `pbgi: error: <expected>...`.
fn assert_one_line_error(out: &Output, expected: &str) {
    let message = stderr(out);
    assert_eq!(out.status.code(), Some(2), "{message}");
    assert!(
        message.starts_with(&format!("pbgi: error: {expected}")) && message.lines().count() == 1,
        "{message}"
    );
}

#[test]
fn a_full_disk_is_a_one_line_error() {
    for args in [
        vec!["two_boxes.json"],
        vec!["two_boxes.json", "--engine", "fast", "--simulate", "1000"],
        vec!["mixed_normal.json"],
    ] {
        let mut command = pbgi();
        command
            .arg("pandora")
            .arg(fixture(args[0]))
            .args(&args[1..]);
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full exists");
        let out = command.stdout(full).output().unwrap();
        assert_one_line_error(&out, "cannot write to standard output: No space left");
    }
}

#[test]
fn a_reader_that_goes_away_ends_the_run_quietly() {
    // The reader closes before the report is written (the normal boxes take most of a second to
    // evaluate): status 141, nothing on standard error.
    let mut child = pbgi()
        .arg("pandora")
        .arg(fixture("mixed_normal.json"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(141), "{}", stderr(&out));
    assert_eq!(stderr(&out), "");
}

#[test]
fn malformed_instances_name_the_file_and_place() {
    let path = scratch("malformed.json");
    let shown = path.display().to_string();
    let cases: [(&[u8], String); 5] = [
        (
            b"{\"boxes\": [\n {\"cost\": 1,}\n]}",
            format!("{shown}: line 2, column 13: expected a string key in object"),
        ),
        (
            b"{\"boxes\": [{\"cost\": 1, \"values\": [0], \"probs\": [1]}]",
            format!("{shown}: line 1, column 53: expected ',' or '}}' in object"),
        ),
        (
            b"{\"boxes\": [{\"cost\": \"1e-x\", \"values\": [0], \"probs\": [1]}]}",
            format!("{shown}: box 0: field \"cost\": not an exact number"),
        ),
        (
            b"{\"outside\": 1,\n\"boxes\": [{\"cost\": 1, \"values\": [\"\xff\"], \"probs\": [1]}]}",
            format!("{shown}: line 2 is not valid UTF-8"),
        ),
        (
            b"\xef\xbb\xbf{\"boxes\": [{\"cost\": 1, \"values\": [0], \"probs\": [1]}], \"x\": 1}",
            format!("{shown}: field \"x\": unknown field"),
        ),
    ];
    for (bytes, expected) in cases {
        std::fs::write(&path, bytes).unwrap();
        let out = pbgi().arg("pandora").arg(&path).output().unwrap();
        assert_one_line_error(&out, &expected);
        assert!(out.stdout.is_empty());
    }
    let missing = scratch("no-such-file.json");
    let out = pbgi().arg("pandora").arg(&missing).output().unwrap();
    assert_one_line_error(&out, &format!("cannot read {}: ", missing.display()));
}

#[test]
fn an_endless_instance_file_stops_at_the_file_limit() {
    let out = pbgi().args(["pandora", "/dev/zero"]).output().unwrap();
    assert_one_line_error(
        &out,
        "/dev/zero: the file is larger than 16 MiB, the limit for configuration and instance files",
    );
}

/// `n` normal boxes with distinct parameters, as an instance file.
fn normal_boxes(name: &str, n: usize) -> PathBuf {
    let boxes: Vec<String> = (0..n)
        .map(|i| {
            format!(
                "{{\"cost\":{},\"normal\":{{\"mean\":{},\"sd\":{}}}}}",
                0.1 + 0.001 * i as f64,
                0.01 * i as f64,
                1.0 + 0.001 * i as f64
            )
        })
        .collect();
    let path = scratch(name);
    std::fs::write(&path, format!("{{\"boxes\":[{}]}}", boxes.join(","))).unwrap();
    path
}

#[test]
fn normal_box_work_is_bounded_before_it_starts_and_visible_while_it_runs() {
    // Reported: 1000 normal boxes ran over 120 s with no progress line. The quadrature's work
    // is estimated first and refused beyond --max-work, at once, with the estimate and the flag.
    for (n, limit) in [(1000, None), (20, None), (6, Some("1e9"))] {
        let path = normal_boxes(&format!("normal{n}.json"), n);
        let started = std::time::Instant::now();
        let mut cmd = pbgi();
        cmd.arg("pandora").arg(&path);
        if let Some(limit) = limit {
            cmd.args(["--max-work", limit]);
        }
        let out = cmd.output().unwrap();
        assert!(started.elapsed().as_secs() < 5, "{n} boxes: refused late");
        let message = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{n}: {message}");
        assert!(
            message.contains("the normal-box quadrature needs about")
                && message.contains(&format!("× {n} boxes"))
                && message.contains("raise it with --max-work"),
            "{n}: {message}"
        );
    }
    // Within the limit, a run over two seconds says where it is (6 boxes: about 4 s).
    let path = normal_boxes("normal6.json", 6);
    let out = pbgi().arg("pandora").arg(&path).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("pbgi pandora: normal-box quadrature: "),
        "{}",
        stderr(&out)
    );
}

#[test]
fn exact_discrete_work_is_bounded_by_max_work_and_the_dp_note_gives_the_real_size() {
    // Discrete boxes with prime denominators: the numbers grow with every box. Every exact
    // step (the policy's evaluation, the KWW objective, the DP) answers to --max-work.
    let primes: Vec<u64> = (2u64..)
        .filter(|k| (2..*k).take_while(|d| d * d <= *k).all(|d| k % d != 0))
        .take(1000)
        .collect();
    let boxes: Vec<String> = primes
        .iter()
        .enumerate()
        .map(|(i, p)| {
            format!(
                "{{\"cost\":\"1/{p}\",\"values\":[\"{}/{p}\",\"{}/{p}\"],\"probs\":[\"1/{p}\",\"{}/{p}\"]}}",
                i % 7,
                p + i as u64,
                p - 1
            )
        })
        .collect();
    let path = scratch("primes.json");
    std::fs::write(
        &path,
        format!("{{\"outside\":\"1000\",\"boxes\":[{}]}}", boxes.join(",")),
    )
    .unwrap();
    let out = pbgi().arg("pandora").arg(&path).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    // Reported: "needs 18446744073709551615 states … raise it with --max-states 0".
    let note = stderr(&out);
    assert!(
        note.contains("needs 2^1000 × ") && note.contains("(about 1e30"),
        "{note}"
    );
    assert!(
        !note.contains("18446744073709551615") && !note.contains("--max-states 0"),
        "{note}"
    );
    let out = pbgi()
        .arg("pandora")
        .arg(&path)
        .args(["--max-work", "1e6"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("work units") && stderr(&out).contains("--max-work"),
        "{}",
        stderr(&out)
    );
}

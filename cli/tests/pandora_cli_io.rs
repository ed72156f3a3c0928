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

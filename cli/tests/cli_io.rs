//! End-to-end tests of the tool's input and output under hostile conditions: a full disk, a
//! reader that goes away, a closed standard output, endless input. Each must end in a one-line
//! error or a quiet stop with the documented exit status (`cli/src/io.rs`), never a
//! panic or a silent success.
mod common;

use common::{dev_full, pbgi, text};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

/// `pbgi ARGS` with every standard stream piped.
fn spawn_piped(args: &[&str]) -> std::process::Child {
    pbgi()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pbgi runs")
}

/// Runs `args` with standard output on `/dev/full` and `input` on standard input; expects exit
/// status 2 and exactly one line on standard error saying that the output could not be written.
fn assert_full_disk_is_an_error(args: &[&str], input: &str) {
    let mut child = pbgi()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(dev_full())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pbgi runs");
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let message = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {message}");
    assert!(
        message.starts_with("pbgi: error: cannot write to standard output: No space left")
            && message.lines().count() == 1,
        "{args:?}: {message}"
    );
}

#[test]
fn a_full_disk_is_a_one_line_error() {
    assert_full_disk_is_an_error(&["eval", "--example"], "");
    assert_full_disk_is_an_error(&["eval", "ei"], "mu,sigma,y\n0,1,0\n");
    assert_full_disk_is_an_error(
        &["eval", "pbgi", "--engine", "fast"],
        "mu,sigma,cost\n0,1,1\n",
    );
    assert_full_disk_is_an_error(&["--help"], "");
    let dir = std::env::temp_dir().join(format!("pbgi-cli-io-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let their = dir.join("their.csv");
    std::fs::write(&their, "mu,sigma,y,value\n0,1,0,0.3989422804014327\n").unwrap();
    assert_full_disk_is_an_error(&["check", "ei", their.to_str().unwrap()], "");
}

#[test]
fn a_closed_standard_output_is_an_error_not_a_silent_success() {
    // `pbgi eval ei >&-`: the Rust runtime reopens the descriptor on /dev/null read-write.
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "printf 'mu,sigma,y\\n0,1,0\\n' | '{}' eval ei >&-",
            env!("CARGO_BIN_EXE_pbgi")
        ))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stderr),
        "pbgi: error: standard output is closed; redirect it (to /dev/null to discard the results)\n"
    );
    // Redirected to /dev/null on purpose: that is fine.
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "printf 'mu,sigma,y\\n0,1,0\\n' | '{}' eval ei > /dev/null",
            env!("CARGO_BIN_EXE_pbgi")
        ))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn standard_output_on_dev_null_opened_read_write_is_not_closed() {
    // Python's `subprocess.DEVNULL` opens /dev/null read-write, exactly the descriptor the Rust
    // runtime puts in place of a closed standard output; it is a redirection on purpose.
    let dev_null = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/null")
        .expect("/dev/null exists");
    let mut child = pbgi()
        .args(["eval", "ei"])
        .stdin(Stdio::piped())
        .stdout(Stdio::from(dev_null))
        .stderr(Stdio::piped())
        .spawn()
        .expect("pbgi runs");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"mu,sigma,y\n0,1,0\n").unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stderr), "");
    // The shell's read-write redirection: the same.
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "printf 'mu,sigma,y\\n0,1,0\\n' | '{}' eval ei 1<> /dev/null",
            env!("CARGO_BIN_EXE_pbgi")
        ))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stderr), "");
}

#[test]
fn a_reader_that_goes_away_ends_the_run_quietly() {
    // `pbgi eval ... | head -1`: read one line, close the pipe, the tool must stop with status 141
    // and nothing on standard error.
    let mut child = spawn_piped(&["eval", "ei", "--engine", "fast"]);
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(b"mu,sigma,y\n");
        let row = b"0,1,0\n".repeat(10_000);
        // Far more than any pipe buffer; ends when the tool stops reading.
        for _ in 0..200 {
            if stdin.write_all(&row).is_err() {
                break;
            }
        }
    });
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert_eq!(first, "mu,sigma,y,value\n");
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    assert_eq!(out.status.code(), Some(141), "{}", text(&out.stderr));
    assert_eq!(text(&out.stderr), "");
}

#[test]
fn endless_input_stops_at_the_record_limit() {
    let out = pbgi()
        .args(["eval", "ei"])
        .stdin(Stdio::from(std::fs::File::open("/dev/zero").unwrap()))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "pbgi: error: line 1: the line is longer than 1 MiB, the limit of one record\n"
    );
    // A long line after good rows: the rows before it are written in full.
    let mut input = b"mu,sigma,y\n0,1,0\n".to_vec();
    input.extend(std::iter::repeat_n(b'7', 2 << 20));
    let mut child = spawn_piped(&["eval", "ei", "--engine", "fast"]);
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "pbgi: error: line 3: the line is longer than 1 MiB, the limit of one record \
         (1 row before it written)\n"
    );
    assert_eq!(text(&out.stdout).lines().count(), 2);
}

#[test]
fn usage_errors_and_help_keep_their_statuses() {
    let out = pbgi().arg("--help").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).contains("Usage: pbgi"));
    let out = pbgi().args(["eval", "--no-such-flag"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--no-such-flag"));
}

//! Shared set-up of the `pbgi` tool's end-to-end tests: the built binary, its output as text, a
//! full disk and scratch directories; and, from the conformance tests' shared module (one file
//! for both crates), the seeded proptest configuration and the Pandora fixtures.
// Each test file uses some of these.
#![allow(dead_code, unused_imports)]
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

#[path = "../../../conformance/tests/common/mod.rs"]
mod conformance_common;
pub use conformance_common::{config, pandora_fixture, PANDORA_FIXTURES};

/// The built `pbgi` binary, ready for arguments.
pub fn pbgi() -> Command {
    Command::new(env!("CARGO_BIN_EXE_pbgi"))
}

/// `pbgi ARGS` run to the end with `stdin` on standard input and both outputs captured.
pub fn pbgi_with_input(args: &[&str], stdin: &str) -> Output {
    let mut child = pbgi()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pbgi runs");
    // Feed stdin from another thread: a large input would otherwise deadlock against the
    // output pipe filling up.
    let mut pipe = child.stdin.take().expect("piped");
    let input = stdin.to_string();
    let feeder = std::thread::spawn(move || {
        // The child may stop reading early (on a bad row); a broken pipe is fine then.
        let _ = pipe.write_all(input.as_bytes());
    });
    let output = child.wait_with_output().expect("pbgi finishes");
    feeder.join().expect("feeder thread");
    output
}

/// Bytes the tool wrote, as text (it writes only UTF-8).
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8")
}

/// Standard output of a run, as text.
pub fn stdout(output: &Output) -> String {
    text(&output.stdout)
}

/// Standard error of a run, as text.
pub fn stderr(output: &Output) -> String {
    text(&output.stderr)
}

/// `/dev/full` as a standard stream: every write fails with `ENOSPC`.
pub fn dev_full() -> Stdio {
    Stdio::from(
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full exists"),
    )
}

/// A fresh, empty scratch directory `pbgi-NAME-<pid>` under the system's temporary directory.
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pbgi-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

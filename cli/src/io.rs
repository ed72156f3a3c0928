//! Input and output of the `pbgi` tool, shared by every subcommand, so that nothing is lost,
//! half-written or allowed to grow without bound.
//!
//! - **Standard output.** Rust ignores `SIGPIPE`, so a write to a closed pipe returns `EPIPE`
//!   (and `println!` panics on it). Subcommands write through [`print()`] / [`Stdout`] instead:
//!   `EPIPE` becomes [`CliError::BrokenPipe`] (the tool ends quietly with status
//!   [`EXIT_BROKEN_PIPE`], as a shell reports a tool killed by `SIGPIPE`, so
//!   `pbgi eval … | head -1` ends without a message), any other write error (`ENOSPC` on
//!   `/dev/full`, ...) a one-line error with status [`EXIT_ERROR`]. A standard output that was
//!   closed when the tool started is an error too ([`check_stdout_open`]): the Rust runtime
//!   would otherwise reopen it on `/dev/null` and the results would vanish with status 0.
//! - **Result files** are written with [`write_atomic`] (a temporary file in the same directory,
//!   then a rename): a reader sees the old file or the complete new one, never a part.
//!   [`ensure_writable_dir`] checks an output directory before a long run starts. Where a
//!   command may write at all is one rule ([`crate::output_paths`]: a new path or a regular
//!   file, never one of its inputs), and a study's output directory is replaced whole
//!   ([`crate::publish`]).
//! - **Input bounds.** One line or CSV record is at most [`MAX_RECORD_BYTES`] (1 MiB)
//!   ([`read_line_capped`]); a whole configuration or instance file at most [`MAX_FILE_BYTES`]
//!   (16 MiB) ([`read_text_file`]). Beyond them the tool stops with a message naming the file
//!   and line, instead of reading `/dev/zero` into memory. The bounds and their readers are the
//!   library's ([`pbgi_conformance::limits`]), re-exported here.
//!
//! - **Progress** of long runs goes to standard error through [`Progress`], only when it is a
//!   terminal.
//!
//! Exit statuses of every subcommand: 0 success; 1 a verdict failed (a bound exceeded, a file
//! differs); [`EXIT_ERROR`] (2) the run could not be completed (bad input, unreadable or
//! unwritable file, usage error); [`EXIT_BROKEN_PIPE`] (141) the reader of standard output went
//! away.
pub use pbgi_conformance::limits::{
    describe_size, read_line_capped, read_text_file, LineRead, MAX_FILE_BYTES, MAX_RECORD_BYTES,
};
use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

/// Exit status of a run that could not be completed (the message says why).
pub const EXIT_ERROR: u8 = 2;

/// Exit status when the reader of standard output went away (`EPIPE`): 128 + `SIGPIPE`, what a
/// shell reports for a tool that `SIGPIPE` ended. Nothing is printed.
pub const EXIT_BROKEN_PIPE: u8 = 141;

/// Why a subcommand stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CliError {
    /// A message for the user, printed as `pbgi: error: <message>` (exit status 2).
    Message(String),
    /// Standard output's reader went away: stop quietly (exit status 141).
    BrokenPipe,
}

impl CliError {
    /// The process exit code for this error.
    pub fn exit_code(&self) -> ExitCode {
        match self {
            CliError::Message(_) => ExitCode::from(EXIT_ERROR),
            CliError::BrokenPipe => ExitCode::from(EXIT_BROKEN_PIPE),
        }
    }

    /// Reports the error on standard error (nothing for [`CliError::BrokenPipe`]) and returns the
    /// exit code. Never panics: a failing standard error is ignored, there is nowhere left to
    /// report it.
    pub fn report(&self) -> ExitCode {
        if let CliError::Message(message) = self {
            let _ = writeln!(io::stderr().lock(), "pbgi: error: {message}");
        }
        self.exit_code()
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Message(message) => f.write_str(message),
            CliError::BrokenPipe => f.write_str("standard output was closed by its reader"),
        }
    }
}

impl From<String> for CliError {
    fn from(message: String) -> Self {
        CliError::Message(message)
    }
}

impl From<&str> for CliError {
    fn from(message: &str) -> Self {
        CliError::Message(message.to_string())
    }
}

/// A write error on standard output as a [`CliError`]: `EPIPE` is [`CliError::BrokenPipe`],
/// anything else a message.
pub fn stdout_error(error: io::Error) -> CliError {
    if error.kind() == io::ErrorKind::BrokenPipe {
        CliError::BrokenPipe
    } else {
        CliError::Message(format!("cannot write to standard output: {error}"))
    }
}

/// A `csv` writer's error on standard output, classified as [`stdout_error`].
pub fn csv_stdout_error(error: csv::Error) -> CliError {
    match error.into_kind() {
        csv::ErrorKind::Io(error) => stdout_error(error),
        other => CliError::Message(format!("cannot write to standard output: {other:?}")),
    }
}

/// Whether standard output was closed when the process started, as seen by
/// [`record_stdout_at_start`]; `false` until then (and on systems where it is not recorded).
static STDOUT_CLOSED_AT_START: AtomicBool = AtomicBool::new(false);

/// Records whether standard output (descriptor 1) is open. Must run before `main`: the Rust
/// runtime reopens a closed standard descriptor on `/dev/null` (read-write) before `main`, and
/// after that a closed standard output looks exactly like one redirected to `/dev/null`
/// read-write on purpose (Python's `subprocess.DEVNULL`, a shell's `1<> /dev/null`). The `pbgi`
/// binary registers it as a constructor (`.init_array`), which the C runtime calls before the
/// Rust runtime starts. Linux only (through `/proc`); elsewhere nothing is recorded.
pub extern "C" fn record_stdout_at_start() {
    if cfg!(target_os = "linux") && Path::new("/proc/self/fd").is_dir() {
        let closed = std::fs::symlink_metadata("/proc/self/fd/1").is_err();
        STDOUT_CLOSED_AT_START.store(closed, Ordering::Relaxed);
    }
}

/// Fails when standard output was closed when the tool started (`pbgi eval ei >&-`), as
/// recorded by [`record_stdout_at_start`]; without the check the results would vanish into the
/// `/dev/null` the runtime put there, with status 0. Standard output on `/dev/null` opened on
/// purpose, for writing or for reading and writing, is accepted.
pub fn check_stdout_open() -> Result<(), CliError> {
    if STDOUT_CLOSED_AT_START.load(Ordering::Relaxed) {
        Err(CliError::Message(
            "standard output is closed; redirect it (to /dev/null to discard the results)"
                .to_string(),
        ))
    } else {
        Ok(())
    }
}

/// Buffered standard output whose errors are [`CliError`]s. Dropping it without
/// [`Stdout::finish`] may lose the buffered text: always finish.
pub struct Stdout {
    inner: io::BufWriter<io::StdoutLock<'static>>,
}

impl Stdout {
    /// Locks standard output for the rest of the run.
    pub fn lock() -> Self {
        Stdout {
            inner: io::BufWriter::with_capacity(64 * 1024, io::stdout().lock()),
        }
    }

    /// Writes `text`.
    pub fn print(&mut self, text: &str) -> Result<(), CliError> {
        self.inner.write_all(text.as_bytes()).map_err(stdout_error)
    }

    /// Flushes everything written so far to the operating system.
    pub fn flush(&mut self) -> Result<(), CliError> {
        self.inner.flush().map_err(stdout_error)
    }

    /// Flushes and releases standard output.
    pub fn finish(mut self) -> Result<(), CliError> {
        self.flush()
    }
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.inner.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Writes `text` to standard output and flushes it.
pub fn print(text: &str) -> Result<(), CliError> {
    let mut out = Stdout::lock();
    out.print(text)?;
    out.finish()
}

/// Writes `contents` to `path` atomically: into a temporary file in the same directory (so the
/// rename cannot cross file systems), flushed to disk, then renamed over `path`. On any failure
/// the temporary file is removed and `path` is untouched. The error names the path.
pub fn write_atomic(path: &Path, contents: &[u8]) -> Result<(), String> {
    let mut file = AtomicFile::create(path)?;
    file.write_all(contents)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    file.commit()
}

/// A result file written in a stream and published atomically: the text goes to a temporary
/// file beside `path`; [`AtomicFile::commit`] flushes it to disk and renames it over `path`.
/// Dropped without a commit (an error on the way), the temporary file is removed and `path` is
/// untouched.
pub struct AtomicFile {
    path: PathBuf,
    temporary: PathBuf,
    file: Option<io::BufWriter<std::fs::File>>,
}

impl AtomicFile {
    /// Starts writing `path`.
    pub fn create(path: &Path) -> Result<Self, String> {
        let temporary = temporary_sibling(path);
        let file = std::fs::File::create(&temporary)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        Ok(AtomicFile {
            path: path.to_path_buf(),
            temporary,
            file: Some(io::BufWriter::new(file)),
        })
    }

    /// Publishes the file: flush, sync to disk, rename over the final path.
    pub fn commit(mut self) -> Result<(), String> {
        let path = self.path.clone();
        let Some(file) = self.file.take() else {
            return Err(format!(
                "cannot write {}: already committed",
                path.display()
            ));
        };
        file.into_inner()
            .map_err(|e| e.into_error())
            .and_then(|file| file.sync_all())
            .and_then(|()| std::fs::rename(&self.temporary, &path))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.file {
            Some(file) => file.write(buf),
            None => Err(io::Error::other("the file is already committed")),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.file {
            Some(file) => file.flush(),
            None => Ok(()),
        }
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        // Not committed, or the commit failed: nothing of it may remain. (After a commit the
        // temporary name no longer exists.)
        if self.temporary.exists() {
            let _ = std::fs::remove_file(&self.temporary);
        }
    }
}

/// `dir/.name.tmp-<pid>`: hidden, unique to this process, beside `path`.
fn temporary_sibling(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(|| "output".into(), |n| n.to_string_lossy());
    path.with_file_name(format!(".{name}.tmp-{}", std::process::id()))
}

/// Creates `dir` (and its parents) if missing and checks that a file can be created in it, so
/// that a long run does not discover an unwritable output directory at the end.
pub fn ensure_writable_dir(dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir)
        .map_err(|e| format!("cannot create the output directory {}: {e}", dir.display()))?;
    let probe = dir.join(format!(".pbgi-write-test-{}", std::process::id()));
    std::fs::File::create(&probe)
        .and_then(|mut file| file.write_all(b"ok"))
        .map_err(|e| {
            format!(
                "cannot write in the output directory {}: {e}",
                dir.display()
            )
        })?;
    std::fs::remove_file(&probe).map_err(|e| {
        format!(
            "cannot write in the output directory {}: {e}",
            dir.display()
        )
    })
}

/// Progress of a long run on standard error: a line counting the rows done (and their rate),
/// shown only when standard error is a terminal and the run has lasted over a second, so that
/// short runs, pipes and log files see nothing. Cleared when finished.
pub struct Progress {
    started: std::time::Instant,
    what: &'static str,
    done: u64,
    bar: Option<indicatif::ProgressBar>,
    terminal: bool,
}

impl Progress {
    /// Counts `what` (e.g. `"rows evaluated"`).
    pub fn new(what: &'static str) -> Self {
        use std::io::IsTerminal;
        Progress {
            started: std::time::Instant::now(),
            what,
            done: 0,
            bar: None,
            terminal: io::stderr().is_terminal(),
        }
    }

    /// Adds `n` to the count.
    pub fn advance(&mut self, n: u64) {
        self.done += n;
        let elapsed = self.started.elapsed();
        if self.bar.is_none() && self.terminal && elapsed > std::time::Duration::from_secs(1) {
            let bar = indicatif::ProgressBar::new_spinner();
            if let Ok(style) = indicatif::ProgressStyle::with_template(&format!(
                "{{elapsed}} {{pos}} {} ({{msg}})",
                self.what
            )) {
                bar.set_style(style);
            }
            self.bar = Some(bar);
        }
        if let Some(bar) = &self.bar {
            bar.set_message(format!("{:.0}/s", self.done as f64 / elapsed.as_secs_f64()));
            bar.set_position(self.done);
        }
    }

    /// Clears the line.
    pub fn finish(self) {
        if let Some(bar) = self.bar {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_writes_replace_whole_files_and_leave_no_temporary() {
        let dir = std::env::temp_dir().join(format!("pbgi-io-atomic-{}", std::process::id()));
        ensure_writable_dir(&dir).unwrap();
        let path = dir.join("result.csv");
        write_atomic(&path, b"old\n").unwrap();
        write_atomic(&path, b"new\n").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new\n");
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["result.csv"]);
        let missing = dir.join("no-such-dir").join("x.csv");
        assert!(write_atomic(&missing, b"x")
            .unwrap_err()
            .starts_with(&format!("cannot write {}", missing.display())));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_unwritable_directory_is_found_before_the_work() {
        let file = std::env::temp_dir().join(format!("pbgi-io-file-{}", std::process::id()));
        std::fs::write(&file, "a file, not a directory").unwrap();
        let message = ensure_writable_dir(&file.join("out")).unwrap_err();
        assert!(
            message.starts_with("cannot create the output directory"),
            "{message}"
        );
        std::fs::remove_file(&file).unwrap();
    }

    #[test]
    fn broken_pipe_is_quiet_and_other_write_errors_are_messages() {
        assert_eq!(
            stdout_error(io::Error::from(io::ErrorKind::BrokenPipe)),
            CliError::BrokenPipe
        );
        let full = stdout_error(io::Error::from_raw_os_error(28));
        assert!(
            matches!(&full, CliError::Message(m) if m.starts_with("cannot write to standard output: ")),
            "{full:?}"
        );
        assert_eq!(describe_size(MAX_RECORD_BYTES), "1 MiB");
        assert_eq!(describe_size(100), "100 bytes");
    }
}

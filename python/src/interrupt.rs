//! Long calls that Ctrl-C interrupts, as a long numpy call does.
//!
//! Python handles a signal (SIGINT's `KeyboardInterrupt`) only when the interpreter runs, so
//! a call that releases the GIL for its whole length ignores Ctrl-C until it ends. Here the
//! work runs without the GIL in pieces, and between pieces the GIL is taken back briefly for
//! `Python::check_signals`, which raises the pending exception:
//!
//! - [`in_chunks`]: an elementwise loop in chunks of elements, each chunk as long as about
//!   [`CHUNK_TIME`] (the chunk grows from [`FIRST_CHUNK`] while chunks finish faster), so a
//!   signal is seen within about that time whatever an element costs (10 ns for a fast kernel,
//!   a millisecond for a certified PBGI);
//! - [`on_worker`]: one indivisible computation (a Pandora's Box solve, a stopping decision)
//!   on a thread of its own, while the calling thread waits for it in steps of [`POLL`]. On a
//!   signal the call returns at once; the worker, which cannot be stopped from outside, runs to
//!   its end in the background and its result is dropped.
use pyo3::prelude::*;
use std::ops::Range;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The time one chunk of [`in_chunks`] aims at: signals are seen within about this time.
pub const CHUNK_TIME: Duration = Duration::from_millis(50);

/// The first chunk of [`in_chunks`], in elements (a multiple of the fast kernels' lane
/// width, so chunks keep the slice kernels on whole lanes).
pub const FIRST_CHUNK: usize = 64;

/// How often [`on_worker`] looks for signals while it waits.
pub const POLL: Duration = Duration::from_millis(50);

/// Runs `work` over `0..n` in consecutive ranges without the GIL, checking for signals between
/// them. Stops at the first range whose `work` fails and returns that error (the ranges
/// before it are done, those after it not started).
///
/// # Errors
/// The pending exception (`KeyboardInterrupt` on Ctrl-C) when a signal arrived; then no
/// further range is started.
pub fn in_chunks<E: Send>(
    py: Python<'_>,
    n: usize,
    mut work: impl FnMut(Range<usize>) -> Result<(), E> + Send,
) -> PyResult<Result<(), E>> {
    let mut chunk = FIRST_CHUNK;
    let mut start = 0;
    while start < n {
        let end = start + chunk.min(n - start);
        let started = Instant::now();
        let done = py.detach(|| work(start..end));
        if done.is_err() {
            return Ok(done);
        }
        if started.elapsed() < CHUNK_TIME / 2 {
            chunk = chunk.saturating_mul(2);
        }
        py.check_signals()?;
        start = end;
    }
    Ok(Ok(()))
}

/// Runs `work` on a thread of its own and waits for its result without the GIL, checking for
/// signals every [`POLL`].
///
/// # Errors
/// The pending exception on a signal (the worker is left to finish in the background, its
/// result dropped); a `RuntimeError` if the worker panicked or could not be started.
pub fn on_worker<T: Send + 'static>(
    py: Python<'_>,
    work: impl FnOnce() -> T + Send + 'static,
) -> PyResult<T> {
    let (send, receive) = mpsc::channel();
    std::thread::Builder::new()
        .name("pbgi-worker".into())
        .spawn(move || {
            // The receiver may be gone (the caller was interrupted): nothing to report to.
            let _ = send.send(work());
        })
        .map_err(|e| {
            pyo3::exceptions::PyRuntimeError::new_err(format!("cannot start a thread: {e}"))
        })?;
    let mut receive = receive;
    loop {
        // The receiver goes into the GIL-free closure and comes back (it is `Send`, not `Sync`).
        let (back, received) = py.detach(move || {
            let received = receive.recv_timeout(POLL);
            (receive, received)
        });
        receive = back;
        match received {
            Ok(result) => return Ok(result),
            Err(mpsc::RecvTimeoutError::Timeout) => py.check_signals()?,
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(pyo3::exceptions::PyRuntimeError::new_err(
                    "the computation's thread ended without a result (it panicked)",
                ))
            }
        }
    }
}

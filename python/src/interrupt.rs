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
//! - [`in_threads`]: the same over several threads, each on one contiguous range of the
//!   elements (and its part of the outputs) in chunks of its own, while the calling thread
//!   waits for them and checks for signals every [`POLL`]; on a signal the workers stop after
//!   their current chunk and the call returns the exception;
//! - [`on_worker`]: one indivisible computation (a Pandora's Box solve, a stopping decision)
//!   on a thread of its own, while the calling thread waits for it in steps of [`POLL`]. On a
//!   signal the call returns at once; the worker, which cannot be stopped from outside, runs to
//!   its end in the background and its result is dropped.
use pyo3::prelude::*;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};
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

/// The most threads one call of [`in_threads`] may be asked for (`threads=` of `pbgi.fast`):
/// beyond the cores threads only contend, and each holds a stack, so an absurd count is an
/// error rather than a thousand idle threads. Fixed, so that a call valid on one machine is
/// valid on every machine.
pub const MAX_THREADS: usize = 1024;

/// The fewest elements one thread of [`in_threads`] is given: below that, starting a thread
/// (tens of microseconds) costs more than the elements (10 to 50 ns each for the fast
/// kernels), so short arrays run on fewer threads, down to the calling one alone. Changes no
/// result.
pub const MIN_PER_THREAD: usize = 16_384;

/// The threads of a call: `threads` as given (checked against `1..=MAX_THREADS`), or all
/// cores (`std::thread::available_parallelism`) when `None`.
///
/// # Errors
/// `ValueError` naming `threads` for 0 or more than [`MAX_THREADS`].
pub fn thread_count(threads: Option<usize>) -> PyResult<usize> {
    match threads {
        None => Ok(std::thread::available_parallelism()
            .map_or(1, usize::from)
            .min(MAX_THREADS)),
        Some(t) if (1..=MAX_THREADS).contains(&t) => Ok(t),
        Some(t) => Err(pyo3::exceptions::PyValueError::new_err(format!(
            "threads={t}: expected an integer from 1 to {MAX_THREADS} (leave it out for all cores)"
        ))),
    }
}

/// Outputs of an elementwise call that split at an element: one array, or several of one
/// length (a gradient's fields).
pub trait Outputs: Send + Sized {
    /// The number of elements.
    fn len(&self) -> usize;
    /// The elements before `mid` and those from `mid` on.
    fn split_at(self, mid: usize) -> (Self, Self);
}

impl Outputs for &mut [f64] {
    fn len(&self) -> usize {
        <[f64]>::len(self)
    }
    fn split_at(self, mid: usize) -> (Self, Self) {
        self.split_at_mut(mid)
    }
}

impl<const M: usize> Outputs for [&mut [f64]; M] {
    fn len(&self) -> usize {
        self.first().map_or(0, |o| o.len())
    }
    fn split_at(self, mid: usize) -> (Self, Self) {
        let mut heads: [&mut [f64]; M] = std::array::from_fn(|_| <&mut [f64]>::default());
        let mut tails: [&mut [f64]; M] = std::array::from_fn(|_| <&mut [f64]>::default());
        for ((o, h), t) in self.into_iter().zip(&mut heads).zip(&mut tails) {
            (*h, *t) = o.split_at_mut(mid);
        }
        (heads, tails)
    }
}

/// `work(range, outputs of range)` over the ranges of `start..start + out.len()`, in chunks
/// growing from [`FIRST_CHUNK`] while they take less than half of [`CHUNK_TIME`]; stops before
/// a chunk when `stop` is set, and sets it on an error.
fn run_range<O: Outputs, E>(
    start: usize,
    out: O,
    work: &(impl Fn(Range<usize>, O) -> Result<(), E> + Sync),
    stop: &AtomicBool,
) -> Result<(), E> {
    let end = start + out.len();
    let (mut at, mut rest, mut chunk) = (start, out, FIRST_CHUNK);
    while at < end && !stop.load(Ordering::Relaxed) {
        let len = chunk.min(end - at);
        let (head, tail) = rest.split_at(len);
        let started = Instant::now();
        if let Err(e) = work(at..at + len, head) {
            stop.store(true, Ordering::Relaxed);
            return Err(e);
        }
        if started.elapsed() < CHUNK_TIME / 2 {
            chunk = chunk.saturating_mul(2);
        }
        (at, rest) = (at + len, tail);
    }
    Ok(())
}

/// Runs `work(range, outputs of range)` over the elements `0..out.len()` on `threads` threads
/// (fewer for short arrays: at least [`MIN_PER_THREAD`] elements each), without the GIL. The
/// elements are split into one contiguous range per thread, each done in chunks; `work` must
/// compute each element independently of the split (the elementwise kernels do, the slice
/// kernels included: a range that ends inside a group of lanes takes the scalar tail, with the
/// same bits), so the results are the same for any number of threads. One thread: the calling
/// one, as [`in_chunks`]. More: `std::thread::scope` threads, while the calling thread checks
/// for signals every [`POLL`]; the workers stop after their current chunk once one fails or
/// a signal arrives.
///
/// Scoped threads rather than rayon's pool (which `pbgi.reference` uses): the split is fixed
/// per call (contiguous ranges, one per thread, so each thread streams through its own part of
/// the arrays), the count is the caller's per call without building a pool, and the calling
/// thread stays free to watch for Ctrl-C. Starting the threads costs tens of microseconds a
/// call, against at least [`MIN_PER_THREAD`] elements per thread.
///
/// # Errors
/// The pending exception (`KeyboardInterrupt` on Ctrl-C) when a signal arrived; a
/// `RuntimeError` if a worker could not be started or panicked (the kernels do not). The inner
/// result: the first error of `work` (no further chunk is started after it).
pub fn in_threads<O: Outputs, E: Send>(
    py: Python<'_>,
    threads: usize,
    out: O,
    work: impl Fn(Range<usize>, O) -> Result<(), E> + Sync,
) -> PyResult<Result<(), E>> {
    let n = out.len();
    let parts = threads.min(n.div_ceil(MIN_PER_THREAD)).max(1);
    if parts == 1 {
        // As `in_chunks`, with the outputs split off chunk by chunk.
        let (mut rest, mut start, mut chunk) = (out, 0, FIRST_CHUNK);
        while start < n {
            let len = chunk.min(n - start);
            let (head, tail) = rest.split_at(len);
            let started = Instant::now();
            let done = py.detach(|| work(start..start + len, head));
            if done.is_err() {
                return Ok(done);
            }
            if started.elapsed() < CHUNK_TIME / 2 {
                chunk = chunk.saturating_mul(2);
            }
            py.check_signals()?;
            (rest, start) = (tail, start + len);
        }
        return Ok(Ok(()));
    }
    let stop = AtomicBool::new(false);
    py.detach(|| {
        std::thread::scope(|scope| {
            let (send, receive) = mpsc::channel();
            let mut handles = Vec::with_capacity(parts);
            let mut failure: Option<PyErr> = None;
            let (mut rest, mut start) = (out, 0);
            for k in 0..parts {
                // Contiguous ranges of near-equal length, the first `n % parts` one longer.
                let len = n / parts + usize::from(k < n % parts);
                let (head, tail) = rest.split_at(len);
                rest = tail;
                let (send, work, stop) = (send.clone(), &work, &stop);
                let spawned = std::thread::Builder::new()
                    .name("pbgi-fast".into())
                    .spawn_scoped(scope, move || {
                        // The receiver outlives the scope's threads: the send cannot fail.
                        let _ = send.send(run_range(start, head, work, stop));
                    });
                match spawned {
                    Ok(handle) => handles.push(handle),
                    Err(e) => {
                        stop.store(true, Ordering::Relaxed);
                        failure = Some(pyo3::exceptions::PyRuntimeError::new_err(format!(
                            "cannot start a thread: {e}"
                        )));
                        break;
                    }
                }
                start += len;
            }
            drop(send);
            let mut result = Ok(());
            let mut finished = 0;
            while finished < handles.len() {
                match receive.recv_timeout(POLL) {
                    Ok(done) => {
                        finished += 1;
                        if let (Err(e), Ok(())) = (done, &result) {
                            result = Err(e);
                        }
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) => {
                        if failure.is_none() {
                            if let Err(e) = Python::attach(|py| py.check_signals()) {
                                stop.store(true, Ordering::Relaxed);
                                failure = Some(e);
                            }
                        }
                    }
                    // A worker ended without sending: it panicked (reported below).
                    Err(mpsc::RecvTimeoutError::Disconnected) => break,
                }
            }
            for handle in handles {
                if handle.join().is_err() && failure.is_none() {
                    failure = Some(pyo3::exceptions::PyRuntimeError::new_err(
                        "a pbgi.fast worker thread panicked",
                    ));
                }
            }
            match failure {
                Some(e) => Err(e),
                None => Ok(result),
            }
        })
    })
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

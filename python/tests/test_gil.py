"""Both modules release the GIL while they compute: another Python thread keeps running.

A worker thread makes one long call while the main thread spins, recording its pauses. Had the
call held the GIL, the main thread would be paused for the whole call (checked with `sorted`,
which holds it); here its longest pause within the call must be under half the call's duration.
(No bound on the call's own time.)
"""

import threading
import time

import numpy as np
import pytest

import pbgi


def longest_pause_during(call):
    """(duration of `call()` in a worker thread, longest stretch of that call during which the
    main thread did not run)."""
    spinning, span = threading.Event(), []

    def worker():
        spinning.wait()
        t0 = time.perf_counter()
        call()
        span.extend([t0, time.perf_counter()])

    thread = threading.Thread(target=worker)
    thread.start()
    pauses = []  # (before, after) for every pause of the main loop longer than 1 ms
    last = time.perf_counter()
    spinning.set()
    while thread.is_alive():
        now = time.perf_counter()
        if now - last > 1e-3:
            pauses.append((last, now))
        last = now
    pauses.append((last, float("inf")))
    thread.join()
    t0, t1 = span
    overlaps = [min(after, t1) - max(before, t0) for before, after in pauses]
    return t1 - t0, max([0.0, *overlaps])


def test_the_detector_sees_a_call_that_holds_the_gil():
    values = [float(i % 1009) for i in range(1_500_000)]
    duration, longest = longest_pause_during(lambda: sorted(values))
    assert longest > duration / 2


@pytest.mark.parametrize(
    "name, call",
    [
        ("fast.pbgi", lambda: pbgi.fast.pbgi(np.linspace(-3.0, 3.0, 3_000_000), 1.0, 1e-3)),
        ("reference.ei", lambda: pbgi.reference.ei(np.linspace(-30.0, 3.0, 20_000), 1.0, 0.0)),
    ],
)
def test_call_releases_the_gil(name, call):
    duration, longest = longest_pause_during(call)
    assert duration > 0.05, f"{name}: the call took only {duration:.3f} s, too short to tell"
    assert longest < duration / 2, f"{name}: main thread stalled {longest:.3f} s of {duration:.3f} s"

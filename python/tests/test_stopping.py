"""pbgi.stopping: the rule's forms agree with each other and with the exact decision; the
helper's stabilisation, debounce and moving average behave as the paper describes."""

import math
import struct
import sys
from fractions import Fraction

import numpy as np
import pytest

import pbgi

SEED = 20261123


def candidates(rng, n):
    return rng.normal(0.0, 1.0, n), 10.0 ** rng.uniform(-2, 0.5, n), 10.0 ** rng.uniform(-4, 0, n)


def test_both_forms_and_the_exact_decision_agree_away_from_ties():
    print(f"seed {SEED}")
    rng = np.random.default_rng(SEED)
    decided = 0
    for _ in range(60):
        mu, sigma, cost = candidates(rng, 5)
        y_best = rng.normal(-1.5, 0.5)
        exact = pbgi.stopping.stop_decision(mu, sigma, cost, y_best)
        gap = pbgi.stopping.pbgi_gap(mu, sigma, cost, y_best)
        if abs(gap) < 1e-12:
            continue  # inside the fast rule's tie band
        decided += 1
        assert pbgi.stopping.stop_by_pbgi(mu, sigma, cost, y_best) == exact.stop
        assert pbgi.stopping.stop_by_log_eipc(mu, sigma, cost, y_best) == exact.stop
        assert (gap <= 0) == exact.stop
        assert (pbgi.stopping.max_log_eipc(mu, sigma, cost, y_best) <= 0) == exact.stop
        blocking = [i for i in range(5) if pbgi.reference.pbgi(mu[i], sigma[i], cost[i]).value < y_best]
        assert exact.blocking == blocking
        assert exact.min_pbgi == int(np.argmin(pbgi.fast.pbgi(mu, sigma, cost)))
    assert decided >= 50


def test_gap_is_incumbent_minus_smallest_index():
    mu, sigma, cost = np.array([0.0, 1.0, -0.5]), np.array([1.0, 0.5, 2.0]), 0.01
    gap = pbgi.stopping.pbgi_gap(mu, sigma, cost, -2.0)
    assert gap == -2.0 - pbgi.fast.pbgi(mu, sigma, cost).min()


def test_no_candidates_stop():
    empty = np.empty(0)
    assert pbgi.stopping.stop_by_pbgi(empty, empty, empty, 0.0)
    assert pbgi.stopping.pbgi_gap(empty, empty, empty, 0.0) == -math.inf
    assert pbgi.stopping.stop_decision(empty, empty, empty, 0.0).stop


def test_sigma_zero_tie_stops_exactly():
    # PBGI = mu + cost = 0.75 = y*: a tie, which stops.
    d = pbgi.stopping.stop_decision([0.25], [0.0], [0.5], 0.75)
    assert d.stop and d.blocking == [] and d.min_pbgi == 0


def test_exact_decision_rejects_invalid_candidates():
    with pytest.raises(ValueError, match="candidate 1"):
        pbgi.stopping.stop_decision([0.0, 0.0], [1.0, -1.0], 0.1, 0.0)


def test_helper_stabilisation_and_debounce():
    helper = pbgi.stopping.StoppingHelper(stabilisation=2, debounce=2, window=1)
    signals = [helper.observe(s) for s in [-1.0, -1.0, -1.0, 0.5, -1.0, 0.0]]
    # Checks 1-2 are in the stabilisation period; check 3 is the first counted signal, check 4
    # breaks the run, checks 5 and 6 (a tie) make two in a row.
    assert signals == [False, False, False, False, False, True]
    assert helper.checks == 6 and helper.consecutive_signals == 2
    helper.reset()
    assert helper.checks == 0 and helper.moving_average is None


def test_helper_moving_average():
    helper = pbgi.stopping.StoppingHelper(window=3)
    assert helper.moving_average is None
    assert not helper.observe(3.0)
    assert helper.moving_average is None  # one statistic of three: not yet available
    assert not helper.observe(-1.0)
    assert helper.moving_average is None
    assert helper.observe(-2.5)  # mean of 3, -1, -2.5 = -1/6
    assert helper.moving_average == pytest.approx(-0.5 / 3, rel=1e-15)
    helper.reset()
    assert helper.moving_average is None
    assert not helper.observe(-1.0)  # the window fills anew after a reset


@pytest.mark.parametrize("window", [1, 2, 5, 20])
def test_helper_with_window_w_never_stops_before_check_w(window):
    # The most negative statistics: the first stop is check w exactly, whatever the
    # stabilisation period below w; before it the average is not available and nothing counts.
    for statistic in [-1.0, -sys.float_info.max, -math.inf]:
        for stabilisation in range(window):
            helper = pbgi.stopping.StoppingHelper(stabilisation=stabilisation, window=window)
            signals = [helper.observe(statistic) for _ in range(window + 3)]
            assert signals.index(True) + 1 == window, (statistic, stabilisation)
        helper = pbgi.stopping.StoppingHelper(debounce=2, window=window)
        for check in range(1, window):
            assert not helper.observe(statistic)
            assert helper.moving_average is None and helper.consecutive_signals == 0, check
        assert not helper.observe(statistic)  # check w: first signal of two
        assert helper.moving_average == statistic and helper.consecutive_signals == 1
        assert helper.observe(statistic)  # check w + 1: stop


def test_helper_stops_where_the_full_window_rule_does():
    # Property: random small integers (exact means, ties at 0) against the authors' rule
    # written out: a check signals after the first k checks, once w statistics exist and the
    # mean of the last w is <= 0; stop at the m-th consecutive signal.
    print(f"seed {SEED}")
    rng = np.random.default_rng(SEED)
    for _ in range(1000):
        k, m, w = int(rng.integers(0, 8)), int(rng.integers(1, 4)), int(rng.integers(1, 7))
        values = [float(v) for v in rng.integers(-3, 5, int(rng.integers(1, 30)))]
        helper = pbgi.stopping.StoppingHelper(stabilisation=k, debounce=m, window=w)
        got = next((i + 1 for i, v in enumerate(values) if helper.observe(v)), None)
        expected, run = None, 0
        for check in range(1, len(values) + 1):
            last = values[check - w : check]
            signal = check > k and check >= w and sum(last) / w <= 0
            run = run + 1 if signal else 0
            if run >= m:
                expected = check
                break
        assert got == expected, (k, m, w, values)


def test_helper_observes_candidates():
    helper = pbgi.stopping.StoppingHelper()
    assert helper.observe_pbgi([0.0], [1.0], [0.1], -0.95)
    assert not helper.observe_log_eipc([0.0], [1.0], [0.1], -0.85)


def test_helper_rejects_zero_debounce():
    with pytest.raises(ValueError, match="debounce"):
        pbgi.stopping.StoppingHelper(debounce=0)


def test_pbgi_d_schedule_and_budget_lambda():
    schedule = pbgi.stopping.PbgiDSchedule()
    assert (schedule.lambda0, schedule.beta, schedule.lambda_) == (0.1, 2.0, 0.1)
    assert schedule.on_stop_signal() == 0.05
    schedule.reset()
    assert schedule.lambda_ == 0.1
    assert pbgi.stopping.budget_lambda(2.0, 5.0, 1.0) == 0.5
    with pytest.raises(ValueError, match="beta"):
        pbgi.stopping.PbgiDSchedule(0.1, 1.0)


def exact_mean(values):
    """The mean of the doubles `values` in exact rationals, correctly rounded to a float
    (Python's `Fraction.__float__` rounds correctly)."""
    return float(sum(map(Fraction, values)) / len(values))


def ulps_apart(a, b):
    """How many doubles lie from `a` to `b` (both finite)."""
    order = lambda x: struct.unpack("<q", struct.pack("<d", x))[0]
    ia, ib = order(a), order(b)
    ia = ia if ia >= 0 else -(ia & 0x7FFFFFFFFFFFFFFF)
    ib = ib if ib >= 0 else -(ib & 0x7FFFFFFFFFFFFFFF)
    return abs(ia - ib)


def moving_averages(values, window):
    helper = pbgi.stopping.StoppingHelper(window=window)
    out = []
    for v in values:
        helper.observe(v)
        out.append(helper.moving_average)
    return out


def test_moving_average_of_huge_statistics_does_not_overflow():
    # The window: the plain sum overflowed to -inf and the helper stopped; the exact
    # mean is about +4.5e306 (> 0: no stop signal). Checks 1-3 have no full window: no signal.
    values = [-1.7e308, -1.7e308, 1.79e308, 1.79e308]
    helper = pbgi.stopping.StoppingHelper(window=4)
    assert [helper.observe(v) for v in values] == [False, False, False, False]
    assert helper.moving_average == exact_mean(values) == 4.500000000000001e306


def test_moving_average_does_not_cancel():
    # The plain sum lost the 1 (mean 0, a stop); the exact mean is 1/3 (no stop).
    helper = pbgi.stopping.StoppingHelper(window=3)
    assert [helper.observe(v) for v in [1e16, 1.0, -1e16]] == [False, False, False]
    assert helper.moving_average == 1 / 3


def cancelling(rng, n):
    """Huge values and their negatives (exact cancellation) with small ones among them."""
    huge = rng.normal(size=n) * 1e300
    values = np.concatenate([huge, -huge[::-1], rng.normal(size=3) * 1e-300])
    return values[rng.permutation(len(values))] if rng.random() < 0.5 else values


def test_moving_average_is_the_exact_mean_within_two_ulp():
    # Property: random windows of huge, tiny, subnormal and cancelling statistics; every
    # moving average (once the window is full; None before) against the exact rational mean.
    print(f"seed {SEED}")
    rng = np.random.default_rng(SEED)
    pools = [
        lambda n: rng.uniform(-1, 1, n) * sys.float_info.max,
        lambda n: rng.normal(size=n) * 10.0 ** rng.integers(-320, 308, n),
        lambda n: rng.choice([1e308, -1e308, 1.0, -1.0, 5e-324, 1e16, -1e16, 3.0], n),
        lambda n: cancelling(rng, n),
    ]
    worst = 0
    for trial in range(400):
        window = int(rng.integers(1, 24))
        values = [float(v) for v in pools[trial % len(pools)](int(rng.integers(1, 40)))]
        got = moving_averages(values, window)
        for k, average in enumerate(got):
            if k + 1 < window:
                assert average is None, (window, k)
                continue
            last = values[k + 1 - window : k + 1]
            exact = exact_mean(last)
            assert math.isfinite(average), (last, average)
            apart = ulps_apart(average, exact)
            worst = max(worst, apart)
            assert apart <= 2, f"window {last}: {average!r} vs exact {exact!r}"
    print(f"worst {worst} ulp")


def test_moving_average_keeps_infinities_and_nan():
    assert moving_averages([1.0, math.inf], 2)[-1] == math.inf
    assert moving_averages([-math.inf, 1.0], 2)[-1] == -math.inf
    assert math.isnan(moving_averages([math.inf, -math.inf], 2)[-1])
    assert math.isnan(moving_averages([1.0, math.nan], 2)[-1])
    # The NaN leaves the window: the mean is a number again.
    assert moving_averages([math.nan, 1.0, 2.0], 2)[-1] == 1.5


def test_pbgi_d_lambda_falls_on_underflow_instead_of_sticking():
    # The input: lambda0/beta = 1e-600 underflows, and lambda stayed at 1e-300.
    schedule = pbgi.stopping.PbgiDSchedule(1e-300, 1e300)
    assert schedule.on_stop_signal() == 5e-324 == np.nextafter(0.0, 1.0)
    assert schedule.on_stop_signal() == 5e-324  # the floor: never 0


def test_pbgi_d_lambda_is_the_rounded_quotient_down_to_the_floor():
    # Property: each signal gives lambda/beta rounded to nearest (numpy's division), raised to
    # the smallest positive double where it rounds to 0; strictly positive, never increasing.
    print(f"seed {SEED}")
    rng = np.random.default_rng(SEED)
    for _ in range(50):
        lambda0 = 10.0 ** rng.uniform(-320, 300)
        beta = float(1.0 + 10.0 ** rng.uniform(-3, 300))
        schedule = pbgi.stopping.PbgiDSchedule(lambda0, beta)
        current = lambda0
        for _ in range(40):
            expected = max(current / beta, 5e-324)
            assert schedule.on_stop_signal() == expected, (lambda0, beta, current)
            assert 0 < expected <= current
            current = expected


@pytest.mark.parametrize(
    "u, budget, first_cost, words",
    [
        (1e300, 1e-300, 0.0, "overflows"),  # the inputs: inf
        (1e-300, 1e300, 0.0, "underflows to 0"),  # and 0
        (1e308, 1.0, 1.0 - 2.0**-53, "overflows"),
        (5e-324, 4.0, 0.0, "underflows to 0"),
    ],
)
def test_budget_lambda_beyond_float64_is_an_error(u, budget, first_cost, words):
    with pytest.raises(ValueError, match=rf"^invalid u = {u!r}: U/\(B - C\) {words}"):
        pbgi.stopping.budget_lambda(u, budget, first_cost)


def test_budget_lambda_is_the_exact_quotient_rounded_where_representable():
    # Property: wherever the exact U/(B - C) is a positive double, the result is within 1.5 ulp
    # of it (exact rationals); B - C here is exact (Sterbenz) so the quotient is one rounding.
    print(f"seed {SEED}")
    rng = np.random.default_rng(SEED)
    for _ in range(300):
        u = 10.0 ** rng.uniform(-320, 308)
        c = 10.0 ** rng.uniform(-300, 300)
        b = c * (1 + 10.0 ** rng.uniform(-15, 0))
        exact = Fraction(u) / (Fraction(b) - Fraction(c))
        if not (Fraction(2) ** -1074 <= exact <= Fraction(sys.float_info.max)):
            with pytest.raises(ValueError, match="^invalid u = "):
                pbgi.stopping.budget_lambda(u, b, c)
            continue
        assert pbgi.stopping.budget_lambda(u, b, c) == float(exact), (u, b, c)

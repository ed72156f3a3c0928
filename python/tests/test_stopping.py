"""pbgi.stopping: the rule's forms agree with each other and with the exact decision; the
helper's stabilisation, debounce and moving average behave as the paper describes."""

import math

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
    assert helper.checks == 0 and math.isnan(helper.moving_average)


def test_helper_moving_average():
    helper = pbgi.stopping.StoppingHelper(window=3)
    assert not helper.observe(3.0)
    assert not helper.observe(-1.0)
    assert helper.observe(-2.5)  # mean of 3, -1, -2.5 = -1/6
    assert helper.moving_average == pytest.approx(-0.5 / 3, rel=1e-15)


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

"""MATH.md's public sanity values (closed forms and the papers' worked numbers)."""

import math
from decimal import Decimal, localcontext

import numpy as np

import pbgi


def test_h_at_zero_is_one_over_root_two_pi():
    assert pbgi.reference.h(0.0).value == 1 / math.sqrt(2 * math.pi) == 0.3989422804014327


def test_ei_sanity_values():
    r = pbgi.reference.ei([0.0, 0.0], 1.0, [0.0, 1.0])
    np.testing.assert_array_equal(r.value, [0.3989422804014327, 1.0833154705876863])


def test_pbgi_sanity_values():
    r = pbgi.reference.pbgi(0.0, 1.0, [1e-4, 0.1])
    assert r.value[0] == -3.3630153259270825
    assert r.value[1] == -0.9023463475100345


def test_pbgi_at_the_double_nearest_one_over_root_two_pi():
    # PBGI(0, 1, 1/√(2π)) = 0; the double c nearest 1/√(2π) exceeds it by δ ≈ 2.5e-17, and
    # h(u) = h(0) + u/2 + O(u²) gives g = 2δ to a relative 2e-17 (well inside half an ulp).
    c = 0.3989422804014327
    with localcontext() as context:
        context.prec = 50
        delta = Decimal(c) - Decimal("0.39894228040143267793994605993438186847585863116493")
        expected = float(2 * delta)
    assert pbgi.reference.pbgi(0.0, 1.0, c).value == expected


def test_sigma_zero_is_exact():
    assert pbgi.reference.ei(1.0, 0.0, 3.0).value == 2.0
    assert pbgi.reference.pbgi(0.25, 0.0, 0.5).value == 0.75
    assert pbgi.reference.log_ei(1.0, 0.0, 1.0).value == -math.inf
    assert pbgi.reference.log_eipc(0.0, 0.0, 0.5, 0.5).value == 0.0
    r = pbgi.reference.ei(1.0, 0.0, 3.0)
    assert r.lower == r.upper == 2.0 and r.decimals() == ("2e0", "2e0")


def test_stopping_rule_sanity():
    # PBGI(0, 1, 0.1) = -0.9023...: stop iff y* <= it (ties stop).
    assert pbgi.stopping.stop_by_pbgi(0.0, 1.0, 0.1, -0.95)
    assert not pbgi.stopping.stop_by_pbgi(0.0, 1.0, 0.1, -0.85)

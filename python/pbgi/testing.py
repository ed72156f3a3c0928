"""Assertions for other projects' test suites.

    import pbgi.testing

    def test_my_log_ei():
        mu, sigma, y = ..., ..., ...
        pbgi.testing.assert_ulp_close("log-ei", my_log_ei(mu, sigma, y), 4, mu=mu, sigma=sigma, y=y)
"""

from ._check import check, max_ulp_bound

__all__ = ["assert_ulp_close"]


def assert_ulp_close(function, value, max_ulp, /, **columns):
    """Asserts that `value` is within `max_ulp` ULPs of the certified reference for `function`
    at every element (`pbgi.check`'s measures and arguments). On failure raises
    `AssertionError` whose message is the whole `pbgi check` report: the worst elements (with
    their arguments as hex bits, to reproduce them) and the errors by region.

    `max_ulp` is a finite number >= 0, as `pbgi check --max-ulp` takes it (`ValueError`
    otherwise, before any grading): a NaN value, or an infinity where the reference is finite,
    is an infinite error and fails at every bound."""
    bound = max_ulp_bound(max_ulp)
    report = check(function, value, **columns)
    if not report.passed(bound):
        raise AssertionError("\n" + report.text(worst=10, max_ulp=bound))
    return report

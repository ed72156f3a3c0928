"""Assertions for other projects' test suites.

    import pbgi.testing

    def test_my_log_ei():
        mu, sigma, y = ..., ..., ...
        pbgi.testing.assert_ulp_close("log-ei", my_log_ei(mu, sigma, y), 4, mu=mu, sigma=sigma, y=y)
"""

from ._check import check

__all__ = ["assert_ulp_close"]


def assert_ulp_close(function, value, max_ulp, /, **columns):
    """Asserts that `value` is within `max_ulp` ULPs of the certified reference for `function`
    at every element (`pbgi.check`'s measures and arguments). On failure raises
    `AssertionError` whose message is the whole `pbgi check` report: the worst elements (with
    their arguments as hex bits, to reproduce them) and the errors by region."""
    report = check(function, value, **columns)
    if not report.passed(max_ulp):
        raise AssertionError("\n" + report.text(worst=10, max_ulp=max_ulp))
    return report

"""`threads=` of `pbgi.fast`: the same bits for any thread count, on every path (the crate's
slice kernels for one `y`, the per-point slices for an array `y`, the gradient slices, and the
per-element loop of the other broadcast patterns), with lengths that leave every remainder and
arrays long enough that four threads really run (at least 16,384 elements each); clear errors
for bad counts. And the per-point kernels through Python against the scalar functions (each
point on its own, a one-element call, which runs the scalar function)."""

import numpy as np
import pytest

import pbgi
from pbgi import fast

SEED = 20261129


def points(n, seed=SEED):
    """BO-like and edge points with one threshold each: `(mu, sigma, y, cost)`."""
    rng = np.random.default_rng(seed)
    print(f"seed {seed}")
    y = rng.choice([-1.0, 0.0, 3.5, 1e-260, -1e200, 2.0], n) + rng.normal(0.0, 1.0, n)
    z = np.where(rng.random(n) < 0.8, rng.uniform(-9, 9, n), rng.uniform(-60, 60, n))
    sigma = np.where(rng.random(n) < 0.8, 10.0 ** rng.uniform(-2, 0.3, n),
                     10.0 ** rng.uniform(-300, 300, n))
    mu = y - z * sigma
    cost = 10.0 ** rng.uniform(-12, 2, n)
    special = np.array([0.0, -0.0, 5e-324, 1e-300, 1e300, np.inf, -np.inf, np.nan, 1.0, -1.0])
    k = n // 20
    for a in (mu, sigma, y, cost):
        a[rng.integers(0, n, k)] = rng.choice(special, k)
    return mu, sigma, y, cost


def bits(a):
    a = np.asarray(a, dtype=np.float64)
    return np.where(np.isnan(a), 0x7FF8000000000000, a.view(np.int64))


def assert_same_bits(got, want, what):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, what
    differ = np.flatnonzero(bits(got) != bits(want))
    assert differ.size == 0, f"{what}: {differ.size} differ, first at {differ[:5]}"


# (name, call(f, mu, sigma, y, cost, threads)): every function on every path.
CALLS = {
    "h": lambda mu, sigma, y, cost, t: fast.h(mu, threads=t),
    "ln_h": lambda mu, sigma, y, cost, t: fast.ln_h(-np.abs(mu), threads=t),
    "log_ndtr": lambda mu, sigma, y, cost, t: fast.log_ndtr(mu, threads=t),
    "ei one y": lambda mu, sigma, y, cost, t: fast.ei(mu, sigma, -1.0, threads=t),
    "ei per-point y": lambda mu, sigma, y, cost, t: fast.ei(mu, sigma, y, threads=t),
    "ei scalar sigma": lambda mu, sigma, y, cost, t: fast.ei(mu, 0.3, y, threads=t),
    "log_ei one y": lambda mu, sigma, y, cost, t: fast.log_ei(mu, sigma, 0.5, threads=t),
    "log_ei per-point y": lambda mu, sigma, y, cost, t: fast.log_ei(mu, sigma, y, threads=t),
    "log_eipc one y": lambda mu, sigma, y, cost, t: fast.log_eipc(mu, sigma, 0.5, cost,
                                                                    threads=t),
    "log_eipc per-point y": lambda mu, sigma, y, cost, t: fast.log_eipc(mu, sigma, y, cost,
                                                                          threads=t),
    "log_eipc scalar cost": lambda mu, sigma, y, cost, t: fast.log_eipc(mu, sigma, y, 1e-3,
                                                                          threads=t),
    "pbgi": lambda mu, sigma, y, cost, t: fast.pbgi(mu, sigma, cost, threads=t),
    "pbgi scalar cost": lambda mu, sigma, y, cost, t: fast.pbgi(mu, sigma, 1e-2, threads=t),
    "ei_grad one y": lambda mu, sigma, y, cost, t: fast.ei_grad(mu, sigma, 0.5, threads=t),
    "ei_grad per-point y": lambda mu, sigma, y, cost, t: fast.ei_grad(mu, sigma, y, threads=t),
    "ei_grad scalar sigma": lambda mu, sigma, y, cost, t: fast.ei_grad(mu, 2.0, y, threads=t),
    "log_ei_grad one y": lambda mu, sigma, y, cost, t: fast.log_ei_grad(mu, sigma, 0.5,
                                                                          threads=t),
    "log_ei_grad per-point y": lambda mu, sigma, y, cost, t: fast.log_ei_grad(mu, sigma, y,
                                                                                threads=t),
    "pbgi_grad": lambda mu, sigma, y, cost, t: fast.pbgi_grad(mu, sigma, cost, threads=t),
    "pbgi_grad scalar cost": lambda mu, sigma, y, cost, t: fast.pbgi_grad(mu, sigma, 0.1,
                                                                            threads=t),
}


@pytest.mark.parametrize("n", [1, 7, 4099, 70_001])
@pytest.mark.parametrize("name", CALLS)
def test_every_thread_count_gives_the_same_bits(name, n):
    mu, sigma, y, cost = points(n)
    call = CALLS[name]
    want = call(mu, sigma, y, cost, 1)
    for threads in [2, 3, 4, None]:
        got = call(mu, sigma, y, cost, threads)
        if isinstance(want, tuple):
            for field, g, w in zip(want._fields, got, want):
                assert_same_bits(g, w, f"{name}.{field}, n={n}, threads={threads}")
        else:
            assert_same_bits(got, want, f"{name}, n={n}, threads={threads}")


def test_out_and_threads_together():
    mu, sigma, y, cost = points(70_001)
    out = np.empty_like(mu)
    result = fast.log_ei(mu, sigma, y, out=out, threads=3)
    assert result is out
    assert_same_bits(out, fast.log_ei(mu, sigma, y, threads=1), "log_ei out=, threads=3")
    outs = tuple(np.empty_like(mu) for _ in range(4))
    fast.pbgi_grad(mu, sigma, cost, out=outs, threads=2)
    for o, w in zip(outs, fast.pbgi_grad(mu, sigma, cost, threads=1)):
        assert_same_bits(o, w, "pbgi_grad out=, threads=2")


def one_by_one(f, *args):
    """`f` at every point on its own: one-element calls, which run the scalar function."""
    return np.array([np.asarray(f(*(a[i : i + 1] for a in args))).reshape(()) for i in
                     range(args[0].size)])


@pytest.mark.parametrize("name", ["ei", "log_ei"])
def test_per_point_y_equals_the_scalar_function(name):
    mu, sigma, y, _ = points(3001, SEED + 1)
    f = getattr(fast, name)
    assert_same_bits(f(mu, sigma, y), one_by_one(f, mu, sigma, y), f"{name} per-point y")


def test_per_point_log_eipc_equals_the_scalar_function():
    mu, sigma, y, cost = points(3001, SEED + 2)
    assert_same_bits(fast.log_eipc(mu, sigma, y, cost),
                     one_by_one(fast.log_eipc, mu, sigma, y, cost), "log_eipc per-point y")


@pytest.mark.parametrize("name", ["ei_grad", "log_ei_grad", "pbgi_grad"])
def test_gradient_slices_equal_the_scalar_gradients(name):
    mu, sigma, y, cost = points(2001, SEED + 3)
    f = getattr(fast, name)
    third = cost if name == "pbgi_grad" else y
    got = f(mu, sigma, third)
    for k, field in enumerate(got._fields):
        want = one_by_one(lambda *a: f(*a)[k], mu, sigma, third)
        assert_same_bits(getattr(got, field), want, f"{name}.{field}")
    if name != "pbgi_grad":
        # One y for all: the other slice kernel.
        got = f(mu, sigma, 0.25)
        for k, field in enumerate(got._fields):
            want = one_by_one(lambda m, s: f(m, s, 0.25)[k], mu, sigma)
            assert_same_bits(getattr(got, field), want, f"{name}.{field}, y = 0.25")


@pytest.mark.parametrize(
    "threads, error",
    [
        (0, ValueError),
        (-1, ValueError),
        (fast.MAX_THREADS + 1, ValueError),
        (10**30, ValueError),
        (1.5, TypeError),
        (2.0, TypeError),
        ("2", TypeError),
        (True, TypeError),
        (np.bool_(True), TypeError),
        ([2], TypeError),
    ],
)
def test_bad_thread_counts_are_errors_naming_threads(threads, error):
    with pytest.raises(error, match="threads"):
        fast.ei(np.zeros(10), 1.0, 0.0, threads=threads)
    with pytest.raises(error, match="threads"):
        fast.pbgi_grad(np.zeros(10), 1.0, 0.1, threads=threads)
    # Also for an empty call, where no thread would run.
    with pytest.raises(error, match="threads"):
        fast.h(np.zeros(0), threads=threads)


def test_good_thread_counts():
    assert 1 <= fast.DEFAULT_THREADS <= fast.MAX_THREADS == 1024
    assert fast.SIMD_PATH in ("avx512f+avx512vl", "avx512f", "avx2+fma", "portable")
    for threads in [1, np.int64(2), np.uint8(3), fast.MAX_THREADS, None]:
        assert fast.ei(0.0, 1.0, 0.0, threads=threads) == pbgi.fast.ei(0.0, 1.0, 0.0)
    # More threads than elements: fewer run, nothing breaks.
    assert_same_bits(fast.ei(np.arange(5.0), 1.0, 2.0, threads=fast.MAX_THREADS),
                     fast.ei(np.arange(5.0), 1.0, 2.0, threads=1), "ei, 1024 threads")


def test_the_private_kernels_check_threads_too():
    from pbgi import _pbgi

    out = np.empty(3)
    with pytest.raises(ValueError, match="threads=0"):
        _pbgi.fast_ei(np.zeros(3), np.ones(3), np.zeros(1), out, 0)
    with pytest.raises(ValueError, match="threads=1025"):
        _pbgi.fast_ei(np.zeros(3), np.ones(3), np.zeros(1), out, 1025)

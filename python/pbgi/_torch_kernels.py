"""The fast crate's kernels written with torch operations (values and closed-form derivatives).

Private to `pbgi.torch`, which adds broadcasting, dtypes, argument checks and autograd. Every
function here takes float64 tensors of one shape on one device and returns float64 tensors.

The algorithms are those of `pbgi-fast` (proofs-notes/fast-error-analysis.md), operation for
operation where it matters for accuracy:

- `h(−x) = p(x)·e^{−x²/2}` with the tail ratio `p` from the fast crate's fitted tables (the
  same bits, read from the compiled package), `x²` and `(y − μ)/σ` carried as double-doubles
  (Dekker's splitting: torch has no fused multiply-add that every device promises), and
  `e^{−a}` from the crate's own reduced exponential (Cody–Waite and a degree-14 polynomial,
  returned as `2^−n·(hi + lo)`), so EI and `ln h` need nothing from the device's libm;
- PBGI from the crate's fitted start and one Halley step, in its three regimes of `c/σ`;
- `log_ndtr` from `erfc` with the argument's rounding carried, and the tail ratio beyond 8.

Only `log`, `log1p`, `erfc` and `exp` (the latter in derivatives and the PBGI start only) come
from torch; on every device they are within a few ulp, and they are the only operations whose
bits may differ between devices. Branches are computed for every element and selected with
`torch.where` (no data-dependent indexing, so nothing synchronises a GPU); each branch sees
harmless stand-in arguments where it is not selected, so no NaN or overflow leaks through.
"""

import math

import torch

from . import _pbgi

F64 = torch.float64
FRAC_1_SQRT_2PI = 0.3989422804014327
FRAC_1_SQRT_2PI_LO = -2.49232720227773e-17
FRAC_1_SQRT_2 = 0.7071067811865476
FRAC_1_SQRT_2_LO = -4.833646656726457e-17
FRAC_1_SQRT_PI = 0.5641895835477563
SQRT_2PI = 2.5066282746310007
LN_SQRT_2PI = 0.9189385332046728
LN2_HI = 6.93147180369123816490e-1
LN2_LO = 1.90821492927058770002e-10
INV_LN2 = 1.4426950408889634
# 1/k! for k = 14, 13, ..., 2 (the fast crate's exp_reduced).
INV_FACTORIALS = [1.1470745597729725e-11, 1.6059043836821613e-10, 2.08767569878681e-9,
                  2.505210838544172e-8, 2.755731922398589e-7, 2.7557319223985893e-6,
                  2.48015873015873e-5, 1.984126984126984e-4, 1.388888888888889e-3,
                  8.333333333333333e-3, 4.1666666666666664e-2, 1.6666666666666666e-1, 0.5]
X_UNDERFLOW = 60.0  # σ·h(−x) < 2^−1074 for every σ ≤ f64::MAX beyond this
Z_BEYOND = 20.0  # σ·h(−z) is below half an ulp of σ·z beyond this
X_HUGE = 3.273390607896142e150  # 2^500: ln h(−x) from its leading terms beyond
TAIL_START = 8.0

_TABLES = {}


def tables(device):
    """The fast crate's fitted tables as float64 tensors on `device` (cached)."""
    key = str(device)
    if key not in _TABLES:
        raw = _pbgi.fast_tables()
        t = {k: torch.tensor(v, dtype=F64, device=device) for k, v in raw.items()
             if k not in ("p_series", "s_series")}
        # The four polynomials in w = 1/x² of x ≥ 8, padded with leading zeros to one length
        # (Horner's scheme gives the same bits: acc = c + w·0 = c).
        rows = [raw["w8"], raw["w16"], raw["w32"], raw["asymptotic"]]
        n = max(len(r) for r in rows)
        t["large"] = torch.tensor([r + [0.0] * (n - len(r)) for r in rows], dtype=F64, device=device)
        t["p_series"] = raw["p_series"]
        t["s_series"] = raw["s_series"]
        _TABLES[key] = t
    return _TABLES[key]


# --- exact arithmetic -------------------------------------------------------------------------


def two_sum(a, b):
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def fast_two_sum(a, b):
    s = a + b
    return s, b - (s - a)


def _split(a):
    t = 134217729.0 * a
    hi = t - (t - a)
    return hi, a - hi


def two_prod(a, b):
    """`a·b = p + e` exactly (Dekker) for |a|, |b| below about 1e300 and products above 1e-290."""
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def pow2(k):
    """2^k as float64 for integer-valued k in [−1074, 1023] (built from its bits)."""
    k = k.to(torch.int64)
    normal = (k + 1023).clamp(1, 2046) << 52
    sub = torch.ones_like(k) << (k + 1074).clamp(0, 51)
    return torch.where(k >= -1022, normal, sub).view(F64)


def ldexp(v, k):
    """`v·2^k` rounded once (subnormal and overflowing results included), k integer-valued."""
    m, e = torch.frexp(v)
    t = e.to(torch.int64) + k.to(torch.int64)
    inside = m * pow2(t.clamp(-1074, 1023))
    top = (2.0 * m) * pow2(torch.full_like(t, 1023))
    out = torch.where(t <= 1023, inside, torch.where(t == 1024, top, m * math.inf))
    return torch.where(t < -1074, m * 0.0, out)


def exp_reduced(r):
    """`exp(r) ≈ hi + lo` for |r| ≤ 0.35 (the fast crate's polynomial; error ≤ 0.9ε)."""
    acc = r * INV_FACTORIALS[0] + INV_FACTORIALS[1]
    for c in INV_FACTORIALS[2:]:
        acc = r * acc + c
    q = r + (r * r) * acc
    hi = q + 1.0
    return hi, q - (hi - 1.0)


def exp_neg_reduced(a):
    """`exp(−a) = 2^−n·(hi + lo)` for 0 ≤ a ≤ 2^20: returns (n, hi, lo)."""
    shift = 6755399441055744.0  # 1.5·2^52: round to nearest integer
    n = (a * INV_LN2 + shift) - shift
    hi, lo = exp_reduced((n * LN2_HI - a) + n * LN2_LO)
    return n, hi, lo


# --- the tail ratio p(x) = h(−x)·e^{x²/2} -------------------------------------------------------


def _horner_rows(table, index, t, first, last):
    """Σ_{k=first..last} c_k t^(k−first) with the row `index` of `table` per element."""
    acc = table[:, last][index]
    for k in range(last - 1, first - 1, -1):
        acc = table[:, k][index] + t * acc
    return acc


def p_tail(x):
    """p(x) for x ≥ 0 in plain float64 (the fast crate's `p_tail`)."""
    tb = tables(x.device)
    small = x < 8.0
    xs = torch.where(small, x, 0.0)
    i = (xs * 8.0).to(torch.int64).clamp(0, 63)
    t = xs - (i.to(F64) + 0.5) * 0.125
    ps = tb["small"][:, 0][i] + (tb["small"][:, 1][i] + t * _horner_rows(tb["small"], i, t, 2, 10))
    xl = torch.where(small, 8.0, x)
    w = (1.0 / xl) * (1.0 / xl)
    j = (xl >= 16.0).to(torch.int64) + (xl >= 32.0) + (xl >= 64.0)
    large = tb["large"]
    q = large[:, 0][j] + (large[:, 1][j] + w * _horner_rows(large, j, w, 2, large.shape[1] - 1))
    return torch.where(small, ps, q * w)


def p_tail_sq(x, x2_hi, x2_lo):
    """p(x) as `hi + lo` with its corrections (the fast crate's `p_tail_sq`): returns
    (hi, lo, rel, dp), with p(x) ≈ (hi + lo)·(1 + rel) and dp ≈ p'(x). `x2 = x2_hi + x2_lo = x²`."""
    tb = tables(x.device)
    small = x < 8.0
    xs = torch.where(small, x, 0.0)
    i = (xs * 8.0).to(torch.int64).clamp(0, 63)
    t = xs - (i.to(F64) + 0.5) * 0.125
    c = tb["small"]
    s_hi, s_lo = fast_two_sum(c[:, 0][i], c[:, 1][i] + t * _horner_rows(c, i, t, 2, 10))
    s_dp = c[:, 2][i] + t * (2.0 * c[:, 3][i] + t * (3.0 * c[:, 4][i] + t * (4.0 * c[:, 5][i])))

    xl = torch.where(small, 8.0, x)
    x2l = torch.where(small, 64.0, x2_hi)
    x2l_lo = torch.where(small, 0.0, x2_lo)
    inv = 1.0 / x2l
    j = (xl >= 16.0).to(torch.int64) + (xl >= 32.0) + (xl >= 64.0)
    large = tb["large"]
    q_hi, q_lo = fast_two_sum(large[:, 0][j],
                              large[:, 1][j] + inv * _horner_rows(large, j, inv, 2, large.shape[1] - 1))
    l_hi, e = two_prod(q_hi, inv)
    a, b = two_prod(torch.where(x2l < 1e200, x2l, 1.0), torch.where(x2l < 1e200, inv, 1.0))
    r1 = torch.where(x2l < 1e200, (1.0 - a) - b, 0.0)
    l_lo = e + q_lo * inv
    l_rel = r1 - x2l_lo * inv
    l_dp = l_hi * (xl * inv) * (-2.0 + 6.0 * inv)
    return (torch.where(small, s_hi, l_hi), torch.where(small, s_lo, l_lo),
            torch.where(small, 0.0, l_rel), torch.where(small, s_dp, l_dp))


# --- z = (y − μ)/σ as a double-double ------------------------------------------------------------


def standardize(mu, sigma, y):
    """(dhi, dlo, zhi, zlo): y − μ = dhi + dlo exactly, (y − μ)/σ ≈ zhi + zlo to ~2^−100.
    Requires σ > 0 finite; zlo is 0 where it cannot matter (|z| beyond 1e290 or below 1e-280)."""
    dhi, dlo = two_sum(y, -mu)
    zhi = dhi / sigma
    ms, ks = torch.frexp(sigma)
    scale = pow2((-ks.to(torch.int64)).clamp(-1074, 1023))
    usable = (zhi.abs() < 1e290) & (zhi.abs() > 1e-280) & torch.isfinite(dhi)
    z_safe = torch.where(usable, zhi, 0.0)
    dm = torch.where(usable, dhi * scale, 0.0)
    dml = torch.where(usable, dlo * scale, 0.0)
    p, e = two_prod(z_safe, ms)
    zlo = torch.where(usable, (((dm - p) - e) + dml) / ms, 0.0)
    return dhi, dlo, zhi, zlo


# --- σ·h(z) --------------------------------------------------------------------------------------


def sigma_h_neg(x, xlo, ms, k):
    """σ·h(−(x + xlo))·2^k with σ = ms ∈ [0.5, 1) (the fast crate's `sigma_h_neg`), 0 ≤ x ≤ 60."""
    hi, lo = two_prod(x, x)
    n, e, e_lo = exp_neg_reduced(0.5 * hi)
    t_hi, t_lo, t_rel, t_dp = p_tail_sq(x, hi, lo)
    corr = t_rel - (0.5 * lo + x * xlo)
    m_hi, m_lo = two_prod(t_hi, e)
    s_hi, s_lo = two_prod(ms, m_hi)
    m_lo = m_lo + t_hi * e_lo
    v = s_hi + ((s_lo + ms * (m_lo + e * (t_lo + t_dp * xlo))) + s_hi * corr)
    return ldexp(v, k - n.to(torch.int64))


def sigma_h_pos(z, ms, dhi, dlo):
    """dhi + dlo + σ·h(−z) for 0 ≤ z with σ = ms (the fast crate's `sigma_h_pos`)."""
    zk = torch.where(z > Z_BEYOND, 0.0, z)
    hi, lo = two_prod(zk, zk)
    n, e, e_lo = exp_neg_reduced(0.5 * hi)
    scale = pow2(-n.to(torch.int64))
    e, e_lo = e * scale, e_lo * scale
    t_hi, t_lo, t_rel, _ = p_tail_sq(zk, hi, lo)
    corr = t_rel - 0.5 * lo
    m_hi, m_lo = two_prod(t_hi, e)
    s_hi, s_lo = two_prod(ms, m_hi)
    m_lo = m_lo + t_hi * e_lo
    a, b = two_sum(dhi, s_hi)
    v = a + (b + (dlo + (s_lo + ms * (m_lo + e * t_lo)) + s_hi * corr))
    return torch.where(z > Z_BEYOND, dhi + dlo, v)


def h(z):
    x = torch.where(z < 0, -z, 0.0).clamp(max=X_UNDERFLOW)
    zero = torch.zeros_like(z)
    one = torch.ones_like(z)
    left = sigma_h_neg(x, zero, one * 0.5, torch.ones_like(z, dtype=torch.int64))
    right = sigma_h_pos(torch.where(z >= 0, z, 0.0), one, torch.where(z >= 0, z, 0.0), zero)
    out = torch.where(z >= 0, right, torch.where(z >= -X_UNDERFLOW, left, 0.0))
    return torch.where(torch.isnan(z), z, out)


def ln_h_neg(x, xlo, ln_sigma_hi, ln_sigma_lo):
    """ln σ + ln h(−(x + xlo)) for x ≥ 0 as (ln σ = ln_sigma_hi + ln_sigma_lo exactly enough),
    formed so that no term cancels another's digits (the fast crate's `ln_h_neg_plus`)."""
    big = x >= X_HUGE
    xs = torch.where(big, 1.0, x)
    half_hi, half_lo = two_prod(xs, 0.5 * xs)
    hi, lo = 2.0 * half_hi, 2.0 * half_lo
    t_hi, t_lo, t_rel, t_dp = p_tail_sq(xs, hi, lo)
    a, b = two_sum(-half_hi, torch.log(t_hi))
    c, d = two_sum(a, ln_sigma_hi)
    small = (t_lo + t_dp * xlo) / t_hi + t_rel - (half_lo + xs * xlo)
    regular = c + (d + (b + (small + ln_sigma_lo)))
    # x ≥ 2^500: −x²/2 − ln √(2π) − 2 ln x (+ ln σ); x²/2 overflows to −inf beyond 1.9e154.
    xb = torch.where(big, x, 1.0)
    bh, bl = two_prod(xb * 2.409919865102884e-181, 0.5 * xb)  # x·2^-600 · x/2
    big_hi = bh * 4.149515568880993e180
    big_val = -big_hi + ((((ln_sigma_hi + ln_sigma_lo) - (2.0 * torch.log(xb) + LN_SQRT_2PI))
                          - xb * xlo) - bl * 4.149515568880993e180)
    big_val = torch.where(torch.isfinite(big_hi), big_val, -math.inf)
    return torch.where(big, big_val, regular)


def ln_h(z):
    x = torch.where(z < 0, -z, 0.0)
    zero = torch.zeros_like(z)
    left = ln_h_neg(x, zero, zero, zero)
    zp = torch.where(z >= 0, z, 0.0)
    right = torch.log(sigma_h_pos(zp, torch.ones_like(z), zp, zero))
    out = torch.where(z >= 0, right, left)
    return torch.where(torch.isnan(z), z, out)


def _ln_sigma(sigma):
    """ln σ as hi + lo from σ = ms·2^ks: ks·ln 2 (exact high part) + ln ms."""
    ms, ks = torch.frexp(sigma)
    k = ks.to(F64)
    a, b = two_sum(k * LN2_HI, torch.log(ms))
    return a, b + k * LN2_LO


def ei(mu, sigma, y):
    """EI(μ, σ; y) (the fast crate's `ei`) for finite arguments, σ ≥ 0."""
    pos = sigma > 0
    s = torch.where(pos, sigma, 1.0)
    dhi, dlo, zhi, zlo = standardize(mu, s, y)
    ms, ks = torch.frexp(s)
    ks = ks.to(torch.int64)
    # Scaled by 2^-ks: d' = d·2^-ks is exact unless negligible (|z| < 1e-290) or z is past the
    # kernel (z > 20, where EI = dhi + dlo unscaled).
    scale = pow2((-ks).clamp(-1074, 1023))
    inner = zhi <= Z_BEYOND
    zp = torch.where(zhi >= 0, zhi, 0.0)
    right = ldexp(sigma_h_pos(zp, ms, torch.where(inner, dhi * scale, 0.0),
                              torch.where(inner, dlo * scale, 0.0)), ks)
    right = torch.where(inner, right, dhi + dlo)
    x = torch.where(zhi < 0, -zhi, 0.0).clamp(max=X_UNDERFLOW)
    left = sigma_h_neg(x, torch.where(zhi < 0, -zlo, 0.0), ms, ks)
    left = torch.where(zhi >= -X_UNDERFLOW, left, 0.0)
    value = torch.where(zhi >= 0, right, left)
    # σ = 0: exactly (y − μ)⁺; a difference that overflows: EI = 4·EI(μ/4, σ/4; y/4).
    value = torch.where(pos, value, dhi.clamp(min=0.0))
    return value


def _finite_difference(mu, sigma, y):
    """The arguments quartered where y − μ overflows (EI and LogEI are homogeneous), and the
    factor to undo it: EI(μ, σ; y) = 4·EI(μ/4, σ/4; y/4)."""
    over = ~torch.isfinite(y - mu)
    f = torch.where(over, torch.full_like(mu, 0.25), 1.0)
    return mu * f, sigma * f, y * f, over


def ei_any(mu, sigma, y):
    mu4, s4, y4, over = _finite_difference(mu, sigma, y)
    v = ei(mu4, s4, y4)
    return torch.where(over, 4.0 * v, v)


def log_ei(mu, sigma, y):
    """LogEI (the fast crate's `log_ei`) for finite arguments, σ ≥ 0."""
    mu, sigma, y, over = _finite_difference(mu, sigma, y)
    return _log_ei_quartered(mu, sigma, y, over, ei(mu, sigma, y))


def _log_ei_quartered(mu, sigma, y, over, e):
    """LogEI from arguments already through `_finite_difference` (`over` its mask) and their
    EI `e`, so that LogEIPC computes EI once. Where σ = 0 the value is (y − μ)⁺'s log, whatever
    `e` holds there."""
    pos = sigma > 0
    s = torch.where(pos, sigma, 1.0)
    dhi, dlo, zhi, zlo = standardize(mu, s, y)
    lns_hi, lns_lo = _ln_sigma(s)
    x = torch.where(zhi < 0, -zhi, 0.0)
    tail = ln_h_neg(x, torch.where(zhi < 0, -zlo, 0.0), lns_hi, lns_lo)
    normal = (e >= 2.2250738585072014e-308) & torch.isfinite(e)
    ln_e = torch.log(torch.where(normal, e, 1.0))
    zp = torch.where(zhi >= 0, zhi, 0.0)
    right_far = (lns_hi + lns_lo) + torch.log(sigma_h_pos(zp, torch.ones_like(zp), zp, torch.zeros_like(zp)))
    # z < 0 with σ ≤ 1: the tail form (its terms share one sign); otherwise ln EI where EI is a
    # normal number (accurate however ln σ and ln h would cancel), else the sum (|LogEI| > 708).
    value = torch.where(normal, ln_e, torch.where(zhi < 0, tail, right_far))
    value = torch.where((zhi < 0) & (s <= 1.0), tail, value)
    ln4 = 1.3862943611198906
    value = torch.where(over, value + ln4, value)
    zero_sigma = torch.log(dhi.clamp(min=0.0))
    return torch.where(pos, value, zero_sigma)


def log_eipc(mu, sigma, y, cost):
    """LogEIPC = ln EI − ln c (the fast crate's `log_eipc`): the ratio ln(EI/c) where EI and
    EI/c are normal numbers (no cancellation at the stopping rule's 0), else the difference."""
    mu4, s4, y4, over = _finite_difference(mu, sigma, y)
    e4 = ei(mu4, s4, y4)
    e = torch.where(over, 4.0 * e4, e4)
    r = e / cost
    tiny = 2.2250738585072014e-308
    ratio_ok = (e >= tiny) & torch.isfinite(e) & (r >= tiny) & torch.isfinite(r)
    ratio = torch.log(torch.where(ratio_ok, r, 1.0))
    diff = _log_ei_quartered(mu4, s4, y4, over, e4) - torch.log(cost)
    return torch.where(ratio_ok, ratio, diff)


# --- ln Φ -------------------------------------------------------------------------------------------


def upper_tail(t):
    """Q(t) = Φ(−t) = erfc(t/√2)/2 with the rounding of t/√2 carried (|t| ≤ 40)."""
    a_hi, a_e = two_prod(t, torch.full_like(t, FRAC_1_SQRT_2))
    delta = a_e + t * FRAC_1_SQRT_2_LO
    return 0.5 * torch.special.erfc(a_hi) - FRAC_1_SQRT_PI * torch.exp(-a_hi * a_hi) * delta


def log_ndtr(x):
    """ln Φ(x) (the fast crate's `log_ndtr`)."""
    xs = x.clamp(-TAIL_START, 40.0)
    right = torch.log1p(-upper_tail(xs.clamp(min=0.0)))
    middle = torch.log(upper_tail((-xs).clamp(min=0.0)))
    t = torch.where(x <= -TAIL_START, -x, TAIL_START)
    scaled = t >= 1e150
    ts = torch.where(scaled, 1.0, t)
    a, b = two_prod(0.5 * ts, ts)
    tb = torch.where(scaled, t, 1.0)
    a2, b2 = two_prod(tb * 2.409919865102884e-181, 0.5 * tb)
    a = torch.where(scaled, a2 * 4.149515568880993e180, a)
    b = torch.where(scaled, b2 * 4.149515568880993e180, b)
    q = SQRT_2PI * p_tail(t)
    far = -a + ((-b - LN_SQRT_2PI) + (torch.log1p(-q) - torch.log(t)))
    far = torch.where(torch.isfinite(a), far, -math.inf)
    out = torch.where(x > 0, torch.where(x > 40.0, -0.0, right),
                      torch.where(x > -TAIL_START, middle, far))
    return torch.where(torch.isnan(x), x, out)


# --- PBGI ---------------------------------------------------------------------------------------


def _halley(f, d1, d2):
    return -2.0 * f * d1 / (2.0 * d1 * d1 - f * d2)


def _start_poly(rows, index, v):
    t = v - rows[:, 0][index]
    acc = rows[:, 8][index]
    for k in range(7, 0, -1):
        acc = rows[:, k][index] + t * acc
    return acc


def _start_u(r, tb):
    br = tb["r_breaks"]
    i = torch.zeros_like(r, dtype=torch.int64)
    for b in br[1:7]:
        i = i + (r >= b)
    return _start_poly(tb["u_of_r"], i, r)


def _solve_upper(r_hi, r_lo, tb):
    u = torch.where(r_hi < tb["r_breaks"][7], _start_u(r_hi, tb), r_hi)
    e = torch.exp(-0.5 * u * u)
    p = p_tail(u)
    f = ((u - r_hi) - r_lo) + p * e
    d1 = 1.0 - e * (FRAC_1_SQRT_2PI - p) / u
    d2 = FRAC_1_SQRT_2PI * e
    return u + _halley(f, d1, d2)


def _horner(coeffs, w):
    acc = torch.zeros_like(w)
    for c in reversed(coeffs):
        acc = acc * w + c
    return acc


def _solve_middle(r_hi, r_lo, tb):
    d_hi, d_e = two_sum(r_hi, torch.full_like(r_hi, -FRAC_1_SQRT_2PI))
    d_hi, d_lo = two_sum(d_hi, d_e + (r_lo - FRAC_1_SQRT_2PI_LO))
    d = d_hi + d_lo
    u = torch.where(d_hi.abs() < 1e-3, 2.0 * d - 4.0 * FRAC_1_SQRT_2PI * d * d, _start_u(r_hi, tb))
    w = u * u
    f = ((0.5 * u - d_hi) + FRAC_1_SQRT_2PI * w * _horner(tb["p_series"], w)) - d_lo
    d1 = 0.5 + FRAC_1_SQRT_2PI * u * _horner(tb["s_series"], w)
    d2 = FRAC_1_SQRT_2PI * (1.0 + w * (-0.5 + w * (0.125 + w * (-1.0 / 48.0 + w / 384.0))))
    return u + _halley(f, d1, d2)


def _solve_lower(m, tb):
    """x ≥ 0 with ln h(−x) = −m (m ≥ ln(1/h(−1)))."""
    near = m < 2048.0
    mn = torch.where(near, m, 2.5)
    v = torch.sqrt(2.0 * mn)
    _, ev = torch.frexp(v)
    i = torch.where(v < 4.0, 0, ev.to(torch.int64) - 2).clamp(0, 4)
    x = _start_poly(tb["x_of_v"], i, v)
    hi, lo = two_prod(x, x)
    t_hi, t_lo, t_rel, _ = p_tail_sq(x, hi, lo)
    f = (0.5 * hi - mn) + (0.5 * lo - (torch.log(t_hi) + (t_lo / t_hi + t_rel)))
    d1 = (FRAC_1_SQRT_2PI - t_hi) / (x * t_hi)
    d2 = d1 * d1 - FRAC_1_SQRT_2PI / t_hi
    near_x = x + _halley(f, d1, d2)
    # m ≥ 2048: a fixed point x = √(2(m + ln p(x))), four steps (the crate's solve_lower_far).
    mf = torch.where(near, 4096.0, m)
    finite = torch.isfinite(mf)
    mf = torch.where(finite, mf, 4096.0)
    sqrt_2 = lambda a: 2.0 * torch.sqrt(0.5 * a)  # noqa: E731 (no overflow of 2a)
    vf = sqrt_2(mf)
    xf = sqrt_2(mf - (2.0 * torch.log(vf) + LN_SQRT_2PI))
    large = tb["large"]
    for _ in range(4):
        w = (1.0 / xf) * (1.0 / xf)
        j = (xf >= 16.0).to(torch.int64) + (xf >= 32.0) + (xf >= 64.0)
        q = large[:, 0][j] + (large[:, 1][j] + w * _horner_rows(large, j, w, 2, large.shape[1] - 1))
        xf = sqrt_2(mf + (torch.log(q) - 2.0 * torch.log(xf)))
    xf = torch.where(finite, xf, m)
    return torch.where(near, near_x, xf)


def standardized_index(sigma, cost):
    """u with h(u) = c/σ for σ > 0, c > 0 finite (the fast crate's `solve`); also returns the
    offset g − μ (σ·u, or c where c/σ ≥ 40)."""
    tb = tables(sigma.device)
    r_hi = cost / sigma
    beyond = r_hi >= 40.0
    ms, ks = torch.frexp(sigma)
    scale = pow2((-ks.to(torch.int64)).clamp(-1074, 1023))
    c_scaled = cost * scale
    rr = torch.where(beyond | (r_hi < 2.2250738585072014e-308), 1.0, r_hi)
    p, e = two_prod(rr, ms)
    r_lo = torch.where(p.abs() >= 1e-290, ((c_scaled - p) - e) / ms, 0.0)
    r_lo = torch.where(torch.isfinite(r_lo), r_lo, 0.0)
    upper = _solve_upper(torch.where(rr >= tb["r_breaks"][4], rr, 1.0),
                         torch.where(rr >= tb["r_breaks"][4], r_lo, 0.0), tb)
    mid_sel = (rr >= tb["r_breaks"][0]) & (rr < tb["r_breaks"][4])
    middle = _solve_middle(torch.where(mid_sel, rr, 0.3), torch.where(mid_sel, r_lo, 0.0), tb)
    low_sel = rr < tb["r_breaks"][0]
    m = -(torch.log(rr) + r_lo / rr)
    tiny = r_hi < 2.2250738585072014e-308
    m = torch.where(tiny, torch.log(sigma) - torch.log(cost), m)
    lower = -_solve_lower(torch.where(low_sel | tiny, m, 3.0), tb)
    u = torch.where(rr >= tb["r_breaks"][4], upper, torch.where(mid_sel, middle, lower))
    u = torch.where(tiny, lower, u)
    u = torch.where(beyond, r_hi, u)
    offset = torch.where(beyond, cost, sigma * u)
    return u, offset


def pbgi(mu, sigma, cost):
    """PBGI (the fast crate's `pbgi`) for finite μ, σ ≥ 0, c > 0; also returns u (+inf at σ = 0)."""
    pos = sigma > 0
    s = torch.where(pos, sigma, 1.0)
    u, offset = standardized_index(s, cost)
    g = mu + offset
    halved = 2.0 * (0.5 * mu + 0.5 * offset)
    g = torch.where(torch.isfinite(g), g, halved)
    g = torch.where(pos, g, mu + cost)
    return g, torch.where(pos, u, math.inf)


# --- derivatives ----------------------------------------------------------------------------------


def ndtr(z):
    """Φ(z) with the argument's rounding carried (|z| to 40; 0 or 1 beyond)."""
    zc = z.clamp(-40.0, 40.0)
    return torch.where(zc < 0, upper_tail((-zc).clamp(min=0.0)), 1.0 - upper_tail(zc.clamp(min=0.0)))


def gauss(z):
    """φ(z)."""
    return FRAC_1_SQRT_2PI * torch.exp(-0.5 * z * z)


def phi_over_h(z):
    """φ(z)/h(z), and Φ(z)/h(z): the LogEI and ln h derivatives, without underflow."""
    x = torch.where(z < 0, -z, 0.0)
    xs = x.clamp(max=1e150)
    r2_left = 1.0 / (SQRT_2PI * p_tail(xs))
    r1_left = (r2_left - 1.0) / torch.where(xs >= 1.0, xs, 1.0)
    zc = z.clamp(-1.0, 1e300)
    hz = h(zc)
    r2_direct = gauss(zc) / hz
    r1_direct = ndtr(zc) / hz
    # Beyond 1e150 the left ratios are x² and x (p(x) ≈ φ0/x²; no overflow of x²).
    r2 = torch.where(z < -1.0, torch.where(x > 1e150, x * x, r2_left), r2_direct)
    r1 = torch.where(z < -1.0, torch.where(x > 1e150, x, r1_left), r1_direct)
    return r2, r1


def inverse_mills(x):
    """φ(x)/Φ(x) and 1/Φ(x): the log_ndtr and PBGI derivatives."""
    t = torch.where(x < -TAIL_START, -x, TAIL_START)
    tail_ratio = 1.0 - SQRT_2PI * p_tail(t)
    far_mills = t / tail_ratio
    # 1/Φ(−t) = t·√(2π)·e^{t²/2}/(1 − √(2π)p): overflows to +inf only where the exact value does.
    half_sq = 0.5 * t * t
    n, e, _ = exp_neg_reduced(half_sq.clamp(max=1e6))
    far_inv = ldexp(t * SQRT_2PI / (e * tail_ratio), n.to(torch.int64))
    xc = x.clamp(min=-TAIL_START)
    cdf = ndtr(xc)
    near_mills = gauss(xc) / cdf
    near_inv = 1.0 / cdf
    far = x < -TAIL_START
    return torch.where(far, far_mills, near_mills), torch.where(far, far_inv, near_inv)

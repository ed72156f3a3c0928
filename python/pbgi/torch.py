"""EI, LogEI, PBGI and LogEIPC on torch tensors: any device, broadcasting, differentiable.

    import torch, pbgi.torch as pt

    mean = torch.tensor([0.0, 1.0], requires_grad=True)
    sigma = torch.tensor([1.0, 0.5])
    g = pt.pbgi(mean, sigma, torch.tensor(0.01))   # the Pandora's Box Gittins index
    g.sum().backward()                             # ∂g/∂μ = 1 (MATH.md)

Convention (MATH.md): **minimisation**, as everywhere in `pbgi`: `ei(mu, sigma, y) =
E[(y − f)⁺]` for `f ~ N(mu, sigma²)`, `pbgi(mu, sigma, cost)` is the `g` with `EI(mu, sigma; g)
= cost`, and `log_eipc(mu, sigma, y, cost) = ln EI − ln cost`. BoTorch maximises: its
`best_f` is our `−y` and its posterior mean our `−mu` (`pbgi.botorch` translates).

**Algorithms.** On CPU tensors, by default, `pbgi.fast`'s compiled kernels run on the
tensors' memory (values and partials bit for bit `pbgi.fast`'s). On every other device (and on
CPU after `set_cpu_kernels("torch")`) the same algorithms run as torch operations
(`pbgi/_torch_kernels.py`): the scaled tail forms `h(−x) = p(x)·e^{−x²/2}` with the crate's
own fitted tables, `(y − μ)/σ` and `x²` carried as double-doubles, the crate's reduced
exponential, and PBGI from the crate's fitted start with one Halley step (no bisection). The
test command grades both paths on CPU.

**Dtypes.** float64 in, float64 out. float32 (or float16/bfloat16) in: computed in float64
and rounded once to the input's dtype at the end (and so are the gradients). Integer or bool
tensors and Python numbers are taken as float64. The result's dtype is that of the widest
floating argument.

**Broadcasting** like a torch operation; scalars are allowed. All tensor arguments must be
on one device.

**Domain.** Every argument finite, `sigma ≥ 0`, `cost > 0` (`pbgi.fast`'s domain). With
`check=True` (the default) an argument outside it raises `ValueError` naming the argument and
the first offending index (this reads one flag from the device, a synchronisation on a GPU);
with `check=False` nothing is checked and an invalid element gives NaN or a limit, as in
`pbgi.fast`. `sigma = 0` is exactly `max(y − mu, 0)` / `mu + cost`; LogEI there is `−inf` for
`y ≤ mu` (the exact value).

**Accuracy** (graded against the certified reference by `python/tests/test_torch_accuracy.py`,
region by region, on CPU; the measures are `pbgi check`'s): within `pbgi.fast`'s bounds, 4 ULP
for `h`, `ln_h`, `log_ndtr`, `ei`, `log_ei`, `pbgi`, `log_eipc`. The only operations whose bits
can differ between devices are torch's `log`, `log1p`, `erfc` and `exp`; everything else is
IEEE addition, multiplication and division, which round alike everywhere. On a GPU: not graded
by the test command (see docs/python.md for the GPU report script).

**Gradients** are the closed forms of MATH.md ("Gradients of EI and LogEI", "Derivatives"),
not differentiation through the kernels: `∂EI/∂μ = −Φ(z)`, `∂EI/∂σ = φ(z)`, `∂EI/∂y = Φ(z)`;
LogEI's divided by EI with `φ/h` and `Φ/h` formed without underflow; PBGI's `∂g/∂μ = 1`,
`∂g/∂σ = −φ(u)/Φ(u)`, `∂g/∂c = 1/Φ(u)`. They are never NaN on the domain, and finite wherever the
exact derivative is below the largest double; where it is not (LogEI's `Φ(z)/(σ·h(z))` for
`|z|/σ` beyond 1.8e308, `1/Φ(u)` for `cost/sigma` below about 1e-308) it is `±inf`, the
correctly rounded value, and an element whose upstream gradient is 0 still gets 0.
At `sigma = 0` they are the one-sided limits from `sigma > 0` where those exist; where they do
not (EI at `y = mu`, LogEI at `y ≤ mu`) the values are documented per function, never NaN.
First derivatives only (`torch.autograd.gradcheck` passes; a second derivative raises).
"""

try:
    import torch
except ImportError as error:  # pragma: no cover - exercised by test_torch_optional
    raise ImportError(
        "pbgi.torch needs PyTorch: pip install 'pbgi[torch]' (or pip install torch)"
    ) from error

import numpy as np

from . import fast as _fastmod

from . import _torch_kernels as K

__all__ = ["h", "ln_h", "log_ndtr", "ei", "log_ei", "pbgi", "log_eipc", "set_cpu_kernels"]


def _prepare(names, values, check, positive=()):
    """Broadcast tensors/numbers to float64 on one device; returns (tensors, out_dtype)."""
    tensors = [v for v in values if isinstance(v, torch.Tensor)]
    devices = {t.device for t in tensors}
    if len(devices) > 1:
        listed = ", ".join(f"{n} on {v.device}" for n, v in zip(names, values) if isinstance(v, torch.Tensor))
        raise ValueError(f"arguments on different devices: {listed}")
    device = devices.pop() if devices else torch.device("cpu")
    floating = [t.dtype for t in tensors if t.dtype.is_floating_point]
    for n, v in zip(names, values):
        if isinstance(v, torch.Tensor) and (v.is_complex() or not (v.dtype.is_floating_point or v.dtype in (
                torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64))):
            raise TypeError(f"{n}: a real tensor is needed, got dtype {v.dtype}")
        if isinstance(v, bool) or not isinstance(v, (torch.Tensor, int, float)):
            raise TypeError(f"{n}: a tensor or a real number is needed, got {type(v).__name__}")
    out_dtype = torch.float64
    if floating:
        out_dtype = floating[0]
        for d in floating[1:]:
            out_dtype = torch.promote_types(out_dtype, d)
    as64 = [v.to(device=device, dtype=torch.float64) if isinstance(v, torch.Tensor)
            else torch.tensor(float(v), dtype=torch.float64, device=device) for v in values]
    try:
        as64 = list(torch.broadcast_tensors(*as64))
    except RuntimeError as error:
        shapes = ", ".join(f"{n} {tuple(v.shape)}" for n, v in zip(names, as64))
        raise ValueError(f"arguments do not broadcast: {shapes}") from error
    if check:
        for n, v in zip(names, as64):
            bad = ~torch.isfinite(v)
            what = "finite"
            if n == "sigma":
                bad = bad | (v < 0)
                what = "finite and >= 0"
            elif n in positive:
                bad = bad | (v <= 0)
                what = "finite and > 0"
            if bool(bad.any()):
                index = tuple(int(i) for i in torch.nonzero(bad)[0].tolist())
                raise ValueError(f"{n}: every element must be {what}; "
                                 f"element {index} is {float(v[index])!r}")
    return as64, out_dtype


def _invalid(names, as64, positive):
    """NaN anywhere, sigma < 0 or a cost <= 0 (the elements that are NaN under check=False)."""
    bad = torch.zeros(as64[0].shape, dtype=torch.bool, device=as64[0].device)
    for n, v in zip(names, as64):
        bad = bad | torch.isnan(v)
        if n == "sigma":
            bad = bad | (v < 0)
        elif n in positive:
            bad = bad | (v <= 0)
    return bad


def _reduce_grad(grad, like):
    """A broadcast gradient summed back to the shape and dtype of the argument `like`."""
    if grad is None or not isinstance(like, torch.Tensor):
        return None
    while grad.dim() > like.dim():
        grad = grad.sum(0)
    for i, n in enumerate(like.shape):
        if n == 1 and grad.shape[i] != 1:
            grad = grad.sum(i, keepdim=True)
    return grad.to(like.dtype)


def _differentiable(names, values, check, kernel, positive=()):
    """Runs `kernel` on the prepared float64 tensors and wires the closed-form partials to the
    caller's tensors (summing over broadcast dimensions, casting to their dtypes)."""
    as64, out_dtype = _prepare(names, values, check, positive)
    tracked = [i for i, v in enumerate(values) if isinstance(v, torch.Tensor) and v.requires_grad]
    wanted = torch.is_grad_enabled() and bool(tracked)
    with torch.no_grad():
        if as64[0].device.type == "cpu" and _CPU_KERNELS == "fast":
            value, partials = _FAST[kernel](*as64, with_grad=wanted)
        else:
            value, partials = kernel(*as64, with_grad=wanted)
        if not check:
            value = torch.where(_invalid(names, as64, positive), torch.nan, value)
    if not wanted:
        return value.to(out_dtype)
    originals = [values[i] for i in tracked]
    grads = [partials[i] for i in tracked]
    return _Closed.apply(value.to(out_dtype), grads, values, tracked, *originals)


class _Closed(torch.autograd.Function):
    @staticmethod
    def forward(ctx, value, grads, values, tracked, *originals):
        ctx.grads = grads
        ctx.originals = originals
        return value.clone()

    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, grad):
        g64 = grad.to(torch.float64)
        out = [None, None, None, None]
        for p, like in zip(ctx.grads, ctx.originals):
            # A zero upstream gradient (a masked or unused element) gives 0, also where the
            # partial is infinite (an exact derivative beyond the largest double): not NaN.
            out.append(_reduce_grad(torch.where(g64 == 0, 0.0, g64 * p), like))
        return tuple(out)


# --- kernels with their partials (float64, one shape) ----------------------------------------------


def _h(z, with_grad):
    return K.h(z), ([K.ndtr(z)] if with_grad else None)


def _ln_h(z, with_grad):
    value = K.ln_h(z)
    if not with_grad:
        return value, None
    _, r1 = K.phi_over_h(z)
    return value, [r1]


def _log_ndtr(x, with_grad):
    value = K.log_ndtr(x)
    if not with_grad:
        return value, None
    mills, _ = K.inverse_mills(x)
    return value, [mills]


def _ei(mu, sigma, y, with_grad):
    value = K.ei_any(mu, sigma, y)
    if not with_grad:
        return value, None
    pos = sigma > 0
    s = torch.where(pos, sigma, 1.0)
    z = (y - mu) / s
    z = torch.where(torch.isfinite(z), z, torch.sign(y - mu) * 1e300)
    cdf = K.ndtr(z)
    dens = K.gauss(z.clamp(-1e150, 1e150))
    d = y - mu
    # σ = 0: one-sided limits; at y = μ EI = σ·h(0), so ∂/∂σ = φ(0) and ∂/∂y = −∂/∂μ = ½.
    cdf0 = torch.where(d > 0, torch.ones_like(d), torch.where(d < 0, 0.0, torch.full_like(d, 0.5)))
    dens0 = torch.where(d == 0, torch.full_like(d, K.FRAC_1_SQRT_2PI), 0.0)
    cdf = torch.where(pos, cdf, cdf0)
    dens = torch.where(pos, dens, dens0)
    return value, [-cdf, dens, cdf]


def _log_ei_partials(mu, sigma, y):
    pos = sigma > 0
    s = torch.where(pos, sigma, 1.0)
    dhi, dlo, zhi, zlo = K.standardize(mu, s, y)
    z = torch.where(torch.isfinite(zhi), zhi, torch.sign(dhi) * 1e300)
    r2, r1 = K.phi_over_h(z)
    d_mu = -r1 / s
    d_sigma = r2 / s
    # σ = 0: ∂/∂μ = −1/(y − μ) for y > μ; LogEI = −∞ for y ≤ μ, where 0 is returned.
    d = y - mu
    inv = torch.where(d > 0, 1.0 / torch.where(d > 0, d, 1.0), 0.0)
    d_mu = torch.where(pos, d_mu, -inv)
    d_sigma = torch.where(pos, d_sigma, 0.0)
    return d_mu, d_sigma


def _log_ei(mu, sigma, y, with_grad):
    value = K.log_ei(mu, sigma, y)
    if not with_grad:
        return value, None
    d_mu, d_sigma = _log_ei_partials(mu, sigma, y)
    return value, [d_mu, d_sigma, -d_mu]


def _log_eipc(mu, sigma, y, cost, with_grad):
    value = K.log_eipc(mu, sigma, y, cost)
    if not with_grad:
        return value, None
    d_mu, d_sigma = _log_ei_partials(mu, sigma, y)
    return value, [d_mu, d_sigma, -d_mu, -1.0 / cost]


def _pbgi(mu, sigma, cost, with_grad):
    g, u = K.pbgi(mu, sigma, cost)
    if not with_grad:
        return g, None
    mills, inv_cdf = K.inverse_mills(torch.where(torch.isfinite(u), u, 40.0).clamp(max=40.0))
    pos = sigma > 0
    d_sigma = torch.where(pos, -mills, 0.0)
    d_cost = torch.where(pos, inv_cdf, 1.0)
    return g, [torch.ones_like(g), d_sigma, d_cost]


# --- the CPU path: pbgi.fast's compiled kernels on the tensors' memory -------------------------------

_CPU_KERNELS = "fast"


def set_cpu_kernels(name):
    """Chooses the kernels for CPU tensors: `"fast"` (the default: `pbgi.fast`'s compiled
    kernels, called on the tensors' memory, values and partials bit for bit `pbgi.fast`'s) or
    `"torch"` (the torch-operation kernels every other device runs; the test command grades
    both on CPU). Returns the previous choice."""
    global _CPU_KERNELS
    if name not in ("fast", "torch"):
        raise ValueError(f"set_cpu_kernels: 'fast' or 'torch', got {name!r}")
    previous, _CPU_KERNELS = _CPU_KERNELS, name
    return previous


def _threads():
    # torch's own thread setting (torch.set_num_threads), within pbgi.fast's bound.
    return max(1, min(torch.get_num_threads(), _fastmod.MAX_THREADS))


def _np(t):
    # A broadcast scalar (every stride 0) goes as a float, so that pbgi.fast runs its
    # one-threshold lanes; anything else as a numpy view of the tensor's memory.
    if t.numel() > 0 and all(st == 0 for st in t.stride()):
        return float(t.reshape(-1)[0])
    return t.numpy()


def _t(a, like):
    return torch.from_numpy(np.asarray(a, dtype=np.float64)).reshape(like.shape)


def _fast_h(z, with_grad):
    value = _t(_fastmod.h(_np(z), threads=_threads()), z)
    return value, ([K.ndtr(z)] if with_grad else None)


def _fast_ln_h(z, with_grad):
    value = _t(_fastmod.ln_h(_np(z), threads=_threads()), z)
    return value, ([K.phi_over_h(z)[1]] if with_grad else None)


def _fast_log_ndtr(x, with_grad):
    value = _t(_fastmod.log_ndtr(_np(x), threads=_threads()), x)
    return value, ([K.inverse_mills(x)[0]] if with_grad else None)


def _fast_ei(mu, sigma, y, with_grad):
    if not with_grad:
        return _t(_fastmod.ei(_np(mu), _np(sigma), _np(y), threads=_threads()), mu), None
    r = _fastmod.ei_grad(_np(mu), _np(sigma), _np(y), threads=_threads())
    d_mu = _t(r.d_mu, mu)
    return _t(r.value, mu), [d_mu, _t(r.d_sigma, mu), -d_mu]


def _fast_log_ei_partials(mu, sigma, y):
    r = _fastmod.log_ei_grad(_np(mu), _np(sigma), _np(y), threads=_threads())
    d_mu, d_sigma = _t(r.d_mu, mu), _t(r.d_sigma, mu)
    # σ = 0, y ≤ μ: LogEI = −inf, and the documented gradient is 0.
    flat = (sigma == 0) & (y <= mu)
    return _t(r.value, mu), torch.where(flat, 0.0, d_mu), torch.where(flat, 0.0, d_sigma)


def _fast_log_ei(mu, sigma, y, with_grad):
    if not with_grad:
        return _t(_fastmod.log_ei(_np(mu), _np(sigma), _np(y), threads=_threads()), mu), None
    value, d_mu, d_sigma = _fast_log_ei_partials(mu, sigma, y)
    return value, [d_mu, d_sigma, -d_mu]


def _fast_log_eipc(mu, sigma, y, cost, with_grad):
    value = _t(_fastmod.log_eipc(_np(mu), _np(sigma), _np(y), _np(cost), threads=_threads()), mu)
    if not with_grad:
        return value, None
    _, d_mu, d_sigma = _fast_log_ei_partials(mu, sigma, y)
    return value, [d_mu, d_sigma, -d_mu, -1.0 / cost]


def _fast_pbgi(mu, sigma, cost, with_grad):
    if not with_grad:
        return _t(_fastmod.pbgi(_np(mu), _np(sigma), _np(cost), threads=_threads()), mu), None
    r = _fastmod.pbgi_grad(_np(mu), _np(sigma), _np(cost), threads=_threads())
    return _t(r.value, mu), [_t(r.d_mu, mu), _t(r.d_sigma, mu), _t(r.d_cost, mu)]


_FAST = {_h: _fast_h, _ln_h: _fast_ln_h, _log_ndtr: _fast_log_ndtr, _ei: _fast_ei, _log_ei: _fast_log_ei,
         _log_eipc: _fast_log_eipc, _pbgi: _fast_pbgi}


# --- the public functions ---------------------------------------------------------------------------


def h(z, *, check=True):
    """`h(z) = E[(z − Z)⁺] = z·Φ(z) + φ(z)` (MATH.md, "Gaussian building blocks"); `h' = Φ`."""
    return _differentiable(["z"], [z], check, _h)


def ln_h(z, *, check=True):
    """`ln h(z)`, finite where `h` underflows (to `z ≈ −1.9e154`); derivative `Φ(z)/h(z)`."""
    return _differentiable(["z"], [z], check, _ln_h)


def log_ndtr(x, *, check=True):
    """`ln Φ(x)` (as `scipy.special.log_ndtr`); derivative `φ(x)/Φ(x)`."""
    return _differentiable(["x"], [x], check, _log_ndtr)


def ei(mu, sigma, y, *, check=True):
    """Expected improvement below `y`: `E[(y − f)⁺]`, `f ~ N(mu, sigma²)` (MATH.md, "Expected
    improvement"). Derivatives `(−Φ(z), φ(z), Φ(z))`; at `sigma = 0`, `y = mu`: `(−½, φ(0), ½)`."""
    return _differentiable(["mu", "sigma", "y"], [mu, sigma, y], check, _ei)


def log_ei(mu, sigma, y, *, check=True):
    """`ln EI(mu, sigma; y)` (MATH.md, "LogEI and LogEIPC"), accurate where EI underflows.
    At `sigma = 0` and `y ≤ mu` the value is `−inf` and the gradient 0."""
    return _differentiable(["mu", "sigma", "y"], [mu, sigma, y], check, _log_ei)


def log_eipc(mu, sigma, y, cost, *, check=True):
    """`ln EI(mu, sigma; y) − ln cost` (MATH.md, "LogEI and LogEIPC"); the stopping rule
    stops when its maximum over the candidates is `≤ 0`."""
    return _differentiable(["mu", "sigma", "y", "cost"], [mu, sigma, y, cost], check, _log_eipc,
                           positive=("cost",))


def pbgi(mu, sigma, cost, *, check=True):
    """The Pandora's Box Gittins index: the `g` with `EI(mu, sigma; g) = cost` (MATH.md,
    "Pandora's Box Gittins index (PBGI)"); derivatives `(1, −φ(u)/Φ(u), 1/Φ(u))`,
    `u = (g − mu)/sigma`; at `sigma = 0`, `g = mu + cost` and `(1, 0, 1)`."""
    return _differentiable(["mu", "sigma", "cost"], [mu, sigma, cost], check, _pbgi,
                           positive=("cost",))

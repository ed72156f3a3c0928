"""pbgi: a verified reference for cost-aware Bayesian-optimisation stopping, from Python.

- `pbgi.reference`: certified, correctly rounded EI, LogEI, PBGI, LogEIPC, h, ln h, with
  enclosures (MPFR);
- `pbgi.fast`: the same functions in float64 for hot loops (within a few ULP);
- `pbgi.check`, `pbgi.testing.assert_ulp_close`: grade another implementation's values
  against the reference, in ULPs, by region;
- `pbgi.pandora.solve`: Pandora's Box instances solved exactly (Weitzman's policy);
- `pbgi.stopping`: the PBGI/LogEIPC stopping rule and its practical helper;
- `pbgi.torch`, `pbgi.botorch` (need torch and BoTorch: `pip install 'pbgi[torch]'`; not
  imported here): the kernels on torch tensors with autograd, and BoTorch acquisition functions
  (PBGI, LogEIPC, PBGI-D) with the stopping rule.

Convention (MATH.md): **minimisation** throughout. `EI(mu, sigma; y) = E[max(y - f, 0)]`,
`f ~ N(mu, sigma^2)`; PBGI is the `g` with `EI(mu, sigma; g) = cost`; stop when
`min PBGI >= y*`, equivalently `max LogEIPC <= 0` (ties stop).
"""

from . import fast, pandora, reference, stopping, testing
from ._check import Report, check
from ._pbgi import InvalidInput, NotCertified, NotDifferentiable

__all__ = [
    "reference",
    "fast",
    "check",
    "Report",
    "testing",
    "pandora",
    "stopping",
    "InvalidInput",
    "NotCertified",
    "NotDifferentiable",
]

#!/usr/bin/env bash
# The GPU checks of pbgi.torch in one run, for a machine with a CUDA device and torch installed
# (`bash setup.sh --torch` there, or an environment with torch, botorch and the built package):
# grades the torch-operation kernels on the device against the certified reference (values and
# autograd gradients, by region) and times them beside BoTorch and the torch bisection at 1e7
# points. Writes docs/results/torch-grading-cuda.md and compare_torch_vs_botorch_cuda.md.
#
#     bash bench/gpu_check.sh [python]      # default: .venv/bin/python
set -euo pipefail
cd "$(dirname "$0")/.."
python="${1:-.venv/bin/python}"
"$python" -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else "no CUDA device visible to torch")'
"$python" bench/torch_grading.py --device cuda --update-results
"$python" bench/compare_torch_vs_botorch.py --device cuda --points 10000000 --repeats 5 --update-results

#!/usr/bin/env bash
# Creates the benchmark environment .venv-bench/ in the repository root (gitignored) with the
# peers the benchmarks compare against: numpy, torch, BoTorch and python-flint (Arb), pinned in
# bench/requirements.txt. Needs python3 (3.9 or newer) with venv and pip, and PyPI.
#
# torch from PyPI on Linux x86-64 is the CUDA build: with its nvidia-* dependencies it takes
# about 5.5 GB (measured: 5.7 GB for the whole environment, about a minute to install). It runs
# on the CPU, which is all the benchmarks use (1 thread). PyPI has no CPU-only Linux wheel of
# torch, and installing torch without its CUDA dependencies (`--no-deps`) does not import.
#
# Usage: bash bench/setup.sh          (idempotent; re-run after editing requirements.txt)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="$root/.venv-bench"
python="${PYTHON:-python3}"

if ! command -v "$python" >/dev/null 2>&1; then
  echo "bench/setup.sh: error: $python not found (set PYTHON=/path/to/python3)" >&2
  exit 1
fi
if [ ! -x "$venv/bin/python" ]; then
  echo "bench/setup.sh: creating $venv" >&2
  "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --upgrade pip
"$venv/bin/python" -m pip install --quiet -r "$root/bench/requirements.txt"
"$venv/bin/python" -W ignore::FutureWarning - <<'PY'
import numpy, torch, botorch, flint
print(f"bench/setup.sh: ready: numpy {numpy.__version__}, torch {torch.__version__}, "
      f"botorch {botorch.__version__}, python-flint {flint.__version__}")
PY

#!/usr/bin/env bash
# One-time set-up for a fresh Debian machine (run as root, or with sudo available).
# `rug` builds GMP and MPFR from source, which needs m4, make and a C compiler.
set -euo pipefail

# `--torch`: also install torch and botorch (python/requirements-torch.txt) for pbgi.torch,
# pbgi.botorch and their tests. The test command passes it; the main job's set-up does not
# wait for those wheels (about 5-6 GB).
with_torch=0
for arg in "$@"; do
  case "$arg" in
    --torch) with_torch=1 ;;
    *) echo "setup.sh: error: unknown argument '$arg' (the only option is --torch)" >&2; exit 2 ;;
  esac
done

missing=()
for tool in m4 make gcc; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done

if [ "${#missing[@]}" -gt 0 ]; then
  echo "setup.sh: installing ${missing[*]} (needed to build GMP/MPFR for rug)" >&2
  if [ "$(id -u)" -eq 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
  elif command -v sudo >/dev/null 2>&1; then
    sudo apt-get update -qq
    sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
  else
    echo "setup.sh: error: ${missing[*]} missing and not root; install them and retry" >&2
    exit 1
  fi
fi

if ! command -v cargo >/dev/null 2>&1; then
  echo "setup.sh: error: cargo not found; install a Rust toolchain (1.89 or newer, the workspace's rust-version)" >&2
  exit 1
fi

# The Python package: `.venv/` in the repository root with CPython (3.11 on this machine, any
# 3.9+ works), the pinned tools of python/requirements-dev.txt from PyPI, and `pbgi` built into
# it from python/ (release build, so `.venv/bin/python -c "import pbgi"` works). A second run
# reuses the environment, reinstalls the tools only when the pins change, and rebuilds only what
# cargo finds changed.
root="$(cd "$(dirname "$0")" && pwd)"
venv="$root/.venv"
python=""
for candidate in python3.11 python3; do
  if command -v "$candidate" >/dev/null 2>&1 &&
    "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 9))' 2>/dev/null; then
    python="$candidate"
    break
  fi
done
if [ -z "$python" ]; then
  echo "setup.sh: error: no python3 (3.9 or newer) found; install CPython with venv and pip" >&2
  exit 1
fi
if [ ! -x "$venv/bin/python" ]; then
  echo "setup.sh: creating $venv with $("$python" --version)" >&2
  "$python" -m venv "$venv"
fi
requirements="$root/python/requirements-dev.txt"
stamp="$venv/.pbgi-requirements"
if ! cmp -s "$requirements" "$stamp"; then
  echo "setup.sh: installing the pinned Python tools into $venv" >&2
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements"
  cp "$requirements" "$stamp"
fi
echo "setup.sh: building the pbgi Python package into $venv" >&2
VIRTUAL_ENV="$venv" "$venv/bin/maturin" develop --release --quiet \
  --manifest-path "$root/python/Cargo.toml"
"$venv/bin/python" -c 'import pbgi' 
if [ "$with_torch" -eq 1 ]; then
  torch_requirements="$root/python/requirements-torch.txt"
  torch_stamp="$venv/.pbgi-requirements-torch"
  if ! cmp -s "$torch_requirements" "$torch_stamp"; then
    echo "setup.sh: installing torch and botorch into $venv (about 5-6 GB from PyPI, once)" >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
      -r "$torch_requirements" -r "$requirements"
    cp "$torch_requirements" "$torch_stamp"
  fi
  "$venv/bin/python" -W ignore::FutureWarning -c 'import pbgi.torch, pbgi.botorch'
fi

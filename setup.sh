#!/usr/bin/env bash
# One-time set-up for a fresh Debian machine (run as root, or with sudo available).
# `rug` builds GMP and MPFR from source, which needs m4, make and a C compiler.
set -euo pipefail

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
  echo "setup.sh: error: cargo not found; install a Rust toolchain (1.80 or newer)" >&2
  exit 1
fi

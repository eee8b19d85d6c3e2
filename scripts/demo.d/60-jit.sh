#!/usr/bin/env bash
# Demo: compile a tile-IR kernel for this machine's GPU and run it (jit/); without a GPU the
# example says why and stops there.
set -euo pipefail
bin=${1:-build}/bin
section() { printf '\n\033[1m== %s ==\033[0m\n' "$1"; }
[ -x "$bin/example_jit_memcpy" ] || exit 0
section "14. Compile examples/memcpy_1d.tir for this GPU, launch it, check the copy (C++ API, jit/)"
"$bin/example_jit_memcpy"

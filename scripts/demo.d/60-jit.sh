#!/usr/bin/env bash
# Demo: compile a tile-IR kernel for this machine's GPU and run it (jit/); without a GPU the
# example says why and stops there.
set -euo pipefail
. "$(dirname "$0")/../demo-common.sh" "${1:-build}"
[ -x "$bin/example_jit_memcpy" ] || exit 0
section "14. Compile examples/memcpy_1d.tir for this GPU, launch it, check the copy (C++ API, jit/)"
"$bin/example_jit_memcpy"

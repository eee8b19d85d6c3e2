#!/usr/bin/env bash
# Demo: planning the epilogue conversion (issue 4: conversion planning).
set -euo pipefail
. "$(dirname "$0")/../demo-common.sh" "${1:-build}"

section "8. The epilogue conversion: mma v2 accumulator -> coalesced blocked store layout (fp16, 128x128, 4 warps)"
"$ll" plan --src '#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>' \
  --dst '#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>' \
  --shape 128x128 --dtype f16 --target sm_90

section "9. The reference pairs of issue 4, both directions (compare Triton 3.6 in docs/conversions.md)"
LINLAYOUT="$ll" bash "$(dirname "$0")/../golden-plans.sh"

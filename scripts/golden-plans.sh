#!/usr/bin/env bash
# Prints the plans of issue 4's reference pairs (128x128, 4 warps, sm_90), both directions, fp16
# and fp32: the table in docs/conversions.md ("Reference pairs"), checked by the docs test.
set -euo pipefail
ll=${LINLAYOUT:-linlayout}
row4='#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>'
col4='#ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>'
lane='#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>'
reg1='#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>'
reg2='#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [0, 1]}>'
row='#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>'
mma2='#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>'
mma3='#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>'
pairs=(
  "transpose_blocked|$row4|$col4"
  "lane_permute|$row4|$lane"
  "register_only|$reg1|$reg2"
  "mma2_to_blocked|$mma2|$row"
  "mma3_to_blocked|$mma3|$row"
  "mma2_to_transposed|$mma2|$col4"
)
for dtype in f16 f32; do
  for p in "${pairs[@]}"; do
    IFS='|' read -r name a b <<<"$p"
    echo "$name $dtype forward:  $("$ll" plan --src "$a" --dst "$b" --shape 128x128 --dtype $dtype --summary)"
    echo "$name $dtype backward: $("$ll" plan --src "$b" --dst "$a" --shape 128x128 --dtype $dtype --summary)"
  done
done

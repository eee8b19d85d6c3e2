#!/usr/bin/env bash
# Demo: the transposed-copy example compiled to PTX, its conversion plan next to the PTX
# instructions the plan became.
set -euo pipefail
. "$(dirname "$0")/../demo-common.sh" "${1:-build}"
"$ll" --help | grep -q compile || exit 0

ex=$here/examples/transpose_copy.tir
section "10. Lowering: examples/transpose_copy.tir after the passes (the layouts and the one conversion)"
note "$ll opt examples/transpose_copy.tir | grep -E '^#blocked|convert_layout'"
"$ll" opt "$ex" | grep -E '^#blocked|convert_layout'

section "11. The conversion plan, and the PTX it became (sm_90)"
note "$ll compile examples/transpose_copy.tir --target sm_90 --report --annotate"
out=$build/demo-transpose_copy.sm_90.ptx
"$ll" compile "$ex" --target sm_90 --report --annotate -o "$out"
note "PTX between the plan's markers (the counts in the first comment are the plan's):"
sed -n '/begin convert_layout/,/end convert_layout/p' "$out" | grep -v 'inline asm'
note "Instructions of the conversion by kind:"
sed -n '/begin convert_layout/,/end convert_layout/p' "$out" | grep -v '//' |
  awk '{print $1}' | grep -E 'shared|matrix|bar|shfl|selp|prmt' | sort | uniq -c
if [ -x /usr/local/cuda/bin/ptxas ]; then
  note "ptxas -v (sm_90):"
  /usr/local/cuda/bin/ptxas -v -arch=sm_90 "$out" -o /dev/null 2>&1 | grep -E 'Used|spill'
fi

#!/usr/bin/env bash
# Demo: the warp-specialized matmul (examples/matmul_ws_wide.tir): its partitions as written, and
# what each warp group became in the PTX (register budgets, barriers, who copies, who multiplies).
set -euo pipefail
. "$(dirname "$0")/../demo-common.sh" "${1:-build}"
"$ll" --help | grep -q compile || exit 0

ex=$here/examples/matmul_ws_wide.tir
section "13b. Warp specialization: examples/matmul_ws_wide.tir's partitions"
note "$ll opt examples/matmul_ws_wide.tir | grep -E 'warp_specialize|default|partition0|ttng\.'"
"$ll" opt "$ex" | grep -E 'ttg.warp_specialize|default \{|partition0|ttng\.(wait|arrive|barrier_expect|async_tma|warp_group_dot )' |
  sed -E 's/ : .*//; s/^ +/  /' | cut -c1-140
out=$build/demo-matmul_ws_wide.ptx
note "$ll compile examples/matmul_ws_wide.tir --report (8 consumer warps + 1 producer warp, rounded up to 3 warp groups)"
"$ll" compile "$ex" --report -o "$out" 2>&1 | sed -n 1p
note "Each warp group sets its register budget, then each warp branches to its region:"
grep -E 'setmaxnreg|^\.maxnreg' "$out" | sed 's/^\s*/  /'
note "What the regions hold (instructions by kind):"
grep -oE 'wgmma\.mma_async|cp\.async\.bulk\.tensor|mbarrier\.(try_wait|arrive(\.expect_tx)?)|barrier\.sync\s+[0-9]+(, [0-9]+)?|bar\.sync\s+0' "$out" |
  sed -E 's/\s+/ /' | sort | uniq -c
if [ -x /usr/local/cuda/bin/ptxas ]; then
  note "ptxas -v (sm_90a): the kernel-wide .maxnreg; setmaxnreg gives the consumers 232"
  /usr/local/cuda/bin/ptxas -v -arch=sm_90a "$out" -o /dev/null 2>&1 | grep -E 'Used|spill'
fi

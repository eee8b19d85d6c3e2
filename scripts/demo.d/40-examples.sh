#!/usr/bin/env bash
# Demo: every tile-IR example compiled as users compile them (the pass pipeline, then PTX for
# sm_90a), one summary line each; where a GPU is present, the examples' kernels timed beside
# nothing else (the full comparison with Triton/Gluon is bench/gpu/run.sh).
set -euo pipefail
. "$(dirname "$0")/../demo-common.sh" "${1:-build}"
"$ll" --help | grep -q compile || exit 0

section "12. Every example compiled (linlayout compile --target sm_90a --report): what the PTX holds"
note "per kernel: threads, dynamic shared bytes, conversions and their paths, then instruction counts"
note "(ptxas registers where the CUDA toolkit is installed)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
count() { grep -cE "$1" "$2" || true; }
for ex in "$here"/examples/*.tir; do
  name=$(basename "$ex" .tir)
  if ! "$ll" compile "$ex" --target sm_90a --report -o "$tmp/$name.ptx" > "$tmp/$name.report" 2>&1; then
    printf '%-20s error: %s\n' "$name" "$(head -1 "$tmp/$name.report")"
    continue
  fi
  head=$(head -1 "$tmp/$name.report" | sed -E 's/^kernel [^ ]+ for sm_90a: //')
  # "convert_layout at FILE:LINE:COL: PATH, counts..." (or "at KERNEL (an op a pass inserted): PATH")
  paths=$(sed -nE 's/^ *convert_layout at .*: ([a-z_]+)(,.*)?$/\1/p' "$tmp/$name.report" |
    sort | uniq -c | awk '{printf "%s%s x%s", (NR > 1 ? ", " : ""), $2, $1}')
  printf '%-20s %s; conversions: %s\n' "$name" "$head" "${paths:-none}"
  p=$tmp/$name.ptx
  line=$(printf 'ld.global %s, st.global %s, ld/st.shared %s, ldmatrix %s, mma.sync %s, wgmma %s, cp.async %s, TMA %s, bar.sync %s, shfl %s' \
    "$(count '^\s*(@%p[0-9]+ )?ld\.global' "$p")" "$(count '^\s*(@%p[0-9]+ )?st\.global' "$p")" \
    "$(count '^\s*(@%p[0-9]+ )?(ld|st)\.shared' "$p")" "$(count 'ldmatrix' "$p")" \
    "$(count 'mma\.sync' "$p")" "$(count 'wgmma\.mma_async' "$p")" \
    "$(count 'cp\.async\.(ca|cg)' "$p")" "$(count 'cp\.async\.bulk\.tensor' "$p")" \
    "$(count 'bar\.sync' "$p")" "$(count 'shfl\.sync' "$p")")
  if [ -x /usr/local/cuda/bin/ptxas ]; then
    regs=$({ /usr/local/cuda/bin/ptxas -v -arch=sm_90a "$p" -o /dev/null 2>&1 || true; } |
      { grep -oE 'Used [0-9]+ registers' || true; } | head -1)
    line="$line; ${regs:-ptxas failed}"
  fi
  printf '%-20s %s\n' "" "$line"
done

section "13. The examples' kernels on this machine's GPU (linlayout_gpu_bench: copies, GEMMs)"
bench=$build/bin/linlayout_gpu_bench
if [ ! -x "$bench" ]; then
  note "linlayout_gpu_bench is not built here (it needs LLVM 19 and the runtime)"
  exit 0
fi
# Without a GPU the bench says why and exits 0.
out=$({ "$bench" --only peak 2>&1 || true; } | head -1)
case "$out" in
  "no GPU here"*) note "$out: the timings need a GPU (bench/gpu/run.sh on a GPU machine)"; exit 0 ;;
esac
note "memcpy_1d / memcpy_2d / transpose_copy and the matmul examples, timed (median of single"
note "launches after an L2 flush); bench/gpu/run.sh puts Triton/Gluon and cuBLAS beside them"
"$bench" --only copy
for v in plain pipelined-3-prefetch wide-pipelined-3-prefetch wgmma-pipelined-3 \
         wgmma-wide-pipelined-3 tma tma_wide; do
  "$bench" --only gemm --variant "$v" | grep '^gemm'
done

#!/usr/bin/env bash
set -euo pipefail
dir=$1 repo=$(pwd)
cd "$dir"
harness="$repo/bench/gpu/gemm_same_harness.py"
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu | head -1)
SIZES="4096x4096x4096" ROUNDS=0 "$ncu" --kernel-name regex:"matmul|nvjet" \
  --clock-control base --metrics gpu__time_duration.sum,sm__cycles_elapsed.avg,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum,l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum \
  python3 "$harness" /tmp/x.json tmastore=matmul_ws_persistent_tmastore.ptx \
  skbound=matmul_ws_persistent_skbound.ptx streamk=matmul_ws_persistent_streamk.ptx > "$OUT/ncu.txt" 2>&1
grep -E "^  [a-z]|duration|cycles|bytes|rate" "$OUT/ncu.txt"

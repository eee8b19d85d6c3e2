#!/usr/bin/env bash
# Runs on the GPU machine (device tool, carry [".carry"], after scripts/gpu/package.sh): GEMM
# variants of linlayout_gpu_bench back to back, twice each, then the mma.sync ceilings and a
# sustained cuBLAS loop (torch.mm), while nvidia-smi samples the SM clock, the power and the
# clock-event reasons every 25 ms. $OUT gets smi.csv, marks.txt (the start and end of each phase)
# and summary.md (bench/gpu/clocks_summary.py: per phase, the busy samples' clock and power).
# For a settled power average, lengthen both sides alike: LINLAYOUT_BENCH_WARMUP_MS=3000 (ours:
# 3 s of back-to-back launches before the timed runs) and SUSTAIN_S=3 (cuBLAS's loop).
#   bash bench/gpu/clocks.sh [VARIANT ...]   (default: tma_wide, the best mma.sync variants and
#                                             their -noload / -nostore diagnostics)
set -u
out=${OUT:-/tmp/linlayout-clocks}
mkdir -p "$out"
marks_to_stdout=1
. "$(dirname "$0")/sampling.sh"
sleep 1
variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=(tma_wide wide-pipelined-3-prefetch-k64 tma_mma_wide
  tma_mma_wide-noload wide-pipelined-3-prefetch-k64-nostore)
for v in "${variants[@]}"; do
  for rep in 1 2; do
    mark start "$v" "$rep"
    "$bin/linlayout_gpu_bench" --only gemm --variant "$v" 2>&1 | grep -E "^gemm"
    mark end "$v" "$rep"
  done
done
mark start peak
"$bin/linlayout_gpu_bench" --only peak 2>&1 | grep -E "TFLOP|B/ns"
mark end peak
mark start cublas
SUSTAIN_S=${SUSTAIN_S:-1.5} python3 - << 'P'
import os, time
import torch
for n in (4096, 8192):
    a = torch.randn(n, n, device="cuda", dtype=torch.float16)
    b = torch.randn(n, n, device="cuda", dtype=torch.float16)
    torch.mm(a, b)
    torch.cuda.synchronize()
    t, k = time.time(), 0
    while time.time() - t < float(os.environ["SUSTAIN_S"]):  # back-to-back: a sustained load
        for _ in range(20):
            torch.mm(a, b)
        torch.cuda.synchronize()
        k += 20
    dt = (time.time() - t) / k
    print("cublas torch.mm f16 -> f16 %d^3 sustained: %.1f TFLOP/s" % (n, 2 * n ** 3 / dt / 1e12))
P
mark end cublas
kill $smi
python3 "$(dirname "$0")/clocks_summary.py" "$out" | tee "$out/summary.md"

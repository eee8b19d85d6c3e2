#!/usr/bin/env bash
# Without the L2 flush, both sides: ours (NOFLUSH=1, a temporary switch) and cuBLAS through
# do_bench with Triton's clear_cache made a no-op; then both with their flushes. From idle.
set -u
b=$(mktemp -d); xz -dc .carry-run/linlayout_gpu_bench.xz > $b/linlayout_gpu_bench; chmod +x $b/linlayout_gpu_bench
cat > /tmp/cublas.py << 'P'
import sys, torch, triton
from triton import runtime
if sys.argv[2] == "noflush":
    runtime.driver.active.clear_cache = lambda cache: None
dt = {"f16": torch.float16, "bf16": torch.bfloat16}[sys.argv[1]]
n = 4096
a = torch.randn(n, n, device="cuda", dtype=dt); b = torch.randn(n, n, device="cuda", dtype=dt)
ms = triton.testing.do_bench(lambda: torch.matmul(a, b), warmup=50, rep=300, return_mode="median")
print(f"cublas {sys.argv[1]} {sys.argv[2]} {n}^3 {2 * n ** 3 / (ms * 1e-3) / 1e12:.1f} TFLOP/s", flush=True)
P
for r in 1 2; do
  for mode in noflush flush; do
    sleep 4
    if [ $mode = noflush ]; then export NOFLUSH=1; else unset NOFLUSH; fi
    LINLAYOUT_BENCH_WARMUP_MS=50 timeout 60 $b/linlayout_gpu_bench --only gemm --variant ws_persistent_tmastore 2>&1 | sed -nE "s/^gemm .* (4096)\^3 .* ([0-9.]+) TFLOP\/s.*/round $r ours $mode \1^3 \2/p"
    unset NOFLUSH
    sleep 4
    timeout 60 python3 /tmp/cublas.py f16 $mode | sed "s/^/round $r /"
  done
done

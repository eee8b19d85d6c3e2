#!/usr/bin/env bash
# GEMMs against cuBLAS under a sustained load, on the GPU machine (device tool, carry [".carry"],
# after scripts/gpu/package.sh). A short timing (do_bench's 50 ms of warm-up) catches the card
# wherever its 1-second power average happens to be: a kernel timed after an idle spell runs at a
# boost clock that a long GEMM never holds on an H200 at its 700 W cap. Here both sides are timed
# alike: WARM_MS (default 3000) of back-to-back launches, then about 200-300 ms of single runs,
# each after an L2 flush, median. Ours is linlayout_gpu_bench (LINLAYOUT_BENCH_WARMUP_MS); cuBLAS
# is torch.matmul with C in the input type (triton.testing.do_bench, warmup=WARM_MS). They
# alternate, ROUNDS rounds (default 2), f16 then bf16, while nvidia-smi samples the SM clock and
# the power every 25 ms. $OUT gets sustained.txt (the rows), smi.csv, marks.txt and summary.md
# (clocks_summary.py: the clock and power of each phase). IDLE_S=N sleeps N s before each phase,
# so that with a short WARM_MS every phase starts from an idle card alike (the short timings'
# fair form: neither side inherits the other's heat).
#   bash bench/gpu/sustained.sh [VARIANT ...]   (default: ws_persistent_tmastore; a variant's
#                                                bf16 form is VARIANT-bf16)
set -u
out=${OUT:-/tmp/linlayout-sustained}
warm=${WARM_MS:-3000}
mkdir -p "$out"
. "$(dirname "$0")/sampling.sh"
variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=(ws_persistent_tmastore)
cat > "$out/cublas.py" << 'P'
import sys
import torch
import triton
dt = {"f16": torch.float16, "bf16": torch.bfloat16}[sys.argv[1]]
for n in (4096, 8192):
    a = torch.randn(n, n, device="cuda", dtype=dt)
    b = torch.randn(n, n, device="cuda", dtype=dt)
    ms = triton.testing.do_bench(lambda: torch.matmul(a, b), warmup=float(sys.argv[2]), rep=300,
                                 return_mode="median")
    print(f"cublas {sys.argv[1]} {n}^3 {2 * n ** 3 / (ms * 1e-3) / 1e12:.1f} TFLOP/s", flush=True)
P
for r in $(seq "${ROUNDS:-2}"); do
  for dt in f16 bf16; do
    for v in "${variants[@]}"; do
      name=$v; [ $dt = bf16 ] && name=$v-bf16
      sleep "${IDLE_S:-0}"
      mark start "$name $r"
      LINLAYOUT_BENCH_WARMUP_MS=$warm "$bin/linlayout_gpu_bench" --only gemm --variant "$name" 2>&1 |
        sed -nE "s/^gemm .* ([0-9]+)\^3 .* ([0-9.]+) TFLOP\/s.*/ours $name \1^3 \2 TFLOP\/s/p"
      mark end "$name $r"
    done
    sleep "${IDLE_S:-0}"
    mark start "cublas $dt $r"
    python3 "$out/cublas.py" $dt "$warm"
    mark end "cublas $dt $r"
  done
done | tee "$out/sustained.txt"
kill $smi
python3 "$(dirname "$0")/clocks_summary.py" "$out" | tee "$out/summary.md"

#!/usr/bin/env bash
# TMA L2 promotion (cuTensorMapEncodeTiled's l2Promotion: 0 none, as main encodes, 2 = 128 B,
# 3 = 256 B) for ws_persistent_tmastore from idle, beside cuBLAS; two rounds, f16 and bf16.
set -u
b=$(mktemp -d); xz -dc .carry-run/linlayout_gpu_bench.xz > $b/linlayout_gpu_bench; chmod +x $b/linlayout_gpu_bench
w=$OUT/r; mkdir -p $w; cp .carry-req/run4.sh $w/run.sh
cat > $w/cublas.py << 'P'
import sys, torch, triton
dt = {"f16": torch.float16, "bf16": torch.bfloat16}[sys.argv[1]]
for n in (4096, 8192):
    a = torch.randn(n, n, device="cuda", dtype=dt); b = torch.randn(n, n, device="cuda", dtype=dt)
    ms = triton.testing.do_bench(lambda: torch.matmul(a, b), warmup=50, rep=300, return_mode="median")
    print(f"cublas {sys.argv[1]} {n}^3 {2 * n ** 3 / (ms * 1e-3) / 1e12:.1f} TFLOP/s", flush=True)
P
for r in 1 2; do
  order="0 2 3"; [ $r = 2 ] && order="3 2 0"
  for dt in f16 bf16; do
    v=ws_persistent_tmastore; [ $dt = bf16 ] && v=$v-bf16
    for p in $order; do
      sleep 5
      LINLAYOUT_TMA_L2_PROMOTION=$p LINLAYOUT_BENCH_WARMUP_MS=50 timeout 60 $b/linlayout_gpu_bench --only gemm --variant $v 2>&1 | sed -nE "s/^gemm .* ([0-9]+)\^3 .* ([0-9.]+) TFLOP\/s.*/round $r promo $p $v \1^3 \2/p"
    done
    sleep 5
    timeout 60 python3 $w/cublas.py $dt | sed "s/^/round $r /"
  done
done 2>&1 | tee $w/promo.txt
cd $OUT && tar czf run4.tgz r && rm -rf r

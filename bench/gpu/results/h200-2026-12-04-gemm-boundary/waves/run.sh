# Waves of 132 tiles (1, 2, 4) and a K sweep at one wave: ncu cycles at base clock, ours and cuBLAS.
cd "$(dirname "$0")"
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu | head -1)
SIZES="1536x2816x1024 1536x2816x4096 3072x2816x4096 6144x2816x4096 1536x2816x8192" ROUNDS=0 timeout 200 $ncu --kernel-name regex:"matmul|nvjet|gemm|sm90" --clock-control base --metrics gpu__time_duration.sum,sm__cycles_elapsed.avg,sm__cycles_elapsed.max,launch__grid_size python3 ../bench/gpu/gemm_same_harness.py /tmp/x.json new=tmnew.ptx > $OUT/ncu.txt 2>&1
grep -E "^  [a-z]|duration|cycles_elapsed|grid_size|rel. error" $OUT/ncu.txt

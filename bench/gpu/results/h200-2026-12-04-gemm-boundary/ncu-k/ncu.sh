#!/usr/bin/env bash
# ncu full set of cuBLAS and tm at 4096x4096xK, K = 2048 4096 8192, at the card's clock and base.
cd "$(dirname "$0")"
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for clk in none base; do
  SIZES="4096x4096x2048 4096 4096x4096x8192" ROUNDS=0 timeout 280 "$ncu" --kernel-name regex:"tmastore|gemm|nvjet|sm90|xmma|cutlass" \
    --clock-control $clk --set full --import-source no -f -o $OUT/k-$clk python3 ../bench/gpu/gemm_same_harness.py /tmp/x.json tm=tm.ptx > $OUT/k-$clk.log 2>&1
  echo "ncu $clk exit $?"; tail -3 $OUT/k-$clk.log
  "$ncu" -i $OUT/k-$clk.ncu-rep --page raw --csv > $OUT/raw-$clk.csv 2>&1
  "$ncu" -i $OUT/k-$clk.ncu-rep --page details > $OUT/details-$clk.txt 2>&1
  rm -f $OUT/k-$clk.ncu-rep
done

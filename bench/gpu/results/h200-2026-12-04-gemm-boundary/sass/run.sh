# ncu full set + SASS source page of cuBLAS and ours at one wave of 16 K steps (the epilogue's
# share is large), for the tile-boundary comparison.
cd "$(dirname "$0")"
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu | head -1)
SIZES="1536x2816x1024" ROUNDS=0 timeout 200 $ncu --kernel-name regex:"matmul|nvjet" --clock-control base --set full --import-source no -f -o $OUT/w1 python3 ../bench/gpu/gemm_same_harness.py /tmp/x.json new=tmnew.ptx > $OUT/w1.log 2>&1
echo "ncu rc=$?"
$ncu -i $OUT/w1.ncu-rep --page source --csv --print-source sass > $OUT/w1-sass.csv 2>&1
$ncu -i $OUT/w1.ncu-rep --page details > $OUT/w1.txt 2>&1
ls -la $OUT; rm -f $OUT/w1.ncu-rep

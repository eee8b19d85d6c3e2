#!/usr/bin/env bash
# Runs on the GPU machine (device tool), from the repository root, after scripts/gpu/package.sh:
# Nsight Compute on GEMM variants of linlayout_gpu_bench, one 4096^3 launch each (the first timed
# one, after the checked launch), with the full section set and per-SASS-instruction stall samples.
#   device run: VARIANTS="wide-pipelined-3-prefetch" bash bench/gpu/profile.sh   (carry: [".carry"])
# $OUT (or /tmp/linlayout-gpu-out) gets, per variant, the report's details page (VARIANT.txt) and
# its source page as CSV (VARIANT-sass.csv: SASS with stall reasons), for
# bench/gpu/stalls.py to summarise.
set -uo pipefail
out=${OUT:-/tmp/linlayout-gpu-out}
mkdir -p "$out"
bin=.carry/gpu
if [ -f .carry/gpu.tgz ]; then
  bin=$(mktemp -d /tmp/linlayout-bin.XXXX)
  tar xzf .carry/gpu.tgz -C "$bin"
fi
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
[ -n "$ncu" ] || { echo "profile: no ncu on this machine"; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for v in ${VARIANTS:-wide-pipelined-3-prefetch}; do
  rep="$out/$v"
  timeout 300 "$ncu" --kernel-name regex:"${KERNEL:-matmul}" --launch-skip 1 --launch-count 1 \
    --set full --import-source no -f -o "$rep" \
    "$bin/linlayout_gpu_bench" --only gemm --variant "$v" > "$out/$v-run.log" 2>&1
  echo "== $v (ncu exit $?)"
  grep -E "^gemm" "$out/$v-run.log"
  "$ncu" -i "$rep.ncu-rep" --page details > "$out/$v.txt" 2>&1
  "$ncu" -i "$rep.ncu-rep" --page source --csv --print-source sass > "$out/$v-sass.csv" 2>&1
  grep -E "Duration|Registers Per|Achieved Occupancy|Eligible Warps|Issued Warp|Compute \(SM\) Throughput|Memory Throughput|Shared Memory Configuration|Bank Conflicts" "$out/$v.txt" | head -20
  rm -f "$rep.ncu-rep"
done

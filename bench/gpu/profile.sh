#!/usr/bin/env bash
# Runs on the GPU machine (device tool), from the repository root, after scripts/gpu/package.sh:
# Nsight Compute on GEMM variants of linlayout_gpu_bench, one 4096^3 launch each (the first timed
# one, after the checked launch), and on Gluon twins of bench/gpu/gluon_gemm_bench.py (its
# PIPELINED_TWINS keys; the second of three launches), with the full section set and
# per-SASS-instruction stall samples.
#   device run: VARIANTS="wide-pipelined-3-prefetch" TWINS="gluon_wide_pipelined_3" \
#               bash bench/gpu/profile.sh                                   (carry: [".carry"])
#   attention:  VARIANTS= ATT_VARIANTS="ws-pp-persistent-d128" bash bench/gpu/profile.sh
#   cuBLAS:     CUBLAS="f16 bf16" (torch.matmul at 4096^3, C in the input type; the second launch)
# BIN=DIR takes the binaries from DIR instead of .carry/. NCU_CLOCKS=none profiles at the clock
# the card picks (ncu's default, base, locks an H200 near 1.3 GHz; left alone, the 4096^3 GEMMs
# ran near 1.6 GHz).
# $OUT (or /tmp/linlayout-gpu-out) gets, per kernel, the report's details page (NAME.txt) and
# its source page as CSV (NAME-sass.csv: SASS with stall reasons), which bench/gpu/stalls.py
# summarises.
set -uo pipefail
out=${OUT:-/tmp/linlayout-gpu-out}
mkdir -p "$out"
bin=${BIN:-.carry/gpu}
if [ -z "${BIN:-}" ] && [ -f .carry/gpu.tgz ]; then
  bin=$(mktemp -d /tmp/linlayout-bin.XXXX)
  tar xzf .carry/gpu.tgz -C "$bin"
fi
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
[ -n "$ncu" ] || { echo "profile: no ncu on this machine"; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader

# profile NAME KERNEL_REGEX COMMAND...: one launch of the kernel, skipping the first.
profile() {
  local name=$1 kernel=$2
  shift 2
  local rep="$out/$name"
  timeout 300 "$ncu" --kernel-name regex:"$kernel" --launch-skip 1 --launch-count 1 \
    --clock-control "${NCU_CLOCKS:-base}" --set full --import-source no -f -o "$rep" "$@" \
    > "$out/$name-run.log" 2>&1
  echo "== $name (ncu exit $?)"
  grep -E "^gemm" "$out/$name-run.log"
  "$ncu" -i "$rep.ncu-rep" --page details > "$out/$name.txt" 2>&1
  "$ncu" -i "$rep.ncu-rep" --page source --csv --print-source sass > "$out/$name-sass.csv" 2>&1
  grep -E "SM Frequency|Duration|Registers Per|Achieved Occupancy|Eligible Warps|Issued Warp|Compute \(SM\) Throughput|Memory Throughput|Shared Memory Configuration|Block Limit" "$out/$name.txt" | head -24
  [ -f bench/gpu/stalls.py ] && python3 bench/gpu/stalls.py "$out/$name-sass.csv" --top 12 | sed -n '/by reason/,$p'
  rm -f "$rep.ncu-rep"
}

for v in ${VARIANTS-wide-pipelined-3-prefetch}; do
  profile "$v" matmul "$bin/linlayout_gpu_bench" --only gemm --variant "$v"
done
# Attention variants (ATT_VARIANTS): the first timed launch is n_ctx 1024's.
for v in ${ATT_VARIANTS:-}; do
  profile "$v" attention "$bin/linlayout_gpu_bench" --only attention --variant "$v"
done
for dt in ${CUBLAS:-}; do
  profile "cublas-$dt" "gemm|nvjet|sm90" python3 -c "import torch
dt = {'f16': torch.float16, 'bf16': torch.bfloat16}['$dt']
a, b = (torch.randn(4096, 4096, device='cuda', dtype=dt) for _ in range(2))
for _ in range(3):
    torch.matmul(a, b)
torch.cuda.synchronize()"
done
for t in ${TWINS:-}; do
  profile "$t" gemm_mma_v2_pipelined python3 -c \
    "import sys; sys.path.insert(0, 'bench/gpu'); import gluon_gemm_bench as g; g.run_twin('$t')"
done

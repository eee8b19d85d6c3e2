#!/usr/bin/env bash
# The GPU run of Triton's conversion matrix (testing/kernels/TritonMatrix.h), on the GPU machine:
# our jit tests run every case bit-exactly (TritonMatrixGpu, in SHARDS processes at once) while
# Triton 3.6 compiles the same cases (scripts/gpu/triton_matrix.py), then both are compared.
#   scripts/gpu/matrix_run.sh JIT_TESTS OUT [SHARDS] [TRITON_SECONDS]
# JIT_TESTS: the (stripped) jit_tests binary; OUT gets six files (the device tool brings back 8
# at most): gpu.txt, compare.md, ours.jsonl.gz, triton.jsonl.gz, rank3-cases.jsonl, logs.tgz.
set -uo pipefail
cd "$(dirname "$0")/../.."
bin=$1
final=$2
shards=${3:-8}
seconds=${4:-240}
out=$(mktemp -d)
mkdir -p "$final"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt" 2>&1
python3 -c 'import triton; print("triton", triton.__version__)' >> "$out/gpu.txt" 2>&1
# Triton's to_linear for the batched layouts (no GPU work).
timeout "$seconds" python3 scripts/gpu/triton_matrix.py tolinear > "$out/rank3-cases.jsonl" 2> "$out/rank3.log" &
tl=$!
# Triton's compiles, on the cores the shards leave.
jobs=$(( $(nproc) - shards ))
[ "$jobs" -lt 2 ] && jobs=2
TRITON_CACHE_DIR=$(mktemp -d) python3 scripts/gpu/triton_matrix.py compile \
  --out "$out/triton.jsonl" --jobs "$jobs" --deadline "$seconds" > "$out/triton.log" 2>&1 &
tp=$!
pids=()
for i in $(seq 0 $((shards - 1))); do
  LINLAYOUT_MATRIX_SHARD="$i/$shards" LINLAYOUT_TRITON_MATRIX="$out/ours.$i.jsonl" \
    timeout $((seconds + 120)) "$bin" --gtest_filter='TritonMatrixGpu.*' > "$out/ours.$i.log" 2>&1 &
  pids+=($!)
done
rc=0
for p in "${pids[@]}"; do wait "$p" || rc=1; done
echo "ours: exit $rc" >> "$out/gpu.txt"
grep -h "cases run\|Failure\|FAILED\|: element\|compiling:\|building:" "$out"/ours.*.log | head -50 > "$out/ours-summary.txt"
wait "$tp"; wait "$tl"
cat "$out"/ours.*.jsonl > "$out/ours.jsonl" && rm -f "$out"/ours.[0-9]*.jsonl
python3 scripts/gpu/triton_matrix.py compare --ours "$out/ours.jsonl" --triton "$out/triton.jsonl" \
  > "$out/compare.md" 2>&1
gzip -9 "$out/ours.jsonl" "$out/triton.jsonl"
cat "$out/ours-summary.txt" >> "$out/gpu.txt"
tar czf "$final/logs.tgz" -C "$out" $(cd "$out" && ls *.log)
cp "$out/gpu.txt" "$out/compare.md" "$out/ours.jsonl.gz" "$out/triton.jsonl.gz" \
  "$out/rank3-cases.jsonl" "$final/"
tail -3 "$out"/ours.0.log "$out/triton.log"
cat "$out/gpu.txt"
head -40 "$out/compare.md"

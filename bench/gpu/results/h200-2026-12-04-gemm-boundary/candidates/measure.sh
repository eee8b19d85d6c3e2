#!/usr/bin/env bash
# The device run of 2026-12-05 (results: ../../h200-2026-12-05-epilogue/): the stmatrix epilogue
# (main from 2dcba17 to 4307b89, which went back to st.shared) and the carried accumulator
# (matmul_ws_persistent_usec.tir) against cuBLAS, and the GPU checks of every kernel the
# stmatrix change touched. At 4307b89 and later, prepare compiles main's st.shared kernel.
#   here:   bash measure.sh prepare .carry-req   (compiles main's TMA-store kernel and the
#           candidate, f16 and bf16, with their reports; packs jit_tests, query_tests and the
#           CLI, stripped and xz'd: 24 MB; needs a built tree)
#   device: bash .carry-req/measure.sh run .carry-req     (carry [".carry-req"], from the
#           repository root: times both against cuBLAS at 4096^3 and 8192^3, then ncu cycles at
#           1 and 4 waves; ~4 min)
#           bash .carry-req/measure.sh tests .carry-req   (the GPU tests of the kernels that
#           local_store now writes with stmatrix, Triton's matrix with the row- and column-major
#           intermediates, racecheck / synccheck of the warp-specialized kernels, and
#           `linlayout run --gpu` of a TMA kernel; under 8 min, logs back as logs.tgz)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
case "$1" in
prepare)
  out=$2 repo=$(git -C "$here" rev-parse --show-toplevel)
  mkdir -p "$out"
  cp "$0" "$out/measure.sh"
  for k in "$repo/examples/matmul_ws_persistent_tmastore.tir" "$here/matmul_ws_persistent_usec.tir"; do
    n=$(basename "$k" .tir)
    cp "$k" "$out/$n.tir"
    sed 's/xf16/xbf16/g; s/<f16>/<bf16>/g' "$k" > "$out/${n}_bf16.tir"
    for t in "$n" "${n}_bf16"; do
      "$repo/build/bin/linlayout" compile "$out/$t.tir" -o "$out/$t.ptx" --report 2> "$out/$t.report"
    done
  done
  # jit_tests, and query_tests with the CLI it runs (found beside it): `run --gpu` of a TMA kernel.
  for b in jit_tests query_tests linlayout; do
    strip -o "$out/$b" "$repo/build/bin/$b"
    xz -T2 -6 -f "$out/$b"
  done ;;
run)
  dir=$2 repo=$(pwd)
  cd "$dir"
  harness="$repo/bench/gpu/gemm_same_harness.py"
  # With the previous session's tmnew.ptx (main's kernel before stmatrix, st.shared) where the
  # folder still holds it.
  sts=() sts16=()
  [ -f tmnew.ptx ] && sts=(sts=tmnew.ptx) && sts16=(sts=tmnew_bf16.ptx)
  IDLE_S=2 ROUNDS=3 SIZES="4096 8192" python3 "$harness" "$OUT/f16.json" "${sts[@]}" \
    tmastore=matmul_ws_persistent_tmastore.ptx usec=matmul_ws_persistent_usec.ptx
  IDLE_S=2 ROUNDS=3 SIZES="4096 8192" python3 "$harness" "$OUT/bf16.json" "${sts16[@]}" \
    tmastore=matmul_ws_persistent_tmastore_bf16.ptx usec=matmul_ws_persistent_usec_bf16.ptx
  ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu | head -1)
  SIZES="1536x2816x4096 6144x2816x4096" ROUNDS=0 "$ncu" --kernel-name regex:"matmul|nvjet" \
    --clock-control base --metrics gpu__time_duration.sum,sm__cycles_elapsed.avg \
    python3 "$harness" /tmp/x.json "${sts[@]}" tmastore=matmul_ws_persistent_tmastore.ptx \
    usec=matmul_ws_persistent_usec.ptx > "$OUT/ncu.txt" 2>&1
  grep -E "^  [a-z]|duration|cycles_elapsed" "$OUT/ncu.txt" ;;
tests)
  # The logs go to $OUT/logs.tgz at the end (the device tool brings back 8 files at most).
  dir=$2 log=$(mktemp -d)
  bin=/tmp/bin/jit_tests
  mkdir -p /tmp/bin
  for b in jit_tests query_tests linlayout; do
    xz -dc "$dir/$b.xz" > "/tmp/bin/$b"
    chmod +x "/tmp/bin/$b"
  done
  rc=0
  /tmp/bin/query_tests --gtest_filter='RunCli.Gpu*' > "$log/query_tests.log" 2>&1 || rc=$?
  echo "query_tests RunCli.Gpu* rc=$rc"
  grep -E "^\[  (FAILED|PASSED|SKIPPED|     OK) |gpu %" "$log/query_tests.log" || true
  san=$(ls /usr/local/cuda*/bin/compute-sanitizer | head -1)
  export LINLAYOUT_TEST_ATTENTION_MAX_CTX=512
  check() { # tool test
    local rc=0
    timeout 450 "$san" --tool "$1" $([ "$1" = racecheck ] && echo --racecheck-report all) \
      --error-exitcode 9 "$bin" --gtest_filter="$2" > "$log/$1-$2.log" 2>&1 || rc=$?
    echo "$1 $2 rc=$rc $(grep -m1 'SUMMARY' "$log/$1-$2.log" || true)" >> "$log/sanitizer.txt"
  }
  # Everything at once (one call may run 600 s): Triton's matrix where the tile goes through a
  # row- or column-major tile (f16: local_alloc from every source layout) in 4 processes, the
  # sanitizers, then the GPU tests.
  for i in 0 1 2 3; do
    LINLAYOUT_MATRIX_NAMES=swizzled1,swizzled2 LINLAYOUT_MATRIX_SHARD="$i/4" timeout 450 "$bin" \
      --gtest_filter='TritonMatrixGpu.*' > "$log/matrix.$i.log" 2>&1 &
  done
  check racecheck TmaGpu.WarpSpecializedMatmul &
  check racecheck ComputeGpu.WarpSpecializedAttention &
  check racecheck TmaGpu.Fp8WarpSpecializedMatmul &
  check synccheck TmaGpu.WarpSpecializedMatmul &
  start=$(date +%s) rc=0
  timeout 450 "$bin" --gtest_filter='TmaGpu.*:ComputeGpu.*:WgmmaGpu.*:PaddedSharedGpu.*' \
    > "$log/jit_tests.log" 2>&1 || rc=$?
  echo "jit_tests rc=$rc $(( $(date +%s) - start )) s"
  grep -E "^\[  (FAILED|PASSED|SKIPPED) |tests ran" "$log/jit_tests.log" | head -40 || true
  wait || true
  grep -h "cases run\|Failure\|FAILED\|PASSED" "$log"/matrix.*.log | head -20 || true
  cat "$log/sanitizer.txt"
  tar czf "$OUT/logs.tgz" -C "$log" . ;;
*) echo "usage: measure.sh prepare DIR | run DIR | tests DIR" >&2; exit 2 ;;
esac

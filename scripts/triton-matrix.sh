#!/usr/bin/env bash
# Every case of Triton's conversion matrix (testing/kernels/TritonMatrix.h) lowered for sm_90
# and assembled by ptxas, without a GPU: registers, stack and spills per case as JSON lines, and
# a count of the cases that use local memory, by suite and element type. `make test` assembles the
# same cases and holds them to Triton's kernels (tests/scripts/triton_matrix_test.py); this takes
# minutes.
#   scripts/triton-matrix.sh [BUILD_DIR] [OUT.jsonl]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
out=${2:-$build/triton-matrix.jsonl}
cmake --build "$build" --target jit_tests >/dev/null
LINLAYOUT_TRITON_MATRIX="$out" "$build/bin/jit_tests" --gtest_filter='TritonMatrix.Full' \
  | grep -E '^\[ +\] [0-9]+ cases|FAILED|Failure' || true
python3 - "$out" <<'PY'
import collections, json, sys
rows = collections.Counter()
local = collections.Counter()
for line in open(sys.argv[1]):
    d = json.loads(line)
    suite, typ = d["name"].split("/")[0], d["name"].split("/")[-1]
    rows[suite, typ] += 1
    if d["ok"] and (d["stack"] > 0 or d["spill_stores"] > 0):
        local[suite, typ] += 1
print("| suite | type | cases | with local memory |")
print("|---|---|---|---|")
for k in sorted(rows):
    print(f"| {k[0]} | {k[1]} | {rows[k]} | {local[k]} |")
PY

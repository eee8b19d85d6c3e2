#!/usr/bin/env bash
# `make demo`: what linlayout does, on real examples. Each section runs once the capability it
# shows exists in this build.
set -euo pipefail
. "$(dirname "$0")/demo-common.sh" "${1:-build}"

section "1. Two layouts of a 32x16 tile, and where each element moves (C++ API)"
"$bin/example_compose_inverse"

section "2. The same question through the query tool (JSON lines, Triton's semantics)"
queries=$(cat <<'Q'
{"id": "blocked-to-transposed", "op": "invert_and_compose", "a": {"in_dims": [["register", [[0,1],[0,2]]], ["lane", [[0,4],[0,8],[1,0],[2,0],[4,0]]], ["warp", [[8,0],[16,0]]]], "out_dims": [["dim0",32],["dim1",16]]}, "b": {"in_dims": [["register", [[1,0],[2,0]]], ["lane", [[4,0],[8,0],[0,1],[0,2],[0,4]]], ["warp", [[16,0],[0,8]]]], "out_dims": [["dim0",32],["dim1",16]]}}
{"id": "not-a-bijection", "op": "invert", "a": {"in_dims": [["lane", [[1],[1]]]], "out_dims": [["dim0", 4]]}}
Q
)
printf '%s\n' "$queries" | sed 's/^/query> /'
printf '%s\n' "$queries" | "$ll" query | sed 's/^/answer< /'

for extra in "$here"/scripts/demo.d/*.sh; do
  [ -e "$extra" ] || continue
  bash "$extra" "$build"
done

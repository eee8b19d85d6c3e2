#!/usr/bin/env bash
# Compiles every example and Triton dump to PTX into one folder, so that a refactoring can show
# that it changes no kernel: run it before and after, then `diff -r BEFORE AFTER`.
#   scripts/ptx-snapshot.sh OUT_DIR [BUILD_DIR]
# Each input is compiled as users compile it (the pass pipeline, sm_90a) and as written
# (--no-passes), and the pipelined forms of the examples with --num-stages 3; an input that fails
# to compile leaves its error message in place of the PTX.
set -euo pipefail
out=${1:?usage: ptx-snapshot.sh OUT_DIR [BUILD_DIR]}
build=${2:-build}
here=$(cd "$(dirname "$0")/.." && pwd)
ll=$build/bin/linlayout
mkdir -p "$out"
compile() { # name, input, flags...
  local name=$1 in=$2
  shift 2
  "$ll" compile "$in" "$@" -o "$out/$name.ptx" > "$out/$name.log" 2>&1 || true
  [ -s "$out/$name.log" ] || rm -f "$out/$name.log"
}
for f in "$here"/examples/*.tir; do
  n=$(basename "$f" .tir)
  compile "$n" "$f" --target sm_90a
  compile "$n.s3" "$f" --target sm_90a --num-stages 3
  compile "$n.sm80" "$f" --target sm_80
done
for f in "$here"/examples/triton/*.ttgir; do
  n=triton.$(basename "$f" .ttgir)
  compile "$n" "$f" --target sm_90a --no-passes
  compile "$n.passes" "$f" --target sm_90a
done
echo "ptx-snapshot: $(ls "$out" | grep -c '\.ptx$') PTX files in $out"

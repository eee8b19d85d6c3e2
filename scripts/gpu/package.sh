#!/usr/bin/env bash
# Builds what the GPU machine runs and packs it into .carry/gpu.tgz (git-ignored), to be sent with
# the device tool's `carry: [".carry"]`; bench/gpu/run.sh unpacks it there. Everything is linked
# statically against our libraries and LLVM, so the binaries need only the C/C++ runtime (and
# zlib/zstd, which LLVM's support library links) there. They are stripped and compressed: with
# LLVM inside, each is ~37 MB, and what travels is limited to 64 MiB.
#   scripts/gpu/package.sh [BUILD_DIR] [DEST_REPO]   (DEST_REPO: where .carry/ goes; default: here)
# Only the test binaries that hold GPU suites (*Gpu*) are packed, with linlayout_gpu_bench, and
# the CLI (bin/linlayout) when query_tests is: its GPU suites run the CLI (`linlayout run --gpu`),
# which the tests find beside themselves there (tests/CliRun.h).
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
dest=${2:-.}
if [ -n "${TARGETS:-}" ]; then
  cmake --build "$build" -j "${JOBS:-2}" --target $TARGETS
else
  make -s build BUILD="$build"
fi
stage=$(mktemp -d)
for f in "$build"/bin/*; do
  [ -x "$f" ] && [ -f "$f" ] || continue
  name=$(basename "$f")
  case "$name" in
    *_tests)
      [ -n "$("$f" --gtest_list_tests --gtest_filter='*Gpu*' 2>/dev/null | grep -v '^Running\|^Note' || true)" ] || continue ;;
    linlayout_gpu_bench) ;;
    *) continue ;;
  esac
  strip -o "$stage/$name" "$f"
done
if [ -f "$stage/query_tests" ]; then
  if [ -x "$build/bin/linlayout" ]; then
    strip -o "$stage/linlayout" "$build/bin/linlayout"
  else
    echo "package: $build/bin/linlayout not built: query_tests' CLI tests will skip there" >&2
  fi
fi
# The GEMM kernels' PTX, for run.sh's SASS checks (cp.async -> LDGSTS, wgmma -> HGMMA): the
# pipelined mma.sync matmul (3 stages, without and with prefetch) and the wgmma matmuls (as
# written; 128x128 and 128x256 with 3 stages), compiled by the CLI as users would.
if [ -x "$build/bin/linlayout" ]; then
  mkdir -p "$stage/ptx"
  sed 's/^module attributes {/module attributes {"ttg.num-stages" = 3 : i32, /' examples/matmul.tir \
    > "$stage/ptx/matmul_s3.tir"
  "$build/bin/linlayout" compile "$stage/ptx/matmul_s3.tir" --target sm_90 --prefetch-k 0 \
    -o "$stage/ptx/matmul_s3.ptx"
  "$build/bin/linlayout" compile "$stage/ptx/matmul_s3.tir" --target sm_90 --prefetch-k 16 \
    -o "$stage/ptx/matmul_s3_pf.ptx"
  "$build/bin/linlayout" compile examples/matmul_wgmma.tir --target sm_90a \
    -o "$stage/ptx/matmul_wgmma.ptx"
  "$build/bin/linlayout" compile examples/matmul_wgmma.tir --target sm_90a --num-stages 3 \
    -o "$stage/ptx/matmul_wgmma_s3.ptx"
  "$build/bin/linlayout" compile examples/matmul_wgmma_wide.tir --target sm_90a --num-stages 3 \
    -o "$stage/ptx/matmul_wgmma_wide_s3.ptx"
  rm "$stage/ptx/matmul_s3.tir"
fi
# Shared libraries that are not part of a stock system (listed so that a change shows).
for f in "$stage"/*; do
  [ -f "$f" ] || continue
  ldd "$f" 2>/dev/null | awk '/=>/ {print $1}' | grep -vE '^(libc|libm|libstdc\+\+|libgcc_s|libdl|libpthread|librt|libz|libzstd|linux-vdso|ld-linux)' || true
done | sort -u | sed 's/^/package: extra shared library needed: /'
mkdir -p "$dest/.carry"
rm -rf "$dest/.carry/gpu" "$dest/.carry/gpu.tgz"
tar czf "$dest/.carry/gpu.tgz" -C "$stage" .
# Everything at once (the tests, the CLI and the bench) passes 64 MiB by a little: the CLI, which
# only query_tests' RunCli suite runs, goes first (those tests then skip, saying so).
if [ "$(stat -c %s "$dest/.carry/gpu.tgz")" -gt $((64 << 20)) ] && [ -f "$stage/linlayout" ]; then
  echo "package: over 64 MiB with the CLI: left out, so RunCli's GPU test skips there" >&2
  rm "$stage/linlayout"
  tar czf "$dest/.carry/gpu.tgz" -C "$stage" .
fi
ls "$stage" | sed 's/^/package: /'
rm -rf "$stage"
du -sh "$dest/.carry/gpu.tgz" | sed 's/^/package: /'
if [ "$(stat -c %s "$dest/.carry/gpu.tgz")" -gt $((64 << 20)) ]; then
  echo "package: over the 64 MiB a device run carries: narrow TARGETS" >&2
fi

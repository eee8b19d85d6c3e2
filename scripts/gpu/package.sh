#!/usr/bin/env bash
# Builds what the GPU machine runs and copies it into .carry/gpu/ (git-ignored), to be sent with
# the device tool's `carry: [".carry"]`. Everything is linked statically against our libraries and
# LLVM, so the binaries need only the C/C++ runtime there (Ubuntu 24.04's is newer than ours).
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
make -s build BUILD="$build"
rm -rf .carry/gpu && mkdir -p .carry/gpu
for f in "$build"/bin/*; do
  [ -x "$f" ] && [ -f "$f" ] || continue
  case "$(basename "$f")" in
    *_tests|linlayout|linlayout_gpu_bench|example_*) cp "$f" .carry/gpu/ ;;
  esac
done
# Shared libraries that are not part of a stock system (none expected; listed so a change shows).
for f in .carry/gpu/*; do
  ldd "$f" 2>/dev/null | awk '/=>/ {print $1}' | grep -vE '^(libc|libm|libstdc\+\+|libgcc_s|libdl|libpthread|librt|linux-vdso|ld-linux)' || true
done | sort -u | sed 's/^/package: extra shared library needed: /'
du -sh .carry/gpu | sed 's/^/package: /'

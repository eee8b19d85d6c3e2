#!/usr/bin/env bash
# Adds this build's GPU benchmark, stripped, to .carry-ab/benches.tgz under a name of your choice,
# for an A/B call of bench/gpu/ab.sh on the device tool (`carry: [".carry-ab"]`). Build and add
# the baseline first, change the code, then build and add the candidate:
#   scripts/gpu/package-ab.sh old            (at the baseline)
#   scripts/gpu/package-ab.sh new            (after the change)
#   scripts/gpu/package-ab.sh --reset        (start over)
# Each build is ~16 MB compressed; three fit the 64 MiB the device tool carries.
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=.carry-ab
if [ "${1:-}" = --reset ]; then
  rm -rf "$dir"
  exit 0
fi
name=${1:?usage: scripts/gpu/package-ab.sh NAME | --reset}
case "$name" in *[!A-Za-z0-9_-]*) echo "package-ab: NAME must be letters, digits, _ or -" >&2; exit 2 ;; esac
build=${BUILD:-build}
cmake --build "$build" -j "${JOBS:-2}" --target linlayout_gpu_bench
mkdir -p "$dir"
stage=$(mktemp -d)
[ -f "$dir/benches.tgz" ] && tar xzf "$dir/benches.tgz" -C "$stage"
strip -o "$stage/bench_$name" "$build/bin/linlayout_gpu_bench"
tar czf "$dir/benches.tgz" -C "$stage" .
rm -rf "$stage"
echo "package-ab: $(tar tzf "$dir/benches.tgz" | grep -c bench_) build(s) in $dir/benches.tgz ($(du -h "$dir/benches.tgz" | cut -f1))"

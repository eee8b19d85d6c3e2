#!/usr/bin/env bash
# The layout algebra beside Triton's own C++ LinearLayout (bench/triton/), on the GPU machine,
# whose python3 has Triton 3.6 (libtriton.so keeps its C++ symbol table).
#   here:  bash scripts/gpu/triton_algebra.sh pack [DEST_REPO [CARRY]]   builds
#          linlayout_triton_side (RelWithDebInfo, as the `make bench` binaries) in BUILD
#          (default build/), strips it, packs it with the driver into DEST_REPO/CARRY/
#          (default .carry-tritonll)
#   there: bash CARRY/triton_algebra.sh run                      (device tool: carry [CARRY])
# `run` prints the host, runs bench/triton/side_by_side.py pinned to one core, then the
# layout-core benchmarks (linlayout_bench, as `make bench` runs them), and writes to $OUT:
# summary.txt (self-checks, answer checks, the tables), side_by_side.json, layout_bench.json +
# meta.json (for scripts/perf-tables.py) and diag.txt (Triton's symbols and a few disassemblies,
# for when a self-check fails). If the carried module
# cannot be loaded there, it is rebuilt from the tree with the same flags.
set -uo pipefail
case "${1:-}" in
pack)
  set -e
  cd "$(dirname "$0")/../.."
  dest=${2:-.}
  carry=${3:-.carry-tritonll}
  build=${BUILD:-build}
  [ -f "$build/build.ninja" ] || cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  nice cmake --build "$build" -j "${JOBS:-2}" --target linlayout_triton_side linlayout_bench
  mkdir -p "$dest/$carry"
  strip -g -o "$dest/$carry/linlayout_triton_side.so" "$build/lib/linlayout_triton_side.so"
  # The layout-core benchmarks too, with their Google Benchmark library, for the table beside.
  strip -o "$dest/$carry/linlayout_bench" "$build/bin/linlayout_bench"
  cp -L "$(ldd "$build/bin/linlayout_bench" | awk '/libbenchmark/ {print $3}')" "$dest/$carry/"
  cp bench/triton/side_by_side.py "$0" "$dest/$carry/"
  { git rev-parse --short HEAD; git diff --quiet HEAD || echo "(with uncommitted changes)"
    grep -m1 '^CMAKE_BUILD_TYPE' "$build/CMakeCache.txt"; "${CXX:-g++}" --version | head -1; } \
    > "$dest/$carry/BUILT_FROM"
  du -sh "$dest/$carry" ;;
run)
  here=$(cd "$(dirname "$0")" && pwd)
  out=${OUT:-/tmp/tritonll-out}
  mkdir -p "$out"
  sum=$out/summary.txt
  diag=$out/diag.txt
  {
    echo "built from: $(tr '\n' ' ' < "$here/BUILT_FROM")"
    echo "host: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); python $(python3 -c 'import sys; print(sys.version.split()[0])')"
  } | tee "$sum"
  so=$here/linlayout_triton_side.so
  if ! python3 -c "import ctypes, sys; ctypes.CDLL(sys.argv[1])" "$so" >> "$diag" 2>&1; then
    echo "the carried module does not load here (see diag.txt); rebuilding it from the tree" | tee -a "$sum"
    so=/tmp/linlayout_triton_side.so
    g++ -std=c++20 -O2 -g0 -DNDEBUG -fPIC -shared -fvisibility=hidden -Ilayout/algebra/include \
      -Ilayout/algebra/lib -Isupport/include -Ibench layout/algebra/lib/*.cpp bench/triton/*.cpp \
      -o "$so" -ldl >> "$diag" 2>&1 || echo "rebuild failed (diag.txt)" | tee -a "$sum"
  fi
  pin=""
  command -v taskset >/dev/null && pin="taskset -c $(( $(nproc) / 2 ))"
  PYTHONUNBUFFERED=1 timeout 120 $pin python3 "$here/side_by_side.py" --lib "$so" \
    --json "$out/side_by_side.json" ${SIDE_BY_SIDE_ARGS:-} 2>&1 | tee -a "$sum"
  echo "side_by_side rc=${PIPESTATUS[0]}" | tee -a "$sum"
  # The layout-core table of docs/performance.md, as `make bench` runs it (scripts/bench.sh).
  if [ -x "$here/linlayout_bench" ]; then
    python3 -c 'import json,sys; json.dump(dict(machine=sys.argv[1], load=sys.argv[2], date=sys.argv[3],
commit=sys.argv[4], build=sys.argv[5]), open(sys.argv[6], "w"))' \
      "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) cores" \
      "$(cut -d' ' -f1 /proc/loadavg)" "$(date -u '+%Y-%m-%d %H:%M UTC')" \
      "$(head -1 "$here/BUILT_FROM")" "RelWithDebInfo, g++ 12" "$out/meta.json"
    LD_LIBRARY_PATH=$here timeout 100 $pin "$here/linlayout_bench" \
      --benchmark_filter='^BM_(Apply|Then|Invert|Pseudo|Product|Free|From|Divide|Sublayout|Reshape|Transpose|Quotient)' --benchmark_repetitions=5 \
      --benchmark_min_time=0.2 --benchmark_report_aggregates_only=true \
      --benchmark_out="$out/layout_bench.json" --benchmark_out_format=json \
      --benchmark_color=false 2>&1 | grep -E '_median|^Benchmark' | tee -a "$sum"
  fi
  # Diagnostics: the LinearLayout symbols and the code of the calls whose ABI is guessed.
  lib=$(python3 -c 'import os, triton._C.libtriton as l; print(os.path.realpath(l.__file__))' 2>/dev/null)
  if [ -n "$lib" ]; then
    timeout 40 nm "$lib" 2>/dev/null | grep -E 'LinearLayout|tritonml|divideLeft|deallocate_buffer' \
      > /tmp/ll-syms.txt
    { echo "== $(wc -l < /tmp/ll-syms.txt) symbols"; c++filt < /tmp/ll-syms.txt | head -400; } >> "$diag"
    for sym in _ZN4mlir6tritonmlENS0_12LinearLayoutES1_ _ZN4mlir6triton10divideLeftERKNS0_12LinearLayoutES3_ \
        _ZNK4mlir6triton12LinearLayout20getFreeVariableMasksEv; do
      addr=$(grep -m1 " $sym\$" /tmp/ll-syms.txt | cut -d' ' -f1)
      [ -n "$addr" ] || { echo "== $sym: not found" >> "$diag"; continue; }
      echo "== $sym at $addr" >> "$diag"
      timeout 20 objdump -d --no-show-raw-insn --start-address=0x$addr \
        --stop-address=$(printf '0x%x' $((0x$addr + 400))) "$lib" 2>/dev/null | tail -n +7 >> "$diag"
    done
  fi
  ls -la "$out" ;;
*)
  echo "usage: $0 pack [DEST_REPO [CARRY]] | run" >&2
  exit 2 ;;
esac

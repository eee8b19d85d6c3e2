#!/usr/bin/env bash
# Runs on the GPU machine (device tool), from the repository root, after scripts/gpu/package.sh
# packed .carry/gpu.tgz here: the GPU tests, then the GPU benchmarks side by side with Triton/Gluon.
#   device run: bash bench/gpu/run.sh      (carry: [".carry"])
# Logs and JSON go to a work folder; $OUT (or /tmp/linlayout-gpu-out) gets results.tgz (all of
# them) and performance-gpu.md; the table is printed last.
#   SKIP_TESTS=1 / SKIP_BENCH=1 / SKIP_TRITON=1 / SKIP_CHECKS=1 leave a part out; TEST_FILTER
#   narrows the tests; SECTIONS (default "copy convert paths gemm attention peak scan i8gemm
#   vendor") the benchmark sections, ours and the Gluon scripts of the same name
#   (gluon_<section>_bench.py); vendor is bench/gpu/vendor_bench.py (cuBLAS, cuBLASLt fp8, cuDNN
#   and flash attention through torch).
#   SKIP_RACECHECK=1 keeps the SASS checks but not racecheck; RACECHECK_TESTS names its tests.
set -uo pipefail
sections=" ${SECTIONS:-copy convert paths gemm attention peak scan i8gemm vendor} "
out=${OUT:-/tmp/linlayout-gpu-out}
work=$(mktemp -d /tmp/linlayout-gpu.XXXX)
mkdir -p "$out"
bin=.carry/gpu
if [ -f .carry/gpu.tgz ]; then
  bin=$(mktemp -d /tmp/linlayout-bin.XXXX)
  tar xzf .carry/gpu.tgz -C "$bin"
fi
started=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$work/gpu.txt"
clock=$(nvidia-smi --query-gpu=clocks.max.sm --format=csv,noheader,nounits | head -1)
printf '{"date": "%s", "sm_clock_mhz": %s}\n' "$(date -u '+%Y-%m-%d %H:%M UTC')" "${clock:-null}" > "$work/meta.json"
status=0
# PTX of the conversion kernels, ours and Triton's, disassembled after the benchmarks.
mkdir -p "$work/ptx"
export LINLAYOUT_PTX_DIR="$work/ptx"
if [ "${SKIP_TESTS:-0}" != 1 ]; then
  echo "== GPU tests"
  # One process per test: a kernel that faults leaves the CUDA context unusable, so a fault must
  # not take the tests after it down too.
  for t in "$bin"/*_tests; do
    [ -x "$t" ] || continue
    log="$work/$(basename "$t").log"
    : > "$log"
    for name in $("$t" --gtest_list_tests --gtest_filter="${TEST_FILTER:-*Gpu*}" | awk '/^[^ ]/ {suite=$1} /^  / {print suite $1}'); do
      "$t" --gtest_filter="$name" >> "$log" 2>&1
      rc=$?
      if [ $rc -eq 0 ]; then
        if grep -q "^\[  SKIPPED \] $name " "$log"; then r=SKIPPED; else r=passed; fi
      else
        r=FAILED; status=1
      fi
      printf '%s: %-62s %s\n' "$(basename "$t")" "$name" "$r"
    done
    grep -E '^\[          \]' "$log" | sed "s|^|$(basename "$t"): |" | head -20
    grep -B2 -A10 'Failure' "$log" | head -80
  done
  echo "   tests took $(( $(date +%s) - started )) s"
fi
if [ "${SKIP_CHECKS:-0}" != 1 ]; then
  echo "== Checks: racecheck on the conversion loops and the pipelined, wgmma and TMA matmuls; SASS of the GEMM kernels"
  sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
  if [ "${SKIP_RACECHECK:-0}" = 1 ]; then
    echo "racecheck: skipped (SKIP_RACECHECK=1)"
  elif [ -n "$sanitizer" ] && [ -x "$bin/jit_tests" ]; then
    for name in ${RACECHECK_TESTS:-ConvertGpu.BenchmarkLoopKernelsAreExact ComputeGpu.MatmulF16Pipelined ComputeGpu.MatmulF16PipelinedPrefetch ComputeGpu.PersistentWideMatmul ComputeGpu.FlatPersistentWideMatmul ComputeGpu.Attention ComputeGpu.WgmmaMatmulF16 TmaGpu.MatmulF16}; do
      log="$work/racecheck-$name.log"
      timeout 240 "$sanitizer" --tool racecheck --racecheck-report all --error-exitcode 9 \
        "$bin/jit_tests" --gtest_filter="$name" > "$log" 2>&1
      rc=$?
      [ $rc -eq 0 ] && r=clean || { r="NOT CLEAN (exit $rc)"; status=1; }
      printf 'racecheck: %-40s %s; %s\n' "$name" "$r" "$(grep -m1 'RACECHECK SUMMARY' "$log" || echo 'no summary line')"
    done
  else
    echo "racecheck: compute-sanitizer or jit_tests not found"
  fi
  tbin=$(python3 -c 'import os, triton; print(os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin"))' 2>/dev/null)
  for f in "$bin"/ptx/*.ptx; do
    [ -f "$f" ] && [ -x "$tbin/ptxas" ] || continue
    name=$(basename "$f" .ptx)
    arch=$(awk '/^\.target/ {print $2; exit}' "$f" | tr -d ',')
    mkdir -p "$work/sass"
    "$tbin/ptxas" -arch="$arch" -v -o "$work/sass/$name.cubin" "$f" > "$work/sass/$name.ptxas.txt" 2>&1 &&
      "$tbin/cuobjdump" -sass "$work/sass/$name.cubin" > "$work/sass/$name.sass" 2>&1
    printf 'sass %-16s %-8s' "$name" "$arch"
    for op in HGMMA HMMA LDGSTS LDSM LDGDEPBAR DEPBAR BAR WARPGROUP; do
      printf ' %s %d' $op "$(grep -cE "[ ;]$op[ .;]" "$work/sass/$name.sass" 2>/dev/null)"
    done
    printf '; %s\n' "$(grep -o 'Used [0-9]* registers' "$work/sass/$name.ptxas.txt" | head -1)"
  done | tee "$work/sass-gemm.txt"
fi
if [ "${SKIP_BENCH:-0}" != 1 ] && [ -x "$bin/linlayout_gpu_bench" ]; then
  echo "== GPU benchmarks (linlayout)"
  # One process per section, for the same reason as the tests.
  for section in $sections; do
    [ $section = vendor ] && continue  # torch's libraries only, below
    "$bin/linlayout_gpu_bench" --only $section --json "$work/linlayout-$section.json" \
      --ptx-dir "$work/ptx" || status=1
  done
  echo "   at $(( $(date +%s) - started )) s"
fi
if [ "${SKIP_BENCH:-0}" != 1 ] && [ "${SKIP_TRITON:-0}" != 1 ]; then
  echo "== GPU benchmarks (Triton/Gluon)"
  for s in bench/gpu/gluon_*.py; do
    [ -f "$s" ] || continue
    name=$(basename "$s" .py)
    section=${name#gluon_}; section=${section%_bench}; [ "$section" = memcpy ] && section=copy
    case "$sections" in *" $section "*) ;; *) continue ;; esac
    PYTHONUNBUFFERED=1 python3 "$s" "$work/$name.json" > "$work/$name.log" 2>&1 || { status=1; tail -5 "$work/$name.log"; }
    echo "   $name done at $(( $(date +%s) - started )) s"
  done
  # Triton's own compiler held to mma.sync (tl.dot GEMMs over a sweep of tilings): what the
  # reference compiler reaches on the mma.sync path, beside our kernels and cuBLAS.
  case "$sections" in *" gemm "*)
    # (Without its descriptors-ws form: Triton 3.6 does not split mma.sync loops.)
    DISABLE_MMA_V3=1 PYTHONUNBUFFERED=1 python3 bench/gpu/triton_mma_sync_sweep.py --mma v2 \
      --forms pointers,descriptors "$work/triton_mma_sync_sweep.json" > "$work/triton_mma_sync_sweep.log" 2>&1 ||
      { status=1; tail -5 "$work/triton_mma_sync_sweep.log"; }
    echo "   triton_mma_sync_sweep done at $(( $(date +%s) - started )) s" ;;
  esac
  # The vendor libraries on the same GPU: cuBLAS, cuBLASLt fp8, cuDNN and flash attention.
  case "$sections" in *" vendor "*)
    PYTHONUNBUFFERED=1 python3 bench/gpu/vendor_bench.py "$work/vendor_bench.json" > "$work/vendor_bench.log" 2>&1 ||
      { status=1; tail -5 "$work/vendor_bench.log"; }
    echo "   vendor_bench done at $(( $(date +%s) - started )) s" ;;
  esac
fi
# SASS of our conversion kernels with Triton's own ptxas / cuobjdump (Triton's are written by
# its script), and a count of the instructions that matter for conversions in each.
tbin=$(python3 -c 'import os, triton; print(os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin"))' 2>/dev/null)
if [ -n "$tbin" ] && [ -x "$tbin/ptxas" ] && [ -x "$tbin/cuobjdump" ]; then
  for f in "$work"/ptx/linlayout_*.ptx; do
    [ -f "$f" ] || continue
    "$tbin/ptxas" -arch=sm_90a -v -o "${f%.ptx}.cubin" "$f" > "${f%.ptx}.ptxas.txt" 2>&1 &&
      "$tbin/cuobjdump" -sass "${f%.ptx}.cubin" > "${f%.ptx}.sass" 2>&1
  done
  # An instruction line: cuobjdump's "/*0010*/ OP ..." or Triton's "--:-:0:-:1 OP ..." form.
  insn='(/\*[0-9a-f]+\*/|[-0-9a-fY]+:[-0-9a-fY:]+)'
  for f in "$work"/ptx/*.sass; do
    [ -f "$f" ] || continue
    printf '%-50s' "$(basename "$f")"
    for op in SHFL PRMT SEL HADD2 FADD LDS STS BAR; do
      printf ' %s %4d' $op "$(grep -cE "^\s*$insn\s+$op[ .]" "$f")"
    done
    printf ' total %d\n' "$(grep -cE "^\s*$insn\s+[A-Z]" "$f")"
  done | tee "$work/ptx/sass-counts.txt"
  # The same for the loop body alone (Triton's round-trip loop: what the cost model prices).
  sass=("$work"/ptx/*.sass)
  if [ -f "${sass[0]}" ]; then
    python3 bench/gpu/sass_loop_counts.py "${sass[@]}" > "$work/ptx/sass-loop-counts.txt"
  fi
fi
echo "== Table"
[ -f bench/gpu/report.py ] && python3 bench/gpu/report.py "$work" && cp "$work/performance-gpu.md" "$out/"
tar czf "$out/results.tgz" -C "$work" .
exit $status

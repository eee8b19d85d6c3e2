#!/usr/bin/env bash
# A/B of benchmark builds on the GPU machine (device tool, `carry: [".carry-ab"]`), after
# scripts/gpu/package-ab.sh packed them: ROUNDS rounds (default 2), each timing cuBLAS (torch,
# f16 in, f32 out; where a GEMM variant is named) and then every variant named on the command
# line with every build in turn, so that builds alternate on the same card. One line per build
# and variant.
#   device run: ROUNDS=2 bash bench/gpu/ab.sh wide-pipelined-3-prefetch-k64 tma_mma_wide
# Variant names are linlayout_gpu_bench's (`--only gemm` prints them); environment variables reach
# every build alike. A paths kernel (NAME_DTYPE_PATH, as its PTX file is named, e.g.
# seed2-194_float16_shared-memory) is timed by the paths section instead: ns per tile-conversion,
# and WRONG where its result is; LINLAYOUT_BENCH_TILES_PER_SM sets its grid (16 CTAs per SM).
set -uo pipefail
[ $# -gt 0 ] || { echo "usage: bash bench/gpu/ab.sh VARIANT..." >&2; exit 2; }
work=$(mktemp -d)
tar xzf .carry-ab/benches.tgz -C "$work" || exit 1
builds=$(cd "$work" && ls bench_* | sed 's/^bench_//')
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
cat > "$work/cublas.py" <<'PY'
import torch, triton
for n in (4096, 8192):
    a = torch.randn((n, n), device="cuda", dtype=torch.float16)
    b = torch.randn((n, n), device="cuda", dtype=torch.float16)
    f = lambda: torch.mm(a, b, out_dtype=torch.float32)
    ms = triton.testing.do_bench(f, warmup=50, rep=300, return_mode="median")
    print(f"cuBLAS {n}^3: {2 * n ** 3 / (ms * 1e-3) / 1e12:.1f} TFLOP/s", flush=True)
PY
# A paths kernel's name carries its dtype; any other name is a GEMM variant.
is_paths() { case "$1" in *_float16_* | *_float32_* | *_int8_*) return 0 ;; esac; return 1; }
gemm=0
for v in "$@"; do is_paths "$v" || gemm=1; done
for r in $(seq "${ROUNDS:-2}"); do
  echo "== round $r"
  [ $gemm = 1 ] && python3 "$work/cublas.py"
  for v in "$@"; do
    for b in $builds; do
      printf '%-8s %-44s' "$b" "$v"
      if is_paths "$v"; then
        "$work/bench_$b" --only paths --variant "$v" 2>&1 |
          sed -nE 's/.* ([0-9.]+) ns\/conversion \[[a-z_,]*\]( *WRONG)?.*/ \1 ns\2/p; /rror/p' | tr '\n' ' '
      else
        "$work/bench_$b" --only gemm --variant "$v" 2>&1 |
          sed -nE 's/.* ([0-9]+)\^3 +[0-9.]+ ms +([0-9.]+) TFLOP\/s.*/ \1^3 \2/p; /rror/p' | tr '\n' ' '
      fi
      echo
    done
  done
done

#!/usr/bin/env bash
# The runs behind this folder (H100, 2026-12-05 15:44-16:22 UTC), as they ran, one function per
# device call; `bash run.sh prepare` builds what they carry (from the repository root, after
# `cmake --build build --target linlayout jit_tests linlayout_gpu_bench`), `bash run.sh CALL` runs
# one there (device tool, carry [".carry-run"]). The candidates are written by
# scripts/gen-pingpong-matmul.py's kernel() (5-stage unclustered, 4-stage clustered) and by
# examples/matmul_ws_persistent_tmastore.tir with its tile groups of 16 M tiles set to 8, 16, 32.
set -uo pipefail
c=.carry-run
export PYTHONUNBUFFERED=1

prepare() {
  mkdir -p $c
  for b in jit_tests linlayout linlayout_gpu_bench; do
    strip -o /tmp/$b build/bin/$b && xz -T2 -6 -c /tmp/$b > $c/$b.xz
  done
  (cd scripts && python3 -c "
import importlib.util
spec = importlib.util.spec_from_file_location('g', 'gen-pingpong-matmul.py')
g = importlib.util.module_from_spec(spec); spec.loader.exec_module(g)
for k in [g.Kernel('matmul_ws_pingpong5_tmastore', 5, False),
          g.Kernel('matmul_ws_pingpong4_cluster', 4, True)]:
    open('../$c/' + k.name + '.tir', 'w').write(g.kernel(k))")
  for g in 8 16 32; do
    sed -e "s/%sixteen = arith.constant 16 /%sixteen = arith.constant $g /" \
        -e "s/%p_sixteen = arith.constant 16 /%p_sixteen = arith.constant $g /" \
        -e "s/@matmul_ws_persistent_tmastore(/@matmul_ws_persistent_tmastore_g$g(/" \
        examples/matmul_ws_persistent_tmastore.tir > $c/tmastore_g$g.tir
  done
  for v in inc carried usec16; do
    cp bench/gpu/results/h100-2026-12-05-groups/candidates/matmul_ws_persistent_tmastore_$v.tir \
      $c/tmastore_$v.tir
  done
  for f in $c/tmastore_g8.tir $c/tmastore_g16.tir $c/tmastore_g32.tir $c/tmastore_inc.tir \
           $c/tmastore_carried.tir $c/tmastore_usec16.tir examples/matmul_ws_pingpong_tmastore.tir examples/matmul_ws_pingpong_cluster.tir \
           $c/matmul_ws_pingpong5_tmastore.tir $c/matmul_ws_pingpong4_cluster.tir; do
    n=$(basename $f .tir)
    sed 's/xf16/xbf16/g; s/<f16>/<bf16>/g' $f > /tmp/${n}_bf16.tir
    build/bin/linlayout compile $f -o $c/$n.ptx --report 2> $c/$n.report
    build/bin/linlayout compile /tmp/${n}_bf16.tir -o $c/${n}_bf16.ptx --report 2> $c/${n}_bf16.report
  done
}

unpack() {
  for b in "$@"; do xz -dc $c/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
}

ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
san=$(ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
M1=gpc__cycles_elapsed.max,sm__cycles_active.avg,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,lts__t_bytes.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__throughput.avg.pct_of_peak_sustained_active,dram__bytes_read.sum,smsp__inst_executed.sum

# sanitize FILE GRID ARGS...: racecheck and synccheck through `linlayout run --gpu`, which also
# compares the GPU's outputs with the interpreter's.
sanitize() {
  local f=$1 grid=$2
  shift 2
  for tool in racecheck synccheck; do
    echo "== $tool $f"
    timeout 90 "$san" --tool $tool $([ $tool = racecheck ] && echo --racecheck-report all) \
      --error-exitcode 9 /tmp/linlayout run $f --gpu -q --grid $grid "$@" 2>&1 | tail -3
  done
}

# harness NAME LABEL=PTX...: NAME-f16.json, then NAME-bf16.json from each PTX's _bf16 form.
harness() {
  local out=$1
  shift
  for dt in "" _bf16; do
    local sides=()
    for s in "$@"; do sides+=("${s%%=*}=$c/${s#*=}$dt.ptx"); done
    local name=$out-f16
    [ -z "$dt" ] || name=$out-bf16
    timeout 280 python3 bench/gpu/gemm_same_harness.py "$OUT/$name.json" "${sides[@]}" 2>&1 |
      grep -E "round|error|back to back"
  done
}

call1() { # 15:44-15:48: wgmma rates; the clustered ping-pong's test, sanitizers, timings; ncu
  unpack jit_tests linlayout linlayout_gpu_bench
  CASES="coop_n256 pairs pairs_slice_major pairs_bK pairs_aM_bK one_wg_n256 one_wg_pairs one_wg_pairs_bK one_wg_pairs_aM_bK" \
    timeout 60 python3 bench/gpu/wgmma_rate.py $OUT/wgmma_rate_first.json
  LINLAYOUT_SOURCE_DIR=$PWD timeout 120 /tmp/jit_tests --gtest_filter='TmaGpu.WarpSpecializedMatmul'
  sanitize examples/matmul_ws_pingpong_cluster.tir 4 --arg adesc=rand:512x200 --arg bdesc=rand:200x512 \
    --arg c=zeros:512x512 --arg K=200 --arg ldc=512 --arg M=512 --arg N=512
  IDLE_S=1 ROUNDS=3 SIZES=4096 harness pingpong tmastore=tmastore_g8 pp4=matmul_ws_pingpong_tmastore \
    pp5=matmul_ws_pingpong5_tmastore ppc5=matmul_ws_pingpong_cluster ppc4=matmul_ws_pingpong4_cluster
  for v in ws_persistent_tmastore ws_pingpong_tmastore ws_pingpong_cluster; do
    LINLAYOUT_SOURCE_DIR=$PWD timeout 90 $ncu --kernel-name regex:matmul --launch-skip 1 --launch-count 1 \
      --metrics $M1 /tmp/linlayout_gpu_bench --only gemm --variant $v
  done
  timeout 90 $ncu --kernel-name regex:"nvjet|gemm|sm90" --launch-skip 1 --launch-count 1 --metrics $M1 \
    python3 -c "import torch
a, b = (torch.randn(4096, 4096, device='cuda', dtype=torch.float16) for _ in range(2))
for _ in range(3): torch.matmul(a, b)
torch.cuda.synchronize()"
}

call2() { # 15:51-15:52: wgmma rates with a shared-memory flood; energy and clocks back to back
  unpack
  timeout 90 python3 bench/gpu/wgmma_rate.py $OUT/wgmma_rate.json
  ENERGY=1 IDLE_S=2 ROUNDS=1 SIZES=4096 harness energy tmastore=tmastore_g8 \
    pp5=matmul_ws_pingpong5_tmastore ppc5=matmul_ws_pingpong_cluster
}

call3() { # 15:54-15:56: tile groups of 8, 16 and 32 M tiles: timings, energy, ncu's DRAM bytes
  unpack
  ENERGY=1 IDLE_S=2 ROUNDS=3 SIZES=4096 harness groups g8=tmastore_g8 g16=tmastore_g16 g32=tmastore_g32
  IDLE_S=0 ROUNDS=1 SIZES=4096 timeout 150 $ncu --kernel-name regex:"tmastore|nvjet" --launch-count 4 \
    --metrics dram__bytes_read.sum,lts__t_bytes.sum,gpc__cycles_elapsed.max,smsp__inst_executed.sum \
    python3 bench/gpu/gemm_same_harness.py /tmp/x.json g8=$c/tmastore_g8.ptx g16=$c/tmastore_g16.ptx \
    g32=$c/tmastore_g32.ptx
}

call4() { # 15:56-15:58 (g16-a) and again 15:59-16:01 (g16-b): groups of 8 and 16, five rounds
  unpack
  IDLE_S=2 ROUNDS=5 SIZES="4096 8192" harness g16-${2:-a} g8=tmastore_g8 g16=tmastore_g16
}

call5() { # 16:02-16:03: groups of 16 (main): its GPU test; sanitizers on 18 M tiles (16 + 2)
  unpack jit_tests linlayout
  LINLAYOUT_SOURCE_DIR=$PWD timeout 150 /tmp/jit_tests --gtest_filter='TmaGpu.WarpSpecializedMatmul'
  sanitize examples/matmul_ws_persistent_tmastore.tir 5 --arg adesc=rand:2304x104 \
    --arg bdesc=rand:104x512 --arg c=zeros:2304x512 --arg K=104 --arg ldc=512 --arg M=2304 --arg N=512
}

call6() { # 16:07-16:09: the ring's stage and phase carried through the loops (candidates/)
  unpack
  ENERGY=1 IDLE_S=2 ROUNDS=5 SIZES=4096 harness inc main=tmastore_g16 inc=tmastore_inc
  IDLE_S=0 ROUNDS=1 SIZES=4096 timeout 150 $ncu --kernel-name regex:"tmastore" --launch-count 2 \
    --metrics dram__bytes_read.sum,gpc__cycles_elapsed.max,smsp__inst_executed.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active \
    python3 bench/gpu/gemm_same_harness.py /tmp/x.json main=$c/tmastore_g16.ptx inc=$c/tmastore_inc.ptx
}

call7() { # 16:13-16:15: the same, the previous stage computed by a select (candidates/)
  unpack
  ENERGY=1 IDLE_S=2 ROUNDS=5 SIZES=4096 harness carried main=tmastore_g16 carried=tmastore_carried
  IDLE_S=0 ROUNDS=1 SIZES=4096 timeout 150 $ncu --kernel-name regex:"tmastore" --launch-count 2 \
    --metrics dram__bytes_read.sum,gpc__cycles_elapsed.max,smsp__inst_executed.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active \
    python3 bench/gpu/gemm_same_harness.py /tmp/x.json main=$c/tmastore_g16.ptx carried=$c/tmastore_carried.ptx
}

call8() { # 16:20-16:22 (asked for an H200, given an H100): main beside cuBLAS, four rounds
  unpack
  IDLE_S=2 ROUNDS=4 SIZES="4096 8192" harness main main=tmastore_g16
}

call9() { # ran later on an H200 (raw output lost; NOTES.md): main against the scale-d
          # candidate (candidates/), at the cap and not
  unpack
  ENERGY=1 IDLE_S=2 ROUNDS=6 SIZES="4096 8192" harness usec16 main=tmastore_g16 usec16=tmastore_usec16
  IDLE_S=0 ROUNDS=1 SIZES=4096 timeout 150 $ncu --kernel-name regex:"tmastore|usec" --launch-count 2 \
    --metrics dram__bytes_read.sum,gpc__cycles_elapsed.max,smsp__inst_executed.sum \
    python3 bench/gpu/gemm_same_harness.py /tmp/x.json main=$c/tmastore_g16.ptx usec16=$c/tmastore_usec16.ptx
}

"${1:?usage: run.sh prepare|call1|...|call8|call9}" "$@"

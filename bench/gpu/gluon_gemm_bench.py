#!/usr/bin/env python3
"""GEMM f16 x f16 -> f32 (and bf16 x bf16 -> f32 for cuBLAS, the wide pipelined twin and the wide
TMA twin) on this GPU: torch.matmul (cuBLAS) and Gluon mma_v2 kernels with the
tiling of linlayout's examples/matmul.tir (128x128 tile, K step 32, 4 warps, mma v2 [2, 2] x
[16, 8], operands loaded in blocked([1, 8], [4, 8], [4, 1], [1, 0]) and converted to dot operands
with k_width 2, C stored straight from the accumulator's layout): plain (no software pipelining), and pipelined with 3 and 4 stages the way
linlayout's software-pipeline pass does it (cp.async rings in the swizzled layouts it chooses,
wait_group STAGES-2, the next stage's copies issued before the mma), also on matmul_wide.tir's
128x256 tile with 8 warps. On sm_90 also the twins of examples/matmul_tma.tir and
matmul_tma_wide.tir: TMA (tensor descriptors, 128-byte NVMMA swizzle) into a ring of STAGES
stages with one mbarrier each, the grid walked in groups of 8 M tiles, async wgmma with one group left in flight, the slot of the
previous iteration refilled after the wait. Writes JSON to argv[1]. GEMM_ONLY=tma leaves out all
but cuBLAS and the TMA twins."""
import json, os, sys
import torch, triton
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.ampere import async_copy, mma_v2
try:
    from triton.experimental.gluon.language.nvidia.hopper import (
        mbarrier, tma, warpgroup_mma, warpgroup_mma_wait)
    from triton.experimental.gluon.nvidia.hopper import TensorDescriptor
    HOPPER_IMPORT_ERROR = None
except Exception as e:  # an older Triton: the TMA rows record why they are missing
    HOPPER_IMPORT_ERROR = f"{type(e).__name__}: {e}"


@gluon.jit
def gemm_mma_v2(a_ptr, b_ptr, c_ptr, K, lda, ldb, ldc,
                BM: gl.constexpr, BN: gl.constexpr, BK: gl.constexpr):
    blocked: gl.constexpr = gl.BlockedLayout([1, 8], [4, 8], [4, 1], [1, 0])
    acc_layout: gl.constexpr = gl.NVMMADistributedLayout([2, 0], [2, 2], [16, 8])
    a_layout: gl.constexpr = gl.DotOperandLayout(0, acc_layout, 2)
    b_layout: gl.constexpr = gl.DotOperandLayout(1, acc_layout, 2)
    rows = gl.program_id(0) * BM + gl.arange(0, BM, layout=gl.SliceLayout(1, blocked))
    cols = gl.program_id(1) * BN + gl.arange(0, BN, layout=gl.SliceLayout(0, blocked))
    ka = gl.arange(0, BK, layout=gl.SliceLayout(0, blocked))
    kb = gl.arange(0, BK, layout=gl.SliceLayout(1, blocked))
    a_ptrs = a_ptr + rows[:, None] * lda + ka[None, :]
    b_ptrs = b_ptr + kb[:, None] * ldb + cols[None, :]
    acc = gl.zeros([BM, BN], gl.float32, acc_layout)
    for k in range(0, K, BK):
        a = gl.convert_layout(gl.load(a_ptrs), a_layout)
        b = gl.convert_layout(gl.load(b_ptrs), b_layout)
        acc = mma_v2(a, b, acc)
        a_ptrs += BK
        b_ptrs += BK * ldb
    # C straight from the accumulator's layout, as examples/matmul.tir stores it.
    c_rows = gl.program_id(0) * BM + gl.arange(0, BM, layout=gl.SliceLayout(1, acc_layout))
    c_cols = gl.program_id(1) * BN + gl.arange(0, BN, layout=gl.SliceLayout(0, acc_layout))
    gl.store(c_ptr + c_rows[:, None] * ldc + c_cols[None, :], acc)


@gluon.jit
def gemm_mma_v2_pipelined(a_ptr, b_ptr, c_ptr, K, lda, ldb, ldc,
                          BM: gl.constexpr, BN: gl.constexpr, BK: gl.constexpr,
                          STAGES: gl.constexpr, WARPS_M: gl.constexpr, WARPS_N: gl.constexpr,
                          A_PER_PHASE: gl.constexpr = 2, A_MAX_PHASE: gl.constexpr = 4,
                          GROUP_M: gl.constexpr = 0):
    blocked: gl.constexpr = gl.BlockedLayout([1, 8], [4, 8], [WARPS_M * WARPS_N, 1], [1, 0])
    acc_layout: gl.constexpr = gl.NVMMADistributedLayout([2, 0], [WARPS_M, WARPS_N], [16, 8])
    a_layout: gl.constexpr = gl.DotOperandLayout(0, acc_layout, 2)
    b_layout: gl.constexpr = gl.DotOperandLayout(1, acc_layout, 2)
    a_shared: gl.constexpr = gl.SwizzledSharedLayout(8, A_PER_PHASE, A_MAX_PHASE, [1, 0])
    b_shared: gl.constexpr = gl.SwizzledSharedLayout(8, 1, 8, [1, 0])
    # The rings hold the inputs' type (f16, or bf16 for the bf16 twin).
    a_ring = gl.allocate_shared_memory(a_ptr.dtype.element_ty, [STAGES, BM, BK], a_shared)
    b_ring = gl.allocate_shared_memory(b_ptr.dtype.element_ty, [STAGES, BK, BN], b_shared)
    pid_m = gl.program_id(0)
    pid_n = gl.program_id(1)
    if GROUP_M > 0:  # groups of GROUP_M M tiles, all N tiles of a group first (full groups)
        pid = pid_m + pid_n * gl.num_programs(0)
        gwidth = GROUP_M * gl.num_programs(1)
        pid_m = (pid // gwidth) * GROUP_M + (pid % gwidth) % GROUP_M
        pid_n = (pid % gwidth) // GROUP_M
    rows = pid_m * BM + gl.arange(0, BM, layout=gl.SliceLayout(1, blocked))
    cols = pid_n * BN + gl.arange(0, BN, layout=gl.SliceLayout(0, blocked))
    ka = gl.arange(0, BK, layout=gl.SliceLayout(0, blocked))
    kb = gl.arange(0, BK, layout=gl.SliceLayout(1, blocked))
    a_ptrs = a_ptr + rows[:, None] * lda + ka[None, :]
    b_ptrs = b_ptr + kb[:, None] * ldb + cols[None, :]
    for s in gl.static_range(STAGES - 1):
        a_ok = (rows[:, None] >= 0) & (ka[None, :] + s * BK < K)
        b_ok = (kb[:, None] + s * BK < K) & (cols[None, :] >= 0)
        async_copy.async_copy_global_to_shared(a_ring.index(s), a_ptrs, mask=a_ok)
        async_copy.async_copy_global_to_shared(b_ring.index(s), b_ptrs, mask=b_ok)
        async_copy.commit_group()
        a_ptrs += BK
        b_ptrs += BK * ldb
    acc = gl.zeros([BM, BN], gl.float32, acc_layout)
    for i in range(0, K // BK):
        async_copy.wait_group(STAGES - 2)
        a = a_ring.index(i % STAGES).load(a_layout)
        b = b_ring.index(i % STAGES).load(b_layout)
        nxt = i + STAGES - 1
        a_ok = (rows[:, None] >= 0) & (ka[None, :] + nxt * BK < K)
        b_ok = (kb[:, None] + nxt * BK < K) & (cols[None, :] >= 0)
        async_copy.async_copy_global_to_shared(a_ring.index(nxt % STAGES), a_ptrs, mask=a_ok)
        async_copy.async_copy_global_to_shared(b_ring.index(nxt % STAGES), b_ptrs, mask=b_ok)
        async_copy.commit_group()
        a_ptrs += BK
        b_ptrs += BK * ldb
        acc = mma_v2(a, b, acc)
    async_copy.wait_group(0)
    # C straight from the accumulator's layout, as examples/matmul*.tir store it.
    c_rows = pid_m * BM + gl.arange(0, BM, layout=gl.SliceLayout(1, acc_layout))
    c_cols = pid_n * BN + gl.arange(0, BN, layout=gl.SliceLayout(0, acc_layout))
    gl.store(c_ptr + c_rows[:, None] * ldc + c_cols[None, :], acc)


if HOPPER_IMPORT_ERROR is None:
    @gluon.jit
    def gemm_tma_wgmma(a_desc, b_desc, c_ptr, K, ldc, BM: gl.constexpr, BN: gl.constexpr,
                       BK: gl.constexpr, STAGES: gl.constexpr, WARPS: gl.constexpr,
                       DT: gl.constexpr):
        acc_layout: gl.constexpr = gl.NVMMADistributedLayout([3, 0], [WARPS, 1], [16, BN, 16])
        a_ring = gl.allocate_shared_memory(DT, [STAGES, BM, BK], a_desc.layout)
        b_ring = gl.allocate_shared_memory(DT, [STAGES, BK, BN], b_desc.layout)
        bars = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
        for s in gl.static_range(STAGES):
            mbarrier.init(bars.index(s), count=1)
        # Groups of 8 M tiles, all N tiles of a group first, as the examples (the benchmarked
        # sizes have a multiple of 8 M tiles, so every group is full).
        pid = gl.program_id(0) + gl.program_id(1) * gl.num_programs(0)
        gwidth = 8 * gl.num_programs(1)
        m0 = ((pid // gwidth) * 8 + (pid % gwidth) % 8) * BM
        n0 = ((pid % gwidth) // 8) * BN
        nk = gl.cdiv(K, BK)
        nbytes: gl.constexpr = (BM * BK + BK * BN) * 2
        for s in gl.static_range(STAGES - 1):
            p = s < nk
            mbarrier.expect(bars.index(s), nbytes, p)
            tma.async_copy_global_to_shared(a_desc, [m0, s * BK], bars.index(s), a_ring.index(s), p)
            tma.async_copy_global_to_shared(b_desc, [s * BK, n0], bars.index(s), b_ring.index(s), p)
        acc = gl.zeros([BM, BN], gl.float32, acc_layout)
        for i in range(nk):
            slot = i % STAGES
            mbarrier.wait(bars.index(slot), (i // STAGES) & 1)
            acc = warpgroup_mma(a_ring.index(slot), b_ring.index(slot), acc, is_async=True)
            acc = warpgroup_mma_wait(num_outstanding=1, deps=(acc,))
            j = i + STAGES - 1
            sj = j % STAGES
            p = j < nk
            mbarrier.expect(bars.index(sj), nbytes, p)
            tma.async_copy_global_to_shared(a_desc, [m0, j * BK], bars.index(sj), a_ring.index(sj), p)
            tma.async_copy_global_to_shared(b_desc, [j * BK, n0], bars.index(sj), b_ring.index(sj), p)
        acc = warpgroup_mma_wait(num_outstanding=0, deps=(acc,))
        for t in gl.static_range(STAGES):
            mbarrier.invalidate(bars.index(t))
        rows = m0 + gl.arange(0, BM, layout=gl.SliceLayout(1, acc_layout))
        cols = n0 + gl.arange(0, BN, layout=gl.SliceLayout(0, acc_layout))
        gl.store(c_ptr + rows[:, None] * ldc + cols[None, :], acc)


def check_and_time(row, key, launch, a, b, c, n):
    """One `launch` into c (NaN first) checked against torch's a @ b, then timed:
    row[key + "_rel_err"], "_ms" and "_TFLOPs", and the kernel's "_regs" and "_spills" where the
    launch returns the compiled kernel."""
    c.fill_(float("nan"))
    kernel = launch()
    for field in ("regs", "spills"):
        if hasattr(kernel, "n_" + field):
            row[f"{key}_{field}"] = getattr(kernel, "n_" + field)
    ref = torch.matmul(a.float(), b.float())
    row[key + "_rel_err"] = ((c - ref).norm() / ref.norm()).item()
    row[key + "_ms"] = triton.testing.do_bench(launch, warmup=50, rep=300, return_mode="median")
    row[key + "_TFLOPs"] = tflops(n, row[key + "_ms"])


def tma_rows(row, n, a, b, c, twins=(("gluon_tma", 128, 3, 4), ("gluon_tma_wide", 256, 3, 8))):
    """The TMA + wgmma twins: (key, BN, stages, warps) as examples/matmul_tma*.tir; a and b are
    f16 or bf16 (the kernel's shared tiles take their type)."""
    dt = gl.bfloat16 if a.dtype == torch.bfloat16 else gl.float16
    for key, bn, stages, warps in twins:
        if HOPPER_IMPORT_ERROR is not None or torch.cuda.get_device_capability()[0] != 9:
            row[key + "_error"] = HOPPER_IMPORT_ERROR or "not an sm_90 GPU"
            continue
        try:
            a_layout = gl.NVMMASharedLayout.get_default_for([128, 64], dt)
            b_layout = gl.NVMMASharedLayout.get_default_for([64, bn], dt)
            a_desc = TensorDescriptor.from_tensor(a, [128, 64], a_layout)
            b_desc = TensorDescriptor.from_tensor(b, [64, bn], b_layout)
            t = lambda: gemm_tma_wgmma[(n // 128, n // bn)](a_desc, b_desc, c, n, n, 128, bn, 64,
                                                             stages, warps, dt, num_warps=warps)
            check_and_time(row, key, t, a, b, c, n)
        except Exception as e:
            row[key + "_error"] = f"{type(e).__name__}: {e}"[-600:]  # the cause comes last


# (key, stages, BN, warps along N, BK, A's swizzle perPhase / maxPhase, M tiles per
# program group or 0 for the plain grid): matmul.tir's tiling pipelined, matmul_wide.tir's
# (128x256, 8 warps) pipelined with 3 and 4 stages and K steps of 32 and 64 (also in
# groups of 8 M tiles) and with 2 stages of K steps of 128, and the bench's reshapes of
# matmul.tir (8 warps 2 x 4; K steps of 64, where linlayout's pass chooses A's swizzle
# (8, 1, 8)).
PIPELINED_TWINS = (
    ("gluon_pipelined_3", 3, 128, 2, 32, 2, 4, 0),
    ("gluon_pipelined_4", 4, 128, 2, 32, 2, 4, 0),
    ("gluon_wide_pipelined_3", 3, 256, 4, 32, 2, 4, 0),
    ("gluon_wide_pipelined_4", 4, 256, 4, 32, 2, 4, 0),
    ("gluon_wide_pipelined_3_k64", 3, 256, 4, 64, 1, 8, 0),
    ("gluon_wide_pipelined_4_k64", 4, 256, 4, 64, 1, 8, 0),
    ("gluon_wide_pipelined_3_k64_g8", 3, 256, 4, 64, 1, 8, 8),
    ("gluon_wide_pipelined_4_k64_g8", 4, 256, 4, 64, 1, 8, 8),
    ("gluon_wide_pipelined_3_k64_g16", 3, 256, 4, 64, 1, 8, 16),
    ("gluon_wide_pipelined_4_k64_g16", 4, 256, 4, 64, 1, 8, 16),
    ("gluon_wide_pipelined_2_k128", 2, 256, 4, 128, 1, 8, 0),
    ("gluon_wide_pipelined_2_k128_g8", 2, 256, 4, 128, 1, 8, 8),
    ("gluon_pipelined_3_8w", 3, 128, 4, 32, 2, 4, 0),
    ("gluon_pipelined_3_k64", 3, 128, 2, 64, 1, 8, 0),
)


def launch_pipelined(twin, a, b, c, n):
    """One launch of the PIPELINED_TWINS entry `twin` on n x n inputs."""
    _, stages, bn, wn, bk, aper, amax, group = twin
    return gemm_mma_v2_pipelined[(n // 128, n // bn)](
        a, b, c, n, n, n, n, 128, bn, bk, stages, 2, wn, aper, amax, group, num_warps=2 * wn)


def time_pipelined(row, key, twin, a, b, c, n):
    """check_and_time of the PIPELINED_TWINS entry `twin`, or row[key + "_error"] when it fails."""
    try:
        check_and_time(row, key, lambda: launch_pipelined(twin, a, b, c, n), a, b, c, n)
    except Exception as e:
        row[key + "_error"] = f"{type(e).__name__}: {e}"[:400]


def tflops(n, ms):
    return 2 * n ** 3 / (ms * 1e-3) / 1e12


def main():
    res = {"gpu": torch.cuda.get_device_name(), "triton": triton.__version__, "torch": torch.__version__,
           "sizes": {}}
    for n in [4096, 8192]:
        row = {}
        a = torch.randn((n, n), device="cuda", dtype=torch.float16)
        b = torch.randn((n, n), device="cuda", dtype=torch.float16)
        c = torch.empty((n, n), device="cuda", dtype=torch.float32)
        # cuBLAS: f16 inputs, f32 output where torch offers it, else f16 output (f32 accumulate).
        try:
            f = lambda: torch.mm(a, b, out_dtype=torch.float32)
            f()
            row["torch_out_dtype"] = "float32"
        except Exception:
            f = lambda: torch.matmul(a, b)
            row["torch_out_dtype"] = "float16"
        row["torch_ms"] = triton.testing.do_bench(f, warmup=50, rep=300, return_mode="median")
        row["torch_TFLOPs"] = tflops(n, row["torch_ms"])
        if os.environ.get("GEMM_ONLY") == "tma":  # cuBLAS and the TMA twins only
            tma_rows(row, n, a, b, c)
            res["sizes"][str(n)] = row
            print(json.dumps({n: row}), flush=True)
            continue
        grid = (n // 128, n // 128)
        g = lambda: gemm_mma_v2[grid](a, b, c, n, n, n, n, 128, 128, 32, num_warps=4)
        try:
            check_and_time(row, "gluon", g, a, b, c, n)
        except Exception as e:
            row["gluon_error"] = f"{type(e).__name__}: {e}"[:400]
        for twin in PIPELINED_TWINS:
            time_pipelined(row, twin[0], twin, a, b, c, n)
        tma_rows(row, n, a, b, c)
        # bf16 inputs: cuBLAS (f32 out as above) and the twin of the wide TMA kernel.
        ab, bb = a.to(torch.bfloat16), b.to(torch.bfloat16)
        try:
            fb = lambda: torch.mm(ab, bb, out_dtype=torch.float32)
            fb()
        except Exception:
            fb = lambda: torch.matmul(ab, bb)
        row["torch_bf16_ms"] = triton.testing.do_bench(fb, warmup=50, rep=300, return_mode="median")
        row["torch_bf16_TFLOPs"] = tflops(n, row["torch_bf16_ms"])
        # The twin of the bf16 mma.sync row (wide-pipelined-3-prefetch-bf16: the 128x256 tile,
        # K steps of 32, 3 stages; the Gluon kernels load whole K steps).
        twin = next(t for t in PIPELINED_TWINS if t[0] == "gluon_wide_pipelined_3")
        time_pipelined(row, "gluon_wide_pipelined_3_bf16", twin, ab, bb, c, n)
        tma_rows(row, n, ab, bb, c, twins=(("gluon_tma_wide_bf16", 256, 3, 8),))
        res["sizes"][str(n)] = row
        print(json.dumps({n: row}), flush=True)
        del a, b, c, ab, bb
    json.dump(res, open(sys.argv[1], "w"), indent=1)


def run_twin(key, n=4096, launches=3):
    """Launches the pipelined twin `key` of PIPELINED_TWINS `launches` times on n x n inputs, for
    bench/gpu/profile.sh (Nsight Compute on a Gluon kernel alone)."""
    twin = next(t for t in PIPELINED_TWINS if t[0] == key)
    a = torch.randn((n, n), device="cuda", dtype=torch.float16)
    b = torch.randn((n, n), device="cuda", dtype=torch.float16)
    c = torch.empty((n, n), device="cuda", dtype=torch.float32)
    for _ in range(launches):
        launch_pipelined(twin, a, b, c, n)
    torch.cuda.synchronize()


if __name__ == "__main__":
    main()

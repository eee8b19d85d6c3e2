#!/usr/bin/env python3
"""GEMM f16 x f16 -> f32 on this GPU: torch.matmul (cuBLAS) and Gluon mma_v2 kernels with the
tiling of linlayout's examples/matmul.tir (128x128 tile, K step 32, 4 warps, mma v2 [2, 2] x
[16, 8], operands loaded in blocked([1, 8], [4, 8], [4, 1], [1, 0]) and converted to dot operands
with k_width 2): plain (no software pipelining), and pipelined with 3 and 4 stages the way
linlayout's software-pipeline pass does it (cp.async rings in the swizzled layouts it chooses,
wait_group STAGES-2, the next stage's copies issued before the mma), also on matmul_wide.tir's
128x256 tile with 8 warps. Writes JSON to argv[1]."""
import json, sys
import torch, triton
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.ampere import async_copy, mma_v2


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
    out = gl.convert_layout(acc, blocked)
    gl.store(c_ptr + rows[:, None] * ldc + cols[None, :], out)


@gluon.jit
def gemm_mma_v2_pipelined(a_ptr, b_ptr, c_ptr, K, lda, ldb, ldc,
                          BM: gl.constexpr, BN: gl.constexpr, BK: gl.constexpr,
                          STAGES: gl.constexpr, WARPS_M: gl.constexpr, WARPS_N: gl.constexpr):
    blocked: gl.constexpr = gl.BlockedLayout([1, 8], [4, 8], [WARPS_M * WARPS_N, 1], [1, 0])
    acc_layout: gl.constexpr = gl.NVMMADistributedLayout([2, 0], [WARPS_M, WARPS_N], [16, 8])
    a_layout: gl.constexpr = gl.DotOperandLayout(0, acc_layout, 2)
    b_layout: gl.constexpr = gl.DotOperandLayout(1, acc_layout, 2)
    a_shared: gl.constexpr = gl.SwizzledSharedLayout(8, 2, 4, [1, 0])
    b_shared: gl.constexpr = gl.SwizzledSharedLayout(8, 1, 8, [1, 0])
    a_ring = gl.allocate_shared_memory(gl.float16, [STAGES, BM, BK], a_shared)
    b_ring = gl.allocate_shared_memory(gl.float16, [STAGES, BK, BN], b_shared)
    rows = gl.program_id(0) * BM + gl.arange(0, BM, layout=gl.SliceLayout(1, blocked))
    cols = gl.program_id(1) * BN + gl.arange(0, BN, layout=gl.SliceLayout(0, blocked))
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
    out = gl.convert_layout(acc, blocked)
    gl.store(c_ptr + rows[:, None] * ldc + cols[None, :], out)


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
        grid = (n // 128, n // 128)
        g = lambda: gemm_mma_v2[grid](a, b, c, n, n, n, n, 128, 128, 32, num_warps=4)
        try:
            c.fill_(float("nan"))
            g()
            ref = torch.matmul(a.float(), b.float())
            row["gluon_rel_err"] = ((c - ref).norm() / ref.norm()).item()
            row["gluon_ms"] = triton.testing.do_bench(g, warmup=50, rep=300, return_mode="median")
            row["gluon_TFLOPs"] = tflops(n, row["gluon_ms"])
        except Exception as e:
            row["gluon_error"] = f"{type(e).__name__}: {e}"[:400]
        # (key, stages, BN, warps along N): matmul.tir's tiling pipelined, and matmul_wide.tir's
        # (128x256, 8 warps) pipelined with three stages.
        for key, stages, bn, wn in (("gluon_pipelined_3", 3, 128, 2), ("gluon_pipelined_4", 4, 128, 2),
                                    ("gluon_wide_pipelined_3", 3, 256, 4)):
            p = lambda: gemm_mma_v2_pipelined[(n // 128, n // bn)](
                a, b, c, n, n, n, n, 128, bn, 32, stages, 2, wn, num_warps=2 * wn)
            try:
                c.fill_(float("nan"))
                p()
                ref = torch.matmul(a.float(), b.float())
                row[key + "_rel_err"] = ((c - ref).norm() / ref.norm()).item()
                row[key + "_ms"] = triton.testing.do_bench(p, warmup=50, rep=300, return_mode="median")
                row[key + "_TFLOPs"] = tflops(n, row[key + "_ms"])
            except Exception as e:
                row[key + "_error"] = f"{type(e).__name__}: {e}"[:400]
        res["sizes"][str(n)] = row
        print(json.dumps({n: row}), flush=True)
        del a, b, c
    json.dump(res, open(sys.argv[1], "w"), indent=1)


main()

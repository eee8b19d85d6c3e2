#!/usr/bin/env python3
"""Attention forward, f16, head dim 64, 64 batch x heads of n_ctx = 1024 and 4096 positions, on
this GPU: torch's scaled_dot_product_attention (its flash-attention backend) and Gluon twins of
linlayout's examples/attention.tir (128 query rows per program, key blocks of 64, 4 warps, mma v2
[4, 1] x [16, 8], Q and V loaded in blocked([1, 8], [4, 8], [4, 1], [1, 0]) and K^T in
blocked([8, 1], [8, 4], [1, 4], [0, 1]), converted to dot operands with k_width 2; exp2 of the
scores scaled by sm_scale * log2(e); O stored in f16): plain, and pipelined with 2 and 3 stages
with cp.async rings of K^T and V in the swizzled layouts linlayout's software-pipeline pass
chooses and wait_group STAGES-2 (the next block's copies issued after V's read, before the second
dot; the pass issues them after K's read, docs/pipelining.md). Also torch's flash attention with
is_causal, beside examples/attention_causal.tir (counted at half the flops). Writes JSON to
argv[1]."""
import json, math, sys
import torch, triton
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.ampere import async_copy, mma_v2
try:  # Hopper: the twin of examples/attention_wgmma.tir
    from triton.experimental.gluon.language.nvidia.hopper import (
        fence_async_shared, warpgroup_mma, warpgroup_mma_wait)
except ImportError:
    warpgroup_mma = None

HEADS, D = 64, 64
# The head-dim-128 twin of examples/attention_d128.tir: 4 warps, key blocks of 32, Q kept in
# shared memory (swizzled(8, 1, 8, [1, 0])) and loaded from there as the A operand of each key
# block's Q K^T.
D128, BN128, WARPS128 = 128, 32, 4


@gluon.jit
def softmax_step(s, m_i, l_i, acc):
    """One key block's online softmax: the new maximum, the block's probabilities, the sum so far
    and the accumulator rescaled to the new maximum."""
    m_new = gl.maximum(m_i, gl.max(s, axis=1))
    p = gl.exp2(s - m_new[:, None])
    alpha = gl.exp2(m_i - m_new)
    return p, m_new, l_i * alpha + gl.sum(p, axis=1), acc * alpha[:, None]


@gluon.jit
def softmax_start(BM: gl.constexpr, BN: gl.constexpr, HD: gl.constexpr, mma: gl.constexpr):
    """The online softmax's start: a zero accumulator, maxima of -inf, sums of 0, and the zero
    scores tile the first product accumulates into."""
    row: gl.constexpr = gl.SliceLayout(1, mma)
    return (gl.zeros([BM, HD], gl.float32, mma), gl.full([BM], float("-inf"), gl.float32, row),
            gl.zeros([BM], gl.float32, row), gl.zeros([BM, BN], gl.float32, mma))


@gluon.jit
def q_and_kv_pointers(q_ptr, k_ptr, v_ptr, n_ctx, BM: gl.constexpr, BN: gl.constexpr,
                      HD: gl.constexpr, blocked: gl.constexpr, blocked_t: gl.constexpr):
    """This program's Q block (loaded in `blocked`) and the pointers of the first key block: K^T
    in `blocked_t`, V in `blocked`; with the index vectors the copies' masks are made of."""
    head_off = gl.program_id(1) * n_ctx * HD
    m0 = gl.program_id(0) * BM
    qr = m0 + gl.arange(0, BM, layout=gl.SliceLayout(1, blocked))
    qd = gl.arange(0, HD, layout=gl.SliceLayout(0, blocked))
    q = gl.load(q_ptr + head_off + qr[:, None] * HD + qd[None, :])
    td = gl.arange(0, HD, layout=gl.SliceLayout(1, blocked_t))
    tn = gl.arange(0, BN, layout=gl.SliceLayout(0, blocked_t))
    k_ptrs = k_ptr + head_off + td[:, None] + tn[None, :] * HD
    vn = gl.arange(0, BN, layout=gl.SliceLayout(1, blocked))
    v_ptrs = v_ptr + head_off + vn[:, None] * HD + qd[None, :]
    return q, k_ptrs, v_ptrs, td, tn, vn, qd


@gluon.jit
def copy_kv_block(k_ring, v_ring, j, k_ptrs, v_ptrs, td, tn, vn, qd, n_ctx,
                  BN: gl.constexpr, HD: gl.constexpr, STAGES: gl.constexpr):
    """Key block j's K^T and V into ring slot j % STAGES by cp.async, as one commit group (blocks
    past n_ctx zero-filled); returns the next block's pointers."""
    async_copy.async_copy_global_to_shared(k_ring.index(j % STAGES), k_ptrs,
                                           mask=(td[:, None] >= 0) & (tn[None, :] + j * BN < n_ctx))
    async_copy.async_copy_global_to_shared(v_ring.index(j % STAGES), v_ptrs,
                                           mask=(vn[:, None] + j * BN < n_ctx) & (qd[None, :] >= 0))
    async_copy.commit_group()
    return k_ptrs + BN * HD, v_ptrs + BN * HD


@gluon.jit
def store_out(o_ptr, acc, l_i, n_ctx, BM: gl.constexpr, HD: gl.constexpr, mma: gl.constexpr):
    """O = acc / l in the output type, stored from the accumulator's layout."""
    out = (acc / l_i[:, None]).to(o_ptr.dtype.element_ty)
    orow = gl.program_id(0) * BM + gl.arange(0, BM, layout=gl.SliceLayout(1, mma))
    ocol = gl.arange(0, HD, layout=gl.SliceLayout(0, mma))
    gl.store(o_ptr + gl.program_id(1) * n_ctx * HD + orow[:, None] * HD + ocol[None, :], out)


@gluon.jit
def attention_twin(q_ptr, k_ptr, v_ptr, o_ptr, n_ctx, sm_scale,
                   BM: gl.constexpr, BN: gl.constexpr, HD: gl.constexpr, STAGES: gl.constexpr,
                   WARPS: gl.constexpr = 4, Q_SHARED: gl.constexpr = False):
    blocked: gl.constexpr = gl.BlockedLayout([1, 8], [4, 8], [WARPS, 1], [1, 0])
    blocked_t: gl.constexpr = gl.BlockedLayout([8, 1], [8, 4], [1, WARPS], [0, 1])
    mma: gl.constexpr = gl.NVMMADistributedLayout([2, 0], [WARPS, 1], [16, 8])
    dot_a: gl.constexpr = gl.DotOperandLayout(0, mma, 2)
    dot_b: gl.constexpr = gl.DotOperandLayout(1, mma, 2)
    qk_scale = sm_scale * 1.44269504
    q, k_ptrs, v_ptrs, td, tn, vn, qd = q_and_kv_pointers(q_ptr, k_ptr, v_ptr, n_ctx, BM, BN, HD,
                                                          blocked, blocked_t)
    if Q_SHARED:
        q_smem = gl.allocate_shared_memory(q_ptr.dtype.element_ty, [BM, HD],
                                           gl.SwizzledSharedLayout(8, 1, 8, [1, 0]), q)
    else:
        qa = gl.convert_layout(q, dot_a)
    acc, m_i, l_i, zero = softmax_start(BM, BN, HD, mma)
    if STAGES == 1:
        for n in range(0, n_ctx, BN):
            kb = gl.convert_layout(gl.load(k_ptrs), dot_b)
            if Q_SHARED:
                qa = q_smem.load(dot_a)
            p, m_new, l_i, acc = softmax_step(mma_v2(qa, kb, zero) * qk_scale, m_i, l_i, acc)
            vb = gl.convert_layout(gl.load(v_ptrs), dot_b)
            acc = mma_v2(gl.convert_layout(p.to(q_ptr.dtype.element_ty), dot_a), vb, acc)
            m_i = m_new
            k_ptrs += BN * HD
            v_ptrs += BN * HD
    else:
        k_shared: gl.constexpr = gl.SwizzledSharedLayout(8, 1, 8, [0, 1])
        v_shared: gl.constexpr = gl.SwizzledSharedLayout(8, 1, 8, [1, 0])
        k_ring = gl.allocate_shared_memory(q_ptr.dtype.element_ty, [STAGES, HD, BN], k_shared)
        v_ring = gl.allocate_shared_memory(q_ptr.dtype.element_ty, [STAGES, BN, HD], v_shared)
        nblocks = n_ctx // BN
        for st in gl.static_range(STAGES - 1):
            k_ptrs, v_ptrs = copy_kv_block(k_ring, v_ring, st, k_ptrs, v_ptrs, td, tn, vn, qd,
                                           n_ctx, BN, HD, STAGES)
        for i in range(0, nblocks):
            async_copy.wait_group(STAGES - 2)
            kb = k_ring.index(i % STAGES).load(dot_b)
            if Q_SHARED:
                qa = q_smem.load(dot_a)
            p, m_new, l_i, acc = softmax_step(mma_v2(qa, kb, zero) * qk_scale, m_i, l_i, acc)
            vb = v_ring.index(i % STAGES).load(dot_b)
            k_ptrs, v_ptrs = copy_kv_block(k_ring, v_ring, i + STAGES - 1, k_ptrs, v_ptrs, td, tn,
                                           vn, qd, n_ctx, BN, HD, STAGES)
            acc = mma_v2(gl.convert_layout(p.to(q_ptr.dtype.element_ty), dot_a), vb, acc)
            m_i = m_new
        async_copy.wait_group(0)
    store_out(o_ptr, acc, l_i, n_ctx, BM, HD, mma)


@gluon.jit
def attention_wgmma_twin(q_ptr, k_ptr, v_ptr, o_ptr, n_ctx, sm_scale,
                         BM: gl.constexpr, BN: gl.constexpr, HD: gl.constexpr,
                         STAGES: gl.constexpr):
    """The twin of examples/attention_wgmma.tir: attention_twin's step with both products on
    wgmma (one warp group): Q and K^T (K-major) and V (N-major) in NVMMA shared tiles with the
    128-byte swizzle, P from registers; each wgmma waited for at once; with STAGES >= 2, K^T and V
    through cp.async rings, a proxy fence after each wait."""
    dtype: gl.constexpr = q_ptr.dtype.element_ty
    blocked: gl.constexpr = gl.BlockedLayout([1, 8], [4, 8], [4, 1], [1, 0])
    blocked_t: gl.constexpr = gl.BlockedLayout([8, 1], [8, 4], [1, 4], [0, 1])
    mma: gl.constexpr = gl.NVMMADistributedLayout([3, 0], [4, 1], [16, BN, 16])
    dot_a: gl.constexpr = gl.DotOperandLayout(0, mma, 2)
    k_major: gl.constexpr = gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16,
                                                 rank=2)
    kt_layout: gl.constexpr = gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16,
                                                   rank=2, transposed=True)
    qk_scale = sm_scale * 1.44269504
    q, k_ptrs, v_ptrs, td, tn, vn, qd = q_and_kv_pointers(q_ptr, k_ptr, v_ptr, n_ctx, BM, BN, HD,
                                                          blocked, blocked_t)
    q_smem = gl.allocate_shared_memory(dtype, [BM, HD], k_major, q)
    acc, m_i, l_i, zero = softmax_start(BM, BN, HD, mma)
    if STAGES == 1:
        for n in range(0, n_ctx, BN):
            k_smem = gl.allocate_shared_memory(dtype, [HD, BN], kt_layout, gl.load(k_ptrs))
            fence_async_shared()
            s = warpgroup_mma(q_smem, k_smem, zero, is_async=True)
            s = warpgroup_mma_wait(num_outstanding=0, deps=(s,))
            p, m_new, l_i, acc = softmax_step(s * qk_scale, m_i, l_i, acc)
            v_smem = gl.allocate_shared_memory(dtype, [BN, HD], k_major, gl.load(v_ptrs))
            fence_async_shared()
            acc = warpgroup_mma(gl.convert_layout(p.to(dtype), dot_a), v_smem, acc, is_async=True)
            acc = warpgroup_mma_wait(num_outstanding=0, deps=(acc,))
            m_i = m_new
            k_ptrs += BN * HD
            v_ptrs += BN * HD
    else:
        k_ring = gl.allocate_shared_memory(dtype, [STAGES, HD, BN], kt_layout)
        v_ring = gl.allocate_shared_memory(dtype, [STAGES, BN, HD], k_major)
        nblocks = n_ctx // BN
        for st in gl.static_range(STAGES - 1):
            k_ptrs, v_ptrs = copy_kv_block(k_ring, v_ring, st, k_ptrs, v_ptrs, td, tn, vn, qd,
                                           n_ctx, BN, HD, STAGES)
        for i in range(0, nblocks):
            async_copy.wait_group(STAGES - 2)
            gl.thread_barrier()
            fence_async_shared()
            k_smem = k_ring.index(i % STAGES)
            s = warpgroup_mma(q_smem, k_smem, zero, is_async=True)
            s = warpgroup_mma_wait(num_outstanding=0, deps=(s,))
            k_ptrs, v_ptrs = copy_kv_block(k_ring, v_ring, i + STAGES - 1, k_ptrs, v_ptrs, td, tn,
                                           vn, qd, n_ctx, BN, HD, STAGES)
            p, m_new, l_i, acc = softmax_step(s * qk_scale, m_i, l_i, acc)
            v_smem = v_ring.index(i % STAGES)
            acc = warpgroup_mma(gl.convert_layout(p.to(dtype), dot_a), v_smem, acc, is_async=True)
            acc = warpgroup_mma_wait(num_outstanding=0, deps=(acc,))
            m_i = m_new
        async_copy.wait_group(0)
    store_out(o_ptr, acc, l_i, n_ctx, BM, HD, mma)


def tflops(n, ms, causal=False, d=D):
    """4 * heads * n^2 * d flops (the two products); half for causal attention, as
    flash-attention benchmarks count it."""
    return (2 if causal else 4) * HEADS * n * n * d / (ms * 1e-3) / 1e12


def check_and_time(row, key, launch, o, ref, causal=False):
    """One launch checked against ref (its result, or o when it returns None), then timed."""
    o.fill_(float("nan"))
    got = launch()
    row[key + "_max_abs_err"] = ((o if got is None else got).float() - ref).abs().max().item()
    row[key + "_ms"] = triton.testing.do_bench(launch, warmup=50, rep=300, return_mode="median")
    row[key + "_TFLOPs"] = tflops(o.shape[2], row[key + "_ms"], causal, o.shape[3])


def attention_inputs(n, d, dtype):
    """Q, K, V of HEADS heads x n positions x d in [-1, 1), the scale 1/sqrt(d) and the scores
    Q K^T * scale in float32."""
    q, k, v = (torch.rand((1, HEADS, n, d), device="cuda", dtype=dtype) * 2 - 1 for _ in range(3))
    scale = 1 / math.sqrt(d)
    return q, k, v, scale, (q.float() @ k.float().transpose(-1, -2)) * scale


def flash_row(row, key, q, k, v, scale, o, ref, causal=False):
    """torch's scaled_dot_product_attention on its flash backend, checked and timed as `key`."""
    from torch.nn.attention import SDPBackend, sdpa_kernel
    def sdpa():
        with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
            return torch.nn.functional.scaled_dot_product_attention(
                q, k, v, scale=scale, is_causal=causal)
    try:
        check_and_time(row, key, sdpa, o, ref, causal=causal)
    except Exception as e:
        row[key + "_error"] = f"{type(e).__name__}: {e}"[:400]


def twin_rows(row, prefix, q, k, v, scale, o, ref, stages_list, bn=64, warps=4, q_shared=False):
    """The Gluon twin with each number of stages, checked and timed as gluon_{prefix}plain and
    gluon_{prefix}pipelined_S, with its registers and spills."""
    n, d = q.shape[2], q.shape[3]
    for stages in stages_list:
        key = f"gluon_{prefix}plain" if stages == 1 else f"gluon_{prefix}pipelined_{stages}"
        compiled = {}
        def launch(stages=stages):
            compiled["k"] = attention_twin[(n // 128, HEADS)](q, k, v, o, n, scale, 128, bn, d,
                                                              stages, warps, q_shared,
                                                              num_warps=warps)
        try:
            check_and_time(row, key, launch, o, ref)
            row[key + "_registers"] = getattr(compiled["k"], "n_regs", None)
            row[key + "_spills"] = getattr(compiled["k"], "n_spills", None)
        except Exception as e:
            row[key + "_error"] = f"{type(e).__name__}: {e}"[-600:]


def main():
    res = {"gpu": torch.cuda.get_device_name(), "triton": triton.__version__,
           "torch": torch.__version__, "sizes": {}}
    for n in [1024, 4096]:
        row = {}
        # Head dim 64, f16: plain and causal.
        q, k, v, scale, scores = attention_inputs(n, D, torch.float16)
        ref = torch.softmax(scores, dim=-1) @ v.float()
        later = torch.ones(n, n, device="cuda", dtype=torch.bool).triu(1)
        ref_causal = torch.softmax(scores.masked_fill(later, float("-inf")), dim=-1) @ v.float()
        del scores, later
        o = torch.empty_like(q)
        flash_row(row, "torch_flash", q, k, v, scale, o, ref)
        flash_row(row, "torch_flash_causal", q, k, v, scale, o, ref_causal, causal=True)
        twin_rows(row, "", q, k, v, scale, o, ref, (1, 2, 3))
        if warpgroup_mma is not None and torch.cuda.get_device_capability()[0] == 9:
            for stages in (1, 2, 3):
                key = "gluon_wgmma_plain" if stages == 1 else f"gluon_wgmma_pipelined_{stages}"
                def launch(stages=stages):
                    attention_wgmma_twin[(n // 128, HEADS)](q, k, v, o, n, scale, 128, 64, D,
                                                            stages, num_warps=4)
                try:
                    check_and_time(row, key, launch, o, ref)
                except Exception as e:
                    row[key + "_error"] = f"{type(e).__name__}: {e}"[-600:]
        del q, k, v, o, ref, ref_causal
        # Head dim 128 (the twin of examples/attention_d128.tir), and bf16 inputs.
        for prefix, d, dtype, stages, bn, warps, q_shared in (
                ("d128_", D128, torch.float16, (1, 2, 3), BN128, WARPS128, True),
                ("bf16_", D, torch.bfloat16, (3,), 64, 4, False)):
            q, k, v, scale, scores = attention_inputs(n, d, dtype)
            ref = torch.softmax(scores, dim=-1) @ v.float()
            del scores
            o = torch.empty_like(q)
            flash_row(row, "torch_flash_" + prefix[:-1], q, k, v, scale, o, ref)
            twin_rows(row, prefix, q, k, v, scale, o, ref, stages, bn, warps, q_shared)
            del q, k, v, o, ref
        res["sizes"][str(n)] = row
        print(json.dumps({n: row}), flush=True)
    json.dump(res, open(sys.argv[1], "w"), indent=1)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Attention forward in fp8 e4m3 at head dim 128, written in Triton: the side that times
linlayout's examples/attention_fp8_ws_pp_persistent_d128.tir (and its causal form) where no fp8
attention library is installed (torch's SDPA has none; vendor_bench.py's meta says whether cuDNN's
Python frontend or flash attention 3 is there).

It takes the arguments our kernel takes: Q and K of [heads * n_ctx, 128] and V transposed,
[heads * 128, n_ctx], all e4m3 (8-bit wgmma reads K-major operands only); descale factors for Q, K
and V (as flash attention 3's); O in bf16. Each program computes 128 query rows of one head with
an online softmax in exp2; P is rounded to e4m3 for the second product. Q, K, V^T and O go through
host-made TMA descriptors. The causal form runs the key blocks left of the diagonal block unmasked
and the diagonal ones masked. Every configuration of CONFIGS is timed and the fastest is reported,
as triton.autotune would choose; its output's first head is compared with float64 attention over
the same e4m3 inputs (P unrounded) and the largest absolute error is recorded.

Shapes: n_ctx 1024 / 4096 / 16384, heads from vendor_bench.batch_heads (as linlayout_gpu_bench
chooses them), Q, K and V^T drawn from torch.randn and rounded to e4m3, sm_scale
1/sqrt(128), descales 1. Writes JSON to argv[1]; do_bench (25 warm-up, 200 ms, median)."""
import json, math, sys
import torch
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor

from vendor_bench import attention_reference, batch_heads

D = 128
BLOCK_M = 128
# (key block, warps, stages)
CONFIGS = [(128, 8, 3), (128, 8, 2), (128, 4, 3), (64, 8, 3), (64, 8, 4), (64, 4, 2), (64, 4, 3),
           (64, 4, 4), (32, 4, 3)]


@triton.jit
def key_blocks(acc, m_i, l_i, q, k_desc, vt_desc, row0, head_v, lo, hi, offs_m, qk_scale,
               BLOCK_N: tl.constexpr, MASKED: tl.constexpr):
    """The online softmax over keys lo..hi of one head: S = Q K^T, P = exp2(S - max), O += P V."""
    for start_n in range(lo, hi, BLOCK_N):
        k = k_desc.load([row0 + start_n, 0])
        s = tl.dot(q, k.T) * qk_scale
        if MASKED:
            offs_n = start_n + tl.arange(0, BLOCK_N)
            s = tl.where(offs_m[:, None] >= offs_n[None, :], s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, 1))
        p = tl.math.exp2(s - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        vt = vt_desc.load([head_v, start_n])
        acc = tl.dot(p.to(tl.float8e4nv), vt.T, acc * alpha[:, None])
        m_i = m_new
    return acc, m_i, l_i


@triton.jit
def attention_fp8(q_desc, k_desc, vt_desc, o_desc, n_ctx, sm_scale, descale_q, descale_k,
                  descale_v, HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr,
                  BLOCK_N: tl.constexpr, CAUSAL: tl.constexpr):
    start_m = tl.program_id(0)
    head = tl.program_id(1)
    row0 = head * n_ctx
    head_v = head * HEAD_DIM
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    q = q_desc.load([row0 + start_m * BLOCK_M, 0])
    qk_scale = sm_scale * descale_q * descale_k * 1.4426950408889634
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    m_i = tl.full([BLOCK_M], float("-inf"), dtype=tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    if CAUSAL:
        acc, m_i, l_i = key_blocks(acc, m_i, l_i, q, k_desc, vt_desc, row0, head_v, 0,
                                   start_m * BLOCK_M, offs_m, qk_scale, BLOCK_N, False)
        acc, m_i, l_i = key_blocks(acc, m_i, l_i, q, k_desc, vt_desc, row0, head_v,
                                   start_m * BLOCK_M, (start_m + 1) * BLOCK_M, offs_m, qk_scale,
                                   BLOCK_N, True)
    else:
        acc, m_i, l_i = key_blocks(acc, m_i, l_i, q, k_desc, vt_desc, row0, head_v, 0, n_ctx,
                                   offs_m, qk_scale, BLOCK_N, False)
    o = acc * (descale_v / l_i)[:, None]
    o_desc.store([row0 + start_m * BLOCK_M, 0], o.to(tl.bfloat16))


def run(q, k, vt, o, n, heads, causal, block_n, warps, stages):
    descs = (TensorDescriptor.from_tensor(q, [BLOCK_M, D]),
             TensorDescriptor.from_tensor(k, [block_n, D]),
             TensorDescriptor.from_tensor(vt, [D, block_n]),
             TensorDescriptor.from_tensor(o, [BLOCK_M, D]))
    grid = (n // BLOCK_M, heads)
    return lambda: attention_fp8[grid](*descs, n, 1.0 / math.sqrt(D), 1.0, 1.0, 1.0,
                                       HEAD_DIM=D, BLOCK_M=BLOCK_M, BLOCK_N=block_n,
                                       CAUSAL=causal, num_warps=warps, num_stages=stages)


def main():
    torch.manual_seed(0)
    rows = []
    for n in (1024, 4096, 16384):
        heads = batch_heads(n, D)
        q, k = (torch.randn(heads * n, D, device="cuda").to(torch.float8_e4m3fn) for _ in "qk")
        vt = torch.randn(heads * D, n, device="cuda").to(torch.float8_e4m3fn)
        o = torch.empty(heads * n, D, device="cuda", dtype=torch.bfloat16)
        for causal in (False, True):
            # The first head, over the e4m3 inputs (P unrounded).
            ref = attention_reference(q[:n], k[:n], vt[:D].t(), causal, 1.0 / math.sqrt(D))
            flop = 4.0 * n * n * D * heads / (2 if causal else 1)
            row = {"kernel": "attention", "d": D, "n_ctx": n, "heads": heads, "causal": causal,
                   "dtype": "float8_e4m3fn", "library": f"Triton {triton.__version__} fp8",
                   "configs": {}}
            for block_n, warps, stages in CONFIGS:
                name = f"bn{block_n}_w{warps}_s{stages}"
                try:
                    fn = run(q, k, vt, o, n, heads, causal, block_n, warps, stages)
                    fn()
                    err = (o[:n].double() - ref).abs().max().item()
                    ms = triton.testing.do_bench(fn, warmup=25, rep=200, return_mode="median")
                    row["configs"][name] = {"ms": ms, "tflops": flop / ms / 1e9,
                                            "max_abs_err": err}
                except Exception as e:  # a configuration Triton cannot build: say why
                    row["configs"][name] = {"error": str(e).splitlines()[0][:200]}
            timed = {c: r for c, r in row["configs"].items() if "ms" in r}
            if timed:
                best = min(timed, key=lambda c: timed[c]["ms"])
                row.update(best=best, **timed[best])
            rows.append(row)
            figure = (f"{row['tflops']:7.1f} TFLOP/s ({row['best']}) err {row['max_abs_err']:.2e}"
                      if "tflops" in row else "no configuration ran")
            print(f"fp8 d{D} n{n} {heads} heads{' causal' if causal else ''}: {figure}",
                  flush=True)
        del q, k, vt, o
    with open(sys.argv[1], "w") as f:
        json.dump({"meta": {"gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
                            "triton": triton.__version__}, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()

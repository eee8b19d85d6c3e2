#!/usr/bin/env python3
"""The vendor side of issue #42's targets, measured on this GPU: cuBLAS GEMMs through torch.matmul
(f16 and bf16 inputs, output in the input type and in f32), fp8 e4m3 GEMMs through
torch._scaled_mm (f32 accumulate, outputs bf16, f16 and f32), and attention forward through torch's
scaled_dot_product_attention on its cuDNN and flash backends (head dims 64, 128 and 256, causal
and not, f16 and bf16, n_ctx 1024 / 4096 / 16384 with batch x heads chosen so that each call does at
least 2 TFLOP, i.e. runs about a millisecond or more on an H200).

VENDOR_ONLY=gemm|attention measures one of the two; VENDOR_ATTN_BACKENDS (default "cudnn flash"),
VENDOR_ATTN_DTYPES (default "float16 bfloat16") and VENDOR_ATTN_DIMS (default "64 128 256")
narrow the attention rows, for a run beside our kernels that fits the device time.

Each figure is the median of triton.testing.do_bench (50 warm-up, 300 ms of repeats). A backend
torch cannot run for a shape is recorded with its error, not skipped silently. Every output's
first head (GEMM: a 256-row slice) is compared with a float64 reference and the largest
absolute error is recorded beside the time. Writes JSON to argv[1] and prints a table."""
import json, math, os, sys
import torch
import triton

GEMM_SIZES = [4096, 8192]
ATTN_CTX = [1024, 4096, 16384]
ATTN_DIMS = [int(d) for d in os.environ.get("VENDOR_ATTN_DIMS", "64 128 256").split()]
MIN_FLOP = 2e12


def timed(fn):
    return triton.testing.do_bench(fn, warmup=50, rep=300, return_mode="median")


def fp8_rows(n):
    """torch._scaled_mm on n x n e4m3 operands (B column-major), outputs bf16, f16 and f32."""
    rows = []
    flop = 2.0 * n ** 3
    a = torch.randn(n, n, device="cuda").to(torch.float8_e4m3fn)
    b = torch.randn(n, n, device="cuda").to(torch.float8_e4m3fn).t()  # column-major B
    one = torch.ones((), device="cuda")
    ref = a[:256].double() @ b.double()
    for out in (torch.bfloat16, torch.float16, torch.float32):
        row = {"kernel": "gemm", "n": n, "in": "float8_e4m3fn", "out": str(out)[6:],
               "library": "cuBLASLt (torch._scaled_mm)"}
        try:
            fn = lambda: torch._scaled_mm(a, b, one, one, out_dtype=out)
            c = fn()
            row["max_abs_err"] = (c[:256].double() - ref).abs().max().item()
            row["rel_err"] = ((c[:256].double() - ref).norm() / ref.norm()).item()
            row["ms"] = timed(fn)
            row["tflops"] = flop / row["ms"] / 1e9
        except Exception as e:
            row["error"] = str(e).splitlines()[0]
        rows.append(row)
    return rows


def gemm_rows():
    rows = []
    for n in GEMM_SIZES:
        flop = 2.0 * n ** 3
        for dt in (torch.float16, torch.bfloat16):
            a = torch.randn(n, n, device="cuda", dtype=dt)
            b = torch.randn(n, n, device="cuda", dtype=dt)
            ref = a[:256].double() @ b.double()
            for out in (dt, torch.float32):
                row = {"kernel": "gemm", "n": n, "in": str(dt)[6:], "out": str(out)[6:],
                       "library": "cuBLAS (torch.matmul)"}
                try:
                    if out == dt:
                        fn = lambda: torch.matmul(a, b)
                    else:  # torch >= 2.9 asks cuBLAS for a float32 output directly
                        fn = lambda: torch.mm(a, b, out_dtype=torch.float32)
                    c = fn()
                    row["max_abs_err"] = (c[:256].double() - ref).abs().max().item()
                    row["ms"] = timed(fn)
                    row["tflops"] = flop / row["ms"] / 1e9
                except Exception as e:  # an output type this torch cannot ask for
                    row["error"] = str(e).splitlines()[0]
                rows.append(row)
        rows += fp8_rows(n)
    return rows


def batch_heads(n, d):
    """Batch x heads of an attention call of n_ctx n and head dim d: the least power of two that
    makes it at least MIN_FLOP (linlayout_gpu_bench's attentionBatchHeads chooses the same)."""
    return 1 << max(0, math.ceil(math.log2(MIN_FLOP / (4.0 * n * n * d))))


def attention_reference(q, k, v, causal, scale):
    """Float64 softmax(Q K^T * scale) V of one head: q, k and v are [n_ctx, head dim]."""
    q, k, v = (t.double() for t in (q, k, v))
    s = (q @ k.t()) * scale
    if causal:
        n = s.shape[0]
        s.masked_fill_(torch.ones(n, n, device=s.device, dtype=torch.bool).triu(1), -math.inf)
    return torch.softmax(s, dim=-1) @ v


def attention_rows():
    from torch.nn.attention import SDPBackend, sdpa_kernel
    import torch.nn.functional as F
    backends = {"cudnn": SDPBackend.CUDNN_ATTENTION, "flash": SDPBackend.FLASH_ATTENTION}
    asked = os.environ.get("VENDOR_ATTN_BACKENDS", "cudnn flash").split()
    backends = {name: b for name, b in backends.items() if name in asked}
    dtypes = [getattr(torch, t) for t in
              os.environ.get("VENDOR_ATTN_DTYPES", "float16 bfloat16").split()]
    rows = []
    for d in ATTN_DIMS:
        for n in ATTN_CTX:
            per_head = 4.0 * n * n * d
            bh = batch_heads(n, d)
            heads = min(16, bh)
            batch = bh // heads
            for dt in dtypes:
                q, k, v = (torch.randn(batch, heads, n, d, device="cuda", dtype=dt)
                           for _ in range(3))
                scale = 1.0 / math.sqrt(d)
                for causal in (False, True):
                    ref = attention_reference(q[0, 0], k[0, 0], v[0, 0], causal, scale)
                    flop = per_head * bh / (2 if causal else 1)
                    for name, backend in backends.items():
                        row = {"kernel": "attention", "d": d, "n_ctx": n, "batch": batch,
                               "heads": heads, "dtype": str(dt)[6:], "causal": causal,
                               "library": "torch SDPA " + name}

                        def fn():
                            with sdpa_kernel(backend):
                                return F.scaled_dot_product_attention(q, k, v, is_causal=causal,
                                                                      scale=scale)
                        try:
                            o = fn()
                            row["max_abs_err"] = (o[0, 0].double() - ref).abs().max().item()
                            row["ms"] = timed(fn)
                            row["tflops"] = flop / row["ms"] / 1e9
                        except Exception as e:
                            row["error"] = str(e).splitlines()[0]
                        rows.append(row)
                del q, k, v
    return rows


def fp8_attention_libraries():
    """Which fp8 attention forwards this machine could time beside ours (torch's SDPA has none):
    cuDNN's through its Python frontend, flash attention 3's interface. Each is its version, or
    why it cannot be imported."""
    found = {}
    for module in ("cudnn", "flash_attn_interface"):
        try:
            found[module] = getattr(__import__(module), "__version__", "imported")
        except Exception as e:  # not installed, or broken: say which
            found[module] = f"unavailable: {type(e).__name__}: {e}"
    return found


def main():
    meta = {"gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
            "triton": triton.__version__, "cudnn": torch.backends.cudnn.version(),
            "fp8_attention_libraries": fp8_attention_libraries()}
    only = os.environ.get("VENDOR_ONLY", "")
    rows = ((gemm_rows() if only in ("", "gemm") else []) +
            (attention_rows() if only in ("", "attention") else []))
    with open(sys.argv[1], "w") as f:
        json.dump({"meta": meta, "rows": rows}, f, indent=1)
    print(json.dumps(meta))
    for r in rows:
        shape = (f"{r['n']}^3 {r['in']}->{r['out']}" if r["kernel"] == "gemm" else
                 f"d{r['d']} n{r['n_ctx']} {r['batch']}x{r['heads']} {r['dtype']}"
                 f"{' causal' if r['causal'] else ''}")
        figure = (f"{r['tflops']:7.1f} TFLOP/s  err {r['max_abs_err']:.2e}" if "tflops" in r
                  else "error: " + r["error"])
        print(f"{r['kernel']:9} {shape:38} {r['library']:28} {figure}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""GEMM i8 x i8 -> i32 on this GPU, beside linlayout_gpu_bench's i8gemm section: cuBLAS through
torch._int_mm (B column-major, its fast form, and row-major where torch takes it) and Triton
3.6's tl.dot(..., out_dtype=tl.int32) kernel of scripts/gpu/triton_dumps.py (row-major A and B,
as ours) on the tiling of examples/matmul_i8.tir (128x128x64, 4 warps, 3 stages) and two others,
each compiled twice: held to mma.sync (DISABLE_MMA_V3=1, in a child process) and as Triton
chooses on this GPU (wgmma on sm_90). Every result is checked exactly against cuBLAS's. Times
are medians of single launches after an L2 flush (triton.testing.do_bench). Writes JSON to
argv[1]."""
import json, os, subprocess, sys
import torch, triton

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "scripts", "gpu"))
from triton_dumps import matmul_i8  # noqa: E402

CONFIGS = [(128, 128, 64, 4, 3), (128, 256, 64, 8, 3), (256, 128, 64, 8, 3)]


def tops(n, ms):
    return 2.0 * n ** 3 / (ms * 1e-3) / 1e12


def inputs(n):
    g = torch.Generator(device="cuda").manual_seed(n)
    a = torch.randint(-128, 128, (n, n), device="cuda", dtype=torch.int8, generator=g)
    b = torch.randint(-128, 128, (n, n), device="cuda", dtype=torch.int8, generator=g)
    return a, b


def bench(fn):
    return triton.testing.do_bench(fn, warmup=50, rep=300, return_mode="median")


def triton_rows(form):
    rows = []
    for n in (4096, 8192):
        a, b = inputs(n)
        ref = torch._int_mm(a, b.t().contiguous().t())
        for bm, bn, bk, warps, stages in CONFIGS:
            c = torch.empty(n, n, device="cuda", dtype=torch.int32)
            grid = (n // bm, n // bn)
            row = {"impl": "triton", "form": form, "n": n, "tile": [bm, bn, bk],
                   "warps": warps, "stages": stages}
            try:
                launch = lambda: matmul_i8[grid](a, b, c, n, n, n, BM=bm, BN=bn, BK=bk,
                                                 num_warps=warps, num_stages=stages)
                k = launch()
                torch.cuda.synchronize()
                row["correct"] = bool(torch.equal(c, ref))
                ptx = k.asm["ptx"]
                row["mma"] = ("wgmma" if "wgmma.mma_async" in ptx else
                              "mma.sync" if "mma.sync" in ptx else "other")
                row["registers"], row["spills"] = k.n_regs, k.n_spills
                row["ms"] = bench(launch)
                row["TOPs"] = tops(n, row["ms"])
            except Exception as e:  # a tiling this GPU or Triton refuses
                row["error"] = f"{type(e).__name__}: {e}"
            rows.append(row)
            print(row, file=sys.stderr, flush=True)
    return rows


def cublas_rows():
    rows = []
    for n in (4096, 8192):
        a, b = inputs(n)
        for layout, bb in (("B column-major", b.t().contiguous().t()), ("B row-major", b)):
            row = {"impl": "cublas", "form": layout, "n": n}
            try:
                torch._int_mm(a, bb)
                row["ms"] = bench(lambda: torch._int_mm(a, bb))
                row["TOPs"] = tops(n, row["ms"])
            except Exception as e:
                row["error"] = f"{type(e).__name__}: {e}"
            rows.append(row)
            print(row, file=sys.stderr, flush=True)
    return rows


def main():
    if os.environ.get("I8GEMM_CHILD") == "1":
        json.dump(triton_rows("mma.sync (DISABLE_MMA_V3=1)"), sys.stdout)
        return
    rows = cublas_rows() + triton_rows("as Triton chooses")
    env = dict(os.environ, I8GEMM_CHILD="1", DISABLE_MMA_V3="1")
    child = subprocess.run([sys.executable, os.path.abspath(__file__)], env=env,
                           capture_output=True, text=True)
    try:
        rows += json.loads(child.stdout[child.stdout.index("["):])
    except ValueError:
        rows.append({"impl": "triton", "form": "mma.sync (DISABLE_MMA_V3=1)",
                     "error": child.stderr[-2000:]})
    with open(sys.argv[1], "w") as f:
        json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()

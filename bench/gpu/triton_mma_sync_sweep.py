#!/usr/bin/env python3
"""What Triton 3.6's own compiler reaches with mma.sync on this GPU, as a yardstick for the
mma.sync figure of issue 8 ("mma.sync + pipelining >= 70 % of cuBLAS").

A plain `tl.dot` GEMM (f16 x f16 -> f32 accumulate, f32 C, the grid walked in groups of 8 M
tiles) compiled by Triton with its whole pipeline (software pipelining into cp.async or TMA rings,
its layout choices, ptxas), autotuned by hand over a sweep of tile shapes, warp counts and stage
counts, in three forms: pointer loads (`tl.load`, which Triton pipelines with cp.async), tensor
descriptors (`tl.make_tensor_descriptor`, which it lowers to TMA on sm_90), and tensor
descriptors in a loop Triton is asked to warp-specialise (`warp_specialize=True`). With
DISABLE_MMA_V3=1 in the environment (read when Triton compiles) Triton's AccelerateMatmul picks
mma v2 (mma.sync) instead of wgmma on sm_90; the script checks every compiled kernel's PTX for
`mma.sync` and no `wgmma` (or the reverse for --mma v3) and records a kernel that does not match
as an error, not a number. Every kernel's C is checked against a float32 reference of the same
inputs (NaN-poisoned first) before it is timed (triton.testing.do_bench, median).

  DISABLE_MMA_V3=1 python3 bench/gpu/triton_mma_sync_sweep.py --mma v2 out.json
  python3 bench/gpu/triton_mma_sync_sweep.py --mma v3 out.json      # wgmma, for comparison

cuBLAS (torch.mm, f32 out) is timed in the same process. The last lines printed are a table of
the best configurations per size.
"""
import argparse, json, os, sys
import torch, triton
import triton.language as tl


@triton.jit
def _tile_of(pid, M, N, BM: tl.constexpr, BN: tl.constexpr, GROUP_M: tl.constexpr):
    # Groups of GROUP_M M tiles, all N tiles of a group first, so running tiles share L2.
    tiles_m = tl.cdiv(M, BM)
    tiles_n = tl.cdiv(N, BN)
    width = GROUP_M * tiles_n
    first_m = (pid // width) * GROUP_M
    size_m = min(tiles_m - first_m, GROUP_M)
    pid_m = first_m + (pid % width) % size_m
    pid_n = (pid % width) // size_m
    return pid_m, pid_n


@triton.jit
def gemm_pointers(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                  BK: tl.constexpr, GROUP_M: tl.constexpr, STAGES: tl.constexpr):
    pid_m, pid_n = _tile_of(tl.program_id(0), M, N, BM, BN, GROUP_M)
    rows = pid_m * BM + tl.arange(0, BM)
    cols = pid_n * BN + tl.arange(0, BN)
    ks = tl.arange(0, BK)
    a_ptrs = a_ptr + rows[:, None] * K + ks[None, :]
    b_ptrs = b_ptr + ks[:, None] * N + cols[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for _ in tl.range(0, tl.cdiv(K, BK), num_stages=STAGES):
        acc = tl.dot(tl.load(a_ptrs), tl.load(b_ptrs), acc)
        a_ptrs += BK
        b_ptrs += BK * N
    tl.store(c_ptr + rows[:, None] * N + cols[None, :], acc)


@triton.jit
def gemm_descriptors(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                     BK: tl.constexpr, GROUP_M: tl.constexpr, STAGES: tl.constexpr,
                     WS: tl.constexpr = False):
    pid_m, pid_n = _tile_of(tl.program_id(0), M, N, BM, BN, GROUP_M)
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1], block_shape=[BK, BN])
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in tl.range(0, tl.cdiv(K, BK), num_stages=STAGES, warp_specialize=WS):
        a = a_desc.load([pid_m * BM, k * BK])
        b = b_desc.load([k * BK, pid_n * BN])
        acc = tl.dot(a, b, acc)
    rows = pid_m * BM + tl.arange(0, BM)
    cols = pid_n * BN + tl.arange(0, BN)
    tl.store(c_ptr + rows[:, None] * N + cols[None, :], acc)


# (BM, BN, BK, warps, stages): the tilings an mma.sync GEMM can use on sm_90 without spilling
# (at most 128 f32 accumulators per thread, 232 KB of shared memory for the rings).
CONFIGS = [(bm, bn, bk, w, s)
           for (bm, bn, bk, w) in [(128, 256, 64, 8), (256, 128, 64, 8), (128, 256, 32, 8),
                                   (256, 128, 32, 8), (128, 128, 64, 4), (128, 128, 64, 8),
                                   (128, 128, 32, 4), (64, 256, 64, 4), (256, 64, 64, 4),
                                   (128, 64, 64, 4)]
           for s in (3, 4, 5)
           if (bm * bk + bk * bn) * 2 * s <= 232 * 1024]
# "descriptors-ws" asks Triton to warp-specialise the loop (a producer warp issuing the TMA
# copies, the other warps multiplying). Triton may compile the loop unsplit instead; the row's
# warp_specialized says which (Triton 3.6 splits wgmma loops only).
KERNELS = {"pointers": (gemm_pointers, {}), "descriptors": (gemm_descriptors, {}),
           "descriptors-ws": (gemm_descriptors, {"WS": True})}


def tflops(n, ms):
    return 2 * n ** 3 / (ms * 1e-3) / 1e12


def run_config(form, cfg, a, b, c, n, mma):
    """One configuration: compile, check its PTX holds the mma the run asks for, check C, time."""
    bm, bn, bk, warps, stages = cfg
    grid = (triton.cdiv(n, bm) * triton.cdiv(n, bn),)
    kernel, extra = KERNELS[form]
    launch = lambda: kernel[grid](a, b, c, n, n, n, bm, bn, bk, 8, stages, num_warps=warps,
                                  num_stages=stages, **extra)
    row = {"form": form, "BM": bm, "BN": bn, "BK": bk, "warps": warps, "stages": stages}
    try:
        c.fill_(float("nan"))
        compiled = launch()
        torch.cuda.synchronize()
        ptx = compiled.asm["ptx"]
        has_sync, has_wgmma = "mma.sync" in ptx, "wgmma.mma_async" in ptx
        row.update(mma_sync=has_sync, wgmma=has_wgmma, regs=compiled.n_regs,
                   spills=compiled.n_spills, shared=compiled.metadata.shared,
                   cp_async="cp.async.cg" in ptx or "cp.async.ca" in ptx,
                   tma="cp.async.bulk.tensor" in ptx,
                   # Whether Triton split the loop into warp partitions (its TritonGPU IR
                   # holds a ttg.warp_specialize op), and moved registers between them.
                   warp_specialized="ttg.warp_specialize" in compiled.asm.get("ttgir", ""),
                   setmaxnreg=ptx.count("setmaxnreg"))
        if (mma == "v2") != (has_sync and not has_wgmma):
            row["error"] = f"asked for mma {mma}; PTX has mma.sync={has_sync} wgmma={has_wgmma}"
            return row
        ref = torch.matmul(a.float(), b.float())
        row["rel_err"] = ((c - ref).norm() / ref.norm()).item()
        if not row["rel_err"] < 1e-3:
            row["error"] = f"relative error {row['rel_err']}"
            return row
        row["ms"] = triton.testing.do_bench(launch, warmup=50, rep=300, return_mode="median")
        row["TFLOPs"] = tflops(n, row["ms"])
    except Exception as e:  # out of resources and the like: recorded, the sweep goes on
        row["error"] = f"{type(e).__name__}: {e}"[-400:]
    return row


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--mma", choices=["v2", "v3"], required=True)
    p.add_argument("--sizes", default="4096,8192")
    p.add_argument("--forms", default=",".join(KERNELS), help="a comma list of " + ", ".join(KERNELS))
    p.add_argument("--top", type=int, default=6, help="configurations kept for sizes after the first")
    p.add_argument("out")
    args = p.parse_args()
    if (args.mma == "v2") != (os.environ.get("DISABLE_MMA_V3") == "1"):
        sys.exit("--mma v2 needs DISABLE_MMA_V3=1 in the environment, --mma v3 needs it unset")
    # Tensor descriptors made in the kernel need a scratch allocator for the descriptors.
    triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8,
                                                                 device="cuda"))
    res = {"gpu": torch.cuda.get_device_name(), "triton": triton.__version__,
           "torch": torch.__version__, "mma": args.mma, "sizes": {}}
    forms = args.forms.split(",")
    if not set(forms) <= set(KERNELS):
        sys.exit(f"--forms: unknown form in {args.forms}; the forms are {', '.join(KERNELS)}")
    candidates = [(f, cfg) for f in forms for cfg in CONFIGS]
    for i, n in enumerate(int(s) for s in args.sizes.split(",")):
        torch.manual_seed(n)
        a = torch.randn((n, n), device="cuda", dtype=torch.float16)
        b = torch.randn((n, n), device="cuda", dtype=torch.float16)
        c = torch.empty((n, n), device="cuda", dtype=torch.float32)
        cublas = lambda: torch.mm(a, b, out_dtype=torch.float32)
        cublas()
        entry = {"cublas_ms": triton.testing.do_bench(cublas, warmup=50, rep=300,
                                                      return_mode="median"), "rows": []}
        entry["cublas_TFLOPs"] = tflops(n, entry["cublas_ms"])
        for form, cfg in candidates:
            row = run_config(form, cfg, a, b, c, n, args.mma)
            entry["rows"].append(row)
            print(json.dumps({"n": n, **row}), flush=True)
        # cuBLAS again after the sweep: the spread of the yardstick within the run.
        entry["cublas_after_ms"] = triton.testing.do_bench(cublas, warmup=50, rep=300,
                                                           return_mode="median")
        entry["cublas_after_TFLOPs"] = tflops(n, entry["cublas_after_ms"])
        res["sizes"][str(n)] = entry
        timed = sorted((r for r in entry["rows"] if "TFLOPs" in r), key=lambda r: -r["TFLOPs"])
        if i == 0:  # later (larger) sizes try only the best of the first
            candidates = [(r["form"], (r["BM"], r["BN"], r["BK"], r["warps"], r["stages"]))
                          for r in timed[:args.top]]
        del a, b, c
    json.dump(res, open(args.out, "w"), indent=1)
    print(f"\nTriton {res['triton']}, mma {args.mma}, {res['gpu']}")
    print("| n | form | BM x BN x BK | warps | stages | regs | TFLOP/s | % of cuBLAS |")
    print("|---|---|---|---|---|---|---|---|")
    for n, entry in res["sizes"].items():
        cub = entry["cublas_TFLOPs"]
        timed = sorted((r for r in entry["rows"] if "TFLOPs" in r), key=lambda r: -r["TFLOPs"])
        for r in timed[:args.top]:
            print(f"| {n} | {r['form']} | {r['BM']}x{r['BN']}x{r['BK']} | {r['warps']} | "
                  f"{r['stages']} | {r['regs']} | {r['TFLOPs']:.1f} | {100 * r['TFLOPs'] / cub:.1f} |")
        print(f"| {n} | cuBLAS | | | | | {cub:.1f} (after the sweep "
              f"{entry['cublas_after_TFLOPs']:.1f}) | 100 |")
        errors = [r for r in entry["rows"] if "error" in r]
        print(f"  {n}: {len(entry['rows'])} configurations, {len(errors)} not timed"
              + (f" (first: {errors[0]['error'][:160]})" if errors else ""))


if __name__ == "__main__":
    main()

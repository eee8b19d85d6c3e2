#!/usr/bin/env python3
"""Which path Triton 3.6 takes for random layout conversions, to set beside linlayout's plans.

Runs on the GPU machine (Triton with Gluon, PyTorch, a GPU):

    python3 scripts/gpu/triton_cvt_paths.py SEED COUNT > paths.jsonl

Each line is one conversion of a 4-warp tile (blocked, mma v2, mma v3; f16 or f32): a kernel loads
it in `src`, converts it once to `dst` and stores it; the line has the PTX instruction counts
Triton emitted (shuffles, shared loads/stores, ldmatrix/stmatrix, barriers) and whether the copy
came out exact. Compare with linlayout's `plan` here:

    python3 scripts/compare_cvt_paths.py paths.jsonl
"""
import json, random, re, sys
import torch
from triton_cases import split_bits, triton_layout
from triton.experimental import gluon
from triton.experimental.gluon import language as gl

@gluon.jit
def one_cvt(in_ptr, out_ptr, M: gl.constexpr, N: gl.constexpr, src: gl.constexpr, dst: gl.constexpr):
    offs_m = gl.arange(0, M, layout=gl.SliceLayout(1, src))
    offs_n = gl.arange(0, N, layout=gl.SliceLayout(0, src))
    x = gl.load(in_ptr + offs_m[:, None] * N + offs_n[None, :])
    y = gl.convert_layout(x, dst)
    dm = gl.arange(0, M, layout=gl.SliceLayout(1, dst))
    dn = gl.arange(0, N, layout=gl.SliceLayout(0, dst))
    gl.store(out_ptr + dm[:, None] * N + dn[None, :], y)

def layout(rng, N):
    r = rng.random()
    if r < 0.6:
        return {"kind": "blocked", "size_per_thread": [1 << rng.randint(0, 3) for _ in range(2)],
                "threads_per_warp": split_bits(rng, 5, 2), "warps_per_cta": split_bits(rng, 2, 2),
                "order": rng.sample(range(2), 2)}
    if r < 0.85:
        return {"kind": "nvidia_mma", "version": [2, 0], "warps_per_cta": split_bits(rng, 2, 2),
                "instr_shape": [16, 8]}
    return {"kind": "nvidia_mma", "version": [3, 0], "warps_per_cta": [4, 1],
            "instr_shape": [16, rng.choice([n for n in (16, 32, 64, 128) if n <= N]), 16]}

KEYS = {"shfl": r"\bshfl\.sync", "st_shared": r"\bst\.shared", "ld_shared": r"\bld\.shared",
        "ldmatrix": r"\bldmatrix", "stmatrix": r"\bstmatrix", "bar": r"\bbar\.sync|\bbarrier\.sync"}

def main():
    rng = random.Random(int(sys.argv[1]))
    count = int(sys.argv[2])
    for i in range(count):
        M, N = rng.choice([(64, 64), (128, 64), (64, 128), (128, 128), (32, 64)])
        src, dst = layout(rng, N), layout(rng, N)
        if rng.random() < 0.6:
            # A blocked src keeps its warps (what moves stays within a warp more often); another
            # src gets a new dst, its registers and lanes redrawn when it is blocked.
            dst = dict(src) if src["kind"] == "blocked" else layout(rng, N)
            if dst["kind"] == "blocked":
                dst["size_per_thread"] = [1 << rng.randint(0, 3) for _ in range(2)]
                dst["threads_per_warp"] = split_bits(rng, 5, 2)
        dtype = rng.choice([torch.float16, torch.float32])
        row = {"id": i, "shape": [M, N], "bitwidth": 16 if dtype == torch.float16 else 32,
               "src": src, "dst": dst}
        try:
            x = torch.randn(M * N, device="cuda", dtype=dtype)
            y = torch.zeros_like(x)
            k = one_cvt[(1,)](x, y, M, N, triton_layout(src, gl), triton_layout(dst, gl), num_warps=4)
            torch.cuda.synchronize()
            row["exact"] = bool(torch.equal(x, y))
            ptx = k.asm["ptx"]
            row["ptx"] = {key: len(re.findall(p, ptx)) for key, p in KEYS.items()}
            row["smem"] = k.metadata.shared
        except Exception as e:
            row["error"] = f"{type(e).__name__}: {e}"[:300]
        print(json.dumps(row), flush=True)

if __name__ == "__main__":
    main()

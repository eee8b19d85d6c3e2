#!/usr/bin/env python3
"""Reference cost of layout conversions as Triton (Gluon) compiles them.

For each (src, dst) pair: a kernel loads a tile in `src`, converts src->dst->src
ITERS times (adding 1 in between so nothing folds), and stores it. Time per
conversion = (t(ITERS) - t(0)) / (2*ITERS) per tile, measured with do_bench.
Also counts conversion-relevant PTX instructions of the ITERS kernel.
Writes JSON to argv[1].
"""
import json, os, re, sys
import torch, triton
from triton.experimental import gluon
from triton.experimental.gluon import language as gl

@gluon.jit
def cvt_kernel(in_ptr, out_ptr, iters, M: gl.constexpr, N: gl.constexpr, src: gl.constexpr, dst: gl.constexpr,
               INT: gl.constexpr = False, STORE_DST: gl.constexpr = False):
    # INT: integer elements, which add an integer 1 of their own type (1.0 would make them float).
    # STORE_DST: the last dst tile is stored too (the same values, to the same addresses), so that
    # every warp uses what it converts, as linlayout's convert_loop with storeDst
    # (testing/kernels/TileKernels.h).
    pid = gl.program_id(0)
    offs_m = gl.arange(0, M, layout=gl.SliceLayout(1, src))
    offs_n = gl.arange(0, N, layout=gl.SliceLayout(0, src))
    offs = pid * M * N + offs_m[:, None] * N + offs_n[None, :]
    x = gl.load(in_ptr + offs)
    if STORE_DST:
        y = gl.convert_layout(x, dst)
    for i in range(iters):
        y = gl.convert_layout(x, dst)
        if INT:
            y = y + gl.full([M, N], 1, in_ptr.dtype.element_ty, dst)
        else:
            y = y + 1.0
        x = gl.convert_layout(y, src)
    gl.store(out_ptr + offs, x)
    if STORE_DST:
        offs_dm = gl.arange(0, M, layout=gl.SliceLayout(1, dst))
        offs_dn = gl.arange(0, N, layout=gl.SliceLayout(0, dst))
        gl.store(out_ptr + pid * M * N + offs_dm[:, None] * N + offs_dn[None, :], y)

def B(spt, tpw, wpc, order):
    return gl.BlockedLayout(spt, tpw, wpc, order)

def spec(l):
    if isinstance(l, gl.BlockedLayout):
        return {"kind": "blocked", "size_per_thread": list(l.size_per_thread), "threads_per_warp": list(l.threads_per_warp), "warps_per_cta": list(l.warps_per_cta), "order": list(l.order)}
    if isinstance(l, gl.NVMMADistributedLayout):
        return {"kind": "nvidia_mma", "version": list(l.version), "warps_per_cta": list(l.warps_per_cta), "instr_shape": list(l.instr_shape)}
    return repr(l)

MMA2 = gl.NVMMADistributedLayout([2, 0], [2, 2], [16, 8])
MMA3 = gl.NVMMADistributedLayout([3, 0], [4, 1], [16, 128, 16])
ROW = B([1, 8], [4, 8], [4, 1], [1, 0])
ROW4 = B([1, 4], [4, 8], [4, 1], [1, 0])
COL4 = B([4, 1], [8, 4], [1, 4], [0, 1])
LANEPERM = B([1, 4], [8, 4], [4, 1], [1, 0])
REGPERM = B([2, 2], [8, 4], [4, 1], [1, 0])
REGPERM2 = B([2, 2], [8, 4], [4, 1], [0, 1])
PAIRS = [
    ("transpose_blocked", ROW4, COL4),
    ("lane_permute", ROW4, LANEPERM),
    ("register_only", REGPERM, REGPERM2),
    ("mma2_to_blocked", MMA2, ROW),
    ("mma3_to_blocked", MMA3, ROW),
    ("mma2_to_transposed", MMA2, COL4),
]

def count_ptx(ptx):
    keys = {"shfl": r"\bshfl\.sync", "st_shared": r"\bst\.shared", "ld_shared": r"\bld\.shared", "bar": r"\bbar\.sync|\bbarrier\.sync", "ldmatrix": r"\bldmatrix", "stmatrix": r"\bstmatrix", "prmt": r"\bprmt", "selp": r"\bselp"}
    return {k: len(re.findall(v, ptx)) for k, v in keys.items()}

def main():
    out = []
    M = N = 128
    tiles = torch.cuda.get_device_properties(0).multi_processor_count * 16
    for dtype in [torch.float16, torch.float32]:
        x = torch.randn(tiles * M * N, device="cuda", dtype=dtype)
        y = torch.empty_like(x)
        for name, src, dst in PAIRS:
            row = {"name": name, "tiles": tiles, "dtype": str(dtype).split(".")[-1], "M": M, "N": N, "num_warps": 4, "src": spec(src), "dst": spec(dst)}
            try:
                times = {}
                for iters in [0, 64]:
                    k = cvt_kernel[(tiles,)](x, y, iters, M, N, src, dst, num_warps=4)
                    if iters == 0:
                        y.zero_(); cvt_kernel[(tiles,)](x, y, 0, M, N, src, dst, num_warps=4)
                        assert torch.equal(x, y)
                    times[iters] = triton.testing.do_bench(lambda: cvt_kernel[(tiles,)](x, y, iters, M, N, src, dst, num_warps=4), warmup=25, rep=200, return_mode="median")
                    if iters == 64:
                        row["ptx_counts_64iter_kernel"] = count_ptx(k.asm["ptx"])
                        row["smem_bytes"] = k.metadata.shared
                        row["n_regs"] = getattr(k, "n_regs", None)
                        row["n_spills"] = getattr(k, "n_spills", None)
                        ptx0 = k.asm["ptx"]
                        # PTX and SASS of the kernel, to set beside linlayout's
                        # (bench/gpu/run.sh passes the folder).
                        d = os.environ.get("LINLAYOUT_PTX_DIR")
                        if d:
                            base = os.path.join(d, f"triton_{name}_{row['dtype']}")
                            open(base + ".ptx", "w").write(k.asm["ptx"])
                            try:
                                open(base + ".sass", "w").write(k.asm["sass"])
                            except Exception as e:
                                row["sass_error"] = f"{type(e).__name__}: {e}"[:200]
                per_cvt_ns_per_tile = (times[64] - times[0]) * 1e6 / (2 * 64 * tiles)
                elems = M * N
                row.update({"t0_ms": times[0], "t64_ms": times[64], "ns_per_conversion_per_tile": per_cvt_ns_per_tile,
                            "conversion_GBps_per_SM_equiv": elems * x.element_size() / (per_cvt_ns_per_tile) if per_cvt_ns_per_tile > 0 else None})
            except Exception as e:
                row["error"] = f"{type(e).__name__}: {e}"[:400]
            out.append(row)
            print(json.dumps({k: v for k, v in row.items() if k not in ("src", "dst")}))
    json.dump(out, open(sys.argv[1], "w"), indent=1)

if __name__ == "__main__":
    main()

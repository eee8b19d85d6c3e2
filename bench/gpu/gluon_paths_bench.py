#!/usr/bin/env python3
"""Triton's own path and time for the pairs of bench/gpu/conversion_paths.jsonl.

The kernel (with INT for int8) and the timing are gluon_convert_bench.py's (src -> dst -> src
ITERS times, each conversion timed as (t(64) - t(0)) / (2 * 64) per tile), at each pair's shape
and dtype, 4 warps. The path is read from the PTX of the 64-iteration kernel: shared memory when
it touches shared memory, warp shuffles when it shuffles, registers otherwise. Writes JSON to
argv[1].
"""
import json, os, sys
import torch, triton
from triton.experimental.gluon import language as gl
from gluon_convert_bench import count_ptx, cvt_kernel

HERE = os.path.dirname(os.path.abspath(__file__))


def layout(spec):
    if spec["kind"] == "blocked":
        return gl.BlockedLayout(spec["size_per_thread"], spec["threads_per_warp"],
                                spec["warps_per_cta"], spec["order"])
    if spec["kind"] == "nvidia_mma":
        return gl.NVMMADistributedLayout(spec["version"], spec["warps_per_cta"], spec["instr_shape"])
    raise ValueError("no Gluon layout for %r" % spec)


def path_of(counts):
    if counts["st_shared"] + counts["ld_shared"] + counts["ldmatrix"] + counts["stmatrix"]:
        return "shared-memory"
    return "warp-shuffle" if counts["shfl"] else "registers"


def main():
    out = []
    tiles = torch.cuda.get_device_properties(0).multi_processor_count * int(
        os.environ.get("LINLAYOUT_BENCH_TILES_PER_SM", "16"))
    # As linlayout_gpu_bench's paths section: every warp uses the dst tile (cvt_kernel's STORE_DST).
    store_dst = os.environ.get("LINLAYOUT_BENCH_STORE_DST") == "1"
    for line in open(os.path.join(HERE, "conversion_paths.jsonl")):
        if not line.strip():
            continue
        pair = json.loads(line)
        M, N = pair["shape"]
        dtype = getattr(torch, pair["dtype"])
        row = {"name": pair["name"], "dtype": pair["dtype"], "shape": "%dx%d" % (M, N),
               "tiles": tiles, "store_dst": int(store_dst)}
        try:
            src, dst = layout(pair["src"]), layout(pair["dst"])
            is_int = dtype == torch.int8
            # 64 additions of 1 stay below 128 in int8.
            x = torch.randint(-64, 64 if is_int else 65, (tiles * M * N,),
                              device="cuda").to(dtype)
            y = torch.empty_like(x)
            times = {}
            for iters in [0, 64]:
                k = cvt_kernel[(tiles,)](x, y, iters, M, N, src, dst, is_int, store_dst, num_warps=4)
                torch.cuda.synchronize()
                if not torch.equal(y, x + iters):
                    row["wrong"] = iters
                times[iters] = triton.testing.do_bench(
                    lambda: cvt_kernel[(tiles,)](x, y, iters, M, N, src, dst, is_int, store_dst, num_warps=4),
                    warmup=25, rep=200, return_mode="median")
                if iters == 64:
                    row["ptx_counts_64iter_kernel"] = count_ptx(k.asm["ptx"])
                    row["regs"], row["spills"] = k.n_regs, k.n_spills
                    row["path"] = path_of(row["ptx_counts_64iter_kernel"])
                    d = os.environ.get("LINLAYOUT_PTX_DIR")
                    if d:  # beside linlayout's (bench/gpu/run.sh disassembles both)
                        base = os.path.join(d, "triton_path_%s_%s" % (pair["name"], pair["dtype"]))
                        open(base + ".ptx", "w").write(k.asm["ptx"])
                        try:
                            open(base + ".sass", "w").write(k.asm["sass"])
                        except Exception as e:
                            row["sass_error"] = f"{type(e).__name__}: {e}"[:200]
            row.update({"t0_ms": times[0], "t64_ms": times[64],
                        "ns_per_conversion_per_tile": (times[64] - times[0]) * 1e6 / (2 * 64 * tiles)})
        except Exception as e:
            row["error"] = f"{type(e).__name__}: {e}"[:400]
        out.append(row)
        print(json.dumps(row))
    json.dump(out, open(sys.argv[1], "w"), indent=1)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Triton 3.6's registers and local memory for the conversion matrix of testing/kernels/
TritonMatrix.h (the single-CTA cases of Triton's python/test/gluon/test_lowerings.py), by the
same case names, and the per-case comparison with ours.

On the GPU machine (Triton with Gluon, a GPU; each case is compiled, not run):

    python3 scripts/gpu/triton_matrix.py compile --out triton.jsonl [--jobs 12] [--deadline 240]
    python3 scripts/gpu/triton_matrix.py compare --ours ours.jsonl --triton triton.jsonl
    python3 scripts/gpu/triton_matrix.py tolinear > rank3-cases.jsonl

`tolinear` writes Triton's to_linear answers for the batched (rank-3) mma layouts, their dot
operands and slices, in scripts/gpu/triton_cases.py's form (tests/reference/check_triton_cases.py
checks linlayout against them).

`compile` writes one JSON line per case: registers (n_regs) and local bytes (n_spills * 4: Triton
reports the driver's local size in 4-byte words). Triton's own element types come first, so a
deadline cuts the extra ones. `compare` joins them with the jit tests' lines
(TritonMatrixGpu.EveryCaseIsBitExact with LINLAYOUT_TRITON_MATRIX=FILE) and prints a summary.
"""
import argparse
import gzip
import json
import os
import sys
import time


def case_list():
    """The cases as (name, kind, args): the loops of TritonMatrix.cpp, in its order."""
    import triton.experimental.gluon.language as ttgl

    def blocked(spt, tpw, wpc, order):
        return ttgl.BlockedLayout(spt, tpw, wpc, order)

    def mma(major, minor, warps, instr):
        return ttgl.NVMMADistributedLayout(version=[major, minor], warps_per_cta=warps, instr_shape=instr)

    def dot(op, parent, kw):
        return ttgl.DotOperandLayout(parent=parent, operand_index=op, k_width=kw)

    def swz(vec, pp, mp, order):
        return ttgl.SwizzledSharedLayout(vec=vec, per_phase=pp, max_phase=mp, order=order)

    v3 = mma(3, 0, [4, 1], [16, 32, 16])
    v2 = mma(2, 0, [4, 1], [16, 8])
    l2 = [
        blocked([1, 1], [32, 1], [2, 2], [0, 1]),
        blocked([1, 16], [8, 4], [4, 1], [1, 0]),
        v3, dot(0, v3, 2), dot(0, v3, 1), v2, dot(1, v2, 2),
        dot(0, mma(2, 0, [2, 2], [16, 8]), 2), dot(0, v2, 8),
        ttgl.SliceLayout(1, dot(0, mma(3, 0, [4, 1, 1], [16, 32, 16]), 2)),
        ttgl.SliceLayout(1, dot(1, mma(2, 0, [4, 1, 1], [1, 16, 8]), 2)),
    ]
    via = [None, swz(1, 1, 1, [0, 1]), swz(1, 1, 1, [1, 0]), swz(4, 2, 4, [1, 0]), swz(2, 2, 4, [1, 0])]
    extra = ["f32", "i8", "i64"]
    cases = []

    def shape_text(shape):
        return "x".join(str(d) for d in shape)

    def add(suite, pair, v, shape, t, kind, args, warps):
        cases.append((f"{suite}/{pair}/{v}/{shape_text(shape)}/{t}", kind, args, shape, t, warps))

    for s in range(len(l2)):
        for d in range(len(l2)):
            if s == d:
                continue
            for shape in ([64, 1], [64, 64], [64, 128], [1, 64]):
                for v in range(len(via)):
                    add("convert2d", f"{s}-{d}", f"swizzled{v}" if v else "none", shape, "f16", "2d",
                        (l2[s], l2[d], via[v]), 4)
                for t in extra:
                    add("convert2d", f"{s}-{d}", "none", shape, t, "2d", (l2[s], l2[d], None), 4)

    mp = [
        mma(2, 0, [1, 4], [16, 8]), mma(2, 0, [4, 1], [16, 8]),
        mma(2, 0, [2, 8], [16, 8]), mma(2, 0, [8, 2], [16, 8]),
        mma(2, 1, [1, 4], [16, 8]), mma(2, 1, [4, 1], [16, 8]),
        mma(2, 1, [2, 8], [16, 8]), mma(2, 1, [8, 2], [16, 8]),
        mma(3, 0, [4, 1], [16, 32, 32]), mma(3, 0, [4, 1], [16, 64, 32]),
        mma(3, 0, [1, 4], [16, 32, 32]), mma(3, 0, [4, 1], [16, 64, 32]),
        mma(3, 0, [2, 8], [16, 64, 32]), mma(3, 0, [8, 2], [16, 32, 32]),
        mma(3, 0, [4, 1], [16, 128, 16]), mma(3, 0, [4, 1], [16, 64, 16]),
    ]
    for p in range(0, len(mp), 2):
        for direction in (0, 1):
            s, d = p + direction, p + 1 - direction
            warps = mp[s].warps_per_cta[0] * mp[s].warps_per_cta[1]
            for shape in ([16, 16], [64, 1], [1, 64], [64, 64], [128, 128], [256, 256]):
                for t in ["f16"] + extra:
                    add("mma2mma", f"{s}-{d}", "none", shape, t, "2d", (mp[s], mp[d], None), warps)

    wl = [([1, 1], [32 // c, c]) for c in (1, 2, 4, 8, 16, 32)] + [([32, 1], [1, 32]), ([16, 1], [2, 16])] + \
         [([1, 4], [32 // c, c]) for c in (1, 2, 4, 8, 16, 32)]
    for s in range(len(wl)):
        for d in range(len(wl)):
            if s == d:
                continue
            a = wl[s][1][0] // wl[d][1][0]
            b = wl[s][1][1] // wl[d][1][1]
            if (a if a != 0 else b) > 2:
                continue
            src = blocked(wl[s][0], wl[s][1], [1, 1], [1, 0])
            dst = blocked(wl[d][0], wl[d][1], [1, 1], [1, 0])
            for shape in ([32, 32], [64, 64]):
                for t in ["f16"] + extra:
                    add("warp_local", f"{s}-{d}", "none", shape, t, "2d", (src, dst, None), 1)

    l1 = [
        blocked([1, 4], [1, 32], [4, 1], [1, 0]), blocked([1, 4], [1, 32], [2, 2], [1, 0]),
        v3, v2, dot(0, v3, 2), dot(0, mma(2, 0, [2, 2], [16, 8]), 2),
    ]
    for m in (64, 128, 256):
        for s in range(len(l1)):
            for d in range(len(l1)):
                for sd in (0, 1):
                    for dd in (0, 1):
                        for t in ("i32", "i1", "f32", "i8", "i64"):
                            add("convert1d", f"{s}.{sd}-{d}.{dd}", "none", [m], t, "1d",
                                (ttgl.SliceLayout(sd, l1[s]), ttgl.SliceLayout(dd, l1[d]), None), 4)

    def linear(reg, lane):
        return ttgl.DistributedLinearLayout(reg_bases=reg, lane_bases=lane, warp_bases=[], block_bases=[],
                                            shape=[2, 8])

    ws_src = linear([[0, 1], [0, 2], [0, 4]], [[1, 0], [0, 0], [0, 0], [0, 0], [0, 0]])
    ws_dst = linear([[1, 0], [0, 4]], [[0, 0], [0, 0], [0, 1], [0, 2], [0, 0]])
    for t in ("i16", "f32", "i8", "i64"):
        add("warp_shuffle", "0-1", "none", [2, 8], t, "2d", (ws_src, ws_dst, None), 1)
    return cases


TRITON_TYPES = {"f16", "i32", "i1", "i16"}

_KERNELS = {}


def kernels():
    if _KERNELS:
        return _KERNELS
    from triton.experimental import gluon
    import triton.experimental.gluon.language as ttgl

    @gluon.jit
    def convert_2d(x_ptr, y_ptr, M: ttgl.constexpr, N: ttgl.constexpr, src: ttgl.constexpr, dst: ttgl.constexpr,
                   via: ttgl.constexpr):
        rows = ttgl.arange(0, M, layout=ttgl.SliceLayout(1, src))
        cols = ttgl.arange(0, N, layout=ttgl.SliceLayout(0, src))
        x = ttgl.load(x_ptr + (rows[:, None] * N + cols[None, :]))
        if via is not None:
            tile = ttgl.allocate_shared_memory(x.dtype, (M, N), via, value=x)
            x = tile.load(src)
        y = ttgl.convert_layout(x, dst)
        rows_d = ttgl.arange(0, M, layout=ttgl.SliceLayout(1, dst))
        cols_d = ttgl.arange(0, N, layout=ttgl.SliceLayout(0, dst))
        ttgl.store(y_ptr + (rows_d[:, None] * N + cols_d[None, :]), y)

    @gluon.jit
    def convert_1d(x_ptr, y_ptr, M: ttgl.constexpr, src: ttgl.constexpr, dst: ttgl.constexpr):
        x = ttgl.load(x_ptr + ttgl.arange(0, M, layout=src))
        y = ttgl.convert_layout(x, dst)
        ttgl.store(y_ptr + ttgl.arange(0, M, layout=dst), y)

    _KERNELS["2d"] = convert_2d
    _KERNELS["1d"] = convert_1d
    return _KERNELS


DTYPES = {"f16": "float16", "f32": "float32", "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
          "i1": "bool"}

_CASES = None


def compile_one(index):
    global _CASES
    import torch
    if _CASES is None:
        _CASES = case_list()
    name, kind, (src, dst, via), shape, t, warps = _CASES[index]
    line = {"name": name}
    try:
        n = 1
        for d in shape:
            n *= d
        x = torch.zeros(n, dtype=getattr(torch, DTYPES[t]), device="cuda")
        y = torch.zeros(n, dtype=torch.int32 if t == "i1" else x.dtype, device="cuda")
        k = kernels()[kind]
        if kind == "2d":
            ck = k.warmup(x, y, shape[0], shape[1], src, dst, via, grid=(1, ), num_warps=warps)
        else:
            ck = k.warmup(x, y, shape[0], src, dst, grid=(1, ), num_warps=warps)
        ck._init_handles()
        line.update(ok=True, registers=int(ck.n_regs), local_bytes=int(ck.n_spills) * 4)
    except Exception as e:  # a refusal is a result too
        line.update(ok=False, error=f"{type(e).__name__}: {str(e)[:300]}")
    return line


def cmd_compile(args):
    import multiprocessing as mp
    cases = case_list()
    order = sorted(range(len(cases)), key=lambda i: (cases[i][4] not in TRITON_TYPES, i))
    if args.limit:
        order = order[:args.limit]
    start = time.time()
    done = 0
    ctx = mp.get_context("fork")
    with open(args.out, "w") as f, ctx.Pool(args.jobs) as pool:
        for line in pool.imap_unordered(compile_one, order, chunksize=4):
            f.write(json.dumps(line) + "\n")
            done += 1
            if time.time() - start > args.deadline:
                print(f"deadline: {done} of {len(order)} cases compiled", file=sys.stderr)
                pool.terminate()
                break
    print(f"triton: {done} cases in {time.time() - start:.0f} s", file=sys.stderr)


def read_lines(path):
    opener = gzip.open if path.endswith(".gz") else open
    out = {}
    with opener(path, "rt") as f:
        for line in f:
            line = line.strip()
            if line:
                d = json.loads(line)
                out[d["name"]] = d
    return out


def cmd_compare(args):
    ours, theirs = {}, {}
    for p in args.ours:
        ours.update(read_lines(p))
    for p in args.triton:
        theirs.update(read_lines(p))
    both = [n for n in ours if n in theirs and ours[n].get("ok") and theirs[n].get("ok")]
    rows = {}
    worse = []
    for n in both:
        o, t = ours[n], theirs[n]
        suite = n.split("/")[0]
        typ = n.split("/")[-1]
        key = (suite, typ)
        r = rows.setdefault(key, dict(cases=0, ours_local=0, triton_local=0, ours_only=0, triton_only=0,
                                      ours_regs=0, triton_regs=0, less_local=0, more_local=0))
        r["cases"] += 1
        ol, tl = o.get("local_bytes", 0), t.get("local_bytes", 0)
        r["ours_local"] += ol > 0
        r["triton_local"] += tl > 0
        r["ours_only"] += ol > 0 and tl == 0
        r["triton_only"] += tl > 0 and ol == 0
        r["less_local"] += ol < tl
        r["more_local"] += ol > tl
        r["ours_regs"] += o.get("registers", 0)
        r["triton_regs"] += t.get("registers", 0)
        if ol > 0 and tl == 0:
            worse.append(n)
    print("| suite | type | cases | local mem ours | local mem Triton | ours only | Triton only | "
          "less local | more local | mean regs ours | mean regs Triton |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for (suite, typ), r in sorted(rows.items()):
        c = r["cases"]
        print(f"| {suite} | {typ} | {c} | {r['ours_local']} | {r['triton_local']} | {r['ours_only']} | "
              f"{r['triton_only']} | {r['less_local']} | {r['more_local']} | {r['ours_regs'] / c:.0f} | "
              f"{r['triton_regs'] / c:.0f} |")
    failed_ours = [n for n, d in ours.items() if not d.get("ok")]
    failed_triton = [n for n, d in theirs.items() if not d.get("ok")]
    print(f"\nours: {len(ours)} cases, {len(failed_ours)} not ok; Triton: {len(theirs)} cases, "
          f"{len(failed_triton)} not ok; compared: {len(both)}")
    for n in worse[:40]:
        print(f"local memory only in ours: {n} ours {ours[n]} triton {theirs[n]}")
    for n in failed_ours[:20]:
        print(f"ours not ok: {n}: {ours[n].get('error', '')}")


def rank3_specs():
    """Batched mma layouts (v2 and v3, warps along every dim), their operands and slices."""
    def mma(major, warps, instr):
        return {"kind": "nvidia_mma", "version": [major, 0], "warps_per_cta": warps, "instr_shape": instr}

    out = []
    for warps in ([4, 1, 1], [1, 4, 1], [2, 2, 1], [1, 2, 2], [2, 4, 1], [4, 2, 2]):
        for major, instr in ((3, [16, 32, 16]), (3, [16, 64, 16]), (2, [1, 16, 8])):
            m = mma(major, warps, instr)
            out.append(m)
            for op in ((0, 1) if major == 2 else (0, )):
                for kw in (1, 2, 4, 8):
                    d = {"kind": "dot_operand", "operand_index": op, "parent": m, "k_width": kw}
                    out.append(d)
                    for dim in (0, 1, 2):
                        out.append({"kind": "slice", "dim": dim, "parent": d})
            for dim in (0, 1, 2):
                out.append({"kind": "slice", "dim": dim, "parent": m})
    return out


def cmd_tolinear(args):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import triton_cases
    tri = triton_cases.Triton()
    shapes3 = ([2, 64, 32], [1, 16, 16], [4, 128, 64], [8, 32, 128], [2, 1, 64])
    shapes2 = ([64, 128], [2, 32], [64, 1], [1, 64], [16, 256])
    n = 0
    for spec in rank3_specs():
        for shape in (shapes2 if spec["kind"] == "slice" else shapes3):
            case = {"op": "to_linear", "layout": spec, "shape": list(shape)}
            key, val = triton_cases.in_child(lambda: tri.answer(case))
            case["id"] = "rank3-%d" % n
            case[key] = val
            n += 1
            print(json.dumps(case), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("compile")
    c.add_argument("--out", required=True)
    c.add_argument("--jobs", type=int, default=max(1, (os.cpu_count() or 2) - 2))
    c.add_argument("--deadline", type=float, default=240)
    c.add_argument("--limit", type=int, default=0)
    k = sub.add_parser("compare")
    k.add_argument("--ours", nargs="+", required=True)
    k.add_argument("--triton", nargs="+", required=True)
    sub.add_parser("tolinear")
    a = ap.parse_args()
    {"compile": cmd_compile, "compare": cmd_compare, "tolinear": cmd_tolinear}[a.cmd](a)


if __name__ == "__main__":
    main()

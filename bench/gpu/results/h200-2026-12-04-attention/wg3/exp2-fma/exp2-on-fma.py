#!/usr/bin/env python3
"""Rewrites an attention kernel so that part of its score exponentials run on the FMA pipe.

At head dim 64 a score costs the tensor pipe and the MUFU pipe (ex2) about the same time, and the
two barely overlap (docs/attention.md, "What bounds d64"). This script moves 1 / 2^k of the scores'
exponentials off the MUFU: each `%p = math.exp2 %x : tensor<64x128xf32, #S>` (S the 4-warp wgmma
accumulator layout of N = 128) becomes the same values computed in pieces. %x is halved k times
along its columns by register-only reshapes, transposes and splits (the column bit that a register
bit holds moves into a new last dimension of 2); every half but the last goes to math.exp2, the
last 64 x (128 / 2^k) block to a polynomial on FMAs, and joins put the pieces back in S. The
polynomial is the bit trick of flash attention 4's software exp2: x clamped to -126.5, rounded to
an integer j by adding 1.5 * 2^23 (j lands in the low mantissa bits), the rest f in [-0.5, 0.5]
through a cubic minimax approximation of 2^f (relative error 7.5e-5, a sixth of an f16 half-ulp),
then j added to the result's exponent field by an integer add. A NaN score gives 2^-126.5 there
instead of NaN.

  python3 exp2-on-fma.py IN.tir OUT.tir --levels K   (IN: an attention_ws_*.tir of examples/)
"""
import argparse
import pathlib
import re
import sys

# Cubic minimax fit of 2^f on [-0.5, 0.5] for relative error, rounded to f32 (c0 .. c3).
COEFFS = ["0.9999280571937561", "0.6932609677314758", "0.2426111251115799", "0.0551716685295105"]

ACC_RE = re.compile(
    r"^(#\w+) = #ttg\.nvidia_mma<\{versionMajor = 3, versionMinor = 0, warpsPerCTA = \[4, 1\], "
    r"instrShape = \[16, 128, 16\]\}>$")


def acc_bases(w):
    """The 64 x w wgmma accumulator's register bases (row, col), 4 warps."""
    regs = [(0, 1), (8, 0)]
    c = 8
    while c < w:
        regs.append((0, c))
        c *= 2
    return regs


LANES = [(0, 2), (0, 4), (1, 0), (2, 0), (4, 0)]
WARPS = [(16, 0), (32, 0)]


def linear(regs, lanes, warps):
    fmt = lambda bs: "[" + ", ".join("[" + ", ".join(map(str, b)) + "]" for b in bs) + "]"
    return (f"#ttg.linear<{{register = {fmt(regs)}, lane = {fmt(lanes)}, warp = {fmt(warps)}, "
            f"block = []}}>")


def layouts(levels):
    """Aliases per width w halved: #e2r<w> (64 x 2 x w/2, the top column bit apart), #e2t<w>
    (64 x w/2 x 2, it last) and #e2m<w/2> (the halves: the accumulator of N = w/2)."""
    out = []
    w = 128
    for _ in range(levels):
        h = w // 2
        top = (0, h)
        split3 = lambda b: (b[0], 1, 0) if b == top else (b[0], 0, b[1])
        regs = acc_bases(w)
        r3 = [split3(b) for b in regs]
        t3 = [(a, c, b) for (a, b, c) in r3]
        lane3 = [(a, 0, c) for (a, c) in LANES]
        warp3 = [(a, 0, c) for (a, c) in WARPS]
        out.append(f"#e2r{w} = {linear(r3, lane3, warp3)}")
        out.append(f"#e2t{w} = {linear(t3, [(a, c, b) for (a, b, c) in lane3], [(a, c, b) for (a, b, c) in warp3])}")
        out.append(f"#e2m{h} = #ttg.nvidia_mma<{{versionMajor = 3, versionMinor = 0, "
                   f"warpsPerCTA = [4, 1], instrShape = [16, {h}, 16]}}>")
        w = h
    return out


def emulated(ind, name, x, w):
    """name = 2^x on FMAs for x : tensor<64xwxf32, #e2m<w>>."""
    t = f"tensor<64x{w}xf32, #e2m{w}>"
    ti = f"tensor<64x{w}xi32, #e2m{w}>"
    n = lambda s: f"{name}_{s}"
    lines = [
        f"{n('lo')} = arith.constant dense<-126.5> : {t}",
        f"{n('rnd')} = arith.constant dense<12582912.0> : {t}",
    ] + [f"{n('c' + str(i))} = arith.constant dense<{c}> : {t}" for i, c in enumerate(COEFFS)] + [
        f"{n('sh')} = arith.constant dense<23> : {ti}",
        f"{n('xc')} = arith.maxnumf {x}, {n('lo')} : {t}",
        f"{n('t')} = arith.addf {n('xc')}, {n('rnd')} : {t}",
        f"{n('j')} = arith.subf {n('t')}, {n('rnd')} : {t}",
        f"{n('f')} = arith.subf {n('xc')}, {n('j')} : {t}",
        f"{n('m3')} = arith.mulf {n('f')}, {n('c3')} : {t}",
        f"{n('a3')} = arith.addf {n('m3')}, {n('c2')} : {t}",
        f"{n('m2')} = arith.mulf {n('a3')}, {n('f')} : {t}",
        f"{n('a2')} = arith.addf {n('m2')}, {n('c1')} : {t}",
        f"{n('m1')} = arith.mulf {n('a2')}, {n('f')} : {t}",
        f"{n('a1')} = arith.addf {n('m1')}, {n('c0')} : {t}",
        f"{n('tb')} = tt.bitcast {n('t')} : {t} -> {ti}",
        f"{n('e')} = arith.shli {n('tb')}, {n('sh')} : {ti}",
        f"{n('pb')} = tt.bitcast {n('a1')} : {t} -> {ti}",
        f"{n('rb')} = arith.addi {n('pb')}, {n('e')} : {ti}",
        f"{name} = tt.bitcast {n('rb')} : {ti} -> {t}",
    ]
    return [ind + l for l in lines]


def rewrite(ind, out, x, acc, levels):
    lines = [f"{ind}// {out} = 2^{x}: 1/{2 ** levels} of it on FMAs (exp2-on-fma.py of bench/gpu/results/h200-2026-12-04-attention/wg3/exp2-fma)."]
    cur, w, lay = x, 128, acc
    exps = []
    for k in range(levels):
        h = w // 2
        b = f"{out}_e2_{k}"
        lines += [
            f"{ind}{b}r = tt.reshape {cur} : tensor<64x{w}xf32, {lay}> -> tensor<64x2x{h}xf32, #e2r{w}>",
            f"{ind}{b}t = tt.trans {b}r {{order = array<i32: 0, 2, 1>}} : tensor<64x2x{h}xf32, #e2r{w}> -> tensor<64x{h}x2xf32, #e2t{w}>",
            f"{ind}{b}s:2 = tt.split {b}t : tensor<64x{h}x2xf32, #e2t{w}> -> tensor<64x{h}xf32, #e2m{h}>",
            f"{ind}{b}x = math.exp2 {b}s#0 : tensor<64x{h}xf32, #e2m{h}>",
        ]
        exps.append((f"{b}x", w, lay))
        cur, w, lay = f"{b}s#1", h, f"#e2m{h}"
    em = f"{out}_e2_fma"
    lines += emulated(ind, em, cur, w)
    cur = em
    for k in reversed(range(levels)):
        lo, wk, layk = exps[k]
        h = wk // 2
        b = f"{out}_e2_{k}"
        dst = out if k == 0 else f"{b}y"
        lines += [
            f"{ind}{b}j = tt.join {lo}, {cur} : tensor<64x{h}xf32, #e2m{h}> -> tensor<64x{h}x2xf32, #e2t{wk}>",
            f"{ind}{b}u = tt.trans {b}j {{order = array<i32: 0, 2, 1>}} : tensor<64x{h}x2xf32, #e2t{wk}> -> tensor<64x2x{h}xf32, #e2r{wk}>",
            f"{ind}{dst} = tt.reshape {b}u : tensor<64x2x{h}xf32, #e2r{wk}> -> tensor<64x{wk}xf32, {layk}>",
        ]
        cur = dst
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("src")
    ap.add_argument("dst")
    ap.add_argument("--levels", type=int, default=2, help="1 / 2^LEVELS of the scores on FMAs")
    args = ap.parse_args()
    if not 1 <= args.levels <= 3:
        sys.exit("--levels must be 1, 2 or 3")
    text = open(args.src).read().split("\n")
    acc = None
    out = []
    n = 0
    for line in text:
        m = ACC_RE.match(line)
        if m and acc is None:
            acc = m.group(1)
            out.append(line)
            out += layouts(args.levels)
            continue
        m = re.match(r"^(\s*)(%\w+) = math\.exp2 (%\w+) : tensor<64x128xf32, (#\w+)>$", line)
        if m and m.group(4) == acc:
            out += rewrite(m.group(1), m.group(2), m.group(3), acc, args.levels)
            n += 1
            continue
        out.append(line)
    if n == 0:
        sys.exit(f"{args.src}: no math.exp2 on a 64x128 wgmma accumulator")
    # The function is named after its file, as every example is.
    stem = lambda p: pathlib.Path(p).stem
    out = [l.replace(f"@{stem(args.src)}(", f"@{stem(args.dst)}(") for l in out]
    open(args.dst, "w").write("\n".join(out))
    print(f"{args.dst}: {n} exponentials rewritten")


if __name__ == "__main__":
    main()

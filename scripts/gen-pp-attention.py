#!/usr/bin/env python3
"""Writes the persistent ping-pong attention kernels whose producer copies Q by TMA and whose
consumers store O from the accumulator's registers: examples/attention_ws_pp_persistent_d256.tir
(head dim 256, f16) and examples/attention_fp8_ws_pp_persistent_d128.tir (head dim 128, e4m3
inputs), each with its causal form. In each kernel the two consumer warp groups' regions differ
only in their rows, slots and turn barriers, and a kernel and its causal form only in their tile
order, key-block order and mask, so all of them are made from one description here (a Family
says what differs between d256 and fp8). With --check, compares instead and exits 1 where a file
differs (the `scripts.pp_attention` test), so that an edit goes here, not into a file.

  python3 scripts/gen-pp-attention.py [--check]
"""
import sys
from dataclasses import dataclass

from kernelgen import write_or_check

HEADERS = {
    ("d256", False): """\
// Written by scripts/gen-pp-attention.py: edit it, not this file.
// Attention forward at head dim 256: examples/attention_ws_pp_persistent_tmaqo_d128.tir
// (persistent, ping-pong consumer warp groups, Q copied by the producer's TMA) with key blocks of
// 64, as flash attention 3 shrinks them at d256 so that the rings fit. A tile is 128 query rows,
// 64 a warp group; a head has n_ctx / 128 tiles and n_ctx / 64 key blocks. S_j = Q K_j^T is
// 64 x 64 (an mma layout of N = 64), O 64 x 256 (N = 256, 128 registers a thread); their rows sit
// in the same threads, so the maximum, the sum and P pass between them as no-op conversions.
// Shared memory: Q's slots (2 x 32 KB), K's ring of 2 stages and V's of 3 (32 KB each): 224 KB
// of the 227, so O is stored from the accumulator's registers (normalised by one reciprocal per
// row), not through a slot. Each warp group frees K_j's stage once S_j has retired, V_j's once
// P_j V_j has, and its Q slot once the tile's last S has; the producer copies a tile's Q after
// its first K and V. P_j is packed for its wgmma after the wait for P_{j-1} V_{j-1} (packed
// before, ptxas would serialize the wgmmas). Budgets 240 / 240 / 24. Arguments: Q, K and V are
// tensor maps over [heads * n_ctx, 256] (boxes of 64 rows), O a pointer to the same shape; n_ctx
// a multiple of 128, sm_scale > 0. The turns continue across tiles (a tile has nkb + 1 of them).
""",
    ("d256", True): """\
// Written by scripts/gen-pp-attention.py: edit it, not this file.
// examples/attention_ws_pp_persistent_d256.tir, causal (query i sees keys j <= i), skipping the
// masked blocks: tile p of a head (query rows 128 p ..) reads key blocks 0 .. 2p + 1 of 64, the
// two on its diagonal first. Step 0 is block 2p + 1: warp group 1's diagonal, and wholly masked
// for warp group 0, which only takes its turn and frees the stage. Step 1 is block 2p: warp group
// 0's diagonal, whose S starts its running maximum (no P V before it; V_0 is freed unread), and
// wholly seen by warp group 1. The steps after them are seen by both. So each warp group masks
// one block, where no accumulator is live, and every row's maximum is finite from its first
// scores on. Tiles go in the paired order of attention_ws_pp_persistent_paired_d128_causal.tir
// (its header says why): units in head order, folded within the head (the longest tile, the
// shortest, the next longest, ...), program p of P taking units 2p + 2Pk and 2p + 2Pk + 1, so
// that a pair costs 2 nqb + 2 key blocks wherever it lies. Ring, slots, turns, budgets and
// arguments as the non-causal kernel's; n_ctx <= 32768 (the mask's products stay under 2^31).
""",
    ("fp8", False): """\
// Written by scripts/gen-pp-attention.py: edit it, not this file.
// Attention forward on e4m3 inputs at head dim 128: examples/attention_ws_pp_persistent_d256.tir's
// protocol (persistent, ping-pong consumer warp groups, Q copied by the producer's TMA, O stored
// from the accumulator's registers) with key blocks of 128 and the 8-bit wgmma (m64nNk32, f32
// accumulation) for both products. An 8-bit wgmma reads its shared operands K-major only, so V
// comes transposed: V^T is a tensor map over [heads * 128, n_ctx] (head h's rows 128 h .. 128 h +
// 127, one row per column of V), a stage holds 128 x 128 of it, and P V reads it as K x N through
// ttg.memdesc_trans. P is rounded to e4m3 (to nearest even; its values lie in [0, 1]) in the
// scores' layout and converted to the 8-bit A operand's (4 consecutive keys a register). The
// softmax's scale is sm_scale * descale_q * descale_k, O is multiplied by descale_v / l and
// stored in bf16. Shared memory: Q's slots (2 x 8 KB), K's ring of 2 stages and V^T's of 3 (16 KB
// each), and the scratch of P's conversions, which the lowering adds. Budgets 240 / 240 / 24.
// Arguments: Q and K are tensor maps over [heads * n_ctx, 128] (boxes of 64 and 128 rows), V^T as
// above, O a bf16 pointer to [heads * n_ctx, 128]; n_ctx a multiple of 128, sm_scale > 0, the
// descales (after heads) > 0. The turns continue across tiles (a tile has nkb + 1 of them).
""",
    ("fp8", True): """\
// Written by scripts/gen-pp-attention.py: edit it, not this file.
// examples/attention_fp8_ws_pp_persistent_d128.tir, causal (query i sees keys j <= i), skipping
// the masked blocks, with key blocks of 64 so that the causal order of
// attention_ws_pp_persistent_d256_causal.tir applies as it is: tile p of a head reads key blocks
// 0 .. 2p + 1, the two on its diagonal first (warp group 1's, then warp group 0's), each warp group
// masking one block where no accumulator is live; tiles in the paired order. A V^T stage holds
// 128 x 64 (64-byte rows: 64-byte swizzle). Arguments as the non-causal kernel's; n_ctx <= 32768
// (the mask's products stay under 2^31).
""",
}


@dataclass(frozen=True)
class Family:
    """What differs between the kernels: the head dim, the key block, the input type (f16, or
    e4m3 with V transposed and descale factors) and O's type."""
    tag: str
    d: int
    bn: int
    fp8: bool


def family(tag, causal):
    if tag == "d256":
        return Family(tag, 256, 64, False)
    # The fp8 kernel's causal form takes key blocks of 64: the causal order needs two a tile.
    return Family(tag, 128, 64 if causal else 128, True)


def use(f):
    """Sets the module's names below (shapes, types) for family f: every template reads them."""
    global D, BN, ET, OT, EB, PN, KV, QH, KB, VB, QB, TKV, TV, TVT, TKT, TQ, ACC, ACO, PA, PT
    global QD, KD, VD, OP, SCALE, ONUM, FP8
    FP8 = f.fp8
    D, BN = f.d, f.bn
    ET, OT, EB = ("f8E4M3FN", "bf16", 1) if FP8 else ("f16", "f16", 2)
    PN = "8" if FP8 else "16"  # P's packed name suffix
    KV = BN * D * EB  # bytes of a K or V block
    QH = 64 * D * EB  # bytes of one warp group's Q rows
    KB = f"!ttg.memdesc<{KST}x{BN}x{D}x{ET}, #sa, #smem, mutable>"
    QB = f"!ttg.memdesc<2x64x{D}x{ET}, #sa, #smem, mutable>"
    TKV = f"!ttg.memdesc<{BN}x{D}x{ET}, #sa, #smem, mutable>"  # a K stage (and V's, in f16)
    TKT = f"!ttg.memdesc<{D}x{BN}x{ET}, #sat, #smem, mutable>"  # K_j^T
    TQ = f"!ttg.memdesc<64x{D}x{ET}, #sa, #smem, mutable>"  # a warp group's Q rows
    ACC = f"tensor<64x{BN}xf32, #mmas>"  # S
    ACO = f"tensor<64x{D}xf32, #mma>"  # O
    PT = f"tensor<64x{BN}x{ET}, #mmas>"  # P rounded, in the scores' layout
    PA = f"tensor<64x{BN}x{ET}, #dota>"
    QD = f"!tt.tensordesc<tensor<64x{D}x{ET}, #sa>>"
    KD = f"!tt.tensordesc<tensor<{BN}x{D}x{ET}, #sa>>"
    OP = f"!tt.ptr<{OT}>"
    if FP8:  # V^T's stages, D x BN, read by P V as BN x D
        VB = f"!ttg.memdesc<{VST}x{D}x{BN}x{ET}, #sv, #smem, mutable>"
        TV = f"!ttg.memdesc<{D}x{BN}x{ET}, #sv, #smem, mutable>"
        TVT = f"!ttg.memdesc<{BN}x{D}x{ET}, #svt, #smem, mutable>"
        VD = f"!tt.tensordesc<tensor<{D}x{BN}x{ET}, #sv>>"
    else:
        VB = f"!ttg.memdesc<{VST}x{BN}x{D}x{ET}, #sa, #smem, mutable>"
        TV = TVT = TKV
        VD = KD
    # The warp groups' softmax scale (before log2 e) and O's numerator over l.
    SCALE, ONUM = ("sm_descaled", "vsc") if FP8 else ("sm_scale", "ones")


BM = 128
KST, VST = 2, 3
# empties: K's empty barriers, V's, the two turns, Q's full barriers, Q's empty ones.
VE0, TURN0 = KST, KST + VST
QF0, QE0 = TURN0 + 2, TURN0 + 4
NE = QE0 + 2

MD1 = "!ttg.memdesc<1xi64, #bar, #smem, mutable>"
E = f"!ttg.memdesc<{NE}x1xi64, #bar, #smem, mutable>"
KF = f"!ttg.memdesc<{KST}x1xi64, #bar, #smem, mutable>"
VF = f"!ttg.memdesc<{VST}x1xi64, #bar, #smem, mutable>"
ROW = "tensor<64xf32, #row>"
OROW = "tensor<64xf32, #orow>"
MASKED = "0xFF800000"  # -inf


def name(tag, causal):
    base = ("attention_ws_pp_persistent_d256" if tag == "d256" else
            "attention_fp8_ws_pp_persistent_d128")
    return base + ("_causal" if causal else "")


def args(causal):
    """The operands of ttg.warp_specialize, and the partitions' arguments."""
    order = ([("p2", "i32"), ("np2", "i32"), ("nk", "i32"), ("tailk", "i32"), ("lastm", "i32")]
             if causal else [("nkb", "i32"), ("first", "i32"), ("nprog", "i32"), ("tiles", "i32")])
    return ([("kdesc", KD), ("vdesc", VD), ("kbuf", KB), ("vbuf", VB), ("kfulls", KF),
             ("vfulls", VF), ("empties", E), ("nqb", "i32")] + order +
            [("n_ctx", "i32"), (SCALE, "f32"), ("q", QD), ("o", OP), ("qbuf", QB),
             ("turn0", MD1), ("turn1", MD1), ("qfull0", MD1), ("qfull1", MD1), ("qempty0", MD1),
             ("qempty1", MD1)] + ([("descale_v", "f32")] if FP8 else []))


def unit_tile(n, a, uk, ind):
    """Unit uk's tile in the paired order: n(head) and n(pid_m), from the arguments a(p2),
    a(np2), a(tailk), a(nqb), a(lastm) and the constants a(c0), a(c1), a(c2)."""
    return f"""\
{ind}{n('uk_h')} = arith.divsi {uk}, {a('c2')} : i32
{ind}{n('uk_l')} = arith.andi {uk}, {a('c1')} : i32
{ind}{n('uk_r')} = arith.muli {n('uk_h')}, {a('np2')} : i32
{ind}{n('uk_a')} = arith.addi {a('p2')}, {n('uk_l')} : i32
{ind}{n('uk_p')} = arith.divsi {a('p2')}, {a('c2')} : i32
{ind}{n('uk_t')} = arith.cmpi sge, {uk}, {a('tailk')} : i32
{ind}{n('uk_o')} = arith.select {n('uk_t')}, {n('uk_p')}, {n('uk_a')} : i32
{ind}{n('t')} = arith.addi {n('uk_r')}, {n('uk_o')} : i32
{ind}{n('head')} = arith.divsi {n('t')}, {a('nqb')} : i32
{ind}{n('ur')} = arith.remsi {n('t')}, {a('nqb')} : i32
{ind}{n('uh')} = arith.divsi {n('ur')}, {a('c2')} : i32
{ind}{n('uo')} = arith.andi {n('ur')}, {a('c1')} : i32
{ind}{n('us')} = arith.cmpi ne, {n('uo')}, {a('c0')} : i32
{ind}{n('ul')} = arith.subi {a('lastm')}, {n('uh')} : i32
{ind}{n('pid_m')} = arith.select {n('us')}, {n('uh')}, {n('ul')} : i32
"""


def mask(v, scores, row0, scale, out, masked, ind):
    """out: scores where key row0 + c is seen by query row0 + r (c <= r: the block's keys start at
    the warp group's first row), else masked (-inf). The test compares (row0 + c) * scale with
    (row0 + r) * scale (scale > 0, both under 2^31), which the tile changes: written as c <= r, it
    is the same for every tile, and LLVM hoists its 32 comparisons out of the tile loop, to hold
    registers across it (ptxas then spills)."""
    sl = f"tensor<{BN}xi32, #ttg.slice<{{dim = 0, parent = #mmas}}>>"
    return f"""\
{ind}{v(out+'c')} = tt.make_range {{end = {BN} : i32, start = 0 : i32}} : {sl}
{ind}{v(out+'k0')} = tt.splat {row0} : i32 -> {sl}
{ind}{v(out+'ks')} = tt.splat {scale} : i32 -> {sl}
{ind}{v(out+'k1')} = arith.addi {v(out+'k0')}, {v(out+'c')} : {sl}
{ind}{v(out+'k')} = arith.muli {v(out+'k1')}, {v(out+'ks')} : {sl}
{ind}{v(out+'k2')} = tt.expand_dims {v(out+'k')} {{axis = 0 : i32}} : {sl} -> tensor<1x{BN}xi32, #mmas>
{ind}{v(out+'kb')} = tt.broadcast {v(out+'k2')} : tensor<1x{BN}xi32, #mmas> -> tensor<64x{BN}xi32, #mmas>
{ind}{v(out+'r')} = tt.make_range {{end = 64 : i32, start = 0 : i32}} : tensor<64xi32, #row>
{ind}{v(out+'q0')} = tt.splat {row0} : i32 -> tensor<64xi32, #row>
{ind}{v(out+'qs')} = tt.splat {scale} : i32 -> tensor<64xi32, #row>
{ind}{v(out+'q1')} = arith.addi {v(out+'q0')}, {v(out+'r')} : tensor<64xi32, #row>
{ind}{v(out+'q')} = arith.muli {v(out+'q1')}, {v(out+'qs')} : tensor<64xi32, #row>
{ind}{v(out+'q2')} = tt.expand_dims {v(out+'q')} {{axis = 1 : i32}} : tensor<64xi32, #row> -> tensor<64x1xi32, #mmas>
{ind}{v(out+'qb')} = tt.broadcast {v(out+'q2')} : tensor<64x1xi32, #mmas> -> tensor<64x{BN}xi32, #mmas>
{ind}{v(out+'seen')} = arith.cmpi sle, {v(out+'kb')}, {v(out+'qb')} : tensor<64x{BN}xi32, #mmas>
{ind}{v(out)} = arith.select {v(out+'seen')}, {scores}, {masked} : tensor<64x{BN}xi1, #mmas>, {ACC}
"""


def lone_scores(v, i, g, turn, txor, mine, other, qfull):
    """Step i's S_i = Q K^T alone in its turn (a tile's first scores): waits for the stage of
    ring step g, the tile's Q and turn `turn`; results v(s{i}w) and the stage's index v(sk{i})."""
    return f"""\
      {v(f'sk{i}')} = arith.remsi {g}, {v('kst')} : i32
      {v(f'kround{i}')} = arith.divsi {g}, {v('kst')} : i32
      {v(f'kphase{i}')} = arith.andi {v(f'kround{i}')}, {v('c1')} : i32
      {v(f'kf{i}')} = ttg.memdesc_index {v('kfulls')}[{v(f'sk{i}')}] : {KF} -> {MD1}
      ttng.wait_barrier {v(f'kf{i}')}, {v(f'kphase{i}')} : {MD1}
      // The tile's Q rows (the producer's copy into this warp group's slot).
      ttng.wait_barrier {v(qfull)}, {v('qphase')} : {MD1}
      {v(f'k{i}')} = ttg.memdesc_index {v('kbuf')}[{v(f'sk{i}')}] : {KB} -> {TKV}
      {v(f'k{i}t')} = ttg.memdesc_trans {v(f'k{i}')} {{order = array<i32: 1, 0>}} : {TKV} -> {TKT}
      {v(f'tp{i}')} = arith.andi {turn}, {v('c1')} : i32
      {v(f'tq{i}')} = arith.xori {v(f'tp{i}')}, {txor} : i32
      ttng.wait_barrier {v(mine)}, {v(f'tq{i}')} : {MD1}
      {v(f's{i}d')} = ttng.warp_group_dot {v('qs')}, {v(f'k{i}t')}, {v('zs')} {{inputPrecision = 0 : i32, isAsync = true}} : {TQ} * {TKT} -> {ACC}
      ttng.arrive_barrier {v(other)}, 1 : {MD1}
      {v(f's{i}w')}:3 = ttng.warp_group_dot_wait {v(f's{i}d')}, {v('qs')}, {v(f'k{i}t')} {{pendings = 0 : i32}} : {ACC}, {TQ}, {TKT}
"""


def first_softmax(v, i, scores):
    """The running maximum v(m{i}max), sum v(l{i}) and packed P v(pa{i}) of a tile's first scores."""
    return f"""\
      // Row maxima of the unscaled scores, scaled afterwards (sm_scale > 0), so that the scale and
      // the subtraction below are one fma per score.
      {v(f'm{i}raw')} = tt.reduce max {scores} {{axis = 1 : i32}} : {ACC} -> {ROW}
      {v(f'm{i}max')} = arith.mulf {v(f'm{i}raw')}, {v('qkr')} : {ROW}
      {v(f'ss{i}')} = arith.mulf {scores}, {v('qkv')} : {ACC}
      {v(f'm{i}b2')} = tt.expand_dims {v(f'm{i}max')} {{axis = 1 : i32}} : {ROW} -> tensor<64x1xf32, #mmas>
      {v(f'm{i}b')} = tt.broadcast {v(f'm{i}b2')} : tensor<64x1xf32, #mmas> -> {ACC}
      {v(f'sc{i}')} = arith.subf {v(f'ss{i}')}, {v(f'm{i}b')} : {ACC}
      {v(f'p{i}')} = math.exp2 {v(f'sc{i}')} : {ACC}
      {v(f'l{i}')} = tt.reduce sum {v(f'p{i}')} {{axis = 1 : i32}} : {ACC} -> {ROW}
{pack_p(v(f'p{i}'), v(f'p{i}{PN}'), v(f'pa{i}'), '      ')}"""


def pack_p(p, packed, pa, ind):
    """P (f32, the scores' layout) rounded to the input type, then in the dot operand's layout."""
    rnd = (f"tt.fp_to_fp {p}, rounding = rtne : {ACC} -> {PT}" if FP8 else
           f"arith.truncf {p} : {ACC} to {PT}")
    return f"""\
{ind}{packed} = {rnd}
{ind}{pa} = ttg.convert_layout {packed} : {PT} -> {PA}
"""


def v_operand(v, stage):
    """The P V wgmma's B operand from V's stage v(stage): V^T's stage read as K x N (fp8), or
    the stage itself; (its lines, its name)."""
    if not FP8:
        return "", v(stage)
    t = v(stage + "t")
    return (f"        {t} = ttg.memdesc_trans {v(stage)} {{order = array<i32: 1, 0>}} : {TV} -> "
            f"{TVT}\n"), t


def region(wg, causal):
    P = "" if wg == 0 else "w1_"
    v = lambda n: "%" + P + n
    mine, other = ("turn0", "turn1") if wg == 0 else ("turn1", "turn0")
    qfull, qempty = f"qfull{wg}", f"qempty{wg}"
    txor = v("c1") if wg == 0 else v("c0")
    roff = v("c0") if wg == 0 else v("c64")
    consts = ""
    if wg == 1:
        for c in sorted({0, 1, 2, KST, 64, 128, D}):
            consts += f"      %w1_c{c} = arith.constant {c} : i32\n"
    rows = "0..63" if wg == 0 else "64..127"
    onum = (f"      {v(ONUM)} = tt.splat {v('descale_v')} : f32 -> {OROW}\n" if FP8 else
            f"      {v(ONUM)} = arith.constant dense<1.0> : {OROW}\n")
    vpl, vp = v_operand(v, 'vp')
    ocomment = ("      // O = acc * descale_v / l (one division per row, then a multiply per element), stored\n"
                "      // in bf16 straight from the accumulator's layout.\n" if FP8 else
                "      // O = acc / l (one division per row, then a multiply per element), stored in f16 straight\n"
                "      // from the accumulator's layout.\n")
    vll, vl = v_operand(v, 'vl')
    nk = v('nkbt') if causal else v('nkb')  # the tile's key blocks
    if causal:
        tiles = f"""\
      {v('cend')} = scf.for {v('uk')} = {v('c0')} to {v('nk')} step {v('c1')} iter_args({v('base')} = {v('c0')}) -> (i32) : i32 {{
      // Unit uk's tile (the program's uk-th): query block pid_m of its head, 2 pid_m + 2 key blocks,
      // the diagonal's two first. The tile's turns start at base + uk (a tile has nkbt + 1).
{unit_tile(v, v, v('uk'), '      ')}\
      {v('hrow')} = arith.muli {v('head')}, {v('n_ctx')} : i32
      {v('diag')} = arith.addi {v('pid_m')}, {v('pid_m')} : i32
      {v('nkbt')} = arith.addi {v('diag')}, {v('c2')} : i32
      {v('tb')} = arith.addi {v('base')}, {v('uk')} : i32
      {v('mblk')} = arith.muli {v('pid_m')}, {v('c128')} : i32
      {v('m0')} = arith.addi {v('mblk')}, {roff} : i32
      {v('qrow0')} = arith.addi {v('hrow')}, {v('m0')} : i32
      {v('qphase')} = arith.andi {v('uk')}, {v('c1')} : i32
"""
        # Warp group 1: step 0 is key block 2 pid_m + 1 (keys from its first row on), its
        # diagonal; the steps after it are wholly seen. Warp group 0: wg0_causal_steps.
        mask0 = f"""\
      // Step 0 is key block 2 pid_m + 1, whose keys start at this warp group's first row: the
      // diagonal.
{mask(v, v('s0w') + '#0', v('m0'), v('n_ctx'), 's0m', v('masked'), '      ')}"""
        s0 = v('s0m')
        jstart, init = v('c1'), (v('zo'), v('m0max'), v('l0'), v('pa0'))
        if wg == 0:
            jstart, init = v('c2'), (v('zo'), v('m1max'), v('l1'), v('pa1'))
    else:
        tiles = f"""\
      {v('cend')} = scf.for {v('t')} = {v('first')} to {v('tiles')} step {v('nprog')} iter_args({v('base')} = {v('c0')}) -> (i32) : i32 {{
      {v('pid_m')} = arith.remsi {v('t')}, {v('nqb')} : i32
      {v('head')} = arith.divsi {v('t')}, {v('nqb')} : i32
      {v('hrow')} = arith.muli {v('head')}, {v('n_ctx')} : i32
      {v('tc')} = arith.divsi {v('base')}, {v('nkb')} : i32
      {v('tb')} = arith.addi {v('base')}, {v('tc')} : i32
      {v('mblk')} = arith.muli {v('pid_m')}, {v('c128')} : i32
      {v('m0')} = arith.addi {v('mblk')}, {roff} : i32
      {v('qrow0')} = arith.addi {v('hrow')}, {v('m0')} : i32
      {v('qphase')} = arith.andi {v('tc')}, {v('c1')} : i32
"""
        mask0, s0 = "", v('s0w') + '#0'
        jstart, init = v('c1'), (v('zo'), v('m0max'), v('l0'), v('pa0'))
    step0 = f"""\
      // Block 0: S_0 = Q K_0^T and its probabilities; its P V is the loop's first.
{lone_scores(v, 0, v('base'), v('tb'), txor, mine, other, qfull)}\
      // K_0 is read: its stage is free (and Q's slot, where S_0 is the tile's last S).
      {v('ke0')} = ttg.memdesc_index {v('empties')}[{v('sk0')}] : {E} -> {MD1}
      ttng.arrive_barrier {v('ke0')}, 1 : {MD1}
      ttng.arrive_barrier {v(qempty)}, 1, {v('qlast')} : {MD1}
{mask0}{first_softmax(v, 0, s0)}"""
    if causal and wg == 0:
        step0 = wg0_causal_steps(v, txor, mine, other, qfull, qempty)
    masked = f"      {v('masked')} = arith.constant dense<{MASKED}> : {ACC}\n" if causal else ""
    return f"""\
      // Warp group {wg}: query rows {rows} of each tile.
{consts}      {v('kst')} = arith.constant {KST} : i32
      {v('vst')} = arith.constant {VST} : i32
      {v('log2e')} = arith.constant 1.44269504 : f32
      {v('qk_scale')} = arith.mulf {v(SCALE)}, {v('log2e')} : f32
      {v('qkv')} = tt.splat {v('qk_scale')} : f32 -> {ACC}
      {v('qkr')} = tt.splat {v('qk_scale')} : f32 -> {ROW}
      {v('zs')} = arith.constant dense<0.0> : {ACC}
      {v('zo')} = arith.constant dense<0.0> : {ACO}
{onum}{masked}      // This warp group's Q slot (its wgmmas' A, filled by the producer).
      {v('qs')} = ttg.memdesc_index {v('qbuf')}[{v('c' + str(wg))}] : {QB} -> {TQ}
{tiles}\
      {v('qlast')} = arith.cmpi eq, {nk}, {v('c1')} : i32
{step0}\
      {v('r')}:4 = scf.for {v('j')} = {jstart} to {nk} step {v('c1')} iter_args({v('acc')} = {init[0]}, {v('mi')} = {init[1]}, {v('li')} = {init[2]}, {v('pprev')} = {init[3]}) -> ({ACO}, {ROW}, {ROW}, {PA}) : i32 {{
        {v('g')} = arith.addi {v('base')}, {v('j')} : i32
        {v('sk')} = arith.remsi {v('g')}, {v('kst')} : i32
        {v('kround')} = arith.divsi {v('g')}, {v('kst')} : i32
        {v('kphase')} = arith.andi {v('kround')}, {v('c1')} : i32
        {v('jp')} = arith.subi {v('g')}, {v('c1')} : i32
        {v('sv')} = arith.remsi {v('jp')}, {v('vst')} : i32
        {v('vround')} = arith.divsi {v('jp')}, {v('vst')} : i32
        {v('vphase')} = arith.andi {v('vround')}, {v('c1')} : i32
        // S_j = Q K_j^T, then O += P_{{j-1}} V_{{j-1}}; both run while S_j's softmax does.
        {v('kf')} = ttg.memdesc_index {v('kfulls')}[{v('sk')}] : {KF} -> {MD1}
        ttng.wait_barrier {v('kf')}, {v('kphase')} : {MD1}
        {v('kj')} = ttg.memdesc_index {v('kbuf')}[{v('sk')}] : {KB} -> {TKV}
        {v('kjt')} = ttg.memdesc_trans {v('kj')} {{order = array<i32: 1, 0>}} : {TKV} -> {TKT}
        {v('twb')} = arith.addi {v('tb')}, {v('j')} : i32
        {v('tpb')} = arith.andi {v('twb')}, {v('c1')} : i32
        {v('tqb')} = arith.xori {v('tpb')}, {txor} : i32
        ttng.wait_barrier {v(mine)}, {v('tqb')} : {MD1}
        {v('sd')} = ttng.warp_group_dot {v('qs')}, {v('kjt')}, {v('zs')} {{inputPrecision = 0 : i32, isAsync = true}} : {TQ} * {TKT} -> {ACC}
        {v('vf')} = ttg.memdesc_index {v('vfulls')}[{v('sv')}] : {VF} -> {MD1}
        ttng.wait_barrier {v('vf')}, {v('vphase')} : {MD1}
        {v('vp')} = ttg.memdesc_index {v('vbuf')}[{v('sv')}] : {VB} -> {TV}
{vpl}        {v('od')} = ttng.warp_group_dot {v('pprev')}, {vp}, {v('acc')} {{inputPrecision = 0 : i32, isAsync = true}} : {PA} * {TVT} -> {ACO}
        ttng.arrive_barrier {v(other)}, 1 : {MD1}
        {v('sw')}:3 = ttng.warp_group_dot_wait {v('sd')}, {v('qs')}, {v('kjt')} {{pendings = 1 : i32}} : {ACC}, {TQ}, {TKT}
        // S_j has retired (the P V still runs): K_j's stage is free.
        {v('ke')} = ttg.memdesc_index {v('empties')}[{v('sk')}] : {E} -> {MD1}
        ttng.arrive_barrier {v('ke')}, 1 : {MD1}
        // The running maximum, this block's probabilities and their row sums.
        {v('smaxr')} = tt.reduce max {v('sw')}#0 {{axis = 1 : i32}} : {ACC} -> {ROW}
        {v('smax')} = arith.mulf {v('smaxr')}, {v('qkr')} : {ROW}
        {v('ss')} = arith.mulf {v('sw')}#0, {v('qkv')} : {ACC}
        {v('mnew')} = arith.maxnumf {v('mi')}, {v('smax')} : {ROW}
        {v('mnew2')} = tt.expand_dims {v('mnew')} {{axis = 1 : i32}} : {ROW} -> tensor<64x1xf32, #mmas>
        {v('mnewb')} = tt.broadcast {v('mnew2')} : tensor<64x1xf32, #mmas> -> {ACC}
        {v('sc')} = arith.subf {v('ss')}, {v('mnewb')} : {ACC}
        {v('p')} = math.exp2 {v('sc')} : {ACC}
        {v('lij')} = tt.reduce sum {v('p')} {{axis = 1 : i32}} : {ACC} -> {ROW}
        {v('mdiff')} = arith.subf {v('mi')}, {v('mnew')} : {ROW}
        {v('alpha')} = math.exp2 {v('mdiff')} : {ROW}
        {v('la')} = arith.mulf {v('li')}, {v('alpha')} : {ROW}
        {v('lnew')} = arith.addf {v('la')}, {v('lij')} : {ROW}
        // After the tile's last S, Q's slot is free, so that the producer copies the next tile's
        // Q while this one ends. Released here, after the softmax, not where S_j retired: ptxas
        // moves a wgmma wait up until an mbarrier arrive stops it, and with no arrive between
        // the two waits this one would wait for P_{{j-1}} V_{{j-1}} before the softmax instead of
        // beside it.
        {v('jlast')} = arith.subi {nk}, {v('c1')} : i32
        {v('islast')} = arith.cmpi eq, {v('j')}, {v('jlast')} : i32
        ttng.arrive_barrier {v(qempty)}, 1, {v('islast')} : {MD1}
        // P_{{j-1}} V_{{j-1}} is done: V_{{j-1}}'s stage is free, and O moves to the new maximum.
        {v('ow')}:2 = ttng.warp_group_dot_wait {v('od')}, {vp} {{pendings = 0 : i32}} : {ACO}, {TVT}
        {v('svi')} = arith.addi {v('sv')}, {v(f'c{KST}')} : i32
        {v('ve')} = ttg.memdesc_index {v('empties')}[{v('svi')}] : {E} -> {MD1}
        ttng.arrive_barrier {v('ve')}, 1 : {MD1}
        // P_j in the dot operand's layout after the wait: written before it, its registers could be
        // P_{{j-1}}'s while the P V wgmma still reads them, and ptxas would serialize every wgmma.
{pack_p(v('p'), v('p' + PN), v('pa'), '        ')}        {v('alphao')} = ttg.convert_layout {v('alpha')} : {ROW} -> {OROW}
        {v('alpha2')} = tt.expand_dims {v('alphao')} {{axis = 1 : i32}} : {OROW} -> tensor<64x1xf32, #mma>
        {v('alphab')} = tt.broadcast {v('alpha2')} : tensor<64x1xf32, #mma> -> {ACO}
        {v('accs')} = arith.mulf {v('ow')}#0, {v('alphab')} : {ACO}
        scf.yield {v('accs')}, {v('mnew')}, {v('lnew')}, {v('pa')} : {ACO}, {ROW}, {ROW}, {PA}
      }}
      // The last block's P V.
      {v('gend')} = arith.addi {v('base')}, {nk} : i32
      {v('jl')} = arith.subi {v('gend')}, {v('c1')} : i32
      {v('sl')} = arith.remsi {v('jl')}, {v('vst')} : i32
      {v('roundl')} = arith.divsi {v('jl')}, {v('vst')} : i32
      {v('phasel')} = arith.andi {v('roundl')}, {v('c1')} : i32
      {v('vfl')} = ttg.memdesc_index {v('vfulls')}[{v('sl')}] : {VF} -> {MD1}
      ttng.wait_barrier {v('vfl')}, {v('phasel')} : {MD1}
      {v('vl')} = ttg.memdesc_index {v('vbuf')}[{v('sl')}] : {VB} -> {TV}
{vll}      {v('twc')} = arith.addi {v('tb')}, {nk} : i32
      {v('tpc')} = arith.andi {v('twc')}, {v('c1')} : i32
      {v('tqc')} = arith.xori {v('tpc')}, {txor} : i32
      ttng.wait_barrier {v(mine)}, {v('tqc')} : {MD1}
      {v('odl')} = ttng.warp_group_dot {v('r')}#3, {vl}, {v('r')}#0 {{inputPrecision = 0 : i32, isAsync = true}} : {PA} * {TVT} -> {ACO}
      ttng.arrive_barrier {v(other)}, 1 : {MD1}
      {v('owl')}:2 = ttng.warp_group_dot_wait {v('odl')}, {vl} {{pendings = 0 : i32}} : {ACO}, {TVT}
      // The tile's last V stage is read: the producer may refill it with the next tile's blocks.
      {v('sli')} = arith.addi {v('sl')}, {v(f'c{KST}')} : i32
      {v('el')} = ttg.memdesc_index {v('empties')}[{v('sli')}] : {E} -> {MD1}
      ttng.arrive_barrier {v('el')}, 1 : {MD1}
{ocomment}      {v('lo')} = ttg.convert_layout {v('r')}#2 : {ROW} -> {OROW}
      {v('linv')} = arith.divf {v(ONUM)}, {v('lo')} : {OROW}
      {v('l2')} = tt.expand_dims {v('linv')} {{axis = 1 : i32}} : {OROW} -> tensor<64x1xf32, #mma>
      {v('lb')} = tt.broadcast {v('l2')} : tensor<64x1xf32, #mma> -> {ACO}
      {v('out')} = arith.mulf {v('owl')}#0, {v('lb')} : {ACO}
      {v('out16')} = arith.truncf {v('out')} : {ACO} to tensor<64x{D}x{OT}, #mma>
      {v('orm')} = tt.make_range {{end = 64 : i32, start = 0 : i32}} : tensor<64xi32, #orow>
      {v('or0')} = tt.splat {v('qrow0')} : i32 -> tensor<64xi32, #orow>
      {v('orows')} = arith.addi {v('or0')}, {v('orm')} : tensor<64xi32, #orow>
      {v('orows2')} = tt.expand_dims {v('orows')} {{axis = 1 : i32}} : tensor<64xi32, #orow> -> tensor<64x1xi32, #mma>
      {v('cdo')} = tt.splat {v(f'c{D}')} : i32 -> tensor<64x1xi32, #mma>
      {v('orowoff')} = arith.muli {v('orows2')}, {v('cdo')} : tensor<64x1xi32, #mma>
      {v('orowb')} = tt.broadcast {v('orowoff')} : tensor<64x1xi32, #mma> -> tensor<64x{D}xi32, #mma>
      {v('ocr')} = tt.make_range {{end = {D} : i32, start = 0 : i32}} : tensor<{D}xi32, #ttg.slice<{{dim = 0, parent = #mma}}>>
      {v('ocols')} = tt.expand_dims {v('ocr')} {{axis = 0 : i32}} : tensor<{D}xi32, #ttg.slice<{{dim = 0, parent = #mma}}>> -> tensor<1x{D}xi32, #mma>
      {v('ocolb')} = tt.broadcast {v('ocols')} : tensor<1x{D}xi32, #mma> -> tensor<64x{D}xi32, #mma>
      {v('ooffs')} = arith.addi {v('orowb')}, {v('ocolb')} : tensor<64x{D}xi32, #mma>
      {v('ov')} = tt.splat {v('o')} : {OP} -> tensor<64x{D}x{OP}, #mma>
      {v('optrs')} = tt.addptr {v('ov')}, {v('ooffs')} : tensor<64x{D}x{OP}, #mma>, tensor<64x{D}xi32, #mma>
      tt.store {v('optrs')}, {v('out16')} : tensor<64x{D}x{OP}, #mma>
      {v('bnext')} = arith.addi {v('base')}, {nk} : i32
      scf.yield {v('bnext')} : i32
      }}
"""


def wg0_causal_steps(v, txor, mine, other, qfull, qempty):
    """Warp group 0's first two steps of a causal tile: step 0 (key block 2 pid_m + 1) is wholly
    masked for its rows, so it only takes its turn and frees the stage; step 1 (block 2 pid_m) is
    its diagonal, whose scores start the running maximum and sum (m1max, l1, pa1) as a first
    block's do, with no P V before it (P_0 would be 0): V_0's stage is freed unread."""
    return f"""\
      // Step 0, key block 2 pid_m + 1, is wholly masked for these rows: no product, only the turn
      // and the stage's release once its copy has landed.
      {v('sk0')} = arith.remsi {v('base')}, {v('kst')} : i32
      {v('kround0')} = arith.divsi {v('base')}, {v('kst')} : i32
      {v('kphase0')} = arith.andi {v('kround0')}, {v('c1')} : i32
      {v('kf0')} = ttg.memdesc_index {v('kfulls')}[{v('sk0')}] : {KF} -> {MD1}
      ttng.wait_barrier {v('kf0')}, {v('kphase0')} : {MD1}
      {v('tp0')} = arith.andi {v('tb')}, {v('c1')} : i32
      {v('tq0')} = arith.xori {v('tp0')}, {txor} : i32
      ttng.wait_barrier {v(mine)}, {v('tq0')} : {MD1}
      ttng.arrive_barrier {v(other)}, 1 : {MD1}
      {v('ke0')} = ttg.memdesc_index {v('empties')}[{v('sk0')}] : {E} -> {MD1}
      ttng.arrive_barrier {v('ke0')}, 1 : {MD1}
      // Step 1, key block 2 pid_m: S_1 = Q K_1^T alone in its turn, masked on the diagonal.
      {v('g1')} = arith.addi {v('base')}, {v('c1')} : i32
      {v('tw1')} = arith.addi {v('tb')}, {v('c1')} : i32
{lone_scores(v, 1, v('g1'), v('tw1'), txor, mine, other, qfull)}\
      // K_1 is read (and Q's slot, where S_1 is the tile's last S); V_0 is freed unread.
      {v('ke1')} = ttg.memdesc_index {v('empties')}[{v('sk1')}] : {E} -> {MD1}
      ttng.arrive_barrier {v('ke1')}, 1 : {MD1}
      {v('last1')} = arith.cmpi eq, {v('nkbt')}, {v('c2')} : i32
      ttng.arrive_barrier {v(qempty)}, 1, {v('last1')} : {MD1}
      {v('sv0')} = arith.remsi {v('base')}, {v('vst')} : i32
      {v('vround0')} = arith.divsi {v('base')}, {v('vst')} : i32
      {v('vphase0')} = arith.andi {v('vround0')}, {v('c1')} : i32
      {v('vf0')} = ttg.memdesc_index {v('vfulls')}[{v('sv0')}] : {VF} -> {MD1}
      ttng.wait_barrier {v('vf0')}, {v('vphase0')} : {MD1}
      {v('svi0')} = arith.addi {v('sv0')}, {v(f'c{KST}')} : i32
      {v('ve0')} = ttg.memdesc_index {v('empties')}[{v('svi0')}] : {E} -> {MD1}
      ttng.arrive_barrier {v('ve0')}, 1 : {MD1}
      // Block 2 pid_m's keys start at this warp group's first row: the diagonal.
{mask(v, v('s1w') + '#0', v('m0'), v('n_ctx'), 's1m', v('masked'), '      ')}\
{first_softmax(v, 1, v('s1m'))}"""


def ring_copy(kv):
    """The producer's copy of key block %row of K or V (kv) into its ring's stage for step %g,
    once the stage is free (K's empty barriers are empties 0.., V's from %ve0 on)."""
    st, fulls, buf, stage, desc = (("kst", KF, KB, TKV, KD) if kv == "k" else
                                   ("vst", VF, VB, TV, VD))
    empty = "%sk" if kv == "k" else "%svi"
    offset = "" if kv == "k" else "        %svi = arith.addi %sv, %ve0 : i32\n"
    # V^T's block: the head's D rows, the block's columns.
    at = "%vtrow, %koff" if kv == "v" and FP8 else "%row, %z"
    return f"""\
        %s{kv} = arith.remsi %g, %{st} : i32
        %{kv}round = arith.divsi %g, %{st} : i32
        %{kv}parity = arith.andi %{kv}round, %one : i32
        %{kv}phase = arith.xori %{kv}parity, %one : i32
{offset}        %{kv}e = ttg.memdesc_index %pempties[{empty}] : {E} -> {MD1}
        ttng.wait_barrier %{kv}e, %{kv}phase : {MD1}
        %{kv}f = ttg.memdesc_index %p{kv}fulls[%s{kv}] : {fulls} -> {MD1}
        %{kv}s = ttg.memdesc_index %p{kv}buf[%s{kv}] : {buf} -> {stage}
        ttng.barrier_expect %{kv}f, {KV}, %true : {MD1}
        ttng.async_tma_copy_global_to_local %p{kv}desc[{at}] %{kv}s, %{kv}f, %true : {desc}, {MD1} -> {stage}
"""


def producer(causal):
    pargs = ", ".join(f"%p{n}: {ty}" for n, ty in args(causal))
    # The first row of the tile's head in V^T.
    vtrow = "      %vtrow = arith.muli %phead, %dh : i32\n" if FP8 else ""
    dh = f"      %dh = arith.constant {D} : i32\n" if FP8 else ""
    if causal:
        p = lambda n: "%p" + n
        c = {"c0": "%z", "c1": "%one", "c2": "%two"}
        tiles = f"""\
      %psteps = scf.for %uk = %z to %pnk step %one iter_args(%base = %z) -> (i32) : i32 {{
{unit_tile(p, lambda n: c.get(n, "%p" + n), '%uk', '      ')}\
      %phrow = arith.muli %phead, %pn_ctx : i32
{vtrow}      %pmblk = arith.muli %ppid_m, %bm : i32
      %pdiag = arith.addi %ppid_m, %ppid_m : i32
      %pnkbt = arith.addi %pdiag, %two : i32
      %pqpar = arith.andi %uk, %one : i32
      %qphase = arith.xori %pqpar, %one : i32
      scf.for %j = %z to %pnkbt step %one : i32 {{
        %g = arith.addi %base, %j : i32
        // Step j's key block: the diagonal's two (2 pid_m + 1, then 2 pid_m) first, then 0, 1, ...
        %jlow = arith.cmpi slt, %j, %two : i32
        %jd0 = arith.addi %pdiag, %one : i32
        %jd = arith.subi %jd0, %j : i32
        %jo = arith.subi %j, %two : i32
        %kb = arith.select %jlow, %jd, %jo : i32
        %koff = arith.muli %kb, %bn : i32
"""
        nk = "%pnkbt"
    else:
        tiles = f"""\
      %psteps = scf.for %t = %pfirst to %ptiles step %pnprog iter_args(%base = %z) -> (i32) : i32 {{
      %phead = arith.divsi %t, %pnqb : i32
      %phrow = arith.muli %phead, %pn_ctx : i32
{vtrow}      %ppid_m = arith.remsi %t, %pnqb : i32
      %pmblk = arith.muli %ppid_m, %bm : i32
      %ptile = arith.divsi %base, %pnkb : i32
      %pqpar = arith.andi %ptile, %one : i32
      %qphase = arith.xori %pqpar, %one : i32
      scf.for %j = %z to %pnkb step %one : i32 {{
        %g = arith.addi %base, %j : i32
        %koff = arith.muli %j, %bn : i32
"""
        nk = "%pnkb"
    return f"""\
    partition1({pargs}) num_warps(1) {{
      // The producer: per tile and key block, wait until the block's K stage is free and copy K
      // into it, then the same for V; after the tile's first K and V (which the consumers need
      // first), its Q rows into each warp group's slot once that one's last S of the previous
      // tile has retired.
      %z = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %two = arith.constant 2 : i32
      %ve0 = arith.constant {VE0} : i32
      %kst = arith.constant {KST} : i32
      %vst = arith.constant {VST} : i32
      %bn = arith.constant {BN} : i32
      %bm = arith.constant {BM} : i32
      %c64p = arith.constant 64 : i32
{dh}      %true = arith.constant true
{tiles}\
        %row = arith.addi %phrow, %koff : i32
{ring_copy('k')}{ring_copy('v')}\
        %first_blk = arith.cmpi eq, %j, %z : i32
        scf.if %first_blk {{
          %qrow = arith.addi %phrow, %pmblk : i32
          %qrow1 = arith.addi %qrow, %c64p : i32
          %q0s = ttg.memdesc_index %pqbuf[%z] : {QB} -> {TQ}
          ttng.wait_barrier %pqempty0, %qphase : {MD1}
          ttng.barrier_expect %pqfull0, {QH}, %true : {MD1}
          ttng.async_tma_copy_global_to_local %pq[%qrow, %z] %q0s, %pqfull0, %true : {QD}, {MD1} -> {TQ}
          %q1s = ttg.memdesc_index %pqbuf[%one] : {QB} -> {TQ}
          ttng.wait_barrier %pqempty1, %qphase : {MD1}
          ttng.barrier_expect %pqfull1, {QH}, %true : {MD1}
          ttng.async_tma_copy_global_to_local %pq[%qrow1, %z] %q1s, %pqfull1, %true : {QD}, {MD1} -> {TQ}
        }}
      }}
      %pnext = arith.addi %base, {nk} : i32
      scf.yield %pnext : i32
      }}
      ttg.warp_return
    }}"""


def kernel(tag, causal):
    """The text of examples/<name(tag, causal)>.tir."""
    use(family(tag, causal))
    wk, bits = 32 // EB, 8 * EB  # wgmma's K, the elements' bits
    # V^T's stages have rows of BN bytes: swizzled by as many (at most 128).
    vt = f"""\
#sv = #ttg.nvmma_shared<{{swizzlingByteWidth = {min(128, BN * EB)}, transposed = false, elementBitWidth = {bits}}}>
#svt = #ttg.nvmma_shared<{{swizzlingByteWidth = {min(128, BN * EB)}, transposed = true, elementBitWidth = {bits}}}>
""" if FP8 else ""
    descales = ", %descale_q: f32, %descale_k: f32, %descale_v: f32" if FP8 else ""
    out = HEADERS[(tag, causal)] + f"""\
#mma = #ttg.nvidia_mma<{{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, {D}, {wk}]}}>
#mmas = #ttg.nvidia_mma<{{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, {BN}, {wk}]}}>
#dota = #ttg.dot_op<{{opIdx = 0, parent = #mma, kWidth = {4 // EB}}}>
#sa = #ttg.nvmma_shared<{{swizzlingByteWidth = 128, transposed = false, elementBitWidth = {bits}}}>
#sat = #ttg.nvmma_shared<{{swizzlingByteWidth = 128, transposed = true, elementBitWidth = {bits}}}>
{vt}#bar = #ttg.swizzled_shared<{{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}}>
#smem = #ttg.shared_memory
#row = #ttg.slice<{{dim = 1, parent = #mmas}}>
#orow = #ttg.slice<{{dim = 1, parent = #mma}}>
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func public @{name(tag, causal)}(%q: {QD}, %kdesc: {KD}, %vdesc: {VD}, %o: {OP} {{tt.divisibility = 16 : i32}}, %n_ctx: i32 {{tt.divisibility = 16 : i32}}, %sm_scale: f32, %heads: i32{descales}) {{
    %first = tt.get_program_id x : i32
    %nprog = tt.get_num_programs x : i32
"""
    # The function's constants, which warp group 0's region (the default one) uses as they are.
    for c in sorted(set(range(NE)) | {64, 128, D}):
        out += f"    %c{c} = arith.constant {c} : i32\n"
    if FP8:
        out += """\
    // The scores' scale with Q's and K's descale factors.
    %descale_qk = arith.mulf %descale_q, %descale_k : f32
    %sm_descaled = arith.mulf %sm_scale, %descale_qk : f32
"""
    if causal:
        out += f"""\
    // Query blocks per head: there are nqb * heads tiles (units).
    %nqb = arith.divsi %n_ctx, %c{BM} : i32
    %tiles = arith.muli %nqb, %heads : i32
    %lastm = arith.subi %nqb, %c1 : i32
    // Program p of P takes units 2p + 2Pk and 2p + 2Pk + 1 (k = 0, 1, ...) below 2P * rounds,
    // then from the rest units p (rest <= P) or 2p and 2p + 1: nk units, its k-th from tailk on
    // single.
    %p2 = arith.muli %first, %c2 : i32
    %np2 = arith.muli %nprog, %c2 : i32
    %rounds = arith.divsi %tiles, %np2 : i32
    %rest = arith.remsi %tiles, %np2 : i32
    %nk0 = arith.muli %rounds, %c2 : i32
    %single = arith.cmpi sle, %rest, %nprog : i32
    %has = arith.cmpi slt, %first, %rest : i32
    %adds = arith.select %has, %c1, %c0 : i32
    %has0 = arith.cmpi slt, %p2, %rest : i32
    %add0 = arith.select %has0, %c1, %c0 : i32
    %p21 = arith.addi %p2, %c1 : i32
    %has1 = arith.cmpi slt, %p21, %rest : i32
    %add1 = arith.select %has1, %c1, %c0 : i32
    %addp = arith.addi %add0, %add1 : i32
    %add = arith.select %single, %adds, %addp : i32
    %nk = arith.addi %nk0, %add : i32
    %tailk = arith.select %single, %nk0, %nk : i32
"""
    else:
        out += f"""\
    // Query blocks (tiles) and key blocks per head: there are nqb * heads tiles.
    %nqb = arith.divsi %n_ctx, %c{BM} : i32
    %nkb = arith.divsi %n_ctx, %c{BN} : i32
    %tiles = arith.muli %nqb, %heads : i32
"""
    fit = ("" if FP8 else " All the\n    // barriers sit in 3 buffers: a buffer more would pass the 227 KB by its alignment.")
    out += f"""\
    %kbuf = ttg.local_alloc : () -> {KB}
    %vbuf = ttg.local_alloc : () -> {VB}
    %qbuf = ttg.local_alloc : () -> {QB}
    %kfulls = ttg.local_alloc : () -> {KF}
    %vfulls = ttg.local_alloc : () -> {VF}
    %empties = ttg.local_alloc : () -> {E}
    // K's and V's full barriers (the producer's expect, completed by the copies' bytes); K's
    // empty barriers (empties 0..{KST - 1}), V's ({VE0}..{TURN0 - 1}), one arrive from each consumer warp group once it
    // has read the stage; the turns ({TURN0}, {TURN0 + 1}: ping-pong), each completed by the other's arrive;
    // Q's full barriers ({QF0}, {QF0 + 1}) and empty ones ({QE0}, {QE0 + 1}), one per warp group's slot.{fit}
"""
    inits = ([(f"kfull{i}", "kfulls", KF, i, 1) for i in range(KST)] +
             [(f"vfull{i}", "vfulls", VF, i, 1) for i in range(VST)] +
             [(f"kempty{i}", "empties", E, i, 2) for i in range(KST)] +
             [(f"vempty{i}", "empties", E, VE0 + i, 2) for i in range(VST)] +
             [("turn0", "empties", E, TURN0, 1), ("turn1", "empties", E, TURN0 + 1, 1),
              ("qfull0", "empties", E, QF0, 1), ("qfull1", "empties", E, QF0 + 1, 1),
              ("qempty0", "empties", E, QE0, 1), ("qempty1", "empties", E, QE0 + 1, 1)])
    for n, buf, ty, i, cnt in inits:
        out += f"    %{n} = ttg.memdesc_index %{buf}[%c{i}] : {ty} -> {MD1}\n"
        out += f"    ttng.init_barrier %{n}, {cnt} : {MD1}\n"
    argnames = ", ".join("%" + n for n, _ in args(causal))
    argtypes = ", ".join(ty for _, ty in args(causal))
    out += f"    ttg.warp_specialize({argnames}) attributes {{actualRegisters = array<i32: 240, 240, 24>, requestedRegisters = array<i32: 240, 24>}}\n"
    out += "    default {\n" + region(0, causal) + "      ttg.warp_yield\n    }\n"
    w1args = ", ".join(f"%w1_{n}: {ty}" for n, ty in args(causal))
    out += (f"    partition0({w1args}) num_warps(4) {{\n" + region(1, causal) +
            "      ttg.warp_return\n    }\n")
    out += producer(causal) + f" : ({argtypes}) -> ()\n"
    for n, *_ in inits:
        out += f"    ttng.inval_barrier %{n} : {MD1}\n"
    out += "    tt.return\n  }\n}\n"
    return out


def main():
    return write_or_check(__doc__, "gen-pp-attention.py", {
        f"examples/{name(tag, causal)}.tir": kernel(tag, causal)
        for tag in ("d256", "fp8") for causal in (False, True)})


if __name__ == "__main__":
    sys.exit(main())

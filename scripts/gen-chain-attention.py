#!/usr/bin/env python3
"""Writes the chained-tile attention kernels, examples/attention_ws_pp_persistent_chain_d64.tir and
_d128.tir (docs/attention.md, "Chained tiles"), from one description: the two consumer warp
groups' regions differ only in their rows and turn barriers, and the two head dims only in their
shapes, ring depths and S's and O's mma layouts. With --check, compares instead and exits 1 where
a file differs (the `scripts.chain_attention` test), so that an edit goes here, not into one file.

  python3 scripts/gen-chain-attention.py [--check]
"""
import sys

from kernelgen import write_or_check

HEADERS = {
    128: """\
// Written by scripts/gen-chain-attention.py: edit it, not this file.
// examples/attention_ws_pp_persistent_tmaqo_d128.tir (persistent, ping-pong consumer warp groups,
// Q copied and O stored by TMA) with the tiles chained: the turn that issues a tile's last P V
// also issues the next tile's S_0 = Q K_0^T, so that a tile takes nblk turns instead of nblk + 1
// and the next tile's first softmax runs while the last P V does; the tile's normalisation and O
// store follow while the other warp group's products run. O is normalised by one division per
// row and a multiply per element, not 64 divisions a thread (docs/attention.md, "Chained tiles").
// Q and O share 4 slots of 64 x 128: tile i of a program has its Q in pair i % 2 (slot 2 (i % 2)
// + w for warp group w) and, once its last S has retired, writes its O there. The next tile's Q
// thus has the other pair, and the producer copies it (both halves, one full barrier of 32 KB per
// pair) a tile ahead: after key block min(4, nblk - 1) of the tile before. Each warp group frees
// a pair at the top of its turn for block min(2, nblk - 1) of the tile after the one that stored
// from it, once that store has read it (cp.async.bulk.wait_group.read). After its last tile the
// producer copies tile 0's Q and K_0 once more, for the last boundary turn, whose scores are
// dropped: every boundary turn is alike. P_j is packed for its wgmma after the wait for P_{j-1}
// V_{j-1}: packed before, its registers could be P_{j-1}'s while that wgmma reads them, and ptxas
// would serialize every wgmma of the kernel. K and V in rings of 2 and 3 stages as in the tma
// kernel: 64 + 96 + 64 KB = 224 KB of shared memory. Budgets 240 / 240 / 24. Arguments as
// attention_ws_pp_persistent_tmaqo_d128.tir's (Q and O are tensor maps over [heads * n_ctx, 128],
// boxes of 64 rows); sm_scale > 0.
""",
    64: """\
// Written by scripts/gen-chain-attention.py: edit it, not this file.
// examples/attention_ws_pp_persistent_chain_d128.tir at head dim 64 (its header says how the
// tiles are chained): a tile's last P V and the next tile's S_0 share a turn. S is 128 keys wide
// in an mma layout of N = 128 per instruction and O 64 wide in one of N = 64; their rows sit in
// the same threads, so the maximum, the sum and P pass between them as no-op conversions.
// Shared memory is not tight at d64: K has a ring of 3 stages and V one of 4 (48 + 64 KB), and Q
// and O share 4 slots of 64 x 64 (32 KB): 144 KB. Budgets 240 / 240 / 24. Arguments as
// attention_ws_pp_persistent_chain_d128.tir's, over [heads * n_ctx, 64]; sm_scale > 0.
""",
}


class Shapes:
    """The types, ring depths and barrier indices of the kernel for head dim d."""

    def __init__(self, d):
        self.D = d
        # K and V stages: 224 KB of shared memory at d128; at d64 there is room for more.
        self.KST, self.VST = (2, 3) if d == 128 else (3, 4)
        # empties: K's empty barriers, V's, the two turns, Q's full barriers, Q's empty ones.
        self.VE0, self.TURN0 = self.KST, self.KST + self.VST
        self.QF0, self.QE0 = self.TURN0 + 2, self.TURN0 + 4
        self.NE = self.QE0 + 2
        self.KV = 128 * d * 2  # bytes of a K or V block
        self.QH = 64 * d * 2  # bytes of one warp group's Q rows
        self.MD1 = "!ttg.memdesc<1xi64, #bar, #smem, mutable>"
        self.E = f"!ttg.memdesc<{self.NE}x1xi64, #bar, #smem, mutable>"
        self.KF = f"!ttg.memdesc<{self.KST}x1xi64, #bar, #smem, mutable>"
        self.VF = f"!ttg.memdesc<{self.VST}x1xi64, #bar, #smem, mutable>"
        self.KB = f"!ttg.memdesc<{self.KST}x128x{d}xf16, #sa, #smem, mutable>"
        self.VB = f"!ttg.memdesc<{self.VST}x128x{d}xf16, #sa, #smem, mutable>"
        self.QO = f"!ttg.memdesc<4x64x{d}xf16, #sa, #smem, mutable>"
        self.T128 = f"!ttg.memdesc<128x{d}xf16, #sa, #smem, mutable>"
        self.T128T = f"!ttg.memdesc<{d}x128xf16, #sat, #smem, mutable>"
        self.T64 = f"!ttg.memdesc<64x{d}xf16, #sa, #smem, mutable>"
        self.ACC = "tensor<64x128xf32, #mmas>"  # S (128 keys)
        self.ACO = f"tensor<64x{d}xf32, #mma>"  # O
        self.OROW = "tensor<64xf32, #orow>"
        self.ROW = "tensor<64xf32, #row>"
        self.PA = "tensor<64x128xf16, #dota>"
        self.QD = f"!tt.tensordesc<tensor<64x{d}xf16, #sa>>"
        self.KD = f"!tt.tensordesc<tensor<128x{d}xf16, #sa>>"
        self.NAME = f"attention_ws_pp_persistent_chain_d{d}"
        self.MMAS = "" if d == 128 else (
            "#mmas = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], "
            "instrShape = [16, 128, 16]}>\n")
        self.OROWDEF = "" if d == 128 else "#orow = #ttg.slice<{dim = 1, parent = #mma}>\n"
        # The operands of ttg.warp_specialize, and the partitions' arguments.
        self.ARGS = [("kdesc", self.KD), ("vdesc", self.KD), ("kbuf", self.KB), ("vbuf", self.VB),
                     ("kfulls", self.KF), ("vfulls", self.VF), ("empties", self.E),
                     ("nblk", "i32"), ("first", "i32"), ("nprog", "i32"), ("tiles", "i32"),
                     ("n_ctx", "i32"), ("sm_scale", "f32"), ("q", self.QD), ("o", self.QD),
                     ("qobuf", self.QO), ("turn0", self.MD1), ("turn1", self.MD1)]


def softmax_first(s, v, scores, out):
    """A tile's first block's probabilities from its scores: out_m, out_l and out_p."""
    return f"""\
      {v(out+'raw')} = tt.reduce max {scores} {{axis = 1 : i32}} : {s.ACC} -> {s.ROW}
      {v(out+'m')} = arith.mulf {v(out+'raw')}, {v('qkr')} : {s.ROW}
      {v(out+'ss')} = arith.mulf {scores}, {v('qkv')} : {s.ACC}
      {v(out+'mb2')} = tt.expand_dims {v(out+'m')} {{axis = 1 : i32}} : {s.ROW} -> tensor<64x1xf32, #mmas>
      {v(out+'mb')} = tt.broadcast {v(out+'mb2')} : tensor<64x1xf32, #mmas> -> {s.ACC}
      {v(out+'sc')} = arith.subf {v(out+'ss')}, {v(out+'mb')} : {s.ACC}
      {v(out+'p')} = math.exp2 {v(out+'sc')} : {s.ACC}
      {v(out+'l')} = tt.reduce sum {v(out+'p')} {{axis = 1 : i32}} : {s.ACC} -> {s.ROW}
"""


def pack_first(s, v, out):
    """P of a tile's first block in the dot operand's layout, out_pa."""
    return f"""\
      {v(out+'p16')} = arith.truncf {v(out+'p')} : {s.ACC} to tensor<64x128xf16, #mmas>
      {v(out+'pa')} = ttg.convert_layout {v(out+'p16')} : tensor<64x128xf16, #mmas> -> {s.PA}
"""


def rowconv(s, v, src, dst, ind):
    """Row vector src in O's row layout, dst (S's at d128: no conversion)."""
    if s.D == 128:
        return ""
    return f"{ind}{v(dst)} = ttg.convert_layout {src} : {s.ROW} -> {s.OROW}\n"


def region(s, wg):
    P = "" if wg == 0 else "w1_"
    v = lambda n: "%" + P + n
    mine, other = ("turn0", "turn1") if wg == 0 else ("turn1", "turn0")
    txor = v("c1") if wg == 0 else v("c0")
    roff = v("c0") if wg == 0 else v("c64")
    w = v("c0") if wg == 0 else v("c1")
    consts = ""
    if wg == 1:
        for c in sorted({0, 1, 2, s.KST, s.QF0, s.QE0, 64, 128}):
            consts += f"      %w1_c{c} = arith.constant {c} : i32\n"
    rows = "0..63" if wg == 0 else "64..127"
    alphao = v('alphao') if s.D == 64 else v('alpha')
    lo = v('lo') if s.D == 64 else v('r') + '#2'
    zo = "" if s.D == 128 else f"      {v('zo')} = arith.constant dense<0.0> : {s.ACO}\n"
    zon = v('zs') if s.D == 128 else v('zo')
    t = f"""\
      // Warp group {wg}: query rows {rows} of each tile.
{consts}      {v('kst')} = arith.constant {s.KST} : i32
      {v('vst')} = arith.constant {s.VST} : i32
      {v('log2e')} = arith.constant 1.44269504 : f32
      {v('qk_scale')} = arith.mulf {v('sm_scale')}, {v('log2e')} : f32
      {v('qkv')} = tt.splat {v('qk_scale')} : f32 -> {s.ACC}
      {v('qkr')} = tt.splat {v('qk_scale')} : f32 -> {s.ROW}
      {v('zs')} = arith.constant dense<0.0> : {s.ACC}
{zo}      // The first tile's S_0 = Q K_0^T (Q in this warp group's slot of pair 0), alone in its turn.
      {v('qf0')} = ttg.memdesc_index {v('empties')}[{v(f'c{s.QF0}')}] : {s.E} -> {s.MD1}
      ttng.wait_barrier {v('qf0')}, {v('c0')} : {s.MD1}
      {v('qs0')} = ttg.memdesc_index {v('qobuf')}[{w}] : {s.QO} -> {s.T64}
      {v('kf0')} = ttg.memdesc_index {v('kfulls')}[{v('c0')}] : {s.KF} -> {s.MD1}
      ttng.wait_barrier {v('kf0')}, {v('c0')} : {s.MD1}
      {v('k0')} = ttg.memdesc_index {v('kbuf')}[{v('c0')}] : {s.KB} -> {s.T128}
      {v('k0t')} = ttg.memdesc_trans {v('k0')} {{order = array<i32: 1, 0>}} : {s.T128} -> {s.T128T}
      {v('tq0')} = arith.xori {v('c0')}, {txor} : i32
      ttng.wait_barrier {v(mine)}, {v('tq0')} : {s.MD1}
      {v('s0d')} = ttng.warp_group_dot {v('qs0')}, {v('k0t')}, {v('zs')} {{inputPrecision = 0 : i32, isAsync = true}} : {s.T64} * {s.T128T} -> {s.ACC}
      ttng.arrive_barrier {v(other)}, 1 : {s.MD1}
      {v('s0w')}:3 = ttng.warp_group_dot_wait {v('s0d')}, {v('qs0')}, {v('k0t')} {{pendings = 0 : i32}} : {s.ACC}, {s.T64}, {s.T128T}
      {v('ke0')} = ttg.memdesc_index {v('empties')}[{v('c0')}] : {s.E} -> {s.MD1}
      ttng.arrive_barrier {v('ke0')}, 1 : {s.MD1}
      // Row maxima of the unscaled scores, scaled afterwards (sm_scale > 0), so that the scale and
      // the subtraction below are one fma per score.
{softmax_first(s, v, v('s0w') + '#0', 'f_')}{pack_first(s, v, 'f_')}\
      // Per tile (i-th of this program, block counter base = i * nblk): the turns of blocks 1 ..
      // nblk - 1, then the boundary turn, which issues the next tile's S_0 with this tile's last
      // P V. Carried: the probabilities of the tile's block 0 (its running maximum and sum).
      {v('cend')}:4 = scf.for {v('t')} = {v('first')} to {v('tiles')} step {v('nprog')} iter_args({v('base')} = {v('c0')}, {v('mi0')} = {v('f_m')}, {v('li0')} = {v('f_l')}, {v('pp0')} = {v('f_pa')}) -> (i32, {s.ROW}, {s.ROW}, {s.PA}) : i32 {{
      {v('pid_m')} = arith.remsi {v('t')}, {v('nblk')} : i32
      {v('head')} = arith.divsi {v('t')}, {v('nblk')} : i32
      {v('hrow')} = arith.muli {v('head')}, {v('n_ctx')} : i32
      {v('mblk')} = arith.muli {v('pid_m')}, {v('c128')} : i32
      {v('m0')} = arith.addi {v('mblk')}, {roff} : i32
      {v('qrow0')} = arith.addi {v('hrow')}, {v('m0')} : i32
      // Tile i's Q (and then O) slot is pair i % 2's; the next tile's Q goes into the other pair.
      {v('tc')} = arith.divsi {v('base')}, {v('nblk')} : i32
      {v('par')} = arith.andi {v('tc')}, {v('c1')} : i32
      {v('npar')} = arith.xori {v('par')}, {v('c1')} : i32
      {v('qsi')} = arith.addi {v('par')}, {v('par')} : i32
      {v('qsw')} = arith.addi {v('qsi')}, {w} : i32
      {v('qs')} = ttg.memdesc_index {v('qobuf')}[{v('qsw')}] : {s.QO} -> {s.T64}
      {v('nqsi')} = arith.addi {v('npar')}, {v('npar')} : i32
      {v('nqsw')} = arith.addi {v('nqsi')}, {w} : i32
      {v('nqs')} = ttg.memdesc_index {v('qobuf')}[{v('nqsw')}] : {s.QO} -> {s.T64}
      // The other pair's empty barrier: it held the previous tile's O, whose store must have
      // read it before the producer copies the next tile's Q there.
      {v('notfirst')} = arith.cmpi ne, {v('tc')}, {v('c0')} : i32
      {v('qei')} = arith.addi {v('npar')}, {v(f'c{s.QE0}')} : i32
      {v('qe')} = ttg.memdesc_index {v('empties')}[{v('qei')}] : {s.E} -> {s.MD1}
      // Block jr = min(2, nblk - 1) frees it: two turns after the store was issued where the tile
      // has them (a tile of one block frees it before its boundary turn).
      {v('jlast')} = arith.subi {v('nblk')}, {v('c1')} : i32
      {v('jlong')} = arith.cmpi sgt, {v('nblk')}, {v('c2')} : i32
      {v('jr')} = arith.select {v('jlong')}, {v('c2')}, {v('jlast')} : i32
      {v('r')}:4 = scf.for {v('j')} = {v('c1')} to {v('nblk')} step {v('c1')} iter_args({v('acc')} = {zon}, {v('mi')} = {v('mi0')}, {v('li')} = {v('li0')}, {v('pprev')} = {v('pp0')}) -> ({s.ACO}, {s.ROW}, {s.ROW}, {s.PA}) : i32 {{
        // At the top of block jr's turn (no wgmma in flight), once the previous tile's O store
        // has read its slot, that slot is free for the next tile's Q.
        {v('isjr')} = arith.cmpi eq, {v('j')}, {v('jr')} : i32
        {v('rel')} = arith.andi {v('isjr')}, {v('notfirst')} : i1
        scf.if {v('rel')} {{
          ttng.async_tma_store_wait {{pendings = 0 : i32}}
          ttng.arrive_barrier {v('qe')}, 1 : {s.MD1}
        }}
        {v('g')} = arith.addi {v('base')}, {v('j')} : i32
        {v('sk')} = arith.remsi {v('g')}, {v('kst')} : i32
        {v('kround')} = arith.divsi {v('g')}, {v('kst')} : i32
        {v('kphase')} = arith.andi {v('kround')}, {v('c1')} : i32
        {v('jp')} = arith.subi {v('g')}, {v('c1')} : i32
        {v('sv')} = arith.remsi {v('jp')}, {v('vst')} : i32
        {v('vround')} = arith.divsi {v('jp')}, {v('vst')} : i32
        {v('vphase')} = arith.andi {v('vround')}, {v('c1')} : i32
        // S_j = Q K_j^T, then O += P_{{j-1}} V_{{j-1}}; both run while S_j's softmax does. The turn
        // of block g (counted across tiles) is the warp group's g-th.
        {v('kf')} = ttg.memdesc_index {v('kfulls')}[{v('sk')}] : {s.KF} -> {s.MD1}
        ttng.wait_barrier {v('kf')}, {v('kphase')} : {s.MD1}
        {v('kj')} = ttg.memdesc_index {v('kbuf')}[{v('sk')}] : {s.KB} -> {s.T128}
        {v('kjt')} = ttg.memdesc_trans {v('kj')} {{order = array<i32: 1, 0>}} : {s.T128} -> {s.T128T}
        {v('tpb')} = arith.andi {v('g')}, {v('c1')} : i32
        {v('tqb')} = arith.xori {v('tpb')}, {txor} : i32
        ttng.wait_barrier {v(mine)}, {v('tqb')} : {s.MD1}
        {v('sd')} = ttng.warp_group_dot {v('qs')}, {v('kjt')}, {v('zs')} {{inputPrecision = 0 : i32, isAsync = true}} : {s.T64} * {s.T128T} -> {s.ACC}
        {v('vf')} = ttg.memdesc_index {v('vfulls')}[{v('sv')}] : {s.VF} -> {s.MD1}
        ttng.wait_barrier {v('vf')}, {v('vphase')} : {s.MD1}
        {v('vp')} = ttg.memdesc_index {v('vbuf')}[{v('sv')}] : {s.VB} -> {s.T128}
        {v('od')} = ttng.warp_group_dot {v('pprev')}, {v('vp')}, {v('acc')} {{inputPrecision = 0 : i32, isAsync = true}} : {s.PA} * {s.T128} -> {s.ACO}
        ttng.arrive_barrier {v(other)}, 1 : {s.MD1}
        {v('sw')}:3 = ttng.warp_group_dot_wait {v('sd')}, {v('qs')}, {v('kjt')} {{pendings = 1 : i32}} : {s.ACC}, {s.T64}, {s.T128T}
        // S_j has retired (the P V still runs): K_j's stage is free.
        {v('ke')} = ttg.memdesc_index {v('empties')}[{v('sk')}] : {s.E} -> {s.MD1}
        ttng.arrive_barrier {v('ke')}, 1 : {s.MD1}
        // The running maximum, this block's probabilities and their row sums.
        {v('smaxr')} = tt.reduce max {v('sw')}#0 {{axis = 1 : i32}} : {s.ACC} -> {s.ROW}
        {v('smax')} = arith.mulf {v('smaxr')}, {v('qkr')} : {s.ROW}
        {v('ss')} = arith.mulf {v('sw')}#0, {v('qkv')} : {s.ACC}
        {v('mnew')} = arith.maxnumf {v('mi')}, {v('smax')} : {s.ROW}
        {v('mnew2')} = tt.expand_dims {v('mnew')} {{axis = 1 : i32}} : {s.ROW} -> tensor<64x1xf32, #mmas>
        {v('mnewb')} = tt.broadcast {v('mnew2')} : tensor<64x1xf32, #mmas> -> {s.ACC}
        {v('sc')} = arith.subf {v('ss')}, {v('mnewb')} : {s.ACC}
        {v('p')} = math.exp2 {v('sc')} : {s.ACC}
        {v('lij')} = tt.reduce sum {v('p')} {{axis = 1 : i32}} : {s.ACC} -> {s.ROW}
        {v('mdiff')} = arith.subf {v('mi')}, {v('mnew')} : {s.ROW}
        {v('alpha')} = math.exp2 {v('mdiff')} : {s.ROW}
        {v('la')} = arith.mulf {v('li')}, {v('alpha')} : {s.ROW}
        {v('lnew')} = arith.addf {v('la')}, {v('lij')} : {s.ROW}
        // P_{{j-1}} V_{{j-1}} is done: V_{{j-1}}'s stage is free, and O moves to the new maximum.
        {v('ow')}:2 = ttng.warp_group_dot_wait {v('od')}, {v('vp')} {{pendings = 0 : i32}} : {s.ACO}, {s.T128}
        {v('svi')} = arith.addi {v('sv')}, {v(f'c{s.KST}')} : i32
        {v('ve')} = ttg.memdesc_index {v('empties')}[{v('svi')}] : {s.E} -> {s.MD1}
        ttng.arrive_barrier {v('ve')}, 1 : {s.MD1}
        // P_j in the dot operand's layout after the wait: written before it, its registers could be
        // P_{{j-1}}'s while the P V wgmma still reads them, and ptxas would serialize every wgmma.
        {v('p16')} = arith.truncf {v('p')} : {s.ACC} to tensor<64x128xf16, #mmas>
        {v('pa')} = ttg.convert_layout {v('p16')} : tensor<64x128xf16, #mmas> -> {s.PA}
{rowconv(s, v, v('alpha'), 'alphao', '        ')}        {v('alpha2')} = tt.expand_dims {alphao} {{axis = 1 : i32}} : {s.OROW} -> tensor<64x1xf32, #mma>
        {v('alphab')} = tt.broadcast {v('alpha2')} : tensor<64x1xf32, #mma> -> {s.ACO}
        {v('accs')} = arith.mulf {v('ow')}#0, {v('alphab')} : {s.ACO}
        scf.yield {v('accs')}, {v('mnew')}, {v('lnew')}, {v('pa')} : {s.ACO}, {s.ROW}, {s.ROW}, {s.PA}
      }}
      // A tile of one block has no turn before its boundary: the previous O's slot is freed here.
      {v('oneblk')} = arith.cmpi eq, {v('nblk')}, {v('c1')} : i32
      {v('rel1')} = arith.andi {v('oneblk')}, {v('notfirst')} : i1
      scf.if {v('rel1')} {{
        ttng.async_tma_store_wait {{pendings = 0 : i32}}
        ttng.arrive_barrier {v('qe')}, 1 : {s.MD1}
      }}
      // The boundary turn: S_0 of the program's next tile (after its last tile, the producer's
      // copy of tile 0's Q and K_0, whose scores are dropped) and this tile's last P V.
      {v('gn')} = arith.addi {v('base')}, {v('nblk')} : i32
      {v('tn')} = arith.addi {v('tc')}, {v('c1')} : i32
      {v('tnr')} = arith.shrsi {v('tn')}, {v('c1')} : i32
      {v('nqph')} = arith.andi {v('tnr')}, {v('c1')} : i32
      {v('nqfi')} = arith.addi {v('npar')}, {v(f'c{s.QF0}')} : i32
      {v('nqf')} = ttg.memdesc_index {v('empties')}[{v('nqfi')}] : {s.E} -> {s.MD1}
      ttng.wait_barrier {v('nqf')}, {v('nqph')} : {s.MD1}
      {v('skn')} = arith.remsi {v('gn')}, {v('kst')} : i32
      {v('kroundn')} = arith.divsi {v('gn')}, {v('kst')} : i32
      {v('kphasen')} = arith.andi {v('kroundn')}, {v('c1')} : i32
      {v('kfn')} = ttg.memdesc_index {v('kfulls')}[{v('skn')}] : {s.KF} -> {s.MD1}
      ttng.wait_barrier {v('kfn')}, {v('kphasen')} : {s.MD1}
      {v('kn')} = ttg.memdesc_index {v('kbuf')}[{v('skn')}] : {s.KB} -> {s.T128}
      {v('knt')} = ttg.memdesc_trans {v('kn')} {{order = array<i32: 1, 0>}} : {s.T128} -> {s.T128T}
      {v('jl')} = arith.subi {v('gn')}, {v('c1')} : i32
      {v('sl')} = arith.remsi {v('jl')}, {v('vst')} : i32
      {v('roundl')} = arith.divsi {v('jl')}, {v('vst')} : i32
      {v('phasel')} = arith.andi {v('roundl')}, {v('c1')} : i32
      {v('tpc')} = arith.andi {v('gn')}, {v('c1')} : i32
      {v('tqc')} = arith.xori {v('tpc')}, {txor} : i32
      ttng.wait_barrier {v(mine)}, {v('tqc')} : {s.MD1}
      {v('snd')} = ttng.warp_group_dot {v('nqs')}, {v('knt')}, {v('zs')} {{inputPrecision = 0 : i32, isAsync = true}} : {s.T64} * {s.T128T} -> {s.ACC}
      {v('vfl')} = ttg.memdesc_index {v('vfulls')}[{v('sl')}] : {s.VF} -> {s.MD1}
      ttng.wait_barrier {v('vfl')}, {v('phasel')} : {s.MD1}
      {v('vl')} = ttg.memdesc_index {v('vbuf')}[{v('sl')}] : {s.VB} -> {s.T128}
      {v('odl')} = ttng.warp_group_dot {v('r')}#3, {v('vl')}, {v('r')}#0 {{inputPrecision = 0 : i32, isAsync = true}} : {s.PA} * {s.T128} -> {s.ACO}
      ttng.arrive_barrier {v(other)}, 1 : {s.MD1}
      {v('snw')}:3 = ttng.warp_group_dot_wait {v('snd')}, {v('nqs')}, {v('knt')} {{pendings = 1 : i32}} : {s.ACC}, {s.T64}, {s.T128T}
      {v('ken')} = ttg.memdesc_index {v('empties')}[{v('skn')}] : {s.E} -> {s.MD1}
      ttng.arrive_barrier {v('ken')}, 1 : {s.MD1}
      // The next tile's block-0 probabilities, while this tile's last P V runs.
{softmax_first(s, v, v('snw') + '#0', 'n_')}\
      {v('owl')}:2 = ttng.warp_group_dot_wait {v('odl')}, {v('vl')} {{pendings = 0 : i32}} : {s.ACO}, {s.T128}
      {v('sli')} = arith.addi {v('sl')}, {v(f'c{s.KST}')} : i32
      {v('el')} = ttg.memdesc_index {v('empties')}[{v('sli')}] : {s.E} -> {s.MD1}
      ttng.arrive_barrier {v('el')}, 1 : {s.MD1}
{pack_first(s, v, 'n_')}      // O = acc / l in f16 into this tile's slot (its Q is no longer read: the tile's last S
      // has retired), then one TMA store, which runs on while the next tile goes on.
{rowconv(s, v, v('r') + '#2', 'lo', '      ')}      // One division per row, then a multiply per element.
      {v('ones')} = arith.constant dense<1.0> : {s.OROW}
      {v('linv')} = arith.divf {v('ones')}, {lo} : {s.OROW}
      {v('l2')} = tt.expand_dims {v('linv')} {{axis = 1 : i32}} : {s.OROW} -> tensor<64x1xf32, #mma>
      {v('lb')} = tt.broadcast {v('l2')} : tensor<64x1xf32, #mma> -> {s.ACO}
      {v('out')} = arith.mulf {v('owl')}#0, {v('lb')} : {s.ACO}
      {v('out16')} = arith.truncf {v('out')} : {s.ACO} to tensor<64x{s.D}xf16, #mma>
      ttng.async_tma_store_wait {{pendings = 0 : i32}}
      ttg.local_store {v('out16')}, {v('qs')} : tensor<64x{s.D}xf16, #mma> -> {s.T64}
      ttng.fence_async_shared {{bCluster = false}}
      ttng.async_tma_copy_local_to_global {v('o')}[{v('qrow0')}, {v('c0')}] {v('qs')} : {s.QD}, {s.T64}
      scf.yield {v('gn')}, {v('n_m')}, {v('n_l')}, {v('n_pa')} : i32, {s.ROW}, {s.ROW}, {s.PA}
      }}
      // The last store has read its slot before the CTA's shared memory is freed.
      ttng.async_tma_store_wait {{pendings = 0 : i32}}
"""
    return t


def qcopy(s, x, tc, row, ind):
    """The producer's copy of both warp groups' Q rows from row `row` into pair tc % 2, once free."""
    return f"""\
{ind}%{x}par = arith.andi {tc}, %one : i32
{ind}%{x}round = arith.shrsi {tc}, %one : i32
{ind}%{x}parity = arith.andi %{x}round, %one : i32
{ind}%{x}phase = arith.xori %{x}parity, %one : i32
{ind}%{x}qei = arith.addi %{x}par, %qe0 : i32
{ind}%{x}qe = ttg.memdesc_index %pempties[%{x}qei] : {s.E} -> {s.MD1}
{ind}ttng.wait_barrier %{x}qe, %{x}phase : {s.MD1}
{ind}%{x}qfi = arith.addi %{x}par, %qf0 : i32
{ind}%{x}qf = ttg.memdesc_index %pempties[%{x}qfi] : {s.E} -> {s.MD1}
{ind}%{x}q0i = arith.addi %{x}par, %{x}par : i32
{ind}%{x}q1i = arith.addi %{x}q0i, %one : i32
{ind}%{x}q0 = ttg.memdesc_index %pqobuf[%{x}q0i] : {s.QO} -> {s.T64}
{ind}%{x}q1 = ttg.memdesc_index %pqobuf[%{x}q1i] : {s.QO} -> {s.T64}
{ind}%{x}row1 = arith.addi {row}, %c64p : i32
{ind}ttng.barrier_expect %{x}qf, {2 * s.QH}, %true : {s.MD1}
{ind}ttng.async_tma_copy_global_to_local %pq[{row}, %z] %{x}q0, %{x}qf, %true : {s.QD}, {s.MD1} -> {s.T64}
{ind}ttng.async_tma_copy_global_to_local %pq[%{x}row1, %z] %{x}q1, %{x}qf, %true : {s.QD}, {s.MD1} -> {s.T64}
"""


def tile_row(s, x, t, ind):
    """%{x}row: the first row of tile t's query block in the flat [heads * n_ctx, d] view."""
    return f"""\
{ind}%{x}head = arith.divsi {t}, %pnblk : i32
{ind}%{x}hrow = arith.muli %{x}head, %pn_ctx : i32
{ind}%{x}pid_m = arith.remsi {t}, %pnblk : i32
{ind}%{x}mblk = arith.muli %{x}pid_m, %bn : i32
{ind}%{x}row = arith.addi %{x}hrow, %{x}mblk : i32
"""


def ring_copy(s, pre, kv, g, row, ind):
    """The producer's copy of K or V (kv) block `row` into its ring's stage for step g, once the
    stage is free: names %{pre}sk, %{pre}kround, ... (sv, vround, ... for V)."""
    st, fulls, buf = (s.KST, s.KF, s.KB) if kv == "k" else (s.VST, s.VF, s.VB)
    slot = f"%{pre}s{kv}"
    # K's empty barriers are empties 0.., V's follow them.
    empty = slot if kv == "k" else slot + "i"
    offset = "" if kv == "k" else f"{ind}{empty} = arith.addi {slot}, %ve0 : i32\n"
    return f"""\
{ind}{slot} = arith.remsi {g}, %{kv}st : i32
{ind}%{pre}{kv}round = arith.divsi {g}, %{kv}st : i32
{ind}%{pre}{kv}parity = arith.andi %{pre}{kv}round, %one : i32
{ind}%{pre}{kv}phase = arith.xori %{pre}{kv}parity, %one : i32
{offset}{ind}%{pre}{kv}e = ttg.memdesc_index %pempties[{empty}] : {s.E} -> {s.MD1}
{ind}ttng.wait_barrier %{pre}{kv}e, %{pre}{kv}phase : {s.MD1}
{ind}%{pre}{kv}f = ttg.memdesc_index %p{kv}fulls[{slot}] : {fulls} -> {s.MD1}
{ind}%{pre}{kv}s = ttg.memdesc_index %p{kv}buf[{slot}] : {buf} -> {s.T128}
{ind}ttng.barrier_expect %{pre}{kv}f, {s.KV}, %true : {s.MD1}
{ind}ttng.async_tma_copy_global_to_local %p{kv}desc[{row}, %z] %{pre}{kv}s, %{pre}{kv}f, %true : {s.KD}, {s.MD1} -> {s.T128}
"""


def producer(s):
    args = ", ".join(f"%p{n}: {ty}" for n, ty in s.ARGS)
    return f"""\
    partition1({args}) num_warps(1) {{
      // The producer: per key block, K into its stage once free, then V; and each tile's Q (both
      // warp groups' rows, into pair i % 2) a tile ahead, once the pair's previous O has been
      // stored: after block jq = min(4, nblk - 1) of the tile before, two blocks after the block
      // whose turn frees the pair, so that it does not wait, and several blocks before the
      // boundary turn that reads it.
      %z = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %two = arith.constant 2 : i32
      %four = arith.constant 4 : i32
      %ve0 = arith.constant {s.VE0} : i32
      %qf0 = arith.constant {s.QF0} : i32
      %qe0 = arith.constant {s.QE0} : i32
      %kst = arith.constant {s.KST} : i32
      %vst = arith.constant {s.VST} : i32
      %bn = arith.constant 128 : i32
      %c64p = arith.constant 64 : i32
      %true = arith.constant true
      %jlast = arith.subi %pnblk, %one : i32
      %jlong = arith.cmpi sgt, %pnblk, %four : i32
      %jq = arith.select %jlong, %four, %jlast : i32
      // The first tile's Q (tile 0's for a program without tiles, for the consumers' first S_0).
      %f_ok = arith.cmpi slt, %pfirst, %ptiles : i32
      %f_t = arith.select %f_ok, %pfirst, %z : i32
{tile_row(s, 'f_', '%f_t', '      ')}{qcopy(s, 'f_', '%z', '%f_row', '      ')}\
      %psteps = scf.for %t = %pfirst to %ptiles step %pnprog iter_args(%base = %z) -> (i32) : i32 {{
      %phead = arith.divsi %t, %pnblk : i32
      %phrow = arith.muli %phead, %pn_ctx : i32
      // The next tile's Q (after the last tile, tile 0's: the last boundary turn drops its scores).
      %n_t0 = arith.addi %t, %pnprog : i32
      %n_ok = arith.cmpi slt, %n_t0, %ptiles : i32
      %n_t = arith.select %n_ok, %n_t0, %z : i32
      %ptc = arith.divsi %base, %pnblk : i32
      %n_tc = arith.addi %ptc, %one : i32
      scf.for %j = %z to %pnblk step %one : i32 {{
        %g = arith.addi %base, %j : i32
        %koff = arith.muli %j, %bn : i32
        %row = arith.addi %phrow, %koff : i32
{ring_copy(s, '', 'k', '%g', '%row', '        ')}{ring_copy(s, '', 'v', '%g', '%row', '        ')}\
        %isq = arith.cmpi eq, %j, %jq : i32
        scf.if %isq {{
{tile_row(s, 'n_', '%n_t', '          ')}{qcopy(s, 'n_', '%n_tc', '%n_row', '          ')}\
        }}
      }}
      %pnext = arith.addi %base, %pnblk : i32
      scf.yield %pnext : i32
      }}
      // After the last tile, K_0 of tile 0 for the last boundary turn (its Q came above).
{ring_copy(s, 'd', 'k', '%psteps', '%z', '      ')}\
      ttg.warp_return
    }}"""


def kernel(d):
    """The text of examples/attention_ws_pp_persistent_chain_d<d>.tir."""
    s = Shapes(d)
    out = HEADERS[s.D] + f"""\
#mma = #ttg.nvidia_mma<{{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, {s.D}, 16]}}>
{s.MMAS}#dota = #ttg.dot_op<{{opIdx = 0, parent = #mma, kWidth = 2}}>
#sa = #ttg.nvmma_shared<{{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}}>
#sat = #ttg.nvmma_shared<{{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}}>
#bar = #ttg.swizzled_shared<{{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}}>
#smem = #ttg.shared_memory
#row = #ttg.slice<{{dim = 1, parent = #mmas}}>
{s.OROWDEF}module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func public @{s.NAME}(%q: {s.QD}, %kdesc: {s.KD}, %vdesc: {s.KD}, %o: {s.QD}, %n_ctx: i32 {{tt.divisibility = 16 : i32}}, %sm_scale: f32, %heads: i32) {{
    %first = tt.get_program_id x : i32
    %nprog = tt.get_num_programs x : i32
"""
    for c in range(s.NE):
        out += f"    %c{c} = arith.constant {c} : i32\n"
    out += f"""\
    %c128 = arith.constant 128 : i32
    // Key blocks per head, also query blocks per head: there are nblk * heads tiles.
    %nblk = arith.divsi %n_ctx, %c128 : i32
    %tiles = arith.muli %nblk, %heads : i32
    %kbuf = ttg.local_alloc : () -> {s.KB}
    %vbuf = ttg.local_alloc : () -> {s.VB}
    %qobuf = ttg.local_alloc : () -> {s.QO}
    %kfulls = ttg.local_alloc : () -> {s.KF}
    %vfulls = ttg.local_alloc : () -> {s.VF}
    %empties = ttg.local_alloc : () -> {s.E}
    // K's and V's full barriers (the producer's expect, completed by the copies' bytes); K's
    // empty barriers (empties 0..{s.KST - 1}), V's ({s.VE0}..{s.TURN0 - 1}), one arrive from each consumer warp group once it
    // has read the stage; the turns ({s.TURN0}, {s.TURN0 + 1}); Q's full barriers ({s.QF0}, {s.QF0 + 1}: one per pair of slots, both
    // warp groups' rows) and the pairs' empty ones ({s.QE0}, {s.QE0 + 1}: one arrive per warp group once the
    // pair's O store has read it).
"""
    inits = ([(f"kfull{i}", "kfulls", s.KF, i, 1) for i in range(s.KST)] +
             [(f"vfull{i}", "vfulls", s.VF, i, 1) for i in range(s.VST)] +
             [(f"kempty{i}", "empties", s.E, i, 2) for i in range(s.KST)] +
             [(f"vempty{i}", "empties", s.E, s.VE0 + i, 2) for i in range(s.VST)] +
             [("turn0", "empties", s.E, s.TURN0, 1), ("turn1", "empties", s.E, s.TURN0 + 1, 1),
              ("qfull0", "empties", s.E, s.QF0, 1), ("qfull1", "empties", s.E, s.QF0 + 1, 1),
              ("qempty0", "empties", s.E, s.QE0, 2), ("qempty1", "empties", s.E, s.QE0 + 1, 2)])
    for n, buf, ty, i, cnt in inits:
        out += f"    %{n} = ttg.memdesc_index %{buf}[%c{i}] : {ty} -> {s.MD1}\n"
        out += f"    ttng.init_barrier %{n}, {cnt} : {s.MD1}\n"
    argnames = ", ".join("%" + n for n, _ in s.ARGS)
    argtypes = ", ".join(ty for _, ty in s.ARGS)
    out += f"    ttg.warp_specialize({argnames}) attributes {{actualRegisters = array<i32: 240, 240, 24>, requestedRegisters = array<i32: 240, 24>}}\n"
    out += "    default {\n" + region(s, 0) + "      ttg.warp_yield\n    }\n"
    w1args = ", ".join(f"%w1_{n}: {ty}" for n, ty in s.ARGS)
    out += f"    partition0({w1args}) num_warps(4) {{\n" + region(s, 1) + "      ttg.warp_return\n    }\n"
    out += producer(s) + f" : ({argtypes}) -> ()\n"
    for n, *_ in inits:
        out += f"    ttng.inval_barrier %{n} : {s.MD1}\n"
    out += "    tt.return\n  }\n}\n"
    if s.D == 128:  # one mma layout: S and O are both 128 wide
        out = out.replace("#mmas", "#mma").replace("#orow", "#row")
    return out


def main():
    return write_or_check(__doc__, "gen-chain-attention.py", {
        f"examples/attention_ws_pp_persistent_chain_d{d}.tir": kernel(d) for d in (64, 128)})


if __name__ == "__main__":
    sys.exit(main())

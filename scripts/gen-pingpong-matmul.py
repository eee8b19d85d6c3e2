#!/usr/bin/env python3
"""Writes the persistent matmuls whose two consumer warp groups take whole 128x128 tiles in turn,
so that one group's epilogue runs beside the other's K loop: examples/matmul_ws_pingpong_tmastore.tir
and matmul_ws_pingpong_cluster.tir (the same in 2x1 clusters whose CTAs share B by multicast). In
each, the two warp groups' regions differ only in their slot, their first tile and their turn
barriers, and the two kernels only in the cluster's parts, so all are written from one description
here. With --check, compares instead and exits 1 where a file differs (the
`scripts.pingpong_matmul` test), so that an edit goes here, not into a file.

  python3 scripts/gen-pingpong-matmul.py [--check]
"""
import sys
from dataclasses import dataclass

from kernelgen import write_or_check

BAR = "!ttg.memdesc<1xi64, #bar, #smem, mutable>"
CBUF = "!ttg.memdesc<2x128x128xf16, #sc, #smem, mutable>"
ATILE = "!ttg.memdesc<128x64xf16, #sa, #smem, mutable>"
BTILE = "!ttg.memdesc<64x128xf16, #sa, #smem, mutable>"
BHALF = "!ttg.memdesc<64x64xf16, #sa, #smem, mutable, 64x128>"
CTILE = "!ttg.memdesc<128x128xf16, #sc, #smem, mutable>"
ADESC = "!tt.tensordesc<tensor<128x64xf16, #sa>>"
CDESC = "!tt.tensordesc<tensor<128x128xf16, #sc>>"
ACC = "tensor<128x128xf32, #mma>"


@dataclass
class Kernel:
    name: str
    stages: int  # of the ring
    cluster: bool  # 2x1 clusters, B shared by multicast

    @property
    def bars(self):
        return f"!ttg.memdesc<{self.stages}x1xi64, #bar, #smem, mutable>"

    @property
    def abuf(self):
        return f"!ttg.memdesc<{self.stages}x128x64xf16, #sa, #smem, mutable>"

    @property
    def bbuf(self):
        return f"!ttg.memdesc<{self.stages}x64x128xf16, #sa, #smem, mutable>"

    @property
    def bdesc(self):  # a CTA of a cluster copies half of B's block
        return f"!tt.tensordesc<tensor<64x{64 if self.cluster else 128}xf16, #sa>>"

    @property
    def args(self):
        """The regions' captures, with their types."""
        args = [("adesc", ADESC), ("bdesc", self.bdesc), ("abuf", self.abuf),
                ("bbuf", self.bbuf), ("fulls", self.bars), ("empties", self.bars)]
        args += [(n, "i32") for n in ("nk", "first", "nprog", "tiles", "tiles_m", "tiles_n")]
        args += [("c", CDESC), ("cbuf", CBUF), ("turn0", BAR), ("turn1", BAR)]
        return args + [("rank", "i32")] if self.cluster else args


KERNELS = [Kernel("matmul_ws_pingpong_tmastore", 4, False),
           Kernel("matmul_ws_pingpong_cluster", 5, True)]


def params(k, prefix):
    return ", ".join(f"%{prefix}{a}: {t}" for a, t in k.args)


def tile_coords(k, p, ind):
    """The tile %t's first row and column (%m0, %n0): groups of 8 M tiles, all N tiles of a group
    first; in a cluster, %t numbers pairs of M tiles (%pid_q), and CTA r takes M tile 2 q + r."""
    grp, u = ("four", "q") if k.cluster else ("eight", "m")
    pair = f"""{ind}%pid_m2 = arith.muli %pid_q, %two : i32
{ind}%pid_m = arith.addi %pid_m2, %{p}rank : i32
""" if k.cluster else ""
    return f"""{ind}%gwidth = arith.muli %{grp}, %{p}tiles_n : i32
{ind}%group = arith.divsi %t, %gwidth : i32
{ind}%first_{u} = arith.muli %group, %{grp} : i32
{ind}%left_{u} = arith.subi %{p}tiles_m, %first_{u} : i32
{ind}%gsize = arith.minsi %left_{u}, %{grp} : i32
{ind}%ing = arith.remsi %t, %gwidth : i32
{ind}%in{u} = arith.remsi %ing, %gsize : i32
{ind}%pid_{u} = arith.addi %first_{u}, %in{u} : i32
{ind}%pid_n = arith.divsi %ing, %gsize : i32
{pair}{ind}%m0 = arith.muli %pid_m, %k128 : i32
{ind}%n0 = arith.muli %pid_n, %k128 : i32
"""


def group_const(k):
    return ("%four = arith.constant 4 : i32" if k.cluster else "%eight = arith.constant 8 : i32")


def ring_step(stages):
    """Step %g = %base + %i of the ring: its stage %s and round %round (`stages`: the value that
    holds the ring's depth)."""
    return f"""          %g = arith.addi %base, %i : i32
          %s = arith.remsi %g, %{stages} : i32
          %round = arith.divsi %g, %{stages} : i32
"""


def consumer(k, w, p):
    """Warp group w's region: tiles w, w + 2, ... of the program's walk."""
    ind = "        "
    S = k.stages
    # In a cluster a stage is refilled by both CTAs' producers, so both CTAs' groups free it.
    both = " {multicastCTA = 1 : i32}" if k.cluster else ""
    return f"""      // Warp group {w}: the program's tiles {w}, {w + 2}, {w + 4}, ... (ring steps from {w} nk on).
      %zero = arith.constant dense<0.0> : {ACC}
      %z = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %slot = arith.constant {w} : i32
      {group_const(k)}
      %cs = arith.constant {S} : i32
      %cprev = arith.constant {S - 1} : i32
      %k128 = arith.constant 128 : i32
      %two = arith.constant 2 : i32
      %tflip = arith.constant {1 - w} : i32
      %start = arith.muli %{p}nprog, %slot : i32
      %tfirst = arith.addi %{p}first, %start : i32
      %tstep = arith.muli %{p}nprog, %two : i32
      %base0 = arith.muli %{p}nk, %slot : i32
      %skip = arith.muli %{p}nk, %two : i32
      %steps = scf.for %t = %tfirst to %{p}tiles step %tstep iter_args(%base = %base0) -> (i32) : i32 {{
{tile_coords(k, p, ind)}        // Wait for this group's turn: the other group has waited for every stage of its tile
        // before this one (so this group never waits for a stage's fill a round early).
        %tdist = arith.subi %t, %tfirst : i32
        %k = arith.divsi %tdist, %tstep : i32
        %kpar = arith.andi %k, %one : i32
        %tpar = arith.xori %kpar, %tflip : i32
        ttng.wait_barrier %{p}turn{w}, %tpar : {BAR}
        %res = scf.for %i = %z to %{p}nk step %one iter_args(%accv = %zero) -> ({ACC}) : i32 {{
{ring_step("cs")}          %phase = arith.andi %round, %one : i32
          %full = ttg.memdesc_index %{p}fulls[%s] : {k.bars} -> {BAR}
          ttng.wait_barrier %full, %phase : {BAR}
          %as = ttg.memdesc_index %{p}abuf[%s] : {k.abuf} -> {ATILE}
          %bs = ttg.memdesc_index %{p}bbuf[%s] : {k.bbuf} -> {BTILE}
          %d = ttng.warp_group_dot %as, %bs, %accv {{inputPrecision = 0 : i32, isAsync = true}} : {ATILE} * {BTILE} -> {ACC}
          %w:3 = ttng.warp_group_dot_wait %d, %as, %bs {{pendings = 1 : i32}} : {ACC}, {ATILE}, {BTILE}
          // Only step g's wgmma still runs: step g-1's stage is free (none before the tile's first).
          %prev = arith.addi %g, %cprev : i32
          %sp = arith.remsi %prev, %cs : i32
          %freeing = arith.cmpi sgt, %i, %z : i32
          %empty = ttg.memdesc_index %{p}empties[%sp] : {k.bars} -> {BAR}
          ttng.arrive_barrier %empty, 1, %freeing{both} : {BAR}
          scf.yield %w#0 : {ACC}
        }}
        // Every stage of the tile is waited for and its last wgmma issued: the other group's turn.
        ttng.arrive_barrier %{p}turn{1 - w}, 1 : {BAR}
        %acc = ttng.warp_group_dot_wait %res {{pendings = 0 : i32}} : {ACC}
        %end = arith.addi %base, %{p}nk : i32
        %glast = arith.subi %end, %one : i32
        %sl = arith.remsi %glast, %cs : i32
        %lastempty = ttg.memdesc_index %{p}empties[%sl] : {k.bars} -> {BAR}
        ttng.arrive_barrier %lastempty, 1{both} : {BAR}
        // C into this group's slot once its previous store has read it, then one TMA store,
        // which runs on while the group waits for its next tile.
        %acc16 = arith.truncf %acc : {ACC} to tensor<128x128xf16, #mma>
        %ct = ttg.memdesc_index %{p}cbuf[%slot] : {CBUF} -> {CTILE}
        ttng.async_tma_store_wait {{pendings = 0 : i32}}
        ttg.local_store %acc16, %ct : tensor<128x128xf16, #mma> -> {CTILE}
        ttng.fence_async_shared {{bCluster = false}}
        ttng.async_tma_copy_local_to_global %{p}c[%m0, %n0] %ct : {CDESC}, {CTILE}
        %next = arith.addi %base, %skip : i32
        scf.yield %next : i32
      }}
      ttng.async_tma_store_wait {{pendings = 0 : i32}}
"""


def producer(k, p):
    ind = "        "
    bd = k.bdesc
    if k.cluster:
        consts = f"""      %two = arith.constant 2 : i32
      %k64 = arith.constant 64 : i32
      %is0 = arith.cmpi eq, %{p}rank, %z : i32
      %is1 = arith.cmpi eq, %{p}rank, %one : i32
"""
        halves = f"""{ind}%n1 = arith.addi %n0, %k64 : i32
"""
        copy_b = f"""          // This CTA's half of B, into both CTAs' stage.
          %bs0 = ttg.memdesc_subslice %bs [0, 0] : {BTILE} -> {BHALF}
          %bs1 = ttg.memdesc_subslice %bs [0, 64] : {BTILE} -> {BHALF}
          ttng.async_tma_copy_global_to_local %{p}bdesc[%k, %n0] %bs0, %full, %is0 {{multicastCTA = 1 : i32}} : {bd}, {BAR} -> {BHALF}
          ttng.async_tma_copy_global_to_local %{p}bdesc[%k, %n1] %bs1, %full, %is1 {{multicastCTA = 1 : i32}} : {bd}, {BAR} -> {BHALF}
"""
    else:
        consts = halves = ""
        copy_b = f"""          ttng.async_tma_copy_global_to_local %{p}bdesc[%k, %n0] %bs, %full, %true : {bd}, {BAR} -> {BTILE}
"""
    return f"""      // The producer: per tile of the program's walk and K step, wait until the stage is free,
      // then fill it (A 128 x 64 and B 64 x 128: 32 KB).
      %z = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %stages = arith.constant {k.stages} : i32
      %bk = arith.constant 64 : i32
      %k128 = arith.constant 128 : i32
      {group_const(k)}
      %true = arith.constant true
{consts}      %psteps = scf.for %t = %{p}first to %{p}tiles step %{p}nprog iter_args(%base = %z) -> (i32) : i32 {{
{tile_coords(k, p, ind)}{halves}        scf.for %i = %z to %{p}nk step %one : i32 {{
{ring_step("stages")}          %parity = arith.andi %round, %one : i32
          %phase = arith.xori %parity, %one : i32
          %empty = ttg.memdesc_index %{p}empties[%s] : {k.bars} -> {BAR}
          ttng.wait_barrier %empty, %phase : {BAR}
          %full = ttg.memdesc_index %{p}fulls[%s] : {k.bars} -> {BAR}
          %k = arith.muli %i, %bk : i32
          %as = ttg.memdesc_index %{p}abuf[%s] : {k.abuf} -> {ATILE}
          %bs = ttg.memdesc_index %{p}bbuf[%s] : {k.bbuf} -> {BTILE}
          ttng.barrier_expect %full, 32768, %true : {BAR}
          ttng.async_tma_copy_global_to_local %{p}adesc[%m0, %k] %as, %full, %true : {ADESC}, {BAR} -> {ATILE}
{copy_b}        }}
        %pnext = arith.addi %base, %{p}nk : i32
        scf.yield %pnext : i32
      }}
"""


HEADER = """// Persistent warp-specialized matmul on Hopper in ping-pong: program p of P walks the 128x128
// tiles p, p + P, p + 2P, ... of C = A * B (A M x K, B K x N, f16 row-major; M and N multiples of
// 128, K of 8 and > 0, the rest of the last K step reads as zero; C f16 by TMA stores, bf16 in the
// tests' and bench's bf16 form; ldc is unused). Tiles are numbered in groups of 8 M tiles, all N
// tiles of a group first, for the L2 cache. Each consumer warp group (a region of its own) takes
// whole tiles, the two in turn: warp group 0 the program's tiles 0, 2, 4, ..., warp group 1 tiles
// 1, 3, 5, .... So while one group converts and stores its tile's C, the other's wgmmas run, and
// the tensor cores do not wait for the epilogue (as in the cooperative kernels, whose two groups
// share a 128x256 tile and store it together). A producer partition of 1 warp issues the TMA
// copies of every tile of the program, in walk order, into one ring of {S} stages of 32 KB: step
// g = j nk + i (tile j of the walk, K step i) uses stage g % {S}, phase parity (g / {S}) & 1, so the
// ring hands its stages to the groups in turn. A group keeps one wgmma in flight and frees step
// g-1's stage once only step g's runs, and a tile's last stage after its final wait. Each group
// writes C into its own 32 KB slot, waiting for its previous store to have read it. Shared
// memory: {ring} KB of ring + 64 KB of C = {smem} KB; budgets 240 / 240 / 24 registers.
"""

CLUSTER_HEADER = """// examples/matmul_ws_pingpong_tmastore.tir in thread-block clusters of two CTAs with TMA
// multicast, as examples/matmul_ws_cluster.tir is for the cooperative kernel: the two CTAs of a
// cluster compute the 128x128 tiles of C in the same columns and adjacent rows (M tiles 2q and
// 2q + 1 of pair-tile q), so they need the same 64x128 block of B at every K step. CTA r loads
// its half of it (columns 64r..64r+63) and multicasts it into both CTAs' stage, so each CTA reads
// 24 KB a step from L2 instead of 32: the cooperative 128x256 kernel's bytes per flop. Each full
// barrier waits for the 32 KB of its stage; each empty barrier for two arrivals, one from the
// warp group of each CTA that read the stage (an arrive on the barrier of each CTA). The turns
// stay within a CTA. The barriers are initialised and fenced before a cluster barrier, and a
// cluster barrier at the end keeps each CTA until the other no longer reaches into its shared
// memory. Programs are CTAs, launched in clusters of 2 along x: cluster c of P / 2 walks
// pair-tiles c, c + P / 2, ... (in groups of 4 pair-tiles, all N tiles of a group first); M a
// multiple of 256. {S} stages: {ring} KB of ring + 64 KB of C = {smem} KB.
"""


def kernel(k):
    S = k.stages
    inits = "\n".join(
        f"""    %full{s} = ttg.memdesc_index %fulls[%c{s}] : {k.bars} -> {BAR}
    ttng.init_barrier %full{s}, 1 : {BAR}
    %empty{s} = ttg.memdesc_index %empties[%c{s}] : {k.bars} -> {BAR}
    ttng.init_barrier %empty{s}, {2 if k.cluster else 1} : {BAR}""" for s in range(S))
    invals = "".join(f"    ttng.inval_barrier %{n} : {BAR}\n" for n in ["turn0", "turn1"] + [
        f"{b}{s}" for s in range(S) for b in ("full", "empty")])
    consts = "\n".join(f"    %c{s} = arith.constant {s} : i32" for s in range(max(S, 2)))
    header = (CLUSTER_HEADER if k.cluster else HEADER).format(S=S, ring=S * 32, smem=S * 32 + 64)
    if k.cluster:
        attrs = ('"ttg.cluster-dim-x" = 2 : i32, "ttg.cluster-dim-y" = 1 : i32, '
                 '"ttg.cluster-dim-z" = 1 : i32, ')
        walk = """    %pid = tt.get_program_id x : i32
    %ctas = tt.get_num_programs x : i32
    %rank = ttng.cluster_cta_id : i32
    %ctwo = arith.constant 2 : i32
    %first = arith.divsi %pid, %ctwo : i32
    %nprog = arith.divsi %ctas, %ctwo : i32
"""
        rows = "%c256 = arith.constant 256 : i32\n    %tiles_m = arith.divsi %M, %c256"
        fence = """    // The peer's copies and arrivals reach these barriers only once their init is visible.
    ttng.fence_mbarrier_init_release_cluster
    ttng.cluster_arrive
    ttng.cluster_wait
"""
        done = """    // Neither CTA ends (and frees its shared memory) while the peer may still reach into it.
    ttng.cluster_arrive
    ttng.cluster_wait
"""
        empty_doc = "two arrivals: one from the warp group of each CTA that read the stage."
    else:
        attrs = fence = done = ""
        walk = """    %first = tt.get_program_id x : i32
    %nprog = tt.get_num_programs x : i32
"""
        rows = "%tiles_m = arith.divsi %M, %c128"
        empty_doc = "the one arrival of the warp group that read the stage."
    types = ", ".join(t for _, t in k.args)
    return f"""{header}#mma = #ttg.nvidia_mma<{{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}}>
#sa = #ttg.nvmma_shared<{{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}}>
#sc = #ttg.nvmma_shared<{{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}}>
#bar = #ttg.swizzled_shared<{{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}}>
#smem = #ttg.shared_memory
module attributes {{{attrs}"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func public @{k.name}(%adesc: {ADESC}, %bdesc: {k.bdesc}, %c: {CDESC}, %K: i32, %ldc: i32, %M: i32, %N: i32) {{
{walk}{consts}
    %c63 = arith.constant 63 : i32
    %c64 = arith.constant 64 : i32
    %c128 = arith.constant 128 : i32
    {rows} : i32
    %tiles_n = arith.divsi %N, %c128 : i32
    %tiles = arith.muli %tiles_m, %tiles_n : i32
    %kround = arith.addi %K, %c63 : i32
    %nk = arith.divsi %kround, %c64 : i32
    %abuf = ttg.local_alloc : () -> {k.abuf}
    %bbuf = ttg.local_alloc : () -> {k.bbuf}
    %cbuf = ttg.local_alloc : () -> {CBUF}
    %fulls = ttg.local_alloc : () -> {k.bars}
    %empties = ttg.local_alloc : () -> {k.bars}
    %turns = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64, #bar, #smem, mutable>
    // A full barrier per stage completed by the producer's one arrival and its bytes; an empty
    // one by {empty_doc}
{inits}
    // Warp group w's turn to run a tile's K loop, completed by the other group's one arrival
    // (warp group 0's first turn is the barrier's preceding phase).
    %turn0 = ttg.memdesc_index %turns[%c0] : !ttg.memdesc<2x1xi64, #bar, #smem, mutable> -> {BAR}
    ttng.init_barrier %turn0, 1 : {BAR}
    %turn1 = ttg.memdesc_index %turns[%c1] : !ttg.memdesc<2x1xi64, #bar, #smem, mutable> -> {BAR}
    ttng.init_barrier %turn1, 1 : {BAR}
{fence}    ttg.warp_specialize({", ".join("%" + a for a, _ in k.args)}) attributes {{actualRegisters = array<i32: 240, 240, 24>, requestedRegisters = array<i32: 240, 24>}}
    default {{
{consumer(k, 0, "")}      ttg.warp_yield
    }}
    partition0({params(k, "w1_")}) num_warps(4) {{
{consumer(k, 1, "w1_")}      ttg.warp_return
    }}
    partition1({params(k, "p_")}) num_warps(1) {{
{producer(k, "p_")}      ttg.warp_return
    }} : ({types}) -> ()
{done}{invals}    tt.return
  }}
}}
"""


def main():
    return write_or_check(__doc__, "gen-pingpong-matmul.py",
                          {f"examples/{k.name}.tir": kernel(k) for k in KERNELS})


if __name__ == "__main__":
    sys.exit(main())

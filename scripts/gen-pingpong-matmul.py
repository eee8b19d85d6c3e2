#!/usr/bin/env python3
"""Writes examples/matmul_ws_pingpong_tmastore.tir, the persistent matmul whose two consumer warp
groups take whole 128x128 tiles in turn, so that one group's epilogue runs beside the other's K
loop. Its two warp groups' regions differ only in their slot, their first tile and their turn
barriers, so both are written from one description here. With --check, compares instead and
exits 1 where the file differs (the `scripts.pingpong_matmul` test), so that an edit goes here.

  python3 scripts/gen-pingpong-matmul.py [--check]
"""
import sys

from kernelgen import write_or_check

S = 4  # stages of the ring
NAME = "matmul_ws_pingpong_tmastore"
BAR = "!ttg.memdesc<1xi64, #bar, #smem, mutable>"
BARS = f"!ttg.memdesc<{S}x1xi64, #bar, #smem, mutable>"
ABUF = f"!ttg.memdesc<{S}x128x64xf16, #sa, #smem, mutable>"
BBUF = f"!ttg.memdesc<{S}x64x128xf16, #sa, #smem, mutable>"
CBUF = "!ttg.memdesc<2x128x128xf16, #sc, #smem, mutable>"
ATILE = "!ttg.memdesc<128x64xf16, #sa, #smem, mutable>"
BTILE = "!ttg.memdesc<64x128xf16, #sa, #smem, mutable>"
CTILE = "!ttg.memdesc<128x128xf16, #sc, #smem, mutable>"
ADESC = "!tt.tensordesc<tensor<128x64xf16, #sa>>"
BDESC = "!tt.tensordesc<tensor<64x128xf16, #sa>>"
CDESC = "!tt.tensordesc<tensor<128x128xf16, #sc>>"
ACC = "tensor<128x128xf32, #mma>"
ARGS = ["adesc", "bdesc", "abuf", "bbuf", "fulls", "empties", "nk", "first", "nprog", "tiles",
        "tiles_m", "tiles_n", "c", "cbuf", "turn0", "turn1"]
TYPES = [ADESC, BDESC, ABUF, BBUF, BARS, BARS, "i32", "i32", "i32", "i32", "i32", "i32", CDESC,
         CBUF, BAR, BAR]


def params(prefix):
    return ", ".join(f"%{prefix}{a}: {t}" for a, t in zip(ARGS, TYPES))


def tile_coords(p, ind):
    """The tile %t's first row and column (%m0, %n0): groups of 8 M tiles, all N tiles of a
    group first."""
    return f"""{ind}%gwidth = arith.muli %eight, %{p}tiles_n : i32
{ind}%group = arith.divsi %t, %gwidth : i32
{ind}%first_m = arith.muli %group, %eight : i32
{ind}%left_m = arith.subi %{p}tiles_m, %first_m : i32
{ind}%gsize = arith.minsi %left_m, %eight : i32
{ind}%ing = arith.remsi %t, %gwidth : i32
{ind}%inm = arith.remsi %ing, %gsize : i32
{ind}%pid_m = arith.addi %first_m, %inm : i32
{ind}%pid_n = arith.divsi %ing, %gsize : i32
{ind}%m0 = arith.muli %pid_m, %k128 : i32
{ind}%n0 = arith.muli %pid_n, %k128 : i32
"""


def ring_step(stages):
    """Step %g = %base + %i of the ring: its stage %s and round %round (`stages`: the value that
    holds the ring's depth)."""
    return f"""          %g = arith.addi %base, %i : i32
          %s = arith.remsi %g, %{stages} : i32
          %round = arith.divsi %g, %{stages} : i32
"""


def consumer(w, p):
    """Warp group w's region: tiles w, w + 2, ... of the program's walk."""
    ind = "        "
    return f"""      // Warp group {w}: the program's tiles {w}, {w + 2}, {w + 4}, ... (ring steps from {w} nk on).
      %zero = arith.constant dense<0.0> : {ACC}
      %z = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %slot = arith.constant {w} : i32
      %eight = arith.constant 8 : i32
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
{tile_coords(p, ind)}        // Wait for this group's turn: the other group has waited for every stage of its tile
        // before this one (so this group never waits for a stage's fill a round early).
        %tdist = arith.subi %t, %tfirst : i32
        %k = arith.divsi %tdist, %tstep : i32
        %kpar = arith.andi %k, %one : i32
        %tpar = arith.xori %kpar, %tflip : i32
        ttng.wait_barrier %{p}turn{w}, %tpar : {BAR}
        %res = scf.for %i = %z to %{p}nk step %one iter_args(%accv = %zero) -> ({ACC}) : i32 {{
{ring_step("cs")}          %phase = arith.andi %round, %one : i32
          %full = ttg.memdesc_index %{p}fulls[%s] : {BARS} -> {BAR}
          ttng.wait_barrier %full, %phase : {BAR}
          %as = ttg.memdesc_index %{p}abuf[%s] : {ABUF} -> {ATILE}
          %bs = ttg.memdesc_index %{p}bbuf[%s] : {BBUF} -> {BTILE}
          %d = ttng.warp_group_dot %as, %bs, %accv {{inputPrecision = 0 : i32, isAsync = true}} : {ATILE} * {BTILE} -> {ACC}
          %w:3 = ttng.warp_group_dot_wait %d, %as, %bs {{pendings = 1 : i32}} : {ACC}, {ATILE}, {BTILE}
          // Only step g's wgmma still runs: step g-1's stage is free (none before the tile's first).
          %prev = arith.addi %g, %cprev : i32
          %sp = arith.remsi %prev, %cs : i32
          %freeing = arith.cmpi sgt, %i, %z : i32
          %empty = ttg.memdesc_index %{p}empties[%sp] : {BARS} -> {BAR}
          ttng.arrive_barrier %empty, 1, %freeing : {BAR}
          scf.yield %w#0 : {ACC}
        }}
        // Every stage of the tile is waited for and its last wgmma issued: the other group's turn.
        ttng.arrive_barrier %{p}turn{1 - w}, 1 : {BAR}
        %acc = ttng.warp_group_dot_wait %res {{pendings = 0 : i32}} : {ACC}
        %end = arith.addi %base, %{p}nk : i32
        %glast = arith.subi %end, %one : i32
        %sl = arith.remsi %glast, %cs : i32
        %lastempty = ttg.memdesc_index %{p}empties[%sl] : {BARS} -> {BAR}
        ttng.arrive_barrier %lastempty, 1 : {BAR}
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


def producer(p):
    ind = "        "
    return f"""      // The producer: per tile of the program's walk and K step, wait until the stage is free,
      // then fill it (A 128 x 64 and B 64 x 128: 32 KB).
      %z = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %stages = arith.constant {S} : i32
      %bk = arith.constant 64 : i32
      %k128 = arith.constant 128 : i32
      %eight = arith.constant 8 : i32
      %true = arith.constant true
      %psteps = scf.for %t = %{p}first to %{p}tiles step %{p}nprog iter_args(%base = %z) -> (i32) : i32 {{
{tile_coords(p, ind)}        scf.for %i = %z to %{p}nk step %one : i32 {{
{ring_step("stages")}          %parity = arith.andi %round, %one : i32
          %phase = arith.xori %parity, %one : i32
          %empty = ttg.memdesc_index %{p}empties[%s] : {BARS} -> {BAR}
          ttng.wait_barrier %empty, %phase : {BAR}
          %full = ttg.memdesc_index %{p}fulls[%s] : {BARS} -> {BAR}
          %k = arith.muli %i, %bk : i32
          %as = ttg.memdesc_index %{p}abuf[%s] : {ABUF} -> {ATILE}
          %bs = ttg.memdesc_index %{p}bbuf[%s] : {BBUF} -> {BTILE}
          ttng.barrier_expect %full, 32768, %true : {BAR}
          ttng.async_tma_copy_global_to_local %{p}adesc[%m0, %k] %as, %full, %true : {ADESC}, {BAR} -> {ATILE}
          ttng.async_tma_copy_global_to_local %{p}bdesc[%k, %n0] %bs, %full, %true : {BDESC}, {BAR} -> {BTILE}
        }}
        %pnext = arith.addi %base, %{p}nk : i32
        scf.yield %pnext : i32
      }}
"""


def kernel():
    inits = "\n".join(
        f"""    %full{s} = ttg.memdesc_index %fulls[%c{s}] : {BARS} -> {BAR}
    ttng.init_barrier %full{s}, 1 : {BAR}
    %empty{s} = ttg.memdesc_index %empties[%c{s}] : {BARS} -> {BAR}
    ttng.init_barrier %empty{s}, 1 : {BAR}""" for s in range(S))
    invals = "    ttng.inval_barrier %turn0 : {0}\n    ttng.inval_barrier %turn1 : {0}\n".format(BAR) + "\n".join(f"    ttng.inval_barrier %full{s} : {BAR}\n    ttng.inval_barrier %empty{s} : {BAR}"
                       for s in range(S))
    consts = "\n".join(f"    %c{s} = arith.constant {s} : i32" for s in range(max(S, 2)))
    smem = S * 32 + 64
    out = f"""// Persistent warp-specialized matmul on Hopper in ping-pong: program p of P walks the 128x128
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
// memory: {S * 32} KB of ring + 64 KB of C = {smem} KB; budgets 240 / 240 / 24 registers.
#mma = #ttg.nvidia_mma<{{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}}>
#sa = #ttg.nvmma_shared<{{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}}>
#sc = #ttg.nvmma_shared<{{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}}>
#bar = #ttg.swizzled_shared<{{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}}>
#smem = #ttg.shared_memory
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func public @{NAME}(%adesc: {ADESC}, %bdesc: {BDESC}, %c: {CDESC}, %K: i32, %ldc: i32, %M: i32, %N: i32) {{
    %first = tt.get_program_id x : i32
    %nprog = tt.get_num_programs x : i32
{consts}
    %c63 = arith.constant 63 : i32
    %c64 = arith.constant 64 : i32
    %c128 = arith.constant 128 : i32
    %tiles_m = arith.divsi %M, %c128 : i32
    %tiles_n = arith.divsi %N, %c128 : i32
    %tiles = arith.muli %tiles_m, %tiles_n : i32
    %kround = arith.addi %K, %c63 : i32
    %nk = arith.divsi %kround, %c64 : i32
    %abuf = ttg.local_alloc : () -> {ABUF}
    %bbuf = ttg.local_alloc : () -> {BBUF}
    %cbuf = ttg.local_alloc : () -> {CBUF}
    %fulls = ttg.local_alloc : () -> {BARS}
    %empties = ttg.local_alloc : () -> {BARS}
    %turns = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64, #bar, #smem, mutable>
    // A full barrier per stage completed by the producer's one arrival and its bytes; an empty
    // one by the one arrival of the warp group that read the stage.
{inits}
    // Warp group w's turn to run a tile's K loop, completed by the other group's one arrival
    // (warp group 0's first turn is the barrier's preceding phase).
    %turn0 = ttg.memdesc_index %turns[%c0] : !ttg.memdesc<2x1xi64, #bar, #smem, mutable> -> {BAR}
    ttng.init_barrier %turn0, 1 : {BAR}
    %turn1 = ttg.memdesc_index %turns[%c1] : !ttg.memdesc<2x1xi64, #bar, #smem, mutable> -> {BAR}
    ttng.init_barrier %turn1, 1 : {BAR}
    ttg.warp_specialize({", ".join("%" + a for a in ARGS)}) attributes {{actualRegisters = array<i32: 240, 240, 24>, requestedRegisters = array<i32: 240, 24>}}
    default {{
{consumer(0, "")}      ttg.warp_yield
    }}
    partition0({params("w1_")}) num_warps(4) {{
{consumer(1, "w1_")}      ttg.warp_return
    }}
    partition1({params("p_")}) num_warps(1) {{
{producer("p_")}      ttg.warp_return
    }} : ({", ".join(TYPES)}) -> ()
{invals}
    tt.return
  }}
}}
"""
    return out


def main():
    return write_or_check(__doc__, "gen-pingpong-matmul.py", {f"examples/{NAME}.tir": kernel()})


if __name__ == "__main__":
    sys.exit(main())

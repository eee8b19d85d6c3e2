// Random tiled matmul kernels, for the tests that hold software pipelining, prefetching and the
// dot lowering to the interpreter on shapes beyond the examples' (PipelinedMatmulTest.cpp: without
// a GPU they are interpreted before and after the pass pipeline, lowered and assembled;
// LowerGpuTest: on the GPU they compute exactly what the interpreter computes).
//
// Program (pid_m, pid_n) computes the BM x BN tile of C = C0 + A * B (or A * B), A M x K, B K x N
// row-major with row strides lda / ldb, C f32 with row stride ldc, walking K in steps of BK:
//  - mma.sync (nvidia_mma v2; f16, bf16, or f32 run as tf32) over a random warp grid, each operand
//    from registers (convert_layout) or from a shared tile in a random swizzle (local_alloc +
//    local_load); or wgmma (nvidia_mma v3, sm_90; f16 / bf16) over one or two warp groups, B in
//    an NVMMA shared tile of a random swizzle and major order, A there too or in registers,
//    synchronous or asynchronous;
//  - operands loaded in random blocked layouts; each pointer tile either recomputed from k or
//    carried through the loop and advanced; rows, columns and K masked where the sizes are no
//    multiple of the tile (and sometimes where they are);
//  - the accumulator starts at zero or at C's values; the tile is stored from the accumulator's
//    layout or converted to a blocked one first;
//  - the epilogue may add a bias per column (a vector in a slice of the tile's layout), store C
//    again as f16 or bf16 in D, and store its row sums (tt.reduce) per program column.
// The inputs are small integers, so every product and sum is exact in f32 whatever the order,
// and the GPU must match the interpreter bit for bit (the f16 / bf16 roundings included).
#pragma once

#include "CoreMatrixLayout.h"
#include "RandomDot.h"
#include "RandomKernel.h"

#include "linlayout/ir/InsertFences.h"
#include "linlayout/ir/Interpreter.h"
#include "linlayout/ir/Parser.h"
#include "linlayout/ir/Pipeline.h"
#include "linlayout/ir/Type.h"
#include "linlayout/ir/Verifier.h"
#include "linlayout/layout/AttrSyntax.h"
#include "linlayout/layout/LayoutSpec.h"
#include "linlayout/lower/Lower.h"

#include <rapidcheck.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace linlayout::lower::testing {

struct RandomMatmul {
  std::string elem = "f16"; // f16, bf16 or f32 (tf32 on the tensor cores; mma v2 only)
  int version = 2;          // nvidia_mma major version: 2 mma.sync, 3 wgmma
  int ctas = 1;             // CTAs per program ("ttg.num-ctas"; a cluster, sm_90, mma v2 only)
  int warpsM = 1, warpsN = 1, instrN = 8;
  int bm = 16, bn = 8, bk = 16;
  bool aShared = false, bShared = false;    // v2: through a shared tile; v3: A in shared memory
  std::string aSharedLayout, bSharedLayout; // the shared tiles' attributes
  // B loaded as B^T (a bn x bk tile, column-major in B's memory) into a shared tile in this
  // layout (bSharedLayout's, transposed), read through a ttg.memdesc_trans as bk x bn; empty: B
  // loaded and allocated as is.
  std::string bTransposedLayout;
  bool isAsync = false;                  // v3
  std::string layoutA, layoutB, layoutC; // blocked layouts of the loads and of C
  bool carryA = false, carryB = true;    // pointers carried through the loop (else from k)
  bool maskM = true, maskN = true, maskK = true;
  bool kDivisible = false;   // %K carries tt.divisibility = 16 (K is then a multiple of 16)
  bool accFromC = false;     // the accumulator starts at C's values
  bool storeBlocked = false; // C converted to layoutC before its store (else from the mma layout)
  // The epilogue: a bias per column added to C; C also stored as `outType` in D; the row sums of
  // C stored per program column (D and the sums only where asked).
  bool bias = false, rowSums = false;
  std::string outType = "f32";
  int64_t m = 16, n = 8, k = 16; // the run's sizes
  int64_t lda = 16, ldb = 8, ldc = 8;

  int warps() const { return warpsM * warpsN; }
  int elemBytes() const { return elem == "f32" ? 4 : 2; }
  int64_t gridM() const { return (m + bm - 1) / bm; }
  int64_t gridN() const { return (n + bn - 1) / bn; }
  ir::Grid grid() const { return {gridM(), gridN(), 1}; }

  std::string describe() const {
    auto s = [](int64_t v) { return std::to_string(v); };
    std::string d = elem + " mma v" + s(version) + " warps [" + s(warpsM) + ", " + s(warpsN) +
                    "] tile " + s(bm) + "x" + s(bn) + "x" + s(bk) + ", sizes " + s(m) + "x" + s(n) +
                    "x" + s(k) + ", A " + (aShared ? "{" + aSharedLayout + "}" : "regs") + ", B " +
                    (bShared ? "{" + bSharedLayout + "}" : "regs") +
                    (bTransposedLayout.empty() ? "" : " via B^T {" + bTransposedLayout + "}");
    if (version == 3)
      d += ", instrN " + s(instrN) + (isAsync ? ", async" : ", sync");
    if (ctas > 1)
      d += ", " + s(ctas) + " CTAs per program";
    return d + (accFromC ? ", C += A B" : ", C = A B") + (bias ? " + bias" : "") +
           (outType != "f32" ? ", D = " + outType + "(C)" : "") + (rowSums ? ", row sums" : "");
  }

  std::string text() const;
  // The PTX targets it lowers for: sm_80 and sm_90 for mma.sync, sm_90 for wgmma.
  std::vector<PtxTarget> targets() const {
    if (version == 3 || ctas > 1)
      return {PtxTarget{90, 80}};
    return {PtxTarget{80, 80}, PtxTarget{90, 80}};
  }

  std::vector<ir::ArgValue> args() const {
    return {
        ir::ArgValue::pointer(0),           ir::ArgValue::pointer(1),   ir::ArgValue::pointer(2),
        ir::ArgValue::pointer(3),           ir::ArgValue::pointer(4),   ir::ArgValue::pointer(5),
        ir::ArgValue::integer(m),           ir::ArgValue::integer(n),   ir::ArgValue::integer(k),
        ir::ArgValue::integer(lda),         ir::ArgValue::integer(ldb), ir::ArgValue::integer(ldc),
        ir::ArgValue::integer(gridM() * bm)};
  }

  // Random small integers in A (m x lda), B (k x ldb), C (m x ldc, f32) and the bias (n, f32); the
  // padding past a row's end holds values too, which a masked load must not take. D (m x ldc of
  // outType) and the row sums (gridN() x gridM() * bm, f32) start as 0x5a bytes.
  ir::Memory start() const {
    ir::Memory mem;
    auto fill = [](int64_t count, const std::string &type, int lo, int hi) {
      return encodeAs(
          type, *rc::gen::container<std::vector<int>>(size_t(count), rc::gen::inRange(lo, hi + 1)));
    };
    const size_t outBytes = size_t(ir::byteWidth(*ir::scalarKindFromName(outType)));
    mem.buffers = {fill(m * lda, elem, -3, 3),
                   fill(k * ldb, elem, -3, 3),
                   fill(m * ldc, "f32", -8, 8),
                   std::vector<uint8_t>(size_t(m * ldc) * outBytes, 0x5a),
                   fill(n, "f32", -8, 8),
                   std::vector<uint8_t>(size_t(gridN() * gridM() * bm) * 4, 0x5a)};
    return mem;
  }
};

inline std::string RandomMatmul::text() const {
  auto s = [](int64_t v) { return std::to_string(v); };
  const std::string t = elem;
  auto ty = [&](int64_t r, int64_t c, const std::string &e, const std::string &l) {
    return "tensor<" + s(r) + "x" + s(c) + "x" + e + ", " + l + ">";
  };
  const std::string kWidth = elem == "f32" ? "1" : "2";
  std::string h;
  h += "#la = " + layoutA + "\n#lb = " + layoutB + "\n#lc = " + layoutC + "\n";
  if (version == 2)
    h += "#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [" + s(warpsM) +
         ", " + s(warpsN) + "], instrShape = [16, 8]}>\n";
  else
    h += "#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [" + s(warpsM) +
         ", " + s(warpsN) + "], instrShape = [16, " + s(instrN) + ", " + s(32 / elemBytes()) +
         "]}>\n";
  if (version == 2 || !aShared)
    h += "#da = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = " + kWidth + "}>\n";
  if (version == 2)
    h += "#db = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = " + kWidth + "}>\n";
  if (aShared)
    h += "#sa = " + aSharedLayout + "\n";
  if (bShared)
    h += "#sb = " + bSharedLayout + "\n";
  if (!bTransposedLayout.empty())
    h += "#sbt = " + bTransposedLayout + "\n";
  if (aShared || bShared)
    h += "#smem = #ttg.shared_memory\n";
  std::string b;
  auto line = [&](const std::string &x) { b += "    " + x + "\n"; };
  const std::string div = " {tt.divisibility = 16 : i32}";
  h += "module attributes {\"ttg.num-ctas\" = " + s(ctas) +
       " : i32, \"ttg.num-warps\" = " + s(warps()) +
       " : i32, ttg.target = \"cuda:" + (version == 3 || ctas > 1 ? "90" : "80") +
       "\", \"ttg.threads-per-warp\" = 32 : i32} {\n";
  h += "  tt.func public @mm(%a: !tt.ptr<" + t + ">" + div + ", %b: !tt.ptr<" + t + ">" + div +
       ", %c: !tt.ptr<f32>" + div + ", %dout: !tt.ptr<" + outType + ">" + div +
       ", %bias: !tt.ptr<f32>, %sums: !tt.ptr<f32>, %M: i32, %N: i32, %K: i32" +
       (kDivisible ? div : "") + ", %lda: i32" + div + ", %ldb: i32" + div + ", %ldc: i32" + div +
       ", %ldr: i32) {\n";

  // The pointers of the rows x cols tile of `ptr` (element `e`, layout `l`) at (%row0, %col0),
  // row stride %ld (column stride when colMajor): %<p>_ptr; and, when rowLimit / colLimit are
  // set, %<p>_mask (row < rowLimit and col < colLimit).
  auto tile = [&](const std::string &p, const std::string &ptr, const std::string &e, int64_t rows,
                  int64_t cols, const std::string &l, const std::string &row0,
                  const std::string &col0, const std::string &ld, const std::string &rowLimit,
                  const std::string &colLimit, bool colMajor = false) {
    const std::string rs = "tensor<" + s(rows) + "xi32, #ttg.slice<{dim = 1, parent = " + l + "}>>";
    const std::string cs = "tensor<" + s(cols) + "xi32, #ttg.slice<{dim = 0, parent = " + l + "}>>";
    const std::string col = ty(rows, 1, "i32", l), row = ty(1, cols, "i32", l);
    const std::string full = ty(rows, cols, "i32", l),
                      ptrs = ty(rows, cols, "!tt.ptr<" + e + ">", l);
    const std::string q = "%" + p + "_";
    line(q + "r = tt.make_range {end = " + s(rows) + " : i32, start = 0 : i32} : " + rs);
    line(q + "r0 = tt.splat " + row0 + " : i32 -> " + rs);
    line(q + "ri = arith.addi " + q + "r0, " + q + "r : " + rs);
    line(q + "r2 = tt.expand_dims " + q + "ri {axis = 1 : i32} : " + rs + " -> " + col);
    if (colMajor) {
      line(q + "rb = tt.broadcast " + q + "r2 : " + col + " -> " + full);
    } else {
      line(q + "ld = tt.splat " + ld + " : i32 -> " + col);
      line(q + "ro = arith.muli " + q + "r2, " + q + "ld : " + col);
      line(q + "rb = tt.broadcast " + q + "ro : " + col + " -> " + full);
    }
    line(q + "c = tt.make_range {end = " + s(cols) + " : i32, start = 0 : i32} : " + cs);
    line(q + "c0 = tt.splat " + col0 + " : i32 -> " + cs);
    line(q + "ci = arith.addi " + q + "c0, " + q + "c : " + cs);
    line(q + "c2 = tt.expand_dims " + q + "ci {axis = 0 : i32} : " + cs + " -> " + row);
    if (colMajor) {
      line(q + "ld = tt.splat " + ld + " : i32 -> " + row);
      line(q + "co = arith.muli " + q + "c2, " + q + "ld : " + row);
      line(q + "cb = tt.broadcast " + q + "co : " + row + " -> " + full);
    } else {
      line(q + "cb = tt.broadcast " + q + "c2 : " + row + " -> " + full);
    }
    line(q + "o = arith.addi " + q + "rb, " + q + "cb : " + full);
    line(q + "v = tt.splat " + ptr + " : !tt.ptr<" + e + "> -> " + ptrs);
    line(q + "ptr = tt.addptr " + q + "v, " + q + "o : " + ptrs + ", " + full);
    // The mask: each limit's compare broadcast to the tile, and both of them when both are set.
    const std::string full1 = ty(rows, cols, "i1", l);
    std::vector<std::string> masks;
    const bool both = !rowLimit.empty() && !colLimit.empty();
    auto limit = [&](const std::string &lim, const std::string &which, const std::string &idx,
                     const std::string &shape, const std::string &shape1) {
      if (lim.empty())
        return;
      line(q + which + "l = tt.splat " + lim + " : i32 -> " + shape);
      line(q + which + "ok = arith.cmpi slt, " + idx + ", " + q + which + "l : " + shape);
      masks.push_back(both ? q + which + "m" : q + "mask");
      line(masks.back() + " = tt.broadcast " + q + which + "ok : " + shape1 + " -> " + full1);
    };
    limit(rowLimit, "r", q + "r2", col, ty(rows, 1, "i1", l));
    limit(colLimit, "c", q + "c2", row, ty(1, cols, "i1", l));
    if (both)
      line(q + "mask = arith.andi " + masks[0] + ", " + masks[1] + " : " + full1);
    return !masks.empty();
  };

  const std::string accTy = ty(bm, bn, "f32", "#mma");
  // B's tile as loaded: bk x bn, or B^T (bn x bk, column-major in B's memory) when its shared
  // tile is allocated transposed.
  const bool bT = bShared && !bTransposedLayout.empty();
  const int64_t bR = bT ? bn : bk, bC = bT ? bk : bn;
  const std::string tA = ty(bm, bk, t, "#la"), tB = ty(bR, bC, t, "#lb");
  const std::string pA = ty(bm, bk, "!tt.ptr<" + t + ">", "#la");
  const std::string pB = ty(bR, bC, "!tt.ptr<" + t + ">", "#lb");
  const std::string iA = ty(bm, bk, "i32", "#la"), iB = ty(bR, bC, "i32", "#lb");
  line("%c0 = arith.constant 0 : i32");
  line("%cbk = arith.constant " + s(bk) + " : i32");
  line("%pid_m = tt.get_program_id x : i32");
  line("%pid_n = tt.get_program_id y : i32");
  line("%cbm = arith.constant " + s(bm) + " : i32");
  line("%cbn = arith.constant " + s(bn) + " : i32");
  line("%m0 = arith.muli %pid_m, %cbm : i32");
  line("%n0 = arith.muli %pid_n, %cbn : i32");

  // The accumulator's start.
  line("%czero = arith.constant dense<0.0> : " + accTy);
  if (accFromC) {
    const std::string l = storeBlocked ? "#lc" : "#mma";
    bool masked = tile("ci", "%c", "f32", bm, bn, l, "%m0", "%n0", "%ldc", maskM ? "%M" : "",
                       maskN ? "%N" : "");
    line("%cin = tt.load %ci_ptr" + std::string(masked ? ", %ci_mask" : "") + " : " +
         ty(bm, bn, "!tt.ptr<f32>", l));
    if (storeBlocked)
      line("%init = ttg.convert_layout %cin : " + ty(bm, bn, "f32", "#lc") + " -> " + accTy);
  }
  const std::string init = !accFromC ? "%czero" : storeBlocked ? "%init" : "%cin";

  // Carried pointers start at k = 0 and step by BK columns (A) or BK rows (B).
  const std::string next = version == 3 && isAsync ? "%w#0" : "%next";
  std::string iterArgs = "%acc = " + init, iterTypes = accTy, yields = next, yieldTypes = accTy;
  if (carryA) {
    tile("a0", "%a", t, bm, bk, "#la", "%m0", "%c0", "%lda", "", "");
    line("%astep = tt.splat %cbk : i32 -> " + iA);
    iterArgs += ", %pa = %a0_ptr";
    iterTypes += ", " + pA;
    yields += ", %pa2";
    yieldTypes += ", " + pA;
  }
  if (carryB) {
    tile("b0", "%b", t, bR, bC, "#lb", bT ? "%n0" : "%c0", bT ? "%c0" : "%n0", "%ldb", "", "", bT);
    line("%bstep_s = arith.muli %ldb, %cbk : i32");
    line("%bstep = tt.splat %bstep_s : i32 -> " + iB);
    iterArgs += ", %pb = %b0_ptr";
    iterTypes += ", " + pB;
    yields += ", %pb2";
    yieldTypes += ", " + pB;
  }
  const int results = 1 + carryA + carryB;
  b += "    %res" + (results > 1 ? ":" + s(results) : std::string()) +
       " = scf.for %k = %c0 to %K step %cbk iter_args(" + iterArgs + ") -> (" + iterTypes +
       ") : i32 {\n";
  const std::string accOut = results > 1 ? "%res#0" : "%res";
  // A's tile at (m0, k) and B's at (k, n0): masks from k always, pointers unless carried.
  bool aMasked =
      tile("a", "%a", t, bm, bk, "#la", "%m0", "%k", "%lda", maskM ? "%M" : "", maskK ? "%K" : "");
  bool bMasked = tile("b", "%b", t, bR, bC, "#lb", bT ? "%n0" : "%k", bT ? "%k" : "%n0", "%ldb",
                      (bT ? maskN : maskK) ? (bT ? "%N" : "%K") : "",
                      (bT ? maskK : maskN) ? (bT ? "%K" : "%N") : "", bT);
  line("%at = tt.load " + std::string(carryA ? "%pa" : "%a_ptr") + (aMasked ? ", %a_mask" : "") +
       " : " + pA);
  line("%bt = tt.load " + std::string(carryB ? "%pb" : "%b_ptr") + (bMasked ? ", %b_mask" : "") +
       " : " + pB);
  const std::string mdA = "!ttg.memdesc<" + s(bm) + "x" + s(bk) + "x" + t + ", #sa, #smem>";
  const std::string mdB = "!ttg.memdesc<" + s(bk) + "x" + s(bn) + "x" + t + ", #sb, #smem>";
  const std::string dA = ty(bm, bk, t, "#da"), dB = ty(bk, bn, t, "#db");
  if (aShared)
    line("%as = ttg.local_alloc %at : (" + tA + ") -> " + mdA);
  else
    line("%ad = ttg.convert_layout %at : " + tA + " -> " + dA);
  if (bT) {
    const std::string mdBT = "!ttg.memdesc<" + s(bn) + "x" + s(bk) + "x" + t + ", #sbt, #smem>";
    line("%bst = ttg.local_alloc %bt : (" + tB + ") -> " + mdBT);
    line("%bs = ttg.memdesc_trans %bst {order = array<i32: 1, 0>} : " + mdBT + " -> " + mdB);
  } else if (bShared)
    line("%bs = ttg.local_alloc %bt : (" + tB + ") -> " + mdB);
  else
    line("%bd = ttg.convert_layout %bt : " + tB + " -> " + dB);
  if (version == 2) {
    if (aShared)
      line("%ad = ttg.local_load %as : " + mdA + " -> " + dA);
    if (bShared)
      line("%bd = ttg.local_load %bs : " + mdB + " -> " + dB);
    line("%next = tt.dot %ad, %bd, %acc : " + dA + " * " + dB + " -> " + accTy);
  } else {
    const std::string a = aShared ? "%as" : "%ad", aType = aShared ? mdA : dA;
    line(std::string(isAsync ? "%d" : "%next") + " = ttng.warp_group_dot " + a +
         ", %bs, %acc {inputPrecision = 0 : i32, isAsync = " + (isAsync ? "true" : "false") +
         "} : " + aType + " * " + mdB + " -> " + accTy);
    if (isAsync) {
      if (aShared)
        line("%w:3 = ttng.warp_group_dot_wait %d, %as, %bs {pendings = 0 : i32} : " + accTy + ", " +
             mdA + ", " + mdB);
      else
        line("%w:2 = ttng.warp_group_dot_wait %d, %bs {pendings = 0 : i32} : " + accTy + ", " +
             mdB);
    }
  }
  if (carryA)
    line("%pa2 = tt.addptr %pa, %astep : " + pA + ", " + iA);
  if (carryB)
    line("%pb2 = tt.addptr %pb, %bstep : " + pB + ", " + iB);
  line("scf.yield " + yields + " : " + yieldTypes);
  b += "    }\n";

  // C's tile at (m0, n0).
  const std::string l = storeBlocked ? "#lc" : "#mma";
  bool cMasked = tile("co", "%c", "f32", bm, bn, l, "%m0", "%n0", "%ldc", maskM ? "%M" : "",
                      maskN ? "%N" : "");
  std::string value = accOut;
  if (storeBlocked) {
    line("%out = ttg.convert_layout " + accOut + " : " + accTy + " -> " + ty(bm, bn, "f32", "#lc"));
    value = "%out";
  }
  const std::string tl = ty(bm, bn, "f32", l);
  auto vec = [&](int64_t len, int dim, const std::string &e) {
    return "tensor<" + s(len) + "x" + e + ", #ttg.slice<{dim = " + s(dim) + ", parent = " + l +
           "}>>";
  };
  if (bias) { // bias[n0 + j] (0 past N), broadcast down the rows
    const std::string vi = vec(bn, 0, "i32"), vf = vec(bn, 0, "f32");
    line("%bi_r = tt.make_range {end = " + s(bn) + " : i32, start = 0 : i32} : " + vi);
    line("%bi_n0 = tt.splat %n0 : i32 -> " + vi);
    line("%bi_c = arith.addi %bi_n0, %bi_r : " + vi);
    line("%bi_nv = tt.splat %N : i32 -> " + vi);
    line("%bi_ok = arith.cmpi slt, %bi_c, %bi_nv : " + vi);
    line("%bi_v = tt.splat %bias : !tt.ptr<f32> -> " + vec(bn, 0, "!tt.ptr<f32>"));
    line("%bi_p = tt.addptr %bi_v, %bi_c : " + vec(bn, 0, "!tt.ptr<f32>") + ", " + vi);
    line("%bi = tt.load %bi_p, %bi_ok : " + vec(bn, 0, "!tt.ptr<f32>"));
    line("%bi2 = tt.expand_dims %bi {axis = 0 : i32} : " + vf + " -> " + ty(1, bn, "f32", l));
    line("%bib = tt.broadcast %bi2 : " + ty(1, bn, "f32", l) + " -> " + tl);
    line("%biased = arith.addf " + value + ", %bib : " + tl);
    value = "%biased";
  }
  line("tt.store %co_ptr, " + value + (cMasked ? ", %co_mask" : "") + " : " +
       ty(bm, bn, "!tt.ptr<f32>", l));
  if (outType != "f32") { // D = C in outType, at C's offsets
    const std::string pd = ty(bm, bn, "!tt.ptr<" + outType + ">", l);
    line("%dv = tt.splat %dout : !tt.ptr<" + outType + "> -> " + pd);
    line("%dp = tt.addptr %dv, %co_o : " + pd + ", " + ty(bm, bn, "i32", l));
    line("%dt = arith.truncf " + value + " : " + tl + " to " + ty(bm, bn, outType, l));
    line("tt.store %dp, %dt" + std::string(cMasked ? ", %co_mask" : "") + " : " + pd);
  }
  if (rowSums) { // sums[pid_n * ldr + m0 + i] for the rows i below M
    const std::string vi = vec(bm, 1, "i32"), vf = vec(bm, 1, "f32");
    line("%rs = tt.reduce sum " + value + " {axis = 1 : i32} : " + tl + " -> " + vf);
    line("%rs_r = tt.make_range {end = " + s(bm) + " : i32, start = 0 : i32} : " + vi);
    line("%rs_m0 = tt.splat %m0 : i32 -> " + vi);
    line("%rs_i = arith.addi %rs_m0, %rs_r : " + vi);
    line("%rs_mv = tt.splat %M : i32 -> " + vi);
    line("%rs_ok = arith.cmpi slt, %rs_i, %rs_mv : " + vi);
    line("%rs_base = arith.muli %pid_n, %ldr : i32");
    line("%rs_bv = tt.splat %rs_base : i32 -> " + vi);
    line("%rs_o = arith.addi %rs_bv, %rs_i : " + vi);
    line("%rs_v = tt.splat %sums : !tt.ptr<f32> -> " + vec(bm, 1, "!tt.ptr<f32>"));
    line("%rs_p = tt.addptr %rs_v, %rs_o : " + vec(bm, 1, "!tt.ptr<f32>") + ", " + vi);
    line("tt.store %rs_p, %rs, %rs_ok : " + vec(bm, 1, "!tt.ptr<f32>"));
  }
  b += "    tt.return\n  }\n}\n";
  return h + b;
}

// A random blocked layout for a rows x cols tile over `warps` warps, mostly row-major: vectors of
// 1-8 elements along the contiguous dim, lanes and warps spread over the two dims without
// spanning more of the contiguous one than the tile has (copies only where the tile is smaller
// than the threads' span along the other).
inline std::string randomMatmulBlocked(int64_t rows, int64_t cols, int warps) {
  auto s = [](int64_t v) { return std::to_string(v); };
  const bool rowMajor = *rc::gen::weightedElement<bool>({{4, true}, {1, false}});
  const int64_t inner = rowMajor ? cols : rows;
  auto upTo = [](int64_t limit) { // a random power of two in [1, limit]
    std::vector<int64_t> options;
    for (int64_t v = 1; v <= limit; v *= 2)
      options.push_back(v);
    return *rc::gen::elementOf(options);
  };
  const int64_t vec = upTo(std::min<int64_t>(8, inner));
  const int64_t lanesInner = upTo(std::min<int64_t>(32, inner / vec));
  const int64_t warpsInner = upTo(std::min<int64_t>(warps, inner / (vec * lanesInner)));
  auto pair = [&](int64_t innerValue, int64_t outerValue) {
    return rowMajor ? "[" + s(outerValue) + ", " + s(innerValue) + "]"
                    : "[" + s(innerValue) + ", " + s(outerValue) + "]";
  };
  return "#ttg.blocked<{sizePerThread = " + pair(vec, 1) +
         ", threadsPerWarp = " + pair(lanesInner, 32 / lanesInner) +
         ", warpsPerCTA = " + pair(warpsInner, warps / warpsInner) +
         ", order = " + (rowMajor ? "[1, 0]" : "[0, 1]") + "}>";
}

// An NVMMA shared layout for a rows x cols tile of `elemBytes` elements: a random major order
// (the contiguous dim cols, or rows when transposed; K's for 4-byte elements, which wgmma reads
// K-major only: `kDim`) and a random swizzle no wider than the contiguous dim. Unswizzled where
// that dim is 16 bytes (wgmma reads unswizzled NVMMA tiles only as core matrices, rows of 16
// bytes).
inline std::string randomNvmma(int64_t rows, int64_t cols, int elemBytes, int kDim) {
  const bool transposed = elemBytes == 4 ? kDim == 0 : *rc::gen::arbitrary<bool>();
  const int64_t bytes = elemBytes * (transposed ? rows : cols);
  int swizzle = *rc::gen::element(32, 64, 128);
  while (swizzle > bytes)
    swizzle /= 2;
  return "#ttg.nvmma_shared<{swizzlingByteWidth = " + std::to_string(swizzle < 32 ? 0 : swizzle) +
         ", transposed = " + (transposed ? "true" : "false") +
         ", elementBitWidth = " + std::to_string(8 * elemBytes) + "}>";
}

// The shared layout `attr` of a rows x cols tile written out as a #ttg.shared_linear attribute
// of alignment 16 (wgmma reads it all the same, so the lowering must align it as NVMMA tiles);
// `transposed`: that of its cols x rows transpose (each basis's two components swapped).
inline std::string asSharedLinear(const std::string &attr, int64_t rows, int64_t cols,
                                  bool transposed = false) {
  auto spec = parseLayoutAttr(attr);
  RC_ASSERT(spec.ok());
  auto l = toLinearLayout(*spec, std::vector<int64_t>{rows, cols});
  RC_ASSERT(l.ok());
  std::string text = "#ttg.shared_linear<{offset = [";
  const size_t first = transposed ? 1 : 0;
  for (const InDimBases &in : l->bases())
    if (in.name == DimName::offset())
      for (size_t i = 0; i < in.bases.size(); ++i)
        text += (i ? ", [" : "[") + std::to_string(in.bases[i][first]) + ", " +
                std::to_string(in.bases[i][1 - first]) + "]";
  return text + "]}, alignment = 16>";
}

// The attribute of the cols x rows tile whose ttg.memdesc_trans is the rows x cols tile in `attr`,
// as TritonGPU writes it: a swizzled nvmma_shared of the other `transposed`, a swizzled_shared of
// the other order, or (always for the others, now and then for these) a shared_linear of the same
// bases.
inline std::string transposedAttr(const std::string &attr, int64_t rows, int64_t cols) {
  auto swap = [&](std::string text, const std::string &a, const std::string &b) {
    const size_t at = text.find(a);
    return at == std::string::npos ? text : text.replace(at, a.size(), b);
  };
  // (An unswizzled nvmma_shared ignores `transposed`: its transpose is a shared_linear.)
  const bool asLinear = attr.find("shared_linear") != std::string::npos ||
                        attr.find("swizzlingByteWidth = 0") != std::string::npos ||
                        *rc::gen::weightedElement<bool>({{3, false}, {1, true}});
  if (!asLinear && attr.find("nvmma_shared") != std::string::npos)
    return attr.find("transposed = true") != std::string::npos
               ? swap(attr, "transposed = true", "transposed = false")
               : swap(attr, "transposed = false", "transposed = true");
  if (!asLinear && attr.find("swizzled_shared") != std::string::npos)
    return attr.find("order = [1, 0]") != std::string::npos
               ? swap(attr, "order = [1, 0]", "order = [0, 1]")
               : swap(attr, "order = [0, 1]", "order = [1, 0]");
  return asSharedLinear(attr, rows, cols, /*transposed=*/true);
}

// A rows x cols wgmma operand of `elemBytes` elements (dim kDim is K, one instruction reads
// tileMn of M / N) stored as unswizzled core matrices, K- or MN-major (K-major for 4-byte
// elements): M / N's core matrices within one instruction consecutive (the descriptor's SBO steps
// them), every other step of M / N and K anywhere.
inline std::string randomCoreMatrixLayout(int64_t rows, int64_t cols, int elemBytes, int kDim,
                                          int64_t tileMn) {
  const bool mnMajor = elemBytes == 2 && *rc::gen::arbitrary<bool>();
  const int mnDim = 1 - kDim;
  const int64_t ext[2] = {rows, cols};
  const int64_t row = 16 / elemBytes; // elements in a core matrix row
  const int64_t mnCore = mnMajor ? row : 8, kCore = mnMajor ? 8 : row;
  std::vector<std::vector<CoreMatrixBit>> units;
  units.push_back(coreMatrixSteps(mnDim, mnCore, std::min(tileMn, ext[mnDim])));
  for (int64_t step = std::max(mnCore, tileMn); step < ext[mnDim]; step *= 2)
    units.push_back({{mnDim, step}});
  for (const CoreMatrixBit &bit : coreMatrixSteps(kDim, kCore, ext[kDim]))
    units.push_back({bit});
  const auto order =
      *rc::gen::container<std::vector<size_t>>(units.size(), rc::gen::inRange<size_t>(0, 1 << 20));
  std::vector<size_t> index(units.size());
  for (size_t i = 0; i < index.size(); ++i)
    index[i] = i;
  std::stable_sort(index.begin(), index.end(),
                   [&](size_t x, size_t y) { return order[x] < order[y]; });
  std::vector<CoreMatrixBit> outer;
  for (size_t i : index)
    outer.insert(outer.end(), units[i].begin(), units[i].end());
  return coreMatrixLayout(kDim, mnMajor, row, outer);
}

/// Counts (rapidcheck's classification, printed at the end of a property) of the operand forms
/// drawn: B through memdesc_trans; for wgmma shared_linear tiles (core matrices or NVMMA bases),
/// unswizzled NVMMA ones, tf32.
inline void classifyWgmmaOperands(const RandomMatmul &p) {
  RC_CLASSIFY(!p.bTransposedLayout.empty(), "B through memdesc_trans");
  if (p.version != 3)
    return;
  auto has = [](const std::string &layout, const char *what) {
    return layout.find(what) != std::string::npos;
  };
  RC_CLASSIFY(p.aShared && has(p.aSharedLayout, "shared_linear"), "wgmma A shared_linear");
  RC_CLASSIFY(has(p.bSharedLayout, "shared_linear"), "wgmma B shared_linear");
  RC_CLASSIFY(has(p.bSharedLayout, "swizzlingByteWidth = 0"), "wgmma B unswizzled NVMMA");
  RC_CLASSIFY(p.elem == "f32", "wgmma tf32");
}

/// A random matmul (call inside a rapidcheck property): mma.sync on 1-8 warps or wgmma on one or
/// two warp groups, tiles up to 128 x 128 x 64, 1-2 programs along M and N and 0-4 K steps.
inline RandomMatmul randomMatmul() {
  RandomMatmul p;
  p.version = *rc::gen::element(2, 2, 3);
  if (p.version == 2) {
    p.elem = *rc::gen::element(std::string("f16"), std::string("bf16"), std::string("f32"));
    p.warpsM = *rc::gen::element(1, 2, 4);
    p.warpsN = *rc::gen::element(1, 2, 4);
    if (p.warps() > 8)
      p.warpsN = 2;
    p.bm = 16 * p.warpsM * *rc::gen::element(1, 2, 4);
    p.bn = 8 * p.warpsN * *rc::gen::element(1, 2, 4, 8);
    p.bm = std::min(p.bm, 128);
    p.bn = std::min(p.bn, 128);
    p.bk = (p.elem == "f32" ? 8 : 16) * *rc::gen::element(1, 2, 4);
    p.aShared = *rc::gen::arbitrary<bool>();
    p.bShared = *rc::gen::arbitrary<bool>();
    p.aSharedLayout = "#ttg.swizzled_shared<{" + randomSwizzle() + "}>";
    p.bSharedLayout = "#ttg.swizzled_shared<{" + randomSwizzle() + "}>";
  } else {
    p.elem = *rc::gen::element(std::string("f16"), std::string("bf16"), std::string("f32"));
    const int grid = *rc::gen::inRange(0, 3);
    p.warpsM = grid == 1 ? 8 : 4;
    p.warpsN = grid == 2 ? 2 : 1;
    p.bm = p.warpsM == 8 ? 128 : 64 * *rc::gen::element(1, 2);
    p.instrN = *rc::gen::element(8, 16, 32, 64, 128);
    p.bn = p.instrN * p.warpsN * *rc::gen::element(1, 2);
    p.bn = std::min(p.bn, 256);
    p.bk = (p.elem == "f32" ? 8 : 16) * *rc::gen::element(1, 2, 4);
    p.aShared = *rc::gen::arbitrary<bool>();
    p.bShared = true;
    const bool coreA = *rc::gen::weightedElement<bool>({{3, false}, {1, true}});
    const bool coreB = *rc::gen::weightedElement<bool>({{3, false}, {1, true}});
    const int e = p.elemBytes();
    p.aSharedLayout =
        coreA ? randomCoreMatrixLayout(p.bm, p.bk, e, 1, 64) : randomNvmma(p.bm, p.bk, e, 1);
    p.bSharedLayout =
        coreB ? randomCoreMatrixLayout(p.bk, p.bn, e, 0, p.instrN) : randomNvmma(p.bk, p.bn, e, 0);
    // Now and then the NVMMA tiles as shared_linear ones of the same bases.
    if (!coreA && *rc::gen::weightedElement<bool>({{3, false}, {1, true}}))
      p.aSharedLayout = asSharedLinear(p.aSharedLayout, p.bm, p.bk);
    if (!coreB && *rc::gen::weightedElement<bool>({{3, false}, {1, true}}))
      p.bSharedLayout = asSharedLinear(p.bSharedLayout, p.bk, p.bn);
    p.isAsync = *rc::gen::arbitrary<bool>();
  }
  if (p.bShared && *rc::gen::weightedElement<bool>({{3, false}, {1, true}}))
    p.bTransposedLayout = transposedAttr(p.bSharedLayout, p.bk, p.bn);
  p.layoutA = randomMatmulBlocked(p.bm, p.bk, p.warps());
  p.layoutB = randomMatmulBlocked(p.bk, p.bn, p.warps());
  p.layoutC = randomMatmulBlocked(p.bm, p.bn, p.warps());
  p.carryA = *rc::gen::arbitrary<bool>();
  p.carryB = *rc::gen::arbitrary<bool>();
  p.accFromC = *rc::gen::arbitrary<bool>();
  p.storeBlocked = *rc::gen::arbitrary<bool>();
  p.bias = *rc::gen::arbitrary<bool>();
  p.rowSums = *rc::gen::arbitrary<bool>();
  // Programs of 2 or 4 CTAs (mma.sync). Where the tile is too small for the cluster to cut only
  // its rows, plan-ctas cuts the columns too, and the row sums gather each row's parts through
  // the cluster's distributed shared memory.
  if (p.version == 2)
    p.ctas = *rc::gen::element(1, 1, 2, 4);
  p.outType = *rc::gen::element(std::string("f32"), std::string("f16"), std::string("bf16"));
  p.kDivisible = *rc::gen::arbitrary<bool>();
  // Sizes: 1-2 tiles along M and N, 0-4 K steps; exact multiples now and then.
  auto size = [](int64_t tileSize, int64_t unit, bool &masked) {
    const int64_t tiles = *rc::gen::inRange<int64_t>(1, 3);
    const bool exact = *rc::gen::arbitrary<bool>();
    int64_t v =
        exact ? tiles * tileSize
              : (tiles - 1) * tileSize + unit * *rc::gen::inRange<int64_t>(1, tileSize / unit + 1);
    masked = !exact || *rc::gen::arbitrary<bool>();
    return v;
  };
  p.m = size(p.bm, 1, p.maskM);
  p.n = size(p.bn, 1, p.maskN);
  const int64_t steps = *rc::gen::inRange<int64_t>(0, 5);
  const int64_t unit = p.kDivisible ? 16 : 1;
  const bool exactK = *rc::gen::arbitrary<bool>() || steps == 0;
  p.k = exactK ? steps * p.bk
               : (steps - 1) * p.bk + unit * *rc::gen::inRange<int64_t>(1, p.bk / unit + 1);
  p.maskK = !(exactK && p.k % p.bk == 0) || *rc::gen::arbitrary<bool>();
  // Row strides: the sizes rounded up to 16 elements, plus 0 or 16 (so rows stay 16-byte aligned).
  auto stride = [](int64_t cols) {
    return (cols + 15) / 16 * 16 + 16 * *rc::gen::inRange<int64_t>(0, 2);
  };
  p.lda = stride(p.k);
  p.ldb = stride(p.n);
  p.ldc = stride(p.n);
  return p;
}

/// A matmul made ready to run (PreparedKernel): its module as written (with the proxy fences wgmma
/// needs) and after the whole pass pipeline with `stages` software-pipelining stages and prefetch
/// K slices of `prefetchK` (0: none), its start memory and what the interpreter leaves from it.
struct PreparedMatmul : PreparedKernel {
  RandomMatmul p;
  int stages = 1, prefetchK = 0;

  std::string describe() const {
    return p.describe() + ", " + std::to_string(stages) + " stages, prefetch " +
           std::to_string(prefetchK);
  }
  // Where C, D or the row sums differ from the interpreter's: "" when nowhere.
  std::string firstDifference(const ir::Memory &got) const {
    const char *names[] = {"C", "D", "the row sums"};
    const size_t buffers[] = {2, 3, 5};
    for (int b = 0; b < 3; ++b) {
      const std::vector<uint8_t> &g = got.buffers[buffers[b]], &w = want.buffers[buffers[b]];
      const size_t width = b == 1 ? size_t(ir::byteWidth(*ir::scalarKindFromName(p.outType))) : 4;
      for (size_t i = 0; i + width <= w.size(); i += width)
        if (std::memcmp(&g[i], &w[i], width) != 0) {
          uint32_t x = 0, y = 0;
          std::memcpy(&x, &g[i], width);
          std::memcpy(&y, &w[i], width);
          const int64_t e = int64_t(i / width), ld = b == 2 ? p.gridM() * p.bm : p.ldc;
          return std::string(names[b]) + " (" + std::to_string(e / ld) + ", " +
                 std::to_string(e % ld) + ") has bits " + std::to_string(x) +
                 ", the interpreter's " + std::to_string(y);
        }
    }
    return "";
  }
};

/// The matmul prepared with random stages and prefetch, or what failed (parse, verify, passes,
/// interpreter), with its text.
inline Expected<PreparedMatmul> prepareMatmul(const RandomMatmul &p) {
  PreparedMatmul k;
  k.p = p;
  k.stages = *rc::gen::inRange(1, 5);
  k.prefetchK = *rc::gen::element(0, 16, 32);
  const std::string text = p.text();
  auto fail = [&](const std::string &what) {
    return makeError(k.describe() + ": " + what + "\n" + text);
  };
  auto m = ir::parseModule(text, "mm.tir");
  if (!m.ok())
    return fail(m.message());
  if (Status v = ir::verify(*m); !v.ok())
    return fail(v.message());
  k.modules = {*m, *m};
  if (Status s = ir::insertFences(k.modules[0]); !s.ok())
    return fail("fences: " + s.message());
  ir::PipelineOptions o;
  o.numStages = k.stages;
  o.prefetchK = k.prefetchK;
  if (Status s = ir::runPipeline(k.modules[1], o); !s.ok())
    return fail("pipeline: " + s.message());
  k.start = p.start();
  k.want = k.start;
  if (Status s = ir::interpret(*m, "mm", p.args(), k.want, p.grid()); !s.ok())
    return fail("interpreter: " + s.message());
  return k;
}

/// Without a GPU: the matmul runs in the interpreter, the pass pipeline keeps C, and both modules
/// lower for each of its targets to PTX that ptxas assembles (where it is installed). "" when all
/// of that holds, else what failed, with the program.
inline std::string interpretLowerAndAssemble(const RandomMatmul &p) {
  auto k = prepareMatmul(p);
  if (!k.ok())
    return k.message();
  const std::string text = p.text();
  ir::Memory got = k->start;
  ir::InterpreterOptions fenced; // the pipeline ends with fence insertion
  fenced.checkProxyFences = true;
  if (Status s = ir::interpret(k->modules[1], "mm", p.args(), got, p.grid(), fenced); !s.ok())
    return k->describe() + ": interpreter, after the pipeline: " + s.message() + "\n" + text;
  if (std::string diff = k->firstDifference(got); !diff.empty())
    return k->describe() + ": the pipeline changed C: " + diff + "\n" + text;
  for (size_t m = 0; m < k->modules.size(); ++m) {
    for (const PtxTarget &target : p.targets()) {
      auto lowered = k->lower(m, target);
      std::string where = k->describe() + ", " + target.name() + ", " + PreparedMatmul::which(m);
      if (!lowered.ok())
        return where + ": " + lowered.message() + "\n" + text;
      if (std::string log = ptxasRejection(lowered->kernel); !log.empty())
        return "ptxas, " + where + ": " + log + "\n" + text;
    }
  }
  return "";
}

} // namespace linlayout::lower::testing

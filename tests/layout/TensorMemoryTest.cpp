// The tensor-memory families (tensor_memory, tensor_memory_scales) and the register layouts of
// tcgen05.ld/st messages: Triton's expected layouts, attribute texts and refusals as examples,
// and properties checked against a brute-force evaluator.
//
// The expected bases of TensorMemory_blockM_64, TensorMemory_blockM_128 and
// TensorMemory_CTASplit are the values of Triton's own LinearLayoutConversionsTest.cpp (found
// by search); the two-CTA, scales and message examples follow Triton 3.6's
// tensorMemoryToLinearLayout, tensorMemoryScalesToLinearLayout and
// getDistributedLayoutForTmemLdSt rule by rule, and the descriptor refusals are Gluon 3.6's (the
// GPU reference set, tests/reference/triton36-tmem-cases.jsonl.gz, checks all of them).
#include "BruteForce.h"
#include "GTestProperty.h"
#include "SpecGen.h"
#include "SpecTestUtil.h"

#include "linlayout/layout/AttrSyntax.h"
#include "linlayout/layout/CtaSplit.h"
#include "linlayout/layout/LayoutSpec.h"
#include "linlayout/layout/TmemDescriptor.h"
#include "linlayout/layout/TmemMessage.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <algorithm>
#include <vector>

using namespace linlayout;
using namespace linlayout::testing;

namespace {

LayoutSpec tmem(int64_t m, int64_t n, int64_t colStride = 1, int64_t splitM = 1, int64_t splitN = 1,
                bool twoCtas = false) {
  return ok(TensorMemorySpec::make(m, n, colStride, splitM, splitN, twoCtas));
}

LinearLayout rowCol(Bases rows, Bases cols, std::vector<uint64_t> shape) {
  return layoutOf({{"row", std::move(rows)}, {"col", std::move(cols)}}, std::move(shape));
}

std::string parseResult(std::string_view text) {
  auto r = parseLayoutAttr(text);
  return r.ok() ? "ok: " + printLayoutAttr(*r) : r.message();
}

std::string convertError(const LayoutSpec &s, I64s shape) {
  auto r = toLinearLayout(s, shape);
  return r.ok() ? "ok" : r.message();
}

LinearLayout message(const LayoutSpec &s, I64s shape, int64_t warps, TmemAtom atom, int bits = 32,
                     CgaLayout cga = CgaLayout::single(2)) {
  auto r = tmemMessageLayout(s, shape, warps, atom, bits, cga);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.message());
  EXPECT_TRUE(r.ok() && r->has_value());
  return r.ok() && r->has_value() ? **r : LinearLayout();
}

LinearLayout threads(Bases regs, Bases lanes, Bases warps, std::vector<uint64_t> shape,
                     Bases blocks = {}) {
  return layoutOf({{"register", std::move(regs)},
                   {"lane", std::move(lanes)},
                   {"warp", std::move(warps)},
                   {"block", std::move(blocks)}},
                  std::move(shape));
}

} // namespace

TEST(TensorMemory, BlockM64AsTritonsTest) {
  Bases rows{{1, 0}, {2, 0}, {4, 0}, {8, 0}, {64, 0}, {16, 0}, {32, 0}};
  Bases cols{{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {0, 32}};
  EXPECT_EQ(convert(tmem(64, 64), {128, 64}), rowCol(rows, cols, {128, 64}));
  // Exactly one block: TMEM row 16 holds nothing.
  Bases rows64 = rows;
  rows64[4] = {0, 0};
  EXPECT_EQ(convert(tmem(64, 64), {64, 64}), rowCol(rows64, cols, {64, 64}));
  // More blocks: M first, then N.
  Bases cols2 = cols;
  cols2.push_back({128, 0});
  cols2.push_back({0, 64});
  EXPECT_EQ(convert(tmem(64, 64), {256, 128}), rowCol(rows, cols2, {256, 128}));
  // 64 rows: row 16 holds the next block along N.
  Bases rowsN = rows;
  rowsN[4] = {0, 64};
  Bases colsN = cols;
  colsN.push_back({0, 128});
  EXPECT_EQ(convert(tmem(64, 64), {64, 256}), rowCol(rowsN, colsN, {64, 256}));
}

TEST(TensorMemory, BlockM128AsTritonsTest) {
  Bases rows{{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}, {32, 0}, {64, 0}};
  Bases cols{{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {0, 32}, {0, 64}};
  EXPECT_EQ(convert(tmem(128, 128), {128, 128}), rowCol(rows, cols, {128, 128}));
  Bases cols2 = cols;
  cols2.push_back({128, 0});
  EXPECT_EQ(convert(tmem(128, 128), {256, 128}), rowCol(rows, cols2, {256, 128}));
  cols2.push_back({0, 128});
  EXPECT_EQ(convert(tmem(128, 128), {256, 256}), rowCol(rows, cols2, {256, 256}));
}

TEST(TensorMemory, CtaSplitAsTritonsTest) {
  // The split comes after one CTA's columns: M's, then N's.
  LinearLayout one = convert(tmem(64, 128), {64, 128});
  auto cols = one.bases()[1].bases;
  cols.push_back({64, 0});
  EXPECT_EQ(convert(tmem(64, 128, 1, 2, 1), {128, 128}),
            layoutOf({{"row", one.bases()[0].bases}, {"col", cols}}, {128, 128}));
  LinearLayout n = convert(tmem(128, 64), {128, 64});
  auto ncols = n.bases()[1].bases;
  ncols.push_back({0, 64});
  EXPECT_EQ(convert(tmem(128, 64, 1, 1, 2), {128, 128}),
            layoutOf({{"row", n.bases()[0].bases}, {"col", ncols}}, {128, 128}));
  LinearLayout q = convert(tmem(64, 64), {64, 64});
  auto qcols = q.bases()[1].bases;
  qcols.push_back({64, 0});
  qcols.push_back({0, 64});
  EXPECT_EQ(convert(tmem(64, 64, 1, 2, 2), {128, 128}),
            layoutOf({{"row", q.bases()[0].bases}, {"col", qcols}}, {128, 128}));
}

TEST(TensorMemory, ColStrideLeavesLowColumnsEmpty) {
  // Unpacked 16-bit elements: one per 32-bit column, the first column bit moves nothing.
  LinearLayout l = convert(tmem(128, 64, 2), {128, 64});
  EXPECT_EQ(l.inDimSize(tmemColDim()), 128u);
  EXPECT_EQ(l.basis(tmemColDim(), 0), (std::vector<uint64_t>{0, 0}));
  EXPECT_EQ(l.basis(tmemColDim(), 1), (std::vector<uint64_t>{0, 1}));
  EXPECT_EQ(convert(tmem(128, 64, 4), {128, 64}).inDimSize(tmemColDim()), 256u);
}

TEST(TensorMemory, TwoCtaBlockM64SwapsTheLastRowAndColumnBits) {
  // Two CTAs of 64 rows lay out one 128-row block, then exchange row 64 and the last column.
  Bases rows{{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}, {32, 0}, {0, 32}};
  Bases cols{{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {64, 0}};
  EXPECT_EQ(convert(tmem(64, 64, 1, 2, 1, true), {128, 64}), rowCol(rows, cols, {128, 64}));
  // Without the split, or with blockM 128, two-CTA mode changes nothing.
  EXPECT_EQ(convert(tmem(64, 64, 1, 1, 1, true), {128, 64}), convert(tmem(64, 64), {128, 64}));
  EXPECT_EQ(convert(tmem(128, 64, 1, 2, 1, true), {256, 64}),
            convert(tmem(128, 64, 1, 2, 1), {256, 64}));
}

TEST(TensorMemory, ScalesTile) {
  LayoutSpec s = ok(TensorMemoryScalesSpec::make());
  Bases rows{{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}, {0, 0}, {0, 0}};
  EXPECT_EQ(convert(s, {128, 4}), rowCol(rows, {{0, 1}, {0, 2}, {32, 0}, {64, 0}}, {128, 4}));
  EXPECT_EQ(convert(s, {64, 16}),
            rowCol(rows, {{0, 1}, {0, 2}, {32, 0}, {0, 4}, {0, 8}}, {64, 16}));
  // A tensor smaller than the 64x4 tile: what it does not reach is zero.
  Bases small{{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 0}, {0, 0}, {0, 0}};
  EXPECT_EQ(convert(s, {16, 2}), rowCol(small, {{0, 1}, {0, 0}, {0, 0}}, {16, 2}));
  // The CTA split follows, M then N.
  LayoutSpec split = ok(TensorMemoryScalesSpec::make(2, 2));
  EXPECT_EQ(convert(split, {256, 8}),
            rowCol(rows, {{0, 1}, {0, 2}, {32, 0}, {64, 0}, {128, 0}, {0, 4}}, {256, 8}));
}

TEST(TensorMemory, AttributesAsTritonPrintsThem) {
  EXPECT_EQ(parseResult("#ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>"),
            "ok: #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>");
  EXPECT_EQ(parseResult("#ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1, "
                        "CTASplitM = 2, twoCTAs = true>"),
            "ok: #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1, "
            "CTASplitM = 2, twoCTAs = true>");
  // Triton before colStride: unpacked.
  EXPECT_EQ(parseResult("#triton_nvidia_gpu.tensor_memory_encoding<blockM = 64, blockN = 32, "
                        "unpacked = true, CTASplitN = 2>"),
            "ok: #ttng.tensor_memory_encoding<blockM = 64, blockN = 32, colStride = 2, "
            "CTASplitN = 2>");
  EXPECT_EQ(parseResult("#ttng.tensor_memory_scales_encoding<>"),
            "ok: #ttng.tensor_memory_scales_encoding<>");
  EXPECT_EQ(parseResult("#ttng.tensor_memory_scales_encoding<CTASplitM = 2, CTASplitN = 4>"),
            "ok: #ttng.tensor_memory_scales_encoding<CTASplitM = 2, CTASplitN = 4>");
  // A dump's aliases, as Triton names them.
  auto aliases = parseAttrAliases(
      "#tmem = #ttng.tensor_memory_encoding<blockM = 64, blockN = 128, colStride = 2>\n"
      "#tmem_scales = #ttng.tensor_memory_scales_encoding<>\n");
  ASSERT_TRUE(aliases.ok()) << aliases.message();
  auto t = parseLayoutAttr("#tmem", *aliases);
  ASSERT_TRUE(t.ok()) << t.message();
  EXPECT_EQ(attrAliasStem(*t), "tmem");
  EXPECT_TRUE(t->isTensorMemory());
  EXPECT_FALSE(t->isShared());
  EXPECT_FALSE(t->isDistributed());
}

TEST(TensorMemory, BadSpecsAreErrors) {
  EXPECT_EQ(convertError(tmem(128, 64), {64, 64}),
            "tensor_memory: each CTA holds [64, 64], fewer than 128 rows of blockM = 128");
  EXPECT_EQ(convertError(tmem(128, 64, 1, 2), {128, 63}),
            "shape [128, 63]: dim1 has size 63, expected a power of two");
  EXPECT_EQ(convertError(tmem(128, 64, 1, 1, 4), {128, 2}),
            "tensor_memory: shape [128, 2] does not divide into CTASplitM x CTASplitN = [1, 4] "
            "CTAs");
  EXPECT_EQ(convertError(tmem(64, 1, 1, 2, 1, true), {128, 1}),
            "tensor_memory: two-CTA blockM = 64 over [128, 1] has no column bit to swap with "
            "row 64");
  EXPECT_EQ(convertError(tmem(128, 64), {128, 64, 2}),
            "tensor_memory: shape [128, 64, 2] has rank 3, the layout has rank 2");
  EXPECT_EQ(TensorMemorySpec::make(32, 64, 1).message(),
            "tensor_memory: block[0] (blockM) is 32, expected 64 or 128");
  EXPECT_EQ(TensorMemorySpec::make(128, 1024, 1).message(),
            "tensor_memory: block[1] (blockN) is 1024, expected a power of two from 1 to 512");
  EXPECT_EQ(TensorMemorySpec::make(128, 64, 3).message(),
            "tensor_memory: col_stride is 3, expected 1, 2 or 4");
  EXPECT_EQ(TensorMemoryScalesSpec::make(3, 1).message(),
            "tensor_memory_scales: cta_split_num[0] is 3, expected a power of two from 1 to 256");
  EXPECT_EQ(parseResult("#ttng.tensor_memory_encoding<blockM = 96, blockN = 64, colStride = 1>"),
            "1:1: tensor_memory: blockM is 96, expected 64 or 128");
  EXPECT_EQ(parseResult("#ttg.tensor_memory_encoding<blockM = 64, blockN = 64, colStride = 1>"),
            "1:1: 'tensor_memory_encoding' is a layout of #ttng, not of #ttg");
  EXPECT_EQ(parseResult("#ttng.tensor_memory_encoding<blockM = 64, blockN = 64>"),
            "1:1: '#ttng.tensor_memory_encoding' needs 'colStride'");
}

TEST(TensorMemory, CtaSplitQueries) {
  LayoutSpec s = tmem(128, 64, 1, 2, 2);
  EXPECT_EQ(numCtasOf(s), 4);
  EXPECT_TRUE(splitsOverCtas(s, 0));
  EXPECT_EQ(cgaOf(s)->bases(), (std::vector<std::vector<int64_t>>{{1, 0}, {0, 1}}));
  auto back = withCga(s, CgaLayout::single(2));
  ASSERT_TRUE(back.ok()) << back.message();
  EXPECT_EQ(numCtasOf(*back), 1);
  auto bad = withCga(s, ok(CgaLayout::fromBases({{0, 1}, {1, 0}}, 2)));
  EXPECT_EQ(bad.message(), "tensor_memory: cga_layout [[0, 1], [1, 0]] is not CTASplitM x "
                           "CTASplitN CTAs with dim0 fastest, the only split tensor memory has");
}

TEST(TmemMessage, BlockM128Atoms) {
  // Each over a block as wide as the tensor: Triton refuses a wider one (a block per CTA).
  LayoutSpec t = tmem(128, 128);
  // 32x32b: lane i reads row i; registers walk the columns; warps 1, 2 are rows 32, 64.
  EXPECT_EQ(message(t, {128, 128}, 4, TmemAtom::I32x32b),
            threads({{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {0, 32}, {0, 64}},
                    {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}}, {{32, 0}, {64, 0}}, {128, 128}));
  // 16x256b: two columns per register pair, rows 8 in a register, row 16 in a register too.
  EXPECT_EQ(message(tmem(128, 16), {128, 16}, 4, TmemAtom::I16x256b),
            threads({{0, 1}, {8, 0}, {0, 8}, {16, 0}}, {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}},
                    {{32, 0}, {64, 0}}, {128, 16}));
  // With 8 warps row 16 goes to the third warp bit.
  EXPECT_EQ(message(tmem(128, 16), {128, 16}, 8, TmemAtom::I16x64b),
            threads({{0, 2}, {0, 4}, {0, 8}}, {{8, 0}, {0, 1}, {1, 0}, {2, 0}, {4, 0}},
                    {{32, 0}, {64, 0}, {16, 0}}, {128, 16}));
  // 8 warps on 32x32b: the second four take the second half of the columns.
  EXPECT_EQ(message(tmem(128, 8), {128, 8}, 8, TmemAtom::I32x32b),
            threads({{0, 1}, {0, 2}}, {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}},
                    {{32, 0}, {64, 0}, {0, 4}}, {128, 8}));
  // More warps than columns: the rest broadcast.
  EXPECT_EQ(
      message(tmem(128, 1), {128, 1}, 8, TmemAtom::I32x32b),
      threads({}, {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}}, {{32, 0}, {64, 0}, {0, 0}}, {128, 1}));
}

TEST(TmemMessage, BlockM64Uses16x32bx2Inside32x32b) {
  // Lanes 16-31 read the second half of the columns of the same 16 rows.
  EXPECT_EQ(message(tmem(64, 128), {64, 128}, 4, TmemAtom::I32x32b),
            threads({{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {0, 32}},
                    {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 64}}, {{16, 0}, {32, 0}}, {64, 128}));
}

TEST(TmemMessage, NarrowElements) {
  // 16-bit, packed: two neighbours share a 32-bit column and a register.
  EXPECT_EQ(message(tmem(128, 8), {128, 8}, 4, TmemAtom::I32x32b, 16),
            threads({{0, 1}, {0, 2}, {0, 4}}, {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}},
                    {{32, 0}, {64, 0}}, {128, 8}));
  // 16-bit, unpacked (col_stride 2): the same register layout, one element per column.
  EXPECT_EQ(message(tmem(128, 8, 2), {128, 8}, 4, TmemAtom::I32x32b, 16),
            message(tmem(128, 8), {128, 8}, 4, TmemAtom::I32x32b, 16));
  // 8-bit with col_stride 4: padded, one element per 32-bit column.
  EXPECT_EQ(message(tmem(128, 4, 4), {128, 4}, 4, TmemAtom::I32x32b, 8),
            threads({{0, 1}, {0, 2}}, {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}}, {{32, 0}, {64, 0}},
                    {128, 4}));
}

TEST(TmemMessage, CtaSplitBecomesTheBlockDim) {
  LayoutSpec t = tmem(128, 64, 1, 2);
  LinearLayout one = message(tmem(128, 64), {128, 64}, 4, TmemAtom::I32x32b);
  auto b = one.bases();
  LinearLayout two =
      message(t, {256, 64}, 4, TmemAtom::I32x32b, 32, ok(CgaLayout::fromBases({{1, 0}}, 2)));
  EXPECT_EQ(two, threads(b[0].bases, b[1].bases, b[2].bases, {256, 64}, {{128, 0}}));
}

TEST(TmemMessage, NoLayoutAndErrors) {
  LayoutSpec t = tmem(128, 128);
  // 16x256b needs 8 columns.
  auto narrow = tmemMessageLayout(tmem(128, 4), I64s{128, 4}, 4, TmemAtom::I16x256b, 32,
                                  CgaLayout::single(2));
  ASSERT_TRUE(narrow.ok()) << narrow.message();
  EXPECT_FALSE(narrow->has_value());
  auto err = [&](const LayoutSpec &s, I64s shape, int64_t warps, TmemAtom atom, int bits,
                 CgaLayout cga) {
    auto r = tmemMessageLayout(s, shape, warps, atom, bits, cga);
    return r.ok() ? std::string("ok") : r.message();
  };
  auto one = CgaLayout::single(2);
  EXPECT_EQ(err(t, {128, 128}, 2, TmemAtom::I32x32b, 32, one),
            "tmem message: num_warps is 2, expected a power of two from 4 to 1024");
  EXPECT_EQ(err(t, {128, 128}, 4, TmemAtom::I32x32b, 64, one),
            "tmem message: element_bitwidth is 64, expected 8, 16 or 32");
  EXPECT_EQ(err(t, {128, 128}, 4, TmemAtom::I16x32bx2, 32, one),
            "tmem message: 16x32bx2 is not asked for: Triton uses it inside 32x32b when a "
            "64-row block leaves lanes 16-31 idle");
  EXPECT_EQ(
      err(blocked({1, 1}, {1, 32}, {4, 1}, {1, 0}), {128, 128}, 4, TmemAtom::I32x32b, 32, one),
      "tmem message: layout is blocked, expected tensor_memory or tensor_memory_scales");
  EXPECT_EQ(err(t, {256, 128}, 4, TmemAtom::I32x32b, 32, ok(CgaLayout::fromBases({{0, 1}}, 2))),
            "tmem message: cga_layout [[0, 1]] is not the CTA split of "
            "#ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1> over "
            "[256, 128]");
  EXPECT_EQ(tmemAtomFromName("32x16b").message(),
            "tmem message: instr_variant '32x16b' is not 32x32b, 16x64b, 16x128b, 16x256b or "
            "16x32bx2");
}

TEST(TmemMessage, DescriptorRefusalsAsGluons) {
  // Gluon 3.6 forms the tensor-memory descriptor before it looks for a layout; these are cases
  // it refused (tests/reference/triton36-tmem-cases.jsonl.gz), one per rule.
  auto err = [](const LayoutSpec &s, I64s shape, int bits) {
    auto r = tmemMessageLayout(s, shape, 4, TmemAtom::I32x32b, bits, CgaLayout::single(2));
    return r.ok() ? std::string("ok") : r.message();
  };
  // m401-289: "bitwidth * colStride must be less than or equal to 32. Got 32 and 4".
  EXPECT_EQ(err(tmem(128, 16, 4), {128, 16}, 32),
            "tmem descriptor: 32-bit elements with colStride 4 take 128 bits, more than one "
            "32-bit column (bitwidth x colStride <= 32)");
  EXPECT_EQ(err(tmem(128, 16, 2), {128, 16}, 16), "ok");
  // m402-285: "the allocation shape must be at least 64x32. Got 128, 4".
  EXPECT_EQ(err(tmem(64, 32), {128, 4}, 32),
            "tmem descriptor: shape [128, 4] is smaller than a block per CTA, [blockM x "
            "CTASplitM, blockN x CTASplitN] = [64, 32]");
  EXPECT_EQ(err(tmem(128, 64, 1, 2), {128, 64}, 32),
            "tmem descriptor: shape [128, 64] is smaller than a block per CTA, [blockM x "
            "CTASplitM, blockN x CTASplitN] = [256, 64]");
  // m401-48: "nCol / (CTASplitM * CTASplitN) must be less than or equal to 512 * 32 /
  // bitwidth but got 1024"; the same columns hold 16-bit elements two to a column.
  EXPECT_EQ(err(tmem(128, 16), {256, 512}, 32),
            "tmem descriptor: each CTA's part of [256, 512] takes 1024 columns of 32-bit "
            "elements, more than the 512 tensor memory holds (512 x 32 / 32)");
  EXPECT_EQ(err(tmem(128, 16), {256, 512}, 16), "ok");
  EXPECT_EQ(err(tmem(128, 16), {128, 512}, 32), "ok");
  // m401-234: the CTA split divides the columns; col_stride multiplies them.
  EXPECT_EQ(err(tmem(128, 4, 2, 2), {1024, 512}, 8),
            "tmem descriptor: each CTA's part of [1024, 512] takes 4096 columns of 8-bit "
            "elements, more than the 2048 tensor memory holds (512 x 32 / 8)");
  // m401-3: "bitwidth must be 8".
  LayoutSpec scales = ok(TensorMemoryScalesSpec::make());
  EXPECT_EQ(err(scales, {16, 16}, 32),
            "tmem descriptor: tensor_memory_scales holds 8-bit scales, element_bitwidth is 32");
  EXPECT_EQ(checkTmemDescriptor(scales, I64s{16, 16, 2}, 8).message(),
            "tmem descriptor: shape [16, 16, 2] has rank 3, expected 2");
}

// Properties: shapes and injectivity of the tensor-memory layouts against enumeration, and the
// message layouts' defining law (each thread holds only what its warp's rows hold).

LL_PROP(TensorMemoryProp, LayoutHasTheShapeAndPlacesEachElementOnce, 150, ()) {
  LayoutSpec spec = *rc::gen::inRange(0, 4) == 0 ? LayoutSpec(*tensorMemoryScalesSpec())
                                                 : LayoutSpec(*tensorMemorySpec());
  I64s shape = *tensorMemoryShape(spec);
  auto l = toLinearLayout(spec, shape);
  RC_ASSERT(l.ok());
  RC_ASSERT(l->inDimSize(tmemRowDim()) == 128u);
  RC_ASSERT(l->outDimSize(DimName::dim(0)) == uint64_t(shape[0]));
  RC_ASSERT(l->outDimSize(DimName::dim(1)) == uint64_t(shape[1]));
  // Every element has a place (surjective); within one warp's 32 rows no element is in two
  // places unless the layout says it broadcasts (scales) or pads (col_stride).
  Enumerated e = enumerate(*l);
  RC_ASSERT(e.distinct == uint64_t(shape[0] * shape[1]));
  if (const auto *t = spec.as<TensorMemorySpec>()) {
    bool full = t->blockM() == 128 || shape[0] / t->ctaSplitM() > 64 || t->twoCtas() ||
                shape[1] / t->ctaSplitN() > std::min(t->blockN(), shape[1] / t->ctaSplitN());
    if (full && t->colStride() == 1 && !(t->twoCtas() && t->blockM() == 64))
      RC_ASSERT(e.injective);
  }
  auto text = printLayoutAttr(spec);
  auto back = parseLayoutAttr(text);
  RC_ASSERT(back.ok());
  RC_ASSERT(*back == spec);
}

LL_PROP(TensorMemoryProp, MessageThreadsHoldTheirWarpsRows, 100, ()) {
  LayoutSpec spec = *rc::gen::inRange(0, 4) == 0 ? LayoutSpec(*tensorMemoryScalesSpec())
                                                 : LayoutSpec(*tensorMemorySpec());
  I64s shape = *tensorMemoryShape(spec);
  int64_t warps = *pow2In(2, 4);
  TmemAtom atom = *rc::gen::element(TmemAtom::I32x32b, TmemAtom::I16x64b, TmemAtom::I16x128b,
                                    TmemAtom::I16x256b);
  // Only descriptors Triton accepts (DescriptorRefusalsAsGluons has the others): scales are
  // bytes; an element fits its colStride columns; a block no wider than each CTA's columns.
  int bits = 8;
  if (const auto *t = spec.as<TensorMemorySpec>()) {
    int widest = int(32 / t->colStride()), choices = widest == 32 ? 3 : widest == 16 ? 2 : 1;
    bits = widest >> *rc::gen::inRange(0, choices);
    spec = ok(TensorMemorySpec::make(t->blockM(), std::min(t->blockN(), shape[1] / t->ctaSplitN()),
                                     t->colStride(), t->ctaSplitM(), t->ctaSplitN(), t->twoCtas()));
  }
  RC_ASSERT(checkTmemDescriptor(spec, shape, bits).ok());
  CgaLayout cga = *cgaOf(spec);
  auto r = tmemMessageLayout(spec, shape, warps, atom, bits, cga);
  if (!r.ok() || !r->has_value())
    return; // Triton has none either (a narrow layout, or lanes that would repeat)
  const LinearLayout &m = **r;
  RC_ASSERT(m.outDimSize(DimName::dim(0)) == uint64_t(shape[0]));
  RC_ASSERT(m.inDimSize(DimName::lane()) == 32u);
  RC_ASSERT(m.inDimSize(DimName::warp()) == uint64_t(warps));
  // Brute force: the rows of each element, by enumerating the tensor-memory layout; then every
  // (register, lane, warp, block) must hold an element with a row in its warp's quarter, and
  // every element must be held.
  LinearLayout mem = *toLinearLayout(spec, shape);
  std::vector<uint8_t> quarters(size_t(shape[0] * shape[1]), 0); // bit q: TMEM rows 32q..
  for (uint64_t x = 0; x < (uint64_t(1) << mem.totalInBits()); ++x)
    quarters[mem.apply(x)] |= uint8_t(1u << (mem.inValue(x, 0) / 32));
  std::vector<bool> held(quarters.size(), false);
  int warpIn = m.inDimIndex(DimName::warp());
  for (uint64_t x = 0; x < (uint64_t(1) << m.totalInBits()); ++x) {
    uint64_t e = m.apply(x);
    held[e] = true;
    RC_ASSERT((quarters[e] >> (m.inValue(x, warpIn) % 4) & 1) == 1);
  }
  RC_ASSERT(std::count(held.begin(), held.end(), false) == 0);
}

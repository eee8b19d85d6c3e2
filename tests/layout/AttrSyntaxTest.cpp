// The TritonGPU attribute syntax: the forms Triton dumps print (checked against Triton's own
// test files), the older forms, alias blocks, positioned errors and hostile input.
#include "linlayout/layout/AttrSyntax.h"

#include <gtest/gtest.h>

using namespace linlayout;

namespace {

LayoutSpec parseOk(std::string_view text, const AttrAliases &aliases = {},
                   AttrParseOptions opts = {}) {
  auto s = parseLayoutAttr(text, aliases, opts);
  EXPECT_TRUE(s.ok()) << text << "\n" << (s.ok() ? "" : s.message());
  return s.ok() ? *s : LayoutSpec(*BlockedSpec::make({1}, {32}, {1}, {0}));
}

std::string parseError(std::string_view text, const AttrAliases &aliases = {}) {
  auto s = parseLayoutAttr(text, aliases);
  EXPECT_FALSE(s.ok()) << text;
  return s.ok() ? "" : s.message();
}

// A compiler dump's alias block, as Triton 3.6 prints it (with lines that are not layouts).
const char *kDump =
    R"(#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#loc = loc("/work/kernels/matmul.py":6:1)
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {
  tt.func public @matmul(%arg0: !tt.ptr<f16>) {
    %0 = ttg.convert_layout %cst : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    tt.return
  }
}
)";

} // namespace

TEST(AttrSyntax, BlockedAsDumpsPrintIt) {
  LayoutSpec s = parseOk("#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [16, 2], "
                         "warpsPerCTA = [1, 1], order = [1, 0]}>");
  const auto *b = s.as<BlockedSpec>();
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->sizePerThread(), (std::vector<int64_t>{1, 8}));
  EXPECT_EQ(b->threadsPerWarp(), (std::vector<int64_t>{16, 2}));
  EXPECT_EQ(b->order(), (std::vector<int64_t>{1, 0}));
  EXPECT_TRUE(b->cga().isSingle());
}

TEST(AttrSyntax, BlockedWithOlderCtaSplit) {
  // Triton 3.0-3.4 print the CTA split per dimension (even for one CTA).
  LayoutSpec s = parseOk("#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [8, 4], "
                         "warpsPerCTA = [1, 2], order = [1, 0], CTAsPerCGA = [2, 2], "
                         "CTASplitNum = [2, 2], CTAOrder = [1, 0]}>");
  const auto *b = s.as<BlockedSpec>();
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->cga().numCtas(), 4);
  ASSERT_TRUE(b->cga().legacySplit().has_value());
  EXPECT_EQ(printLayoutAttr(s), "#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [8, 4], "
                                "warpsPerCTA = [1, 2], order = [1, 0], CTAsPerCGA = [2, 2], "
                                "CTASplitNum = [2, 2], CTAOrder = [1, 0]}>");
  LayoutSpec one = parseOk("#triton_gpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], "
                           "warpsPerCTA = [4, 1], order = [1, 0], CTAsPerCGA = [1, 1], "
                           "CTASplitNum = [1, 1], CTAOrder = [0, 1]}>");
  EXPECT_TRUE(one.as<BlockedSpec>()->cga().isSingle());
}

TEST(AttrSyntax, BlockedWithCgaBases) {
  LayoutSpec s = parseOk("#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], "
                         "warpsPerCTA = [8, 1], order = [1, 0], CGALayout = [[0, 0], [1, 0]]}>");
  const auto *b = s.as<BlockedSpec>();
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->cga().bases(), (std::vector<std::vector<int64_t>>{{0, 0}, {1, 0}}));
  EXPECT_EQ(printLayoutAttr(s), "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], "
                                "warpsPerCTA = [8, 1], order = [1, 0], CGALayout = [[0, 0], "
                                "[1, 0]]}>");
}

TEST(AttrSyntax, MmaDotAndSliceWithAliases) {
  auto aliases = parseAttrAliases(kDump);
  ASSERT_TRUE(aliases.ok()) << aliases.message();
  EXPECT_EQ(aliases->size(), 8u);
  LayoutSpec dot = parseOk("#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>", *aliases);
  const auto *d = dot.as<DotOperandSpec>();
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->operandIndex(), 0);
  EXPECT_EQ(d->kWidth(), 2);
  const auto *m = d->parent().as<NvidiaMmaSpec>();
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->warpsPerCta(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(m->instrShape(), (std::vector<int64_t>{16, 8}));

  LayoutSpec slice = parseOk("#ttg.slice<{dim = 1, parent = #blocked1}>", *aliases);
  ASSERT_NE(slice.as<SliceSpec>(), nullptr);
  EXPECT_EQ(slice.rank(), 1);
  EXPECT_EQ(parseOk("#shared", *aliases).kind(), LayoutKind::SwizzledShared);
  EXPECT_EQ(parseOk("  #shared1 ", *aliases).kind(), LayoutKind::NvmmaShared);
}

TEST(AttrSyntax, Hopper) {
  LayoutSpec mma = parseOk("#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = "
                           "[4, 1], CGALayout = [[0, 1]], instrShape = [16, 32, 16]}>");
  ASSERT_NE(mma.as<NvidiaMmaSpec>(), nullptr);
  EXPECT_EQ(mma.as<NvidiaMmaSpec>()->cga().bases(), (std::vector<std::vector<int64_t>>{{0, 1}}));
  LayoutSpec dot = parseOk("#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 3, "
                           "versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, "
                           "16]}>, kWidth=4}>");
  EXPECT_EQ(dot.as<DotOperandSpec>()->kWidth(), 4);
  LayoutSpec nv = parseOk("#ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, "
                          "elementBitWidth = 8, CGALayout = [[0, 0]]}>");
  const auto *n = nv.as<NvmmaSharedSpec>();
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(n->swizzleByteWidth(), 64);
  EXPECT_TRUE(n->transposed());
  EXPECT_EQ(n->elementBitwidth(), 8);
  EXPECT_EQ(n->rank(), 2);
  AttrParseOptions rank3;
  rank3.rank = 3;
  EXPECT_EQ(parseOk("#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, "
                    "elementBitWidth = 16}>",
                    {}, rank3)
                .rank(),
            3);
}

TEST(AttrSyntax, NvmmaSharedStatesItsRankAsTriton36PrintsIt) {
  // Triton 3.6 prints the rank of an NVMMA shared layout when it is not 2; the field wins over
  // the caller's hint.
  const char *text = "#ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, "
                     "elementBitWidth = 16, rank = 3}>";
  AttrParseOptions rank4;
  rank4.rank = 4;
  LayoutSpec nv = parseOk(text, {}, rank4);
  ASSERT_NE(nv.as<NvmmaSharedSpec>(), nullptr);
  EXPECT_EQ(nv.as<NvmmaSharedSpec>()->rank(), 3);
  EXPECT_EQ(printLayoutAttr(nv), text);
  EXPECT_NE(parseError("#ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, "
                       "elementBitWidth = 16, rank = 0}>")
                .find("'rank' of '#ttg.nvmma_shared' must be 1 to 8, got 0"),
            std::string::npos);
  EXPECT_NE(parseError("#ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, "
                       "elementBitWidth = 16, rank = 3, CGALayout = [[0, 1]]}>")
                .find("rank"),
            std::string::npos);
}

TEST(AttrSyntax, LinearLayouts) {
  LayoutSpec s = parseOk("#ttg.linear<{register = [[0, 1], [8, 0], [0, 8], [64, 0]], lane = "
                         "[[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0]], "
                         "block = []}>");
  const auto *l = s.as<LinearSpec>();
  ASSERT_NE(l, nullptr);
  EXPECT_EQ(l->shape(), (std::vector<int64_t>{128, 16}));
  EXPECT_EQ(l->warpBases(), (BasisList{{16, 0}, {32, 0}}));
  LayoutSpec sh = parseOk("#ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0], [2, 2]]}, "
                          "alignment = 16>");
  const auto *sl = sh.as<SharedLinearSpec>();
  ASSERT_NE(sl, nullptr);
  EXPECT_EQ(sl->alignment(), 16);
  EXPECT_EQ(printLayoutAttr(sh),
            "#ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0], [2, 2]]}, alignment = 16>");
}

// The forms of the 2022-2023 write-ups.
TEST(AttrSyntax, OlderForms) {
  AttrAliases a;
  a.define("mma", parseOk("#triton_gpu.mma<{version = 2, warpsPerCTA = [1, 1]}>"));
  LayoutSpec mma = *a.lookup("mma");
  const auto *m = mma.as<NvidiaMmaSpec>();
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->versionMajor(), 2);
  EXPECT_EQ(m->instrShape(), (std::vector<int64_t>{16, 8}));
  LayoutSpec dot = parseOk("#triton_gpu.dot_op<{opIdx = 0, parent = #mma}>", a);
  EXPECT_EQ(dot.as<DotOperandSpec>()->kWidth(), 2); // the default of the older form
  LayoutSpec shared =
      parseOk("#triton_gpu.shared<{vec = 8, perPhase = 4, maxPhase = 2, order = [1, 0]}>");
  const auto *sw = shared.as<SwizzledSharedSpec>();
  ASSERT_NE(sw, nullptr);
  EXPECT_EQ(sw->vec(), 8);
  EXPECT_EQ(sw->perPhase(), 4);
  EXPECT_EQ(sw->maxPhase(), 2);
  LayoutSpec mma2023 = parseOk("#triton_gpu.mma<{versionMajor = 2, versionMinor = 0, "
                               "warpsPerCTA = [4, 1]}>");
  EXPECT_EQ(mma2023.as<NvidiaMmaSpec>()->warpsPerCta(), (std::vector<int64_t>{4, 1}));
  LayoutSpec fma = parseOk("#ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = "
                           "[1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = "
                           "[1, 0]}>}>");
  EXPECT_EQ(fma.as<DotOperandSpec>()->kWidth(), 0);
  EXPECT_EQ(printLayoutAttr(fma), "#ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread "
                                  "= [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], "
                                  "order = [1, 0]}>}>");
}

// Triton 3.0-3.2 wrote Hopper's NVMMA shared layout as a shared layout with a leading offset.
TEST(AttrSyntax, LeadingOffsetSharedIsNvmma) {
  LayoutSpec s = parseOk("#triton_gpu.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [0, "
                         "1], CTAsPerCGA = [1, 1], CTASplitNum = [1, 1], CTAOrder = [0, 1], "
                         "hasLeadingOffset = true}>");
  const auto *n = s.as<NvmmaSharedSpec>();
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(n->swizzleByteWidth(), 64);
  EXPECT_EQ(n->elementBitwidth(), 16);
  EXPECT_TRUE(n->transposed());
  EXPECT_NE(parseError("#triton_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 1, order = [1, "
                       "0], hasLeadingOffset = true}>")
                .find("perPhase * maxPhase = 8"),
            std::string::npos);
}

TEST(AttrSyntax, PrintsTritonsCurrentForms) {
  auto aliases = parseAttrAliases(kDump);
  ASSERT_TRUE(aliases.ok());
  EXPECT_EQ(printLayoutAttr(*aliases->lookup("mma")),
            "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], "
            "instrShape = [16, 8]}>");
  EXPECT_EQ(printLayoutAttr(*aliases->lookup("shared")),
            "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>");
  EXPECT_EQ(printLayoutAttr(*aliases->lookup("shared1")),
            "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth "
            "= 16}>");
  LayoutSpec dot = parseOk("#ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>", *aliases);
  EXPECT_EQ(printLayoutAttr(dot), "#ttg.dot_op<{opIdx = 1, parent = #ttg.nvidia_mma<{versionMajor "
                                  "= 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, "
                                  "8]}>, kWidth = 4}>");
  LayoutSpec lin = parseOk("#ttg.linear<{register = [], lane = [[1], [2], [4], [8], [16]], warp "
                           "= [[0]], block = []}>");
  EXPECT_EQ(printLayoutAttr(lin), "#ttg.linear<{register = [], lane = [[1], [2], [4], [8], "
                                  "[16]], warp = [[0]], block = []}>");
}

TEST(AttrSyntax, AliasesThatAreNotLayouts) {
  auto aliases = parseAttrAliases(kDump);
  ASSERT_TRUE(aliases.ok());
  EXPECT_EQ(parseError("#smem", *aliases),
            "1:1: alias '#smem' is '#ttg.shared_memory', not a layout");
  EXPECT_EQ(parseError("#ttg.slice<{dim = 0, parent = #loc}>", *aliases),
            "1:31: alias '#loc' is 'loc(\"/work/kernels/matmul.py\":6:1)', not a layout");
  EXPECT_EQ(parseError("#blocked7", *aliases), "1:1: alias '#blocked7' is not defined");
}

TEST(AttrSyntax, LaterDefinitionsWin) {
  auto aliases = parseAttrAliases("#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = "
                                  "[32], warpsPerCTA = [4], order = [0]}>\n// -----\n#b = "
                                  "#ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], "
                                  "warpsPerCTA = [4], order = [0]}>\n#c = #b\n");
  ASSERT_TRUE(aliases.ok()) << aliases.message();
  EXPECT_EQ(aliases->lookup("b")->as<BlockedSpec>()->sizePerThread()[0], 2);
  EXPECT_EQ(aliases->lookup("c")->as<BlockedSpec>()->sizePerThread()[0], 2);
}

TEST(AttrSyntaxErrors, SayWhereAndWhat) {
  EXPECT_EQ(parseError("#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [8, 4], "
                       "warpsPerCTA = [1, 2], order = [1, 0}>"),
            "1:99: expected ',' or ']' in a list, found '}'");
  EXPECT_EQ(parseError("#ttg.blocked<{sizePerThread : [2]}>"),
            "1:29: expected '=' after 'sizePerThread', found ':'");
  EXPECT_EQ(parseError("#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA "
                       "= [4]}>"),
            "1:1: '#ttg.blocked' needs 'order'");
  EXPECT_EQ(parseError("#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA "
                       "= [4], order = [0], sizePerWarp = [1]}>"),
            "1:91: '#ttg.blocked' has no field 'sizePerWarp' (its fields: sizePerThread, "
            "threadsPerWarp, warpsPerCTA, order, CTAsPerCGA, CTASplitNum, CTAOrder, CGALayout)");
  EXPECT_EQ(parseError("#ttg.slice<{dim = 0, dim = 1}>"), "1:22: field 'dim' is given twice");
  EXPECT_EQ(parseError("#ttg.slice<{dim = [0], parent = #p}>"),
            "1:19: 'dim' of '#ttg.slice' must be an integer");
  EXPECT_EQ(parseError("#ttg.amd_rotating_shared<{vec = 4}>"),
            "1:1: unsupported layout '#ttg.amd_rotating_shared' (linlayout reads blocked, slice, "
            "nvidia_mma, dot_op, linear, swizzled_shared, nvmma_shared, shared_linear, amd_mfma, "
            "amd_wmma, padded_shared, tensor_memory_encoding, tensor_memory_scales_encoding)");
  EXPECT_EQ(parseError("#ttg.amd_mfma<{versionMajor = 3}>"),
            "1:1: '#ttg.amd_mfma' needs 'version'");
  EXPECT_EQ(parseError("#ttg.amd_wmma<{version = 3, warpsPerCTA = [1, 1]}>"),
            "1:1: amd_wmma: instrShape is [16, 16, 16], expected [16, 16, K] with K one of 4, "
            "32, 64, 128 for version 3");
  EXPECT_EQ(parseError("#ttng.tensor_memory_encoding<blockM = 128>"),
            "1:1: '#ttng.tensor_memory_encoding' needs 'blockN'");
  EXPECT_EQ(parseError("#ttng.tensor_memory<>"),
            "1:1: '#ttng.tensor_memory' is not a TritonGPU layout");
  EXPECT_EQ(
      parseError("{\"kind\": \"blocked\"}"),
      "1:1: expected a layout attribute (#ttg.<layout><{...}>) or an alias (#name), found '{'");
  EXPECT_EQ(parseError(""), "1:1: expected a layout attribute, found the end of the text");
  EXPECT_EQ(parseError("#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA "
                       "= [4], order = [0]}> extra"),
            "1:92: unexpected 'e' after the attribute");
  EXPECT_EQ(parseError("#ttg.blocked<{sizePerThread = [99999999999999999999]}>"),
            "1:32: integer too large");
  EXPECT_EQ(parseError("#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [16, 2], "
                       "warpsPerCTA = [1, 1], order = [1, 0, 2]}>"),
            "1:1: blocked: sizePerThread has 2 entries but order has 3");
}

TEST(AttrSyntaxErrors, PositionsCountLinesInDumps) {
  auto r = parseAttrAliases("#a = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], "
                            "warpsPerCTA = [4], order = [0]}>\n#b = #ttg.slice<{dim = 0,\n"
                            "  parent = #a, extra = 1}>\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.message(), "3:16: '#ttg.slice' has no field 'extra' (its fields: dim, parent)");
  auto trailing = parseAttrAliases("#a = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = "
                                   "[32], warpsPerCTA = [4], order = [0]}> junk\n");
  ASSERT_FALSE(trailing.ok());
  EXPECT_EQ(trailing.message(), "1:97: unexpected 'j' after the definition of '#a'");
}

TEST(AttrSyntaxErrors, HostileNestingIsAnError) {
  std::string deep(100000, '[');
  EXPECT_EQ(parseError("#ttg.blocked<{sizePerThread = " + deep + "}>"),
            "1:63: nesting deeper than 32 levels");
  std::string slices;
  for (int i = 0; i < 40; ++i)
    slices += "#ttg.slice<{dim = 0, parent = ";
  std::string err = parseError(slices);
  EXPECT_NE(err.find("nesting deeper than 32 levels"), std::string::npos) << err;
  EXPECT_NE(parseError("#ttg.blocked<{sizePerThread = [" + std::string(20000, '1') + "]}>")
                .find("integer too large"),
            std::string::npos);
  std::string many = "[";
  for (int i = 0; i < 5000; ++i)
    many += "1,";
  EXPECT_NE(parseError("#ttg.blocked<{sizePerThread = " + many + "1]}>").find("longer than 4096"),
            std::string::npos);
}

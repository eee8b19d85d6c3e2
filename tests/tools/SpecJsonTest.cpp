// Layout specs in JSON (QUERY-FORMAT.md): strict reading, writing, the round trip, and to_linear.
#include "query/SpecJson.h"
#include "../layout/GTestProperty.h"
#include "../layout/SpecGen.h"
#include "query/Query.h"

#include "linlayout/layout/AttrSyntax.h"

using namespace linlayout;
using namespace linlayout::query;
using namespace linlayout::testing;

namespace {

Expected<LayoutSpec> parse(const std::string &text) {
  return specFromJson(Json::parse(text), "layout");
}

void expectError(const std::string &text, const std::string &needle) {
  auto r = parse(text);
  ASSERT_FALSE(r.ok()) << text;
  EXPECT_NE(r.message().find(needle), std::string::npos)
      << "message '" << r.message() << "' does not mention '" << needle << "'";
}

const char *kBlocked = R"({"kind": "blocked", "size_per_thread": [1, 8],
  "threads_per_warp": [16, 2], "warps_per_cta": [1, 1], "order": [1, 0]})";

TEST(SpecJson, ReadsEveryFamily) {
  auto b = parse(kBlocked);
  ASSERT_TRUE(b.ok()) << b.message();
  EXPECT_EQ(b->kind(), LayoutKind::Blocked);
  const char *specs[] = {
      R"({"kind": "slice", "dim": 0, "parent": {"kind": "nvidia_mma", "version": [2, 0],
          "warps_per_cta": [4, 1], "instr_shape": [16, 8]}})",
      R"({"kind": "dot_operand", "operand_index": 1, "k_width": 2, "parent": {"kind":
          "nvidia_mma", "version": [2, 0], "warps_per_cta": [2, 2], "instr_shape": [16, 8]}})",
      R"({"kind": "dot_operand", "operand_index": 0, "parent": {"kind": "blocked",
          "size_per_thread": [1, 1], "threads_per_warp": [8, 4], "warps_per_cta": [1, 1],
          "order": [1, 0]}})",
      R"({"kind": "swizzled_shared", "vec": 8, "per_phase": 1, "max_phase": 8, "order": [1, 0]})",
      R"({"kind": "nvmma_shared", "swizzle_byte_width": 128, "element_bitwidth": 16})",
      R"({"kind": "nvmma_shared", "swizzle_byte_width": 64, "element_bitwidth": 8, "rank": 3,
          "transposed": true, "cga_layout": [[1, 0, 0]]})",
      R"({"kind": "linear", "reg_bases": [[0, 1]], "lane_bases": [[0, 2], [1, 0]],
          "warp_bases": [], "block_bases": [], "shape": [2, 4]})",
      R"({"kind": "shared_linear", "offset_bases": [[0, 1], [1, 0]]})",
      R"({"kind": "padded_shared", "interval_padding_pairs": [[32, 4], [64, 8]],
          "offset_bases": [[0, 1], [0, 2], [1, 0]], "cga_layout": [[2, 0]], "shape": [4, 4]})",
      R"({"kind": "blocked", "size_per_thread": [1, 1], "threads_per_warp": [8, 4],
          "warps_per_cta": [1, 1], "order": [1, 0], "ctas_per_cga": [2, 2],
          "cta_split_num": [2, 1], "cta_order": [1, 0]})",
  };
  for (const char *s : specs) {
    auto r = parse(s);
    EXPECT_TRUE(r.ok()) << s << ": " << (r.ok() ? "" : r.message());
  }
}

TEST(SpecJson, LegacyCtaSplitBecomesBases) {
  auto r = parse(R"({"kind": "blocked", "size_per_thread": [1, 1], "threads_per_warp": [8, 4],
      "warps_per_cta": [1, 1], "order": [1, 0], "ctas_per_cga": [2, 2],
      "cta_split_num": [2, 1], "cta_order": [1, 0]})");
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(specToJson(*r)["cga_layout"], Json::parse("[[0, 0], [1, 0]]"));
}

TEST(SpecJson, StrictErrors) {
  expectError("[1, 2]", "expected a layout spec object");
  expectError("{}", "missing field 'kind'");
  expectError(R"({"kind": 3})", "layout.kind is 3, expected a string");
  expectError(R"({"kind": "mfma"})", "layout.kind is 'mfma'");
  expectError(R"({"kind": "blocked", "size_per_thread": [1], "threads_per_warp": [32],
      "warps_per_cta": [4], "order": [0], "sizePerThread": [1]})",
              "unknown field 'sizePerThread'");
  expectError(R"({"kind": "blocked", "threads_per_warp": [32], "warps_per_cta": [4],
      "order": [0]})",
              "missing field 'size_per_thread'");
  expectError(R"({"kind": "blocked", "size_per_thread": "1", "threads_per_warp": [32],
      "warps_per_cta": [4], "order": [0]})",
              "layout.size_per_thread is \"1\"");
  expectError(R"({"kind": "blocked", "size_per_thread": [1.5], "threads_per_warp": [32],
      "warps_per_cta": [4], "order": [0]})",
              "layout.size_per_thread[0] is 1.5");
  expectError(R"({"kind": "blocked", "size_per_thread": [-1], "threads_per_warp": [32],
      "warps_per_cta": [4], "order": [0]})",
              "size_per_thread[0] is -1");
  expectError(R"({"kind": "blocked", "size_per_thread": [0], "threads_per_warp": [32],
      "warps_per_cta": [4], "order": [0]})",
              "size_per_thread[0] is 0");
  expectError(R"({"kind": "blocked", "size_per_thread": [1], "threads_per_warp": [32],
      "warps_per_cta": [18446744073709551615], "order": [0]})",
              "too large");
  expectError(R"({"kind": "blocked", "size_per_thread": [1], "threads_per_warp": [32],
      "warps_per_cta": [1099511627776], "order": [0]})",
              "warps_per_cta[0] is 1099511627776");
  expectError(R"({"kind": "blocked", "size_per_thread": [1], "threads_per_warp": [32],
      "warps_per_cta": [1], "order": [0], "cga_layout": [[1]], "ctas_per_cga": [2]})",
              "either as cga_layout or");
  expectError(R"({"kind": "blocked", "size_per_thread": [1], "threads_per_warp": [32],
      "warps_per_cta": [1], "order": [0], "ctas_per_cga": [2]})",
              "missing field 'cta_split_num'");
  expectError(R"({"kind": "blocked", "size_per_thread": [1], "threads_per_warp": [32],
      "warps_per_cta": [1], "order": [0], "cga_layout": [[1, 0]]})",
              "has 2 entries");
  expectError(R"({"kind": "nvidia_mma", "version": [2], "warps_per_cta": [1, 1],
      "instr_shape": [16, 8]})",
              "layout.version has 1 entries");
  expectError(R"({"kind": "nvidia_mma", "version": [2, 0], "warps_per_cta": [1, 1],
      "instr_shape": [16, 16]})",
              "instr_shape is [16, 16]");
  expectError(R"({"kind": "dot_operand", "operand_index": 0, "parent": {"kind": "nvidia_mma",
      "version": [2, 0], "warps_per_cta": [1, 1], "instr_shape": [16, 8]}})",
              "missing field 'k_width'");
  expectError(R"({"kind": "slice", "dim": 5, "parent": {"kind": "blocked",
      "size_per_thread": [1, 1], "threads_per_warp": [8, 4], "warps_per_cta": [1, 1],
      "order": [1, 0]}})",
              "dim 5 is out of range");
  expectError(R"({"kind": "slice", "dim": 0, "parent": {"kind": "blocked"}})",
              "layout.parent: missing field 'size_per_thread'");
  expectError(R"({"kind": "nvmma_shared", "swizzle_byte_width": 128, "element_bitwidth": 16,
      "transposed": 1})",
              "layout.transposed is 1, expected true or false");
  expectError(R"({"kind": "nvmma_shared", "swizzle_byte_width": 128, "element_bitwidth": 16,
      "rank": 99})",
              "layout.rank is 99");
  expectError(R"({"kind": "linear", "reg_bases": [[1]], "lane_bases": [], "warp_bases": [],
      "shape": [4]})",
              "do not reach every element");
  expectError(R"({"kind": "shared_linear", "offset_bases": [[1]], "alignment": 0})",
              "alignment is 0");
}

TEST(SpecJson, DeepNestingIsAnError) {
  std::string s = kBlocked;
  for (int i = 0; i < 20; ++i)
    s = R"({"kind": "slice", "dim": 0, "parent": )" + s + "}";
  auto r = parse(s);
  ASSERT_FALSE(r.ok());
}

TEST(SpecJson, TextSpecsGoToTheAttributeParser) {
  auto r = specFromJson(Json("#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [16, 2], "
                             "warpsPerCTA = [1, 1], order = [1, 0]}>"),
                        "layout");
  if (!r.ok())
    EXPECT_EQ(r.message().rfind("layout: ", 0), 0u) << r.message();
  else
    EXPECT_EQ(r->kind(), LayoutKind::Blocked);
}

// A random spec of any family.
LayoutSpec anySpec() {
  int rank = *rc::gen::inRange(2, 4);
  switch (*rc::gen::inRange(0, 10)) {
  case 0:
    return *blockedSpec(rank);
  case 1:
    return slice(LayoutSpec(*blockedSpec(rank)), *rc::gen::inRange(0, rank));
  case 2:
    return *nvidiaMmaSpec(rank, false);
  case 3:
    return dot(LayoutSpec(*nvidiaMmaSpec(2, *rc::gen::arbitrary<bool>())), 0, int(*pow2In(0, 3)));
  case 4:
    return dot(LayoutSpec(*blockedSpec(rank)), *rc::gen::inRange(0, 2), 0);
  case 5:
    return ok(SwizzledSharedSpec::make(*pow2In(0, 3), *pow2In(0, 3), *pow2In(0, 3),
                                       *permutationOf(rank), *cgaLayout(rank, 2, true)));
  case 6:
    return ok(NvmmaSharedSpec::make(*rc::gen::element<int64_t>(0, 32, 64, 128),
                                    *rc::gen::element<int64_t>(8, 16, 32), rank,
                                    *rc::gen::arbitrary<bool>(), false, *cgaLayout(rank, 2, true)));
  case 7:
    return *paddedSharedSpec(rank);
  case 8:
    return *rc::gen::arbitrary<bool>() ? LayoutSpec(*tensorMemorySpec())
                                       : LayoutSpec(*tensorMemoryScalesSpec());
  default:
    return ok(LinearSpec::make({{0, 1}}, {{1, 0}, {0, 2}}, {{0, 0}}, {}, {2, 4}));
  }
}

LL_PROP(SpecJsonProps, ReadingWhatWasWrittenGivesTheSameSpec, 1000, ()) {
  LayoutSpec s = anySpec();
  Json j = specToJson(s);
  auto back = specFromJson(Json::parse(j.dump()), "layout");
  RC_ASSERT(back.ok());
  RC_ASSERT(*back == s);
}

TEST(ToLinearOp, AnswersAndErrors) {
  std::string line = std::string(R"({"id": 7, "op": "to_linear", "layout": )") + kBlocked +
                     R"(, "shape": [16, 16]})";
  Json out = Json::parse(answerLine(line));
  EXPECT_EQ(out["id"], 7);
  ASSERT_TRUE(out.contains("result")) << out.dump();
  EXPECT_EQ(out["result"]["out_dims"], Json::parse(R"([["dim0", 16], ["dim1", 16]])"));
  Json bad = Json::parse(answerLine(std::string(R"({"op": "to_linear", "layout": )") + kBlocked +
                                    R"(, "shape": [16, 12]})"));
  ASSERT_TRUE(bad.contains("error"));
  EXPECT_NE(bad["error"].get<std::string>().find("dim1 has size 12"), std::string::npos);
  Json noShape =
      Json::parse(answerLine(std::string(R"({"op": "to_linear", "layout": )") + kBlocked + "}"));
  EXPECT_EQ(noShape["error"], "missing field 'shape'");
}

} // namespace

TEST(SpecJson, PaddedSharedErrorsNameTheField) {
  expectError(R"({"kind": "padded_shared", "interval_padding_pairs": [[32, 4, 1]],
      "offset_bases": [[1]], "shape": [2]})",
              "layout.interval_padding_pairs[0] has 3 entries, expected [interval, padding]");
  expectError(R"({"kind": "padded_shared", "interval_padding_pairs": [[24, 4]],
      "offset_bases": [[1]], "shape": [2]})",
              "layout: padded_shared: interval 24 is not a power of two");
  expectError(R"({"kind": "padded_shared", "interval_padding_pairs": [[32, 4]],
      "offset_bases": [[1]]})",
              "layout: missing field 'shape'");
  auto r = parse(R"({"kind": "padded_shared", "interval_padding_pairs": [[2, 1]],
      "offset_bases": [[1]], "shape": [2]})");
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(specToJson(*r).dump(),
            R"({"cga_layout":[],"interval_padding_pairs":[[2,1]],"kind":"padded_shared",)"
            R"("offset_bases":[[1]],"shape":[2]})");
  // cga_layout holds block bases in tensor coordinates, as Triton 3.6's Gluon reads them: two
  // CTAs over 8 rows put block 1 at row 4, and a block basis that repeats an offset basis
  // broadcasts, which Triton refuses.
  auto two = parse(R"({"kind": "padded_shared", "interval_padding_pairs": [[4, 1]],
      "offset_bases": [[1], [2]], "cga_layout": [[4]], "shape": [8]})");
  ASSERT_TRUE(two.ok()) << two.message();
  EXPECT_EQ(two->as<PaddedSharedSpec>()->blockBases(), (std::vector<std::vector<int64_t>>{{4}}));
  EXPECT_EQ(specToJson(*two)["cga_layout"], Json::parse("[[4]]"));
  auto back = specFromJson(specToJson(*two), "layout");
  ASSERT_TRUE(back.ok()) << back.message();
  EXPECT_EQ(*back, *two);
  expectError(R"({"kind": "padded_shared", "interval_padding_pairs": [[4, 1]],
      "offset_bases": [[1], [2]], "cga_layout": [[1]], "shape": [8]})",
              "padded_shared: the bases do not reach each element");
}

TEST(SpecJson, TensorMemoryUsesGluonsFields) {
  auto t = parse(R"({"kind": "tensor_memory", "block": [64, 128], "col_stride": 2,
                     "cta_split_num": [2, 1], "two_ctas": true})");
  ASSERT_TRUE(t.ok()) << t.message();
  EXPECT_EQ(printLayoutAttr(*t), "#ttng.tensor_memory_encoding<blockM = 64, blockN = 128, "
                                 "colStride = 2, CTASplitM = 2, twoCTAs = true>");
  EXPECT_EQ(specToJson(*t).dump(),
            R"({"block":[64,128],"col_stride":2,"cta_split_num":[2,1],"kind":"tensor_memory",)"
            R"("two_ctas":true})");
  // Gluon's default cta_split_num is None; Triton before col_stride had unpacked.
  auto old = parse(R"({"kind": "tensor_memory", "block": [128, 64], "unpacked": true,
                       "cta_split_num": null})");
  ASSERT_TRUE(old.ok()) << old.message();
  EXPECT_EQ(old->as<TensorMemorySpec>()->colStride(), 2);
  auto scales = parse(R"({"kind": "tensor_memory_scales"})");
  ASSERT_TRUE(scales.ok()) << scales.message();
  EXPECT_EQ(printLayoutAttr(*scales), "#ttng.tensor_memory_scales_encoding<>");
  expectError(R"({"kind": "tensor_memory", "block": [128], "col_stride": 1})",
              "layout.block has 1 entries, expected [M, N]");
  expectError(R"({"kind": "tensor_memory", "block": [128, 64], "col_stride": 3})",
              "layout: tensor_memory: col_stride is 3, expected 1, 2 or 4");
  expectError(R"({"kind": "tensor_memory_scales", "cta_split_num": [2, 2, 1]})",
              "layout.cta_split_num has 3 entries, expected [M, N]");
}

TEST(TmemRegLayoutOp, AnswersAndErrors) {
  Json out = Json::parse(answerLine(
      R"({"id": 1, "op": "tmem_reg_layout", "layout": {"kind": "tensor_memory", "block": [128, 8],)"
      R"( "col_stride": 1}, "shape": [128, 8], "num_warps": 4})"));
  ASSERT_TRUE(out.contains("result")) << out.dump();
  EXPECT_EQ(out["result"]["in_dims"], Json::parse(R"([["register", [[0, 1], [0, 2], [0, 4]]],
                            ["lane", [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]]],
                            ["warp", [[32, 0], [64, 0]]], ["block", []]])"));
  Json none = Json::parse(answerLine(
      R"({"op": "tmem_reg_layout", "layout": "#ttng.tensor_memory_encoding<blockM = 128, )"
      R"(blockN = 4, colStride = 1>", "shape": [128, 4], "num_warps": 4,)"
      R"( "instr_variant": "16x256b"})"));
  ASSERT_TRUE(none.contains("error")) << none.dump();
  EXPECT_EQ(none["error"].get<std::string>().substr(0, 22), "no 16x256b message lay");
  Json bad = Json::parse(
      answerLine(R"({"op": "tmem_reg_layout", "layout": {"kind": "tensor_memory_scales"},)"
                 R"( "shape": [128, 4], "num_warps": 4, "cga_layout": [[3, 0]]})"));
  ASSERT_TRUE(bad.contains("error")) << bad.dump();
  EXPECT_EQ(bad["error"].get<std::string>().substr(0, 12), "cga_layout: ");
}

TEST(TmemRegLayoutOp, BankConflictsWantASharedLayoutNotTensorMemory) {
  Json out = Json::parse(answerLine(
      R"({"op": "bank_conflicts", "reg": {"kind": "blocked", "size_per_thread": [1, 1],)"
      R"( "threads_per_warp": [32, 1], "warps_per_cta": [4, 1], "order": [1, 0]},)"
      R"( "shared": {"kind": "tensor_memory_scales"}, "shape": [128, 4], "bitwidth": 8})"));
  EXPECT_EQ(out["error"], "field 'shared' is a tensor_memory_scales layout, expected a "
                          "shared-memory layout");
}

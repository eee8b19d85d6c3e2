// The verifier rejects a distributed layout whose lanes, warps or CTAs are not the module's, as
// Triton's does: a 16-lane layout in a 32-lane module would leave half of each warp copying the
// other half. Shared layouts are exempt; slices and dot operands answer for their parents.
#include "linlayout/ir/VerifyLayoutSizes.h"
#include "linlayout/ir/Parser.h"
#include "linlayout/ir/Verifier.h"
#include "linlayout/layout/AttrSyntax.h"

#include <gtest/gtest.h>

#include <string>

using namespace linlayout;
using namespace linlayout::ir;

namespace {

// A module whose @f makes a range of `type` (after `aliases`), with module attributes `attrs`.
std::string verifyError(const std::string &aliases, const std::string &type,
                        const std::string &attrs = "\"ttg.num-warps\" = 4 : i32") {
  std::string text = aliases + "\nmodule attributes {" + attrs +
                     "} {\n  tt.func @f() {\n    %r = tt.make_range {end = 16 : i32, start = 0 : "
                     "i32} : " +
                     type + "\n    tt.return\n  }\n}\n";
  auto m = parseModule(text, "v.tir");
  if (!m.ok())
    return "<parse error> " + m.message();
  Status s = verify(*m);
  return s.ok() ? std::string("<verified>") : s.message();
}

std::string blocked(const std::string &lanes, const std::string &warps,
                    const std::string &extra = "") {
  return "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [" + lanes + "], warpsPerCTA = [" +
         warps + "], order = [0]" + extra + "}>";
}

} // namespace

TEST(VerifyLayoutSizes, LanesMustBeTheModules) {
  EXPECT_EQ(verifyError("#l = " + blocked("32", "4"), "tensor<16xi32, #l>"), "<verified>");
  EXPECT_EQ(verifyError("#l = " + blocked("16", "4"), "tensor<16xi32, #l>"),
            "@f: %r: layout #l has 16 lanes per warp, the module 32 (\"ttg.threads-per-warp\")");
  // Without an alias, the layout is written out.
  EXPECT_EQ(verifyError("", "tensor<16xi32, " + blocked("16", "4") + ">"),
            "@f: %r: layout " + blocked("16", "4") +
                " has 16 lanes per warp, the module 32 (\"ttg.threads-per-warp\")");
  // A 16-lane layout is right in a 16-lane module.
  EXPECT_EQ(verifyError("#l = " + blocked("16", "4"), "tensor<16xi32, #l>",
                        "\"ttg.num-warps\" = 4 : i32, \"ttg.threads-per-warp\" = 16 : i32"),
            "<verified>");
}

TEST(VerifyLayoutSizes, WarpsMustBeTheModules) {
  EXPECT_EQ(verifyError("#l = " + blocked("32", "2"), "tensor<16xi32, #l>"),
            "@f: %r: layout #l has 2 warps, the module 4 (\"ttg.num-warps\")");
  // Triton's default is 4 warps: a module that does not say takes it.
  EXPECT_EQ(verifyError("#l = " + blocked("32", "1"), "tensor<16xi32, #l>", ""),
            "@f: %r: layout #l has 1 warp, the module 4 (\"ttg.num-warps\")");
  EXPECT_EQ(verifyError("#l = " + blocked("32", "1"), "tensor<16xi32, #l>",
                        "\"ttg.num-warps\" = 1 : i32"),
            "<verified>");
}

// One CTA or the module's: plan-ctas starts from layouts of one CTA and splits them. (The type
// checks, which run first, report other counts.)
TEST(VerifyLayoutSizes, CtasAreOneOrTheModules) {
  const std::string two = "\"ttg.num-ctas\" = 2 : i32, \"ttg.num-warps\" = 4 : i32";
  EXPECT_EQ(verifyError("#l = " + blocked("32", "4"), "tensor<16xi32, #l>", two), "<verified>");
  const std::string split = ", CTAsPerCGA = [2], CTASplitNum = [2], CTAOrder = [0]";
  EXPECT_EQ(verifyError("#l = " + blocked("32", "4", split), "tensor<16xi32, #l>", two),
            "<verified>");
  const std::string four = ", CTAsPerCGA = [4], CTASplitNum = [4], CTAOrder = [0]";
  EXPECT_NE(verifyError("#l = " + blocked("32", "4", four), "tensor<16xi32, #l>", two)
                .find("covers 4 CTAs, the kernel has 2"),
            std::string::npos);
  const int64_t n[] = {256};
  auto spec = parseLayoutAttr(blocked("32", "4", four));
  ASSERT_TRUE(spec.ok()) << spec.message();
  auto bad = layoutSizeMismatch(*spec, n, LaunchSizes{32, 4, 2});
  ASSERT_TRUE(bad.has_value());
  EXPECT_EQ(std::string(bad->attribute), "ttg.num-ctas");
  EXPECT_EQ(bad->layout, 4);
}

namespace {

// A range of a slice of `parent` (after `aliases`), expanded back to the parent's rank 2.
std::string sliceError(const std::string &aliases, const std::string &parent,
                       const std::string &attrs = "\"ttg.num-warps\" = 4 : i32") {
  const std::string slice = "tensor<16xi32, #ttg.slice<{dim = 1, parent = " + parent + "}>>";
  std::string text = aliases + "\nmodule attributes {" + attrs +
                     "} {\n  tt.func @f() {\n    %r = tt.make_range {end = 16 : i32, start = 0 : "
                     "i32} : " +
                     slice + "\n    %e = tt.expand_dims %r {axis = 1 : i32} : " + slice +
                     " -> tensor<16x1xi32, " + parent + ">\n    tt.return\n  }\n}\n";
  auto m = parseModule(text, "v.tir");
  if (!m.ok())
    return "<parse error> " + m.message();
  Status s = verify(*m);
  return s.ok() ? std::string("<verified>") : s.message();
}

} // namespace

// A slice has its parent's lanes and warps; the message names the parent.
TEST(VerifyLayoutSizes, SlicesAnswerForTheirParents) {
  const std::string lanes16 = "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 4], "
                              "warpsPerCTA = [4, 1], order = [1, 0]}>";
  EXPECT_EQ(sliceError("#p = " + lanes16, "#p"),
            "@f: %r: the slice of layout #p has 16 lanes per warp, the module 32 "
            "(\"ttg.threads-per-warp\")");
  // Without an alias, the parent is written out.
  EXPECT_EQ(sliceError("", lanes16), "@f: %r: the slice of layout " + lanes16 +
                                         " has 16 lanes per warp, the module 32 "
                                         "(\"ttg.threads-per-warp\")");
  EXPECT_EQ(sliceError("#p = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], "
                       "warpsPerCTA = [4, 1], order = [1, 0]}>",
                       "#p"),
            "<verified>");
}

// AMD's MFMA layouts hold 64 lanes: the module must say 64 threads per warp.
TEST(VerifyLayoutSizes, AmdMfmaNeedsWavefrontsOf64) {
  const std::string mfma = "#mfma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape "
                           "= [32, 32, 8], isTransposed = false}>";
  EXPECT_EQ(sliceError(mfma, "#mfma"),
            "@f: %r: the slice of layout #mfma has 64 lanes per warp, the module 32 "
            "(\"ttg.threads-per-warp\"); AMD's MFMA layouts run on 64-lane wavefronts");
  EXPECT_EQ(
      sliceError(mfma, "#mfma", "\"ttg.num-warps\" = 4 : i32, \"ttg.threads-per-warp\" = 64 : i32"),
      "<verified>");
}

// Shared layouts have no lanes or warps: nothing to check, whatever the module says.
TEST(VerifyLayoutSizes, SharedLayoutsAreExempt) {
  auto shared = parseLayoutAttr(
      "#ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, 0]}>", {}, {2});
  ASSERT_TRUE(shared.ok()) << shared.message();
  const int64_t shape[] = {16, 16};
  EXPECT_FALSE(layoutSizeMismatch(*shared, shape, LaunchSizes{64, 8, 4}).has_value());
  auto lanes16 = parseLayoutAttr(blocked("16", "4"));
  ASSERT_TRUE(lanes16.ok()) << lanes16.message();
  const int64_t n[] = {16};
  auto bad = layoutSizeMismatch(*lanes16, n, LaunchSizes{32, 4, 1});
  ASSERT_TRUE(bad.has_value());
  EXPECT_EQ(bad->layout, 16);
  EXPECT_EQ(bad->required, 32);
  // 0 warps and CTAs: any (a layout drawn without a module).
  EXPECT_FALSE(layoutSizeMismatch(*lanes16, n, LaunchSizes{16, 0, 0}).has_value());
}

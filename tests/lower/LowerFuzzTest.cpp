// The lowering on hostile input: random edits of every example that still parse and verify are
// lowered as written and after the pass pipeline, for the module's own target and for sm_80.
// The answer is PTX with the kernel's entry or an error with a message, never a crash. (The
// parser's, verifier's and passes' own fuzzing is tests/ir/FuzzTest.cpp and
// tests/fuzz/IrFuzz.cpp; LLVM keeps the lowering out of the libFuzzer build.)
#include "../ir/Examples.h"
#include "../ir/TextEdits.h"
#include "Property.h"

#include "linlayout/ir/Parser.h"
#include "linlayout/ir/Pipeline.h"
#include "linlayout/ir/Verifier.h"
#include "linlayout/lower/Lower.h"

#include <gtest/gtest.h>

#include <iostream>
#include <optional>
#include <string>
#include <vector>

using namespace linlayout;
using namespace linlayout::lower;
using namespace linlayout::lower::testing;

namespace {

// Every .tir example, Hopper ones included.
const std::vector<std::string> &allExampleTexts() {
  static const std::vector<std::string> texts = [] {
    std::vector<std::string> names = ir::testing::exampleFiles();
    for (const char *hopper : {"matmul_wgmma.tir", "matmul_wgmma_wide.tir", "matmul_tma.tir",
                               "matmul_tma_wide.tir", "matmul_tma_mma_wide.tir", "wgmma_tile.tir",
                               "wgmma_nt_tile.tir", "matmul_wgmma_nt.tir", "attention_wgmma.tir"})
      names.push_back(hopper);
    return ir::testing::exampleTexts(names);
  }();
  return texts;
}

} // namespace

TEST(LowerFuzz, EditedExamplesLowerOrFail) {
  static int lowered = 0, refused = 0;
  checkProperty(
      [] {
        const auto &texts = allExampleTexts();
        const std::string &original = texts[*rc::gen::inRange<size_t>(0, texts.size())];
        std::string text =
            ir::testing::editText(original, *rc::gen::inRange(1, 4),
                                  [](int lo, int hi) { return *rc::gen::inRange(lo, hi); });
        auto m = ir::parseModule(text, "fuzz");
        if (!m.ok() || !ir::verify(*m).ok())
          return;
        for (bool piped : {false, true}) {
          ir::Module mod = *m;
          if (piped && !ir::runPipeline(mod).ok())
            continue;
          for (std::optional<PtxTarget> target :
               {std::optional<PtxTarget>(), std::optional<PtxTarget>(PtxTarget{80, 80})}) {
            LowerOptions o;
            o.target = target;
            o.optimize = false;
            auto k = lowerKernel(mod, o);
            ++(k.ok() ? lowered : refused);
            if (k.ok())
              RC_ASSERT(k->kernel.ptx.find(".entry") != std::string::npos);
            else
              RC_ASSERT(!k.message().empty());
          }
        }
      },
      300);
  // Most edits break the text; enough of them must still verify for this to test the lowering.
  EXPECT_GT(lowered, 40);
  std::cout << "[          ] " << lowered << " edited modules lowered, " << refused
            << " refused with a message\n";
}

// Found by the property above: a module of two CTAs per program lowered for sm_80 reached LLVM's
// instruction selection with the cluster registers, which aborted the process. Clusters start
// with sm_90: before, the lowering says so.
TEST(LowerFuzz, ClustersBeforeSm90AreAnError) {
  std::string text = ir::testing::readFile(ir::testing::examplePath("memcpy_1d.tir"));
  const std::string one = "\"ttg.num-ctas\" = 1";
  size_t at = text.find(one);
  ASSERT_NE(at, std::string::npos);
  text.replace(at, one.size(), "\"ttg.num-ctas\" = 2");
  auto m = ir::parseModule(text, "memcpy_1d.tir");
  ASSERT_TRUE(m.ok()) << m.message();
  LowerOptions o;
  o.target = PtxTarget{80, 80};
  auto k = lowerKernel(*m, o);
  ASSERT_FALSE(k.ok());
  EXPECT_NE(k.message().find("clusters need sm_90; the target is sm_80"), std::string::npos)
      << k.message();
  o.target = PtxTarget{90, 80};
  auto k90 = lowerKernel(*m, o);
  ASSERT_TRUE(k90.ok()) << k90.message();
  EXPECT_NE(k90->kernel.ptx.find("%clusterid.x"), std::string::npos);
}

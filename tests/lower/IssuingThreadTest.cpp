// The single-thread instructions of the Hopper path (TMA copies and stores, mbarrier init,
// expect_tx and arrives) are issued in blocks that only the lane elect.sync picks enters
// (IssuingThread.h), checked on the PTX of the TMA matmuls and of the warp-specialized kernels,
// which ptxas assembles without a stack frame.
#include "PtxCheck.h"
#include "kernels/TileKernels.h"

#include "linlayout/ir/Pipeline.h"
#include "linlayout/lower/Lower.h"

#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <vector>

using namespace linlayout;
using namespace linlayout::gpukernels;
using namespace linlayout::lower::testing;

namespace {

// The lines of `ptx` containing `needle` that code other than an elected lane may run, as
// "line N: ..."; empty when each lies in a block that only a branch on an elect.sync predicate
// leads to (or on an and.pred of one, or on a not.pred / or.pred of its negation): the
// fall-through of a branch taken by the others, what elected code branches to, or a label every
// branch to which is taken by the elected lane alone.
std::string linesNotElectedOnly(const std::string &ptx, const std::string &needle) {
  std::vector<std::string> lines;
  std::istringstream in(ptx);
  for (std::string l; std::getline(in, l);)
    lines.push_back(l);
  std::smatch mt;
  // Predicates true only in the elected lane, and predicates false there at least.
  std::set<std::string> elected, notElected;
  const std::regex elect(R"(elect\.sync\s+_\|(%p\d+),)");
  const std::regex logic(R"((and|or)\.pred\s+(%p\d+), (%p\d+), (%p\d+);)");
  const std::regex negate(R"(not\.pred\s+(%p\d+), (%p\d+);)");
  for (const std::string &l : lines) {
    if (std::regex_search(l, mt, elect)) {
      elected.insert(mt[1]);
    } else if (std::regex_search(l, mt, negate)) {
      if (elected.count(mt[2]))
        notElected.insert(mt[1]);
      if (notElected.count(mt[2]))
        elected.insert(mt[1]);
    } else if (std::regex_search(l, mt, logic)) {
      std::set<std::string> &from = mt[1] == "and" ? elected : notElected;
      if (from.count(mt[3]) || from.count(mt[4]))
        from.insert(mt[2]);
    }
  }
  const std::regex bra(R"(^\s*(@(!?)(%p\d+)\s+)?bra(\.uni)?\s+(\$L__\w+);)");
  const std::regex label(R"(^(\$L__\w+):)");
  // Whether only elected lanes run each label's block: the greatest fixed point, from "all".
  std::map<std::string, bool> onlyElected;
  for (const std::string &l : lines)
    if (std::regex_search(l, mt, label))
      onlyElected[mt[1]] = true;
  std::string bad;
  for (bool changed = true; changed;) {
    changed = false;
    bad.clear();
    std::map<std::string, bool> into; // every branch to a label elected so far
    bool now = false, fallsThrough = true;
    for (size_t n = 0; n < lines.size(); ++n) {
      const std::string &l = lines[n];
      if (std::regex_search(l, mt, label)) {
        now = onlyElected[mt[1]] && (!fallsThrough || now);
        fallsThrough = true;
        continue;
      }
      if (l.find(needle) != std::string::npos && !now)
        bad += "line " + std::to_string(n + 1) + ": " + l + "\n";
      if (std::regex_search(l, mt, bra)) {
        const bool negated = mt[2] == "!";
        const bool onElected =
            mt[1].matched && (negated ? notElected.count(mt[3]) : elected.count(mt[3]));
        const bool skipsOthers =
            mt[1].matched && (negated ? elected.count(mt[3]) : notElected.count(mt[3]));
        auto [at, fresh] = into.try_emplace(mt[5], true);
        at->second = at->second && (now || onElected);
        fallsThrough = mt[1].matched;
        if (skipsOthers)
          now = true; // the fall-through of "not elected: skip"
      } else if (l.find("ret;") != std::string::npos) {
        fallsThrough = false;
      }
    }
    for (auto &[name, only] : onlyElected) {
      auto it = into.find(name);
      // A label no branch reaches is entered by falling through, which the scan above judged.
      const bool now = it == into.end() ? only : only && it->second;
      changed = changed || now != only;
      only = now;
    }
  }
  return bad;
}

// The plain mbarrier arrives of `ptx` in the CTA's own barriers that are not guarded by "lane ==
// 0", as "line N: ..."; empty when each is predicated on a setp.eq of (thread id & 31) against 0,
// or on an and.pred of one with another predicate.
std::string arrivesNotByLaneZero(const std::string &ptx) {
  std::vector<std::string> lines;
  std::istringstream in(ptx);
  for (std::string l; std::getline(in, l);)
    lines.push_back(l);
  std::set<std::string> laneRegs, laneZero;
  const std::regex lane(R"(and\.b32\s+(%r\d+), %r\d+, 31;)");
  const std::regex zero(R"(setp\.eq\.s32\s+(%p\d+), (%r\d+), 0;)");
  const std::regex conj(R"(and\.pred\s+(%p\d+), (%p\d+), (%p\d+);)");
  const std::regex arrive(R"(@(%p\d+) mbarrier\.arrive\.shared::cta)");
  std::smatch mt;
  for (const std::string &l : lines) {
    if (std::regex_search(l, mt, lane))
      laneRegs.insert(mt[1]);
    else if (std::regex_search(l, mt, zero) && laneRegs.count(mt[2]))
      laneZero.insert(mt[1]);
    else if (std::regex_search(l, mt, conj) && (laneZero.count(mt[2]) || laneZero.count(mt[3])))
      laneZero.insert(mt[1]);
  }
  std::string bad;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string &l = lines[i];
    if (l.find("mbarrier.arrive.shared::cta") == std::string::npos)
      continue;
    if (!std::regex_search(l, mt, arrive) || !laneZero.count(mt[1]))
      bad += "line " + std::to_string(i + 1) + ": " + l + "\n";
  }
  return bad;
}

lower::LoweredKernel lowered(const ir::Module &m, const char *target = nullptr) {
  lower::LowerOptions o;
  if (target)
    o.target = lower::PtxTarget::parse(target).value();
  auto k = lower::lowerKernel(m, o);
  EXPECT_TRUE(k.ok()) << k.message();
  return k.ok() ? std::move(*k) : lower::LoweredKernel{};
}

} // namespace

// The TMA matmuls of one CTA's warps: the copies and expects in code only an elected lane of
// warp 0 runs. Predicated on "thread 0" instead, each copy came with ptxas's loop over the active
// threads' operands (BSSY, VOTE, a branch per instruction).
TEST(IssuingThread, TmaCopiesAreIssuedByAnElectedLane) {
  for (const char *file : {"matmul_tma_mma_wide.tir", "matmul_tma_wide.tir", "matmul_tma.tir"}) {
    SCOPED_TRACE(file);
    auto m = exampleKernel(file, LINLAYOUT_SOURCE_DIR);
    ASSERT_TRUE(m.ok()) << m.message();
    const lower::LoweredKernel k = lowered(*m);
    const std::string &ptx = k.kernel.ptx;
    EXPECT_NE(ptx.find("elect.sync"), std::string::npos);
    EXPECT_NE(ptx.find("cp.async.bulk.tensor"), std::string::npos);
    EXPECT_EQ(linesNotElectedOnly(ptx, "cp.async.bulk.tensor"), "");
    EXPECT_EQ(linesNotElectedOnly(ptx, "mbarrier.arrive.expect_tx"), "");
    EXPECT_EQ(linesNotElectedOnly(ptx, "mbarrier.init"), "");
    // The checker itself: the waits are for every thread.
    EXPECT_NE(linesNotElectedOnly(ptx, "mbarrier.try_wait"), "");
    expectAssembles(k.kernel);
  }
}

// The warp-specialized kernels: the producer partition's copies and expects and
// (matmul_ws_persistent_tmastore.tir) the consumers' TMA stores by election; the consumers'
// arrives on the empty barriers by lane 0 of their first warp.
TEST(IssuingThread, WarpSpecializedKernelsIssueByElection) {
  for (const char *file :
       {"matmul_ws_persistent.tir", "matmul_ws_persistent_tmastore.tir", "matmul_ws_cluster.tir",
        "matmul_fp8_ws_split.tir", "attention_ws_pp_d64.tir"}) {
    SCOPED_TRACE(file);
    auto m = exampleKernel(file, LINLAYOUT_SOURCE_DIR);
    ASSERT_TRUE(m.ok()) << m.message();
    // The attention kernels are compiled through the pass pipeline (as the bench runs them).
    if (std::string(file).rfind("attention", 0) == 0) {
      ASSERT_TRUE(ir::runPipeline(*m).ok());
    }
    const lower::LoweredKernel k = lowered(*m, "sm_90a");
    const std::string &ptx = k.kernel.ptx;
    EXPECT_NE(ptx.find("elect.sync"), std::string::npos);
    for (const char *one :
         {"cp.async.bulk.tensor", "mbarrier.arrive.expect_tx", "mbarrier.arrive.shared::cluster",
          "mbarrier.init", "fence.mbarrier_init", "cp.async.bulk.commit_group"})
      EXPECT_EQ(linesNotElectedOnly(ptx, one), "") << one;
    // The consumers' plain arrives in their own CTA: lane 0 of the region's first warp, by
    // predicate (a multicast arrive's remote ones stay elected).
    EXPECT_EQ(arrivesNotByLaneZero(ptx), "");
    EXPECT_NE(linesNotElectedOnly(ptx, "mbarrier.try_wait"), "");
    expectAssembles(k.kernel);
  }
}

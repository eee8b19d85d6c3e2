#include "Examples.h"

#include "linlayout/ir/Parser.h"
#include "linlayout/ir/Pipeline.h"
#include "linlayout/ir/Printer.h"
#include "linlayout/ir/Verifier.h"
#include "linlayout/ir/Walk.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace linlayout;
using namespace linlayout::ir;
using namespace linlayout::ir::testing;

namespace {
int countOps(const Module &m, OpKind k) {
  int n = 0;
  for (const Function &f : m.functions)
    walkOps(f.body, [&](const Op &op) { n += op.kind == k; });
  return n;
}
} // namespace

TEST(Pipeline, KeepsWhatEveryExampleComputes) {
  for (const ExampleRun &run : exampleRuns()) {
    SCOPED_TRACE(run.file);
    Module before = loadExample(run.file);
    Module after = loadExample(run.file);
    Status s = runPipeline(after);
    ASSERT_TRUE(s.ok()) << s.message();
    ASSERT_TRUE(verify(after).ok());
    Memory a = runExample(before, run);
    InterpreterOptions fenced; // the pipeline ends with fence insertion
    fenced.checkProxyFences = true;
    Memory b = runExample(after, run, fenced);
    EXPECT_EQ(a.buffers, b.buffers);
    run.check(b);
  }
}

TEST(Pipeline, TransposedCopyGetsTwoLayoutsAndOneConvert) {
  Module m = loadExample("transpose_copy.tir");
  ASSERT_TRUE(runPipeline(m).ok());
  EXPECT_EQ(countOps(m, OpKind::ConvertLayout), 1) << print(m);
  const Function &f = m.functions[0];
  LayoutId loadLayout = kNoLayout, storeLayout = kNoLayout;
  walkOps(f.body, [&](const Op &op) {
    if (op.kind == OpKind::Load)
      loadLayout = f.type(op.results[0]).layout();
    if (op.kind == OpKind::Store)
      storeLayout = f.type(op.operands[1]).layout();
    if (op.kind == OpKind::Load || op.kind == OpKind::Store) {
      EXPECT_EQ(op.attrs.vectorWidth, 8) << "128-bit accesses of f16";
    }
  });
  ASSERT_NE(loadLayout, storeLayout);
  const BlockedSpec *l = m.layouts.get(loadLayout).as<BlockedSpec>();
  const BlockedSpec *s = m.layouts.get(storeLayout).as<BlockedSpec>();
  ASSERT_TRUE(l && s);
  EXPECT_EQ(l->order(), (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(s->order(), (std::vector<int64_t>{0, 1}));
}

// memcpy_1d written with 16 elements per thread (XBLOCK 8192): each ld.global.v4 of a warp would
// touch 32 different 64-byte spans. Coalesce gives the accesses 4 per thread (a warp's vector
// instruction covers 512 consecutive bytes); the mask and offsets are recomputed in that layout
// (splat, make_range, addi, cmpi) rather than converted through shared memory: no convert is left.
TEST(Pipeline, MemcpyWithSixteenPerThreadIsCoalescedWithoutConverts) {
  std::string text = readFile(examplePath("memcpy_1d.tir"));
  for (auto [from, to] :
       {std::pair<std::string, std::string>{"sizePerThread = [1]", "sizePerThread = [16]"},
        {"1024", "8192"}})
    for (size_t p = text.find(from); p != std::string::npos; p = text.find(from, p + to.size()))
      text.replace(p, from.size(), to);
  auto parsed = parseModule(text, "memcpy_1d_r16");
  ASSERT_TRUE(parsed.ok()) << parsed.message();
  Module m = std::move(*parsed);
  ASSERT_TRUE(runPipeline(m).ok());
  EXPECT_EQ(countOps(m, OpKind::ConvertLayout), 0) << print(m);
  const Function &f = m.functions[0];
  walkOps(f.body, [&](const Op &op) {
    if (op.kind != OpKind::Load && op.kind != OpKind::Store)
      return;
    const BlockedSpec *l = m.layouts.get(f.type(op.operands[0]).layout()).as<BlockedSpec>();
    ASSERT_TRUE(l);
    EXPECT_EQ(l->sizePerThread(), (std::vector<int64_t>{4}));
    EXPECT_EQ(op.attrs.vectorWidth, 4);
  });
}

TEST(Pipeline, DumpAfterEachNamesThePassesThatChangedTheModule) {
  Module m = loadExample("memcpy_2d.tir");
  std::ostringstream os;
  PipelineOptions o;
  o.dumpAfterEach = &os;
  ASSERT_TRUE(runPipeline(m, o).ok());
  std::string d = os.str();
  EXPECT_NE(d.find("// -----// IR Dump After coalesce //----- //"), std::string::npos);
  EXPECT_NE(d.find("// -----// IR Dump After access-widths //----- //"), std::string::npos);
}

TEST(Pipeline, UnverifiedInputIsAnError) {
  Module m = loadExample("memcpy_1d.tir");
  m.functions[0].body.ops.pop_back(); // no tt.return
  Status s = runPipeline(m);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("must end with tt.return"), std::string::npos) << s.message();
}

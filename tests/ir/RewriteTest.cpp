// The editing helpers passes share (Rewrite.h), checked on the example kernels: an edit that
// keeps a kernel's meaning must keep its results, to the bit, under the interpreter.
#include "Examples.h"

#include "linlayout/ir/BlockedTiling.h"
#include "linlayout/ir/Printer.h"
#include "linlayout/ir/Rewrite.h"
#include "linlayout/ir/Verifier.h"

#include <gtest/gtest.h>

#include <iterator>
#include <numeric>

using namespace linlayout;
using namespace linlayout::ir;
using namespace linlayout::ir::testing;

// Every top-level tt.load of a blocked tensor moves to the blocked layout with the dimension order
// reversed: its operands through makeConvert's converts before it, its result through
// retypeResult's convert back after it. The kernel still verifies, each load's result is the
// fresh value in the new layout (with the old value's name), the convert turns it back into the
// old id, and every example computes what it computed before.
TEST(Rewrite, RetypeResultKeepsTheKernelsResults) {
  int retyped = 0;
  for (const ExampleRun &run : exampleRuns()) {
    SCOPED_TRACE(run.file);
    Module before = loadExample(run.file);
    Module after = before;
    for (Function &f : after.functions) {
      std::vector<Op> &ops = f.body.ops;
      for (size_t i = 0; i < ops.size(); ++i) {
        if (ops[i].kind != OpKind::Load)
          continue;
        ValueId old = ops[i].results[0];
        const Type t = f.type(old);
        const BlockedSpec *b = t.isTensor() ? after.layoutOf(t).as<BlockedSpec>() : nullptr;
        if (!b || t.rank() < 2)
          continue;
        std::vector<int64_t> order(size_t(t.rank()));
        std::iota(order.begin(), order.end(), 0);
        std::vector<int64_t> ones(order.size(), 1);
        Expected<BlockedSpec> other =
            tileBlocked(t.shape(), ones, order, after.numWarps, after.threadsPerWarp);
        ASSERT_TRUE(other.ok()) << other.message();
        LayoutId id = after.layouts.intern(LayoutSpec(*other));
        // The pointers (and mask, other) go to the new layout through makeConvert's converts.
        std::vector<Op> converts;
        for (ValueId &v : ops[i].operands) {
          ValueId converted = v;
          converts.push_back(makeConvert(f, v, id, &converted));
          EXPECT_EQ(f.type(converted), f.type(v).withLayout(id));
          v = converted;
        }
        const std::string name = f.values[old].name;
        Op back = retypeResult(f, ops[i], id);
        ValueId fresh = ops[i].results[0];
        EXPECT_NE(fresh, old);
        EXPECT_EQ(f.type(fresh), t.withLayout(id));
        EXPECT_EQ(f.values[fresh].name, name);
        EXPECT_EQ(back.kind, OpKind::ConvertLayout);
        EXPECT_EQ(back.operands, std::vector<ValueId>{fresh});
        EXPECT_EQ(back.results, std::vector<ValueId>{old});
        ops.insert(ops.begin() + long(i) + 1, std::move(back));
        ops.insert(ops.begin() + long(i), std::make_move_iterator(converts.begin()),
                   std::make_move_iterator(converts.end()));
        i += converts.size() + 1; // past the load and the convert after it
        ++retyped;
      }
    }
    Status ok = verify(after);
    ASSERT_TRUE(ok.ok()) << ok.message() << "\n" << print(after);
    EXPECT_EQ(runExample(before, run).buffers, runExample(after, run).buffers);
  }
  EXPECT_GE(retyped, 8); // 9 top-level blocked loads in the examples when written
}

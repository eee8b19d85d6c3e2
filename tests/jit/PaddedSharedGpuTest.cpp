// Padded shared tiles on the GPU: tiles moved through #ttg.padded_shared buffers (a local_alloc,
// a local_store into a ring slot, a memdesc_subslice view; TileKernels.h's shared_trip) store
// what the interpreter stores, bit for bit, for paddings that keep 16-byte vectors, narrow them,
// or take several pairs.
#include "GpuTestSupport.h"
#include "kernels/TileKernels.h"

#include "linlayout/ir/Interpreter.h"

using namespace linlayout;
using namespace linlayout::gpukernels;
using ir::ScalarKind;

TEST(PaddedSharedGpu, TilesThroughPaddedBuffersMatchTheInterpreter) {
  REQUIRE_GPU();
  uint64_t seed = gputest::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  LayoutSpec rows = blocked({1, 4}, {4, 8}, {4, 1}, {1, 0});
  LayoutSpec rows8 = blocked({1, 8}, {8, 4}, {4, 1}, {1, 0});
  LayoutSpec cols = blocked({4, 1}, {8, 4}, {1, 4}, {0, 1});
  struct Case {
    ScalarKind elem;
    std::vector<PadInterval> pads;
    std::vector<int64_t> order;
    const LayoutSpec *src;
  };
  std::vector<Case> cases = {
      {ScalarKind::I32, {{64, 4}}, {1, 0}, &rows},
      {ScalarKind::I32, {{64, 1}}, {1, 0}, &rows},
      {ScalarKind::I32, {{32, 2}, {256, 8}}, {0, 1}, &rows},
      {ScalarKind::I16, {{64, 8}}, {1, 0}, &rows8},
      {ScalarKind::I16, {{128, 8}, {1024, 4}}, {1, 0}, &rows8},
      {ScalarKind::I8, {{64, 16}}, {1, 0}, &rows8},
  };
  const int programs = 4;
  for (size_t c = 0; c < cases.size(); ++c) {
    SCOPED_TRACE("case " + std::to_string(c));
    const Case &k = cases[c];
    auto spec = PaddedSharedSpec::identityFor(k.pads, {64, 64}, k.order);
    ASSERT_TRUE(spec.ok()) << spec.message();
    ASSERT_OK_AND_ASSIGN(ir::Module m,
                         sharedTrip(k.elem, 64, 64, *k.src, LayoutSpec(*spec), cols, 4));
    ASSERT_OK_AND_ASSIGN(auto kernel, jitc->compile(m, gputest::asBuilt()));
    size_t bytes = size_t(64 * 64 * programs * ir::byteWidth(k.elem));
    ir::Memory want;
    want.buffers = {gputest::randomBytes(rng, bytes), std::vector<uint8_t>(bytes, 0xa5),
                    std::vector<uint8_t>(bytes, 0xa5), std::vector<uint8_t>(bytes, 0xa5)};
    std::vector<ir::ArgValue> args = {ir::ArgValue::pointer(0), ir::ArgValue::pointer(1),
                                      ir::ArgValue::pointer(2), ir::ArgValue::pointer(3)};
    std::vector<runtime::DeviceBuffer> dev;
    for (const auto &b : want.buffers) {
      ASSERT_OK_AND_ASSIGN(auto d, runtime::DeviceBuffer::fromHost<uint8_t>(b));
      dev.push_back(std::move(d));
    }
    ASSERT_OK(ir::interpret(m, "shared_trip", args, want, ir::Grid{programs, 1, 1}));
    ASSERT_OK(kernel->launch({unsigned(programs)}, dev[0], dev[1], dev[2], dev[3]));
    ASSERT_OK(jitc->context().synchronize());
    for (size_t b = 1; b < dev.size(); ++b) {
      ASSERT_OK_AND_ASSIGN(auto got, dev[b].toHost<uint8_t>());
      for (size_t i = 0; i < got.size(); ++i)
        ASSERT_EQ(got[i], want.buffers[b][i]) << "output " << b << " byte " << i;
    }
  }
}

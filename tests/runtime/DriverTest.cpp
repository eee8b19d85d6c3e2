// Runtime tests. Those that need a GPU skip with the reason where there is none; the rest check
// that a missing driver is an error value, never a crash.
#include "linlayout/runtime/Context.h"
#include "linlayout/runtime/DeviceBuffer.h"
#include "linlayout/runtime/Launch.h"
#include "linlayout/runtime/Module.h"
#include "linlayout/runtime/Stream.h"

#include <gtest/gtest.h>

#include <numeric>
#include <vector>

using namespace linlayout::runtime;
using linlayout::Status;

namespace {

#define REQUIRE_GPU()                                                                              \
  do {                                                                                             \
    std::string why;                                                                               \
    if (!gpuAvailable(&why))                                                                       \
      GTEST_SKIP() << "no GPU here: " << why;                                                      \
  } while (0)

// A hand-written PTX kernel: out[i] = in[i] + 1 for i < n.
const char *kAddOnePtx = R"(
.version 7.0
.target sm_80
.address_size 64
.visible .entry add_one(.param .u64 out, .param .u64 in, .param .u32 n) {
  .reg .pred %p;
  .reg .b32 %r<6>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [in];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mad.lo.s32 %r5, %r2, %r3, %r4;
  setp.ge.u32 %p, %r5, %r1;
  @%p bra DONE;
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  mul.wide.u32 %rd3, %r5, 4;
  add.s64 %rd4, %rd2, %rd3;
  add.s64 %rd5, %rd1, %rd3;
  ld.global.u32 %r2, [%rd4];
  add.u32 %r2, %r2, 1;
  st.global.u32 [%rd5], %r2;
DONE:
  ret;
}
)";

} // namespace

TEST(Driver, MissingDriverIsAnErrorValue) {
  std::string why;
  if (gpuAvailable(&why))
    GTEST_SKIP() << "a GPU is present; this test is for machines without one";
  EXPECT_FALSE(why.empty());
  auto ctx = Context::create(0);
  ASSERT_FALSE(ctx.ok());
  EXPECT_FALSE(ctx.message().empty());
  EXPECT_FALSE(DeviceBuffer::allocate(16).ok());
  EXPECT_FALSE(Module::loadPtx(kAddOnePtx).ok());
}

TEST(DriverGpu, LaunchesAHandWrittenKernel) {
  REQUIRE_GPU();
  auto ctx = Context::create(0);
  ASSERT_TRUE(ctx.ok()) << ctx.message();
  EXPECT_GE(ctx->computeCapability(), 80);
  auto mod = Module::loadPtx(kAddOnePtx);
  ASSERT_TRUE(mod.ok()) << mod.message();
  auto fn = mod->function("add_one");
  ASSERT_TRUE(fn.ok()) << fn.message();
  const unsigned n = 1000;
  std::vector<uint32_t> in(n);
  std::iota(in.begin(), in.end(), 7u);
  auto dIn = DeviceBuffer::fromHost<uint32_t>(in);
  ASSERT_TRUE(dIn.ok()) << dIn.message();
  auto dOut = DeviceBuffer::allocate(n * 4);
  ASSERT_TRUE(dOut.ok());
  ASSERT_TRUE(dOut->fill(0xff).ok()); // poison
  Stream s = Stream::null();
  Status st = launch(*fn, {{(n + 127) / 128}, {128}}, s, *dOut, *dIn, n);
  ASSERT_TRUE(st.ok()) << st.message();
  ASSERT_TRUE(ctx->synchronize().ok());
  auto out = dOut->toHost<uint32_t>();
  ASSERT_TRUE(out.ok());
  for (unsigned i = 0; i < n; ++i)
    ASSERT_EQ((*out)[i], in[i] + 1) << "at " << i;
}

// A queued fill lands in stream order: after the launch queued before it, before the copy back.
TEST(DriverGpu, QueuedFillRunsInStreamOrder) {
  REQUIRE_GPU();
  auto ctx = Context::create(0);
  ASSERT_TRUE(ctx.ok()) << ctx.message();
  auto mod = Module::loadPtx(kAddOnePtx);
  ASSERT_TRUE(mod.ok()) << mod.message();
  auto fn = mod->function("add_one");
  ASSERT_TRUE(fn.ok()) << fn.message();
  const unsigned n = 1 << 20;
  std::vector<uint32_t> in(n, 5u);
  auto dIn = DeviceBuffer::fromHost<uint32_t>(in);
  auto dOut = DeviceBuffer::allocate(n * 4);
  ASSERT_TRUE(dIn.ok() && dOut.ok());
  Stream s = Stream::null();
  ASSERT_TRUE(launch(*fn, {{n / 128}, {128}}, s, *dOut, *dIn, n).ok());
  ASSERT_TRUE(dOut->fill(0x11, s).ok());
  ASSERT_TRUE(s.synchronize().ok());
  auto out = dOut->toHost<uint32_t>();
  ASSERT_TRUE(out.ok());
  for (unsigned i = 0; i < n; i += 4099)
    ASSERT_EQ((*out)[i], 0x11111111u) << "at " << i;
}

TEST(DriverGpu, BadPtxReturnsTheJitLog) {
  REQUIRE_GPU();
  auto ctx = Context::create(0);
  ASSERT_TRUE(ctx.ok()) << ctx.message();
  auto mod = Module::loadPtx(".version 7.0\n.target sm_80\n.address_size 64\nthis is not ptx\n");
  ASSERT_FALSE(mod.ok());
  EXPECT_NE(mod.message().find("cuModuleLoadDataEx"), std::string::npos) << mod.message();
}

TEST(DriverGpu, UnknownKernelNameIsAnError) {
  REQUIRE_GPU();
  auto ctx = Context::create(0);
  ASSERT_TRUE(ctx.ok());
  auto mod = Module::loadPtx(kAddOnePtx);
  ASSERT_TRUE(mod.ok());
  auto fn = mod->function("nope");
  ASSERT_FALSE(fn.ok());
  EXPECT_NE(fn.message().find("nope"), std::string::npos);
}

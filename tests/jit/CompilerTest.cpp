// The compilation API: architecture choice, errors as values, the cache, metadata and the checks
// a launch makes before anything reaches the driver.
#include "GpuTestSupport.h"
#include "kernels/TileKernels.h"

#include "linlayout/ir/Printer.h"
#include "linlayout/lower/Occupancy.h"

#include <fstream>

using namespace linlayout;
using namespace linlayout::gpukernels;

TEST(JitArch, PtxArchForEachComputeCapability) {
  EXPECT_EQ(jit::ptxArchFor(80).value(), "sm_80");
  EXPECT_EQ(jit::ptxArchFor(86).value(), "sm_86");
  EXPECT_EQ(jit::ptxArchFor(87).value(), "sm_86");
  EXPECT_EQ(jit::ptxArchFor(89).value(), "sm_89");
  EXPECT_EQ(jit::ptxArchFor(90).value(), "sm_90");
  EXPECT_EQ(jit::ptxArchFor(100).value(), "sm_90");
  auto old = jit::ptxArchFor(75);
  ASSERT_FALSE(old.ok());
  EXPECT_NE(old.message().find("7.5"), std::string::npos) << old.message();
}

TEST(JitWithoutDevice, CreateIsAnErrorValue) {
  std::string why;
  if (runtime::gpuAvailable(&why))
    GTEST_SKIP() << "a GPU is present; this test is for machines without one";
  auto c = jit::Compiler::create(0);
  ASSERT_FALSE(c.ok());
  EXPECT_FALSE(c.message().empty());
}

TEST(JitGpu, BadDeviceOrdinalIsAnError) {
  REQUIRE_GPU();
  auto c = jit::Compiler::create(1000);
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.message().find("1000"), std::string::npos) << c.message();
}

TEST(JitGpu, CompilesTextAndBuilderModulesAndCachesByText) {
  REQUIRE_GPU();
  ASSERT_OK_AND_ASSIGN(ir::Module m, memcpy1d(ir::ScalarKind::F32, 1024, 4, 4));
  jit::CacheStats before = jitc->cacheStats();
  ASSERT_OK_AND_ASSIGN(auto k1, jitc->compile(m, gputest::asBuilt()));
  ASSERT_OK_AND_ASSIGN(auto k2, jitc->compile(ir::print(m), gputest::asBuilt()));
  EXPECT_EQ(k1.get(), k2.get()) << "the same printed IR must hit the cache";
  jit::CacheStats after = jitc->cacheStats();
  EXPECT_EQ(after.misses, before.misses + 1);
  EXPECT_EQ(after.hits, before.hits + 1);
  // Another kernel name option is another entry.
  jit::CompileOptions o;
  o.optimize = false;
  ASSERT_OK_AND_ASSIGN(auto k3, jitc->compile(m, o));
  EXPECT_NE(k1.get(), k3.get());

  const jit::KernelMetadata &md = k1->metadata();
  EXPECT_EQ(md.name, "memcpy_1d");
  EXPECT_EQ(md.target, jitc->arch());
  EXPECT_EQ(md.threadsPerBlock, 128);
  EXPECT_GE(md.registers, 1);
  EXPECT_EQ(md.localBytes, 0) << "a copy kernel must not spill";
  EXPECT_GE(md.maxThreadsPerBlock, 128);
  // The driver's occupancy, which lower::occupancy predicts from the same numbers.
  EXPECT_GE(md.ctasPerSm, 1);
  EXPECT_EQ(md.ctasPerSm,
            lower::occupancy(lower::PtxTarget{md.computeCapability, 80}, md.threadsPerBlock,
                             md.registers, int64_t(md.dynamicSharedBytes))
                .ctasPerSm);
  ASSERT_EQ(md.params.size(), 3u);
  EXPECT_EQ(md.params[0].kind, lower::ParamKind::GlobalPointer);
  EXPECT_NE(k1->ptx().find(".entry memcpy_1d"), std::string::npos);
  EXPECT_NE(k1->ptx().find(".target " + jitc->arch()), std::string::npos);
}

TEST(JitGpu, CompileErrorsAreValues) {
  REQUIRE_GPU();
  auto bad = jitc->compile(std::string_view("module {\n  tt.func public @f( {\n"), {}, "bad.tir");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("bad.tir:"), std::string::npos) << bad.message();
  ASSERT_OK_AND_ASSIGN(ir::Module m, memcpy1d(ir::ScalarKind::F32, 1024, 4, 4));
  jit::CompileOptions o;
  o.kernel = "nope";
  auto missing = jitc->compile(m, o);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.message().find("nope"), std::string::npos) << missing.message();
}

TEST(JitGpu, LaunchChecksArgumentsBeforeLaunching) {
  REQUIRE_GPU();
  ASSERT_OK_AND_ASSIGN(ir::Module m, memcpy1d(ir::ScalarKind::F32, 1024, 4, 4));
  ASSERT_OK_AND_ASSIGN(auto k, jitc->compile(m, gputest::asBuilt()));
  ASSERT_OK_AND_ASSIGN(auto a, runtime::DeviceBuffer::allocate(4096));
  ASSERT_OK_AND_ASSIGN(auto b, runtime::DeviceBuffer::allocate(4096));
  ASSERT_OK(b.fill(0xab));
  Status tooFew = k->launch({1}, a, b);
  ASSERT_FALSE(tooFew.ok());
  EXPECT_NE(tooFew.message().find("takes 3 arguments, got 2"), std::string::npos)
      << tooFew.message();
  Status wrongWidth = k->launch({1}, a, b, int64_t(1024));
  ASSERT_FALSE(wrongWidth.ok());
  EXPECT_NE(wrongWidth.message().find("32-bit integer, got a 64-bit integer"), std::string::npos)
      << wrongWidth.message();
  Status wrongKind = k->launch({1}, a, 1.0f, 1024);
  ASSERT_FALSE(wrongKind.ok());
  EXPECT_NE(wrongKind.message().find("global pointer, got a 32-bit float"), std::string::npos)
      << wrongKind.message();
  Status misaligned = k->launch({1}, jit::DeviceAddress{a.ptr() + 4}, b, 1000);
  ASSERT_FALSE(misaligned.ok());
  EXPECT_NE(misaligned.message().find("16-byte aligned"), std::string::npos)
      << misaligned.message();
  Status emptyGrid = k->launch({0}, a, b, 1024);
  ASSERT_FALSE(emptyGrid.ok());
  EXPECT_NE(emptyGrid.message().find("out of range"), std::string::npos) << emptyGrid.message();
  ASSERT_OK(jitc->context().synchronize());
  // None of these launched: the destination still holds its poison.
  ASSERT_OK_AND_ASSIGN(auto host, b.toHost<uint8_t>());
  for (uint8_t x : host)
    ASSERT_EQ(x, 0xab);
  // And a correct launch on an explicit stream works.
  ASSERT_OK_AND_ASSIGN(auto s, runtime::Stream::create());
  ASSERT_OK(a.fill(0x11));
  ASSERT_OK(k->launch({1}, a, b, 1024, s));
  ASSERT_OK(s.synchronize());
  ASSERT_OK_AND_ASSIGN(auto copied, b.toHost<uint8_t>());
  for (uint8_t x : copied)
    ASSERT_EQ(x, 0x11);
}

TEST(JitGpu, KernelsOutliveTheirCompiler) {
  REQUIRE_GPU();
  std::shared_ptr<const jit::Kernel> k;
  {
    ASSERT_OK_AND_ASSIGN(auto c, jit::Compiler::create(0));
    ASSERT_OK_AND_ASSIGN(ir::Module m, memcpy1d(ir::ScalarKind::I32, 512, 4, 4));
    ASSERT_OK_AND_ASSIGN(k, c.compile(m, gputest::asBuilt()));
  }
  std::vector<int32_t> in(512);
  for (int i = 0; i < 512; ++i)
    in[i] = i * 7 - 3;
  ASSERT_OK_AND_ASSIGN(auto a, runtime::DeviceBuffer::fromHost<int32_t>(in));
  ASSERT_OK_AND_ASSIGN(auto b, runtime::DeviceBuffer::allocate(512 * 4));
  ASSERT_OK(b.fill(0xff));
  ASSERT_OK(k->launch({1}, a, b, 512));
  ASSERT_OK_AND_ASSIGN(auto out, b.toHost<int32_t>());
  EXPECT_EQ(out, in);
}

TEST(JitGpu, DefaultOptionsRunThePassPipelineOnTheReadmeKernel) {
  REQUIRE_GPU();
  std::ifstream file(std::string(gpukernels::sourceDir(LINLAYOUT_SOURCE_DIR)) +
                     "/examples/memcpy_1d.tir");
  std::string text((std::istreambuf_iterator<char>(file)), {});
  ASSERT_FALSE(text.empty());
  ASSERT_OK_AND_ASSIGN(auto k, jitc->compile(text, {}, "memcpy_1d.tir"));
  ASSERT_OK_AND_ASSIGN(auto asWritten, jitc->compile(text, gputest::asBuilt(), "memcpy_1d.tir"));
  EXPECT_NE(k.get(), asWritten.get()) << "with and without passes are two cache entries";
  const int n = (1 << 20) + 512; // masked tail
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i)
    in[i] = float(i) * 0.25f - 7.0f;
  ASSERT_OK_AND_ASSIGN(auto src, runtime::DeviceBuffer::fromHost<float>(in));
  ASSERT_OK_AND_ASSIGN(auto dst, runtime::DeviceBuffer::allocate(size_t(n) * 4));
  for (const auto &kernel : {k, asWritten}) {
    ASSERT_OK(dst.fill(0xff));
    ASSERT_OK(kernel->launch({unsigned((n + 1023) / 1024)}, src, dst, int32_t(n)));
    ASSERT_OK_AND_ASSIGN(auto out, dst.toHost<float>());
    EXPECT_EQ(out, in);
  }
}

// A program of several CTAs (memcpy_1d.tir with "ttg.num-ctas" = 2 or 4, sm_90): the pass pipeline
// cuts each program's 1024 elements over its CTAs, the PTX requires the cluster, and launch() runs
// grid.x programs as that many clusters, so every element is copied once.
TEST(JitGpu, ProgramsOfSeveralCtasLaunchAsClusters) {
  REQUIRE_GPU();
  if (jitc->context().computeCapability() < 90)
    GTEST_SKIP() << "clusters need sm_90; this GPU is sm_" << jitc->context().computeCapability();
  std::ifstream file(std::string(gpukernels::sourceDir(LINLAYOUT_SOURCE_DIR)) +
                     "/examples/memcpy_1d.tir");
  std::string text((std::istreambuf_iterator<char>(file)), {});
  const std::string one = "\"ttg.num-ctas\" = 1";
  ASSERT_NE(text.find(one), std::string::npos);
  const int n = (1 << 20) + 512;
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i)
    in[i] = float(i) * 0.5f - 3.0f;
  ASSERT_OK_AND_ASSIGN(auto src, runtime::DeviceBuffer::fromHost<float>(in));
  ASSERT_OK_AND_ASSIGN(auto dst, runtime::DeviceBuffer::allocate(size_t(n) * 4));
  for (int ctas : {2, 4}) {
    SCOPED_TRACE(std::to_string(ctas) + " CTAs per program");
    std::string clustered = text;
    clustered.replace(clustered.find(one), one.size(),
                      "\"ttg.num-ctas\" = " + std::to_string(ctas));
    ASSERT_OK_AND_ASSIGN(auto k, jitc->compile(clustered, {}, "memcpy_1d.tir"));
    EXPECT_EQ(k->metadata().ctasPerCluster, ctas);
    EXPECT_NE(k->ptx().find(".reqnctapercluster " + std::to_string(ctas) + ", 1, 1"),
              std::string::npos);
    ASSERT_OK(dst.fill(0xff));
    ASSERT_OK(k->launch({unsigned((n + 1023) / 1024)}, src, dst, int32_t(n)));
    ASSERT_OK_AND_ASSIGN(auto out, dst.toHost<float>());
    EXPECT_EQ(out, in);
  }
}

// TMA tensor maps: the driver's rules checked before the driver is called (no GPU needed), and on
// an sm_90 GPU an encoded map passed by value as a 128-byte, 64-byte aligned kernel parameter.
#include "linlayout/runtime/TensorMap.h"
#include "linlayout/runtime/Context.h"
#include "linlayout/runtime/DeviceBuffer.h"
#include "linlayout/runtime/Launch.h"
#include "linlayout/runtime/Module.h"

#include <gtest/gtest.h>

#include <functional>

using namespace linlayout::runtime;

namespace {

// A 4096 x 4096 f16 row-major matrix read in 128 x 64 boxes (64 halves = one 128-byte row).
TiledTensorMapSpec goodSpec() {
  TiledTensorMapSpec s;
  s.element = TensorMapElement::F16;
  s.address = 1 << 20;
  s.dims = {4096, 4096};
  s.strideBytes = {4096 * 2};
  s.box = {128, 64};
  s.swizzleBytes = 128;
  return s;
}

} // namespace

TEST(TensorMap, IsA128ByteValue) {
  static_assert(sizeof(TensorMap) == 128);
  static_assert(alignof(TensorMap) == 64);
  static_assert(std::is_trivially_copyable_v<TensorMap>);
  EXPECT_EQ(elementBytes(TensorMapElement::BF16), 2);
  EXPECT_EQ(elementBytes(TensorMapElement::F32), 4);
}

// The IR's element types a map holds: the 8-bit floats as bytes (the fp8 GEMMs' operands).
TEST(TensorMap, ElementOfIrTypes) {
  EXPECT_EQ(tensorMapElementOf("f16"), TensorMapElement::F16);
  EXPECT_EQ(tensorMapElementOf("i8"), TensorMapElement::U8);
  EXPECT_EQ(tensorMapElementOf("f8E4M3FN"), TensorMapElement::U8);
  EXPECT_EQ(tensorMapElementOf("f8E5M2"), TensorMapElement::U8);
  EXPECT_EQ(tensorMapElementOf("i1"), std::nullopt);
}

TEST(TensorMap, TheDriversRulesAreCheckedFirst) {
  EXPECT_TRUE(checkTiledTensorMap(goodSpec()).ok());
  struct Case {
    std::function<void(TiledTensorMapSpec &)> edit;
    std::string want;
  } cases[] = {
      {[](auto &s) { s.address += 8; }, "tensor map address 1048584 is not a multiple of 16"},
      {[](auto &s) { s.strideBytes = {4100}; }, "tensor map stride 0 is 4100 bytes"},
      {[](auto &s) { s.box = {512, 64}; }, "tensor map box dim 0 is 512, expected 1..256"},
      {[](auto &s) { s.box = {128, 4}; }, "the box's contiguous extent is 8 bytes"},
      {[](auto &s) { s.box = {128, 128}; },
       "the box's contiguous extent is 256 bytes, more than the 128-byte swizzle"},
      {[](auto &s) { s.swizzleBytes = 16; }, "tensor map swizzle is 16 bytes"},
      {[](auto &s) { s.dims = {}; }, "a tensor map has 1 to 5 dims, got 0"},
      {[](auto &s) { s.strideBytes = {}; }, "needs 1 strides, got 0"},
      {[](auto &s) { s.dims = {4096, 0}; }, "tensor map dim 1 is 0"},
  };
  for (const Case &c : cases) {
    TiledTensorMapSpec s = goodSpec();
    c.edit(s);
    linlayout::Status st = checkTiledTensorMap(s);
    ASSERT_FALSE(st.ok()) << c.want;
    EXPECT_NE(st.message().find(c.want), std::string::npos) << st.message();
    // encode reports the same mistake without reaching the driver.
    auto e = encodeTiledTensorMap(s);
    ASSERT_FALSE(e.ok());
    EXPECT_EQ(e.message(), st.message());
  }
}

// The driver encodes a map over a real buffer, and a kernel receives it by value: its 128 bytes
// read back from parameter space equal the host's.
TEST(TensorMapGpu, EncodedMapReachesTheKernelByValue) {
  std::string why;
  if (!gpuAvailable(&why))
    GTEST_SKIP() << "no GPU here: " << why;
  auto ctx = Context::create(0);
  ASSERT_TRUE(ctx.ok()) << ctx.message();
  if (ctx->computeCapability() < 90)
    GTEST_SKIP() << "tensor maps need sm_90, this GPU is sm_" << ctx->computeCapability();
  auto buf = DeviceBuffer::allocate(size_t(4096) * 4096 * 2);
  ASSERT_TRUE(buf.ok()) << buf.message();
  TiledTensorMapSpec s = goodSpec();
  s.address = buf->ptr();
  auto map = encodeTiledTensorMap(s);
  ASSERT_TRUE(map.ok()) << map.message();
  bool nonzero = false;
  for (uint64_t w : map->words)
    nonzero |= w != 0;
  EXPECT_TRUE(nonzero);
  std::string ptx = ".version 8.0\n.target sm_90\n.address_size 64\n"
                    ".visible .entry read_map(.param .u64 out, .param .align 64 .b8 map[128]) {\n"
                    "  .reg .b64 %rd<4>;\n  ld.param.u64 %rd1, [out];\n";
  for (int i = 0; i < 16; ++i)
    ptx += "  ld.param.u64 %rd2, [map+" + std::to_string(8 * i) + "];\n  st.global.u64 [%rd1+" +
           std::to_string(8 * i) + "], %rd2;\n";
  ptx += "  ret;\n}\n";
  auto mod = Module::loadPtx(ptx);
  ASSERT_TRUE(mod.ok()) << mod.message();
  auto fn = mod->function("read_map");
  ASSERT_TRUE(fn.ok()) << fn.message();
  auto out = DeviceBuffer::allocate(128);
  ASSERT_TRUE(out.ok());
  auto stream = Stream::create();
  ASSERT_TRUE(stream.ok()) << stream.message();
  ASSERT_TRUE(launch(*fn, {{1}, {1}}, *stream, *out, *map).ok());
  ASSERT_TRUE(stream->synchronize().ok());
  auto back = out->toHost<uint64_t>();
  ASSERT_TRUE(back.ok()) << back.message();
  for (int i = 0; i < 16; ++i)
    EXPECT_EQ((*back)[size_t(i)], map->words[size_t(i)]) << "word " << i;
}

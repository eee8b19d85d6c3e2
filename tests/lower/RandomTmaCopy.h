// Random TMA tile copies, for the tests that hold the copy-engine lowering to the interpreter
// (tests/lower/TmaTest.cpp: they lower for sm_90 and assemble; tests/jit/TmaGpuTest.cpp: on the
// GPU they copy exactly what the interpreter copies). A kernel copies the rows x cols block of a
// 2-d tensor at (%r0, %c0) into an NVMMA shared tile (elements of 1 to 8 bytes, any swizzle that
// fits, the block split into boxes as the swizzle asks), through one descriptor of the whole
// block or of column slices of it copied into views side by side, waits on an mbarrier, reads
// the tile back in a random blocked layout and stores it row-major. The tensor's sizes are no
// multiple of the block (nor the block of them: it may be larger), and the block's origin may lie
// before the tensor or run past its end: elements outside the tensor are zero.
#pragma once

#include "linlayout/ir/Interpreter.h"
#include "linlayout/ir/Type.h"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace linlayout::lower::testing {

struct RandomTmaCopy {
  std::string elem = "f16";
  int elemBytes = 2;
  int swizzle = 128;            // NVMMA swizzle bytes (0: none)
  int64_t rows = 64, cols = 64; // the shared tile
  int64_t viewCols = 64; // the descriptor's block: rows x viewCols, copied cols / viewCols times
  std::string layout;    // the blocked layout the tile is read back in
  int warps = 4;
  int64_t tensorRows = 100, tensorCols = 100, strideElems = 112; // the global tensor
  int64_t r0 = 0, c0 = 0;

  std::string describe() const {
    auto s = [](int64_t v) { return std::to_string(v); };
    return elem + " tile " + s(rows) + "x" + s(cols) + " in boxes of " + s(viewCols) +
           " columns, swizzle " + s(swizzle) + ", tensor " + s(tensorRows) + "x" + s(tensorCols) +
           " (stride " + s(strideElems) + ") at (" + s(r0) + ", " + s(c0) + "), read in " + layout;
  }

  std::string text() const {
    auto s = [](int64_t v) { return std::to_string(v); };
    const std::string t = s(rows) + "x" + s(cols) + "x" + elem;
    const std::string vt = s(rows) + "x" + s(viewCols) + "x" + elem;
    const std::string tile = "!ttg.memdesc<" + t + ", #sa, #smem, mutable>";
    const std::string view =
        "!ttg.memdesc<" + vt + ", #sa, #smem, mutable, " + s(rows) + "x" + s(cols) + ">";
    const std::string desc = "!tt.tensordesc<tensor<" + vt + ", #sa>>";
    const std::string bar = "!ttg.memdesc<1xi64, #bar, #smem, mutable>";
    const std::string T = "tensor<" + t + ", #bl>",
                      I = "tensor<" + s(rows) + "x" + s(cols) + "xi32, #bl>";
    const std::string P = "tensor<" + s(rows) + "x" + s(cols) + "x!tt.ptr<" + elem + ">, #bl>";
    const std::string rs = "tensor<" + s(rows) + "xi32, #ttg.slice<{dim = 1, parent = #bl}>>";
    const std::string cs = "tensor<" + s(cols) + "xi32, #ttg.slice<{dim = 0, parent = #bl}>>";
    std::string x;
    x += "#sa = #ttg.nvmma_shared<{swizzlingByteWidth = " + s(swizzle) +
         ", transposed = false, elementBitWidth = " + s(8 * elemBytes) + "}>\n";
    x += "#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>\n";
    x += "#bl = " + layout + "\n#smem = #ttg.shared_memory\n";
    x += "module attributes {\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = " + s(warps) +
         " : i32, ttg.target = \"cuda:90\", \"ttg.threads-per-warp\" = 32 : i32} {\n";
    x += "  tt.func public @tma(%desc: " + desc + ", %out: !tt.ptr<" + elem +
         "> {tt.divisibility = 16 : i32}, %r0: i32, %c0: i32) {\n";
    x += "    %true = arith.constant true\n    %zero = arith.constant 0 : i32\n";
    x += "    %buf = ttg.local_alloc : () -> " + tile + "\n";
    x += "    %bar = ttg.local_alloc : () -> " + bar + "\n";
    x += "    ttng.init_barrier %bar, 1 : " + bar + "\n";
    x += "    ttng.barrier_expect %bar, " + s(rows * cols * elemBytes) + ", %true : " + bar + "\n";
    if (viewCols == cols) {
      x += "    ttng.async_tma_copy_global_to_local %desc[%r0, %c0] %buf, %bar, %true : " + desc +
           ", " + bar + " -> " + tile + "\n";
    } else {
      for (int64_t v = 0; v < cols / viewCols; ++v) {
        const std::string i = s(v), at = s(v * viewCols);
        x += "    %dc" + i + " = arith.constant " + at + " : i32\n";
        x += "    %vc" + i + " = arith.addi %c0, %dc" + i + " : i32\n";
        x += "    %v" + i + " = ttg.memdesc_subslice %buf [0, " + at + "] : " + tile + " -> " +
             view + "\n";
        x += "    ttng.async_tma_copy_global_to_local %desc[%r0, %vc" + i + "] %v" + i +
             ", %bar, %true : " + desc + ", " + bar + " -> " + view + "\n";
      }
    }
    x += "    ttng.wait_barrier %bar, %zero : " + bar + "\n";
    x += "    ttng.inval_barrier %bar : " + bar + "\n";
    x += "    %t = ttg.local_load %buf : " + tile + " -> " + T + "\n";
    x += "    %r = tt.make_range {end = " + s(rows) + " : i32, start = 0 : i32} : " + rs + "\n";
    x += "    %r2 = tt.expand_dims %r {axis = 1 : i32} : " + rs + " -> tensor<" + s(rows) +
         "x1xi32, #bl>\n";
    x += "    %cn = arith.constant dense<" + s(cols) + "> : tensor<" + s(rows) + "x1xi32, #bl>\n";
    x += "    %rs = arith.muli %r2, %cn : tensor<" + s(rows) + "x1xi32, #bl>\n";
    x += "    %rb = tt.broadcast %rs : tensor<" + s(rows) + "x1xi32, #bl> -> " + I + "\n";
    x += "    %c = tt.make_range {end = " + s(cols) + " : i32, start = 0 : i32} : " + cs + "\n";
    x += "    %c2 = tt.expand_dims %c {axis = 0 : i32} : " + cs + " -> tensor<1x" + s(cols) +
         "xi32, #bl>\n";
    x += "    %cb = tt.broadcast %c2 : tensor<1x" + s(cols) + "xi32, #bl> -> " + I + "\n";
    x += "    %offs = arith.addi %rb, %cb : " + I + "\n";
    x += "    %ov = tt.splat %out : !tt.ptr<" + elem + "> -> " + P + "\n";
    x += "    %ptrs = tt.addptr %ov, %offs : " + P + ", " + I + "\n";
    x += "    tt.store %ptrs, %t : " + P + "\n    tt.return\n  }\n}\n";
    return x;
  }

  /// The interpreter's arguments: the tensor in buffer 0, the output in buffer 1.
  std::vector<ir::ArgValue> args() const {
    return {ir::ArgValue::tensorDesc(0, {tensorRows, tensorCols}, {strideElems, 1}),
            ir::ArgValue::pointer(1), ir::ArgValue::integer(r0), ir::ArgValue::integer(c0)};
  }

  /// Random tensor bytes (the padding past each row too; no float is NaN, whose payload the
  /// interpreter does not keep: the exponent's top bit is clear) and an output of 0xa5 bytes.
  ir::Memory start(std::mt19937_64 &rng) const {
    ir::Memory m;
    std::vector<uint8_t> tensor(size_t(tensorRows * strideElems * elemBytes));
    for (uint8_t &b : tensor)
      b = uint8_t(rng());
    if (ir::isFloat(*ir::scalarKindFromName(elem)))
      for (size_t i = size_t(elemBytes) - 1; i < tensor.size(); i += size_t(elemBytes))
        tensor[i] &= 0xbf;
    m.buffers = {tensor, std::vector<uint8_t>(size_t(rows * cols * elemBytes), 0xa5)};
    return m;
  }
};

/// A random copy: 1- to 8-byte elements, a swizzle of 0 to 128 bytes, tiles of up to 256 rows
/// and 16 KiB, boxes of up to 256 elements a side.
inline RandomTmaCopy randomTmaCopy(std::mt19937_64 &rng) {
  auto pick = [&](std::initializer_list<int64_t> options) {
    return *(options.begin() + rng() % options.size());
  };
  RandomTmaCopy c;
  static const std::pair<const char *, int> elems[] = {{"i8", 1},  {"f16", 2}, {"bf16", 2},
                                                       {"f32", 4}, {"i32", 4}, {"i64", 8}};
  const auto &e = elems[rng() % std::size(elems)];
  c.elem = e.first;
  c.elemBytes = e.second;
  c.swizzle = int(pick({0, 32, 64, 128}));
  // A box row is a multiple of 16 bytes: the swizzle's width (an NVMMA tile is at least one
  // swizzle row wide and 8 rows high), or without a swizzle at most 256 bytes and 256 elements,
  // the whole tile's row.
  int64_t boxBytes = c.swizzle, boxes = pick({1, 1, 2, 4});
  if (!c.swizzle) {
    const int64_t most = std::min<int64_t>(256 * c.elemBytes, 256);
    boxBytes = 16;
    while (boxBytes * 2 <= most && rng() % 3)
      boxBytes *= 2;
    boxes = 1;
  }
  const int64_t box = boxBytes / c.elemBytes;
  c.cols = box * boxes;
  // One descriptor of the tile (a block dim is at most 256), or one per box.
  c.viewCols = rng() % 2 || c.cols > 256 ? box : c.cols;
  c.rows = c.swizzle ? pick({8, 16, 64, 128, 256}) : pick({1, 2, 8, 16, 64, 128, 256});
  while (c.rows > (c.swizzle ? 8 : 1) && c.rows * c.cols * c.elemBytes > 16 * 1024)
    c.rows /= 2;
  c.warps = int(pick({1, 2, 4, 8}));
  // The read-back layout: vectors along the row, lanes and warps over both dims.
  const int64_t vec = std::min<int64_t>(c.cols, pick({1, 2, 4, 8}));
  int64_t lanesCol = std::min<int64_t>(32, std::max<int64_t>(1, c.cols / vec));
  lanesCol = int64_t(1) << (rng() % (__builtin_ctzll(uint64_t(lanesCol)) + 1));
  const int64_t warpsCol = int64_t(1) << (rng() % (__builtin_ctzll(uint64_t(c.warps)) + 1));
  auto s = [](int64_t v) { return std::to_string(v); };
  c.layout = "#ttg.blocked<{sizePerThread = [1, " + s(vec) + "], threadsPerWarp = [" +
             s(32 / lanesCol) + ", " + s(lanesCol) + "], warpsPerCTA = [" + s(c.warps / warpsCol) +
             ", " + s(warpsCol) + "], order = [1, 0]}>";
  // The tensor: up to three blocks a side (smaller than the block too), rows padded to 16 bytes.
  c.tensorRows = 1 + int64_t(rng() % uint64_t(3 * c.rows));
  c.tensorCols = 1 + int64_t(rng() % uint64_t(3 * c.cols));
  const int64_t rowBytes = (c.tensorCols * c.elemBytes + 15) / 16 * 16 + 16 * int64_t(rng() % 2);
  c.strideElems = rowBytes / c.elemBytes;
  c.r0 = int64_t(rng() % uint64_t(c.tensorRows + c.rows)) - c.rows / 2;
  // The column a multiple of 16 bytes (TMA's rule; the interpreter refuses other columns).
  const int64_t step = 16 / c.elemBytes;
  c.c0 = (int64_t(rng() % uint64_t(c.tensorCols + c.cols)) - c.cols / 2) / step * step;
  return c;
}

} // namespace linlayout::lower::testing

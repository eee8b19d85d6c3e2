// Random mma.sync dot kernels for the tests of dot operands in K slices (OperandSlicesTest: they
// lower and assemble; LowerGpuTest: on the GPU they compute what the interpreter computes). One
// program loads A (M x K) and B (K x N) in a blocked layout, takes each operand either through
// registers (convert_layout) or through a shared tile in a random swizzled layout (local_alloc,
// then a local_load right before the dot, which the lowering slices along K), multiplies them with
// an nvidia_mma v2 accumulator over a random warp grid and stores C (f32; i32 for i8 operands).
// The dot layouts' kWidth is one fragment word's elements or 2 or 4 times that (K then read
// through a permutation). The inputs are small integers, so every product and sum is exact and
// the GPU must match the interpreter bit for bit.
#pragma once

#include "linlayout/ir/Interpreter.h"
#include "linlayout/ir/Type.h"

#include <rapidcheck.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace linlayout::lower::testing {

struct RandomDot {
  std::string elem = "f16"; // f16, bf16, f32 (tf32 on the tensor cores) or i8
  int warpsM = 1, warpsN = 1, m = 16, n = 8, k = 32;
  int kWidth = 0; // the dot layouts' kWidth; 0: one fragment word's elements
  bool aShared = true, bShared = true;
  std::string aSwizzle, bSwizzle; // "vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]"

  int warps() const { return warpsM * warpsN; }
  int elemBytes() const { return elem == "f32" ? 4 : elem == "i8" ? 1 : 2; }
  /// The elements of one fragment word (the smallest kWidth) and the kWidth in use.
  int wordElems() const { return 4 / elemBytes(); }
  int width() const { return kWidth ? kWidth : wordElems(); }
  /// One mma.sync's K, and the K of a slice of the operands (at least what 4 lanes span).
  int instrK() const { return 32 / elemBytes(); }
  int sliceStep() const { return std::max(instrK(), 4 * width()); }
  std::string acc() const { return elem == "i8" ? "i32" : "f32"; }

  std::string describe() const {
    return elem + " kWidth " + std::to_string(width()) + " " + std::to_string(m) + "x" +
           std::to_string(n) + "x" + std::to_string(k) + " warps [" + std::to_string(warpsM) +
           ", " + std::to_string(warpsN) + "] A " +
           (aShared ? "shared {" + aSwizzle + "}" : "registers") + " B " +
           (bShared ? "shared {" + bSwizzle + "}" : "registers");
  }

  std::string text() const {
    const std::string w = std::to_string(warps()), t = elem;
    auto shape = [&](int r, int c, const std::string &e) {
      return std::to_string(r) + "x" + std::to_string(c) + "x" + e;
    };
    std::string s;
    s += "#blk = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [" +
         w + ", 1], order = [1, 0]}>\n";
    s += "#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [" +
         std::to_string(warpsM) + ", " + std::to_string(warpsN) + "], instrShape = [16, 8]}>\n";
    const std::string kw = std::to_string(width());
    s += "#da = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = " + kw + "}>\n";
    s += "#db = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = " + kw + "}>\n";
    s += "#sa = #ttg.swizzled_shared<{" +
         (aSwizzle.empty() ? "vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]" : aSwizzle) +
         "}>\n";
    s += "#sb = #ttg.swizzled_shared<{" +
         (bSwizzle.empty() ? "vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]" : bSwizzle) +
         "}>\n";
    s += "#smem = #ttg.shared_memory\n";
    s += "module attributes {\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = " + w +
         " : i32, ttg.target = \"cuda:80\", \"ttg.threads-per-warp\" = 32 : i32} {\n";
    s += "  tt.func public @dotk(%a: !tt.ptr<" + t + ">, %b: !tt.ptr<" + t + ">, %c: !tt.ptr<" +
         acc() + ">) {\n";
    // %<p>ptr: a rows x cols row-major tile of `ptr` in layout `l`.
    auto tile = [&](const std::string &p, const std::string &ptr, const std::string &e, int rows,
                    int cols, const std::string &l) {
      const std::string r = std::to_string(rows), c = std::to_string(cols);
      const std::string rs = "tensor<" + r + "xi32, #ttg.slice<{dim = 1, parent = " + l + "}>>";
      const std::string cs = "tensor<" + c + "xi32, #ttg.slice<{dim = 0, parent = " + l + "}>>";
      const std::string col = "tensor<" + r + "x1xi32, " + l + ">";
      const std::string row = "tensor<1x" + c + "xi32, " + l + ">";
      const std::string full = "tensor<" + shape(rows, cols, "i32") + ", " + l + ">";
      const std::string ptrs = "tensor<" + shape(rows, cols, "!tt.ptr<" + e + ">") + ", " + l + ">";
      const std::string q = p + "_"; // the tile's own values
      std::string x;
      x +=
          "    %" + q + "r = tt.make_range {end = " + r + " : i32, start = 0 : i32} : " + rs + "\n";
      x += "    %" + q + "r2 = tt.expand_dims %" + q + "r {axis = 1 : i32} : " + rs + " -> " + col +
           "\n";
      x += "    %" + q + "s = arith.constant dense<" + c + "> : " + col + "\n";
      x += "    %" + q + "rs = arith.muli %" + q + "r2, %" + q + "s : " + col + "\n";
      x += "    %" + q + "rb = tt.broadcast %" + q + "rs : " + col + " -> " + full + "\n";
      x +=
          "    %" + q + "c = tt.make_range {end = " + c + " : i32, start = 0 : i32} : " + cs + "\n";
      x += "    %" + q + "c2 = tt.expand_dims %" + q + "c {axis = 0 : i32} : " + cs + " -> " + row +
           "\n";
      x += "    %" + q + "cb = tt.broadcast %" + q + "c2 : " + row + " -> " + full + "\n";
      x += "    %" + q + "o = arith.addi %" + q + "rb, %" + q + "cb : " + full + "\n";
      x += "    %" + q + "v = tt.splat %" + ptr + " : !tt.ptr<" + e + "> -> " + ptrs + "\n";
      x += "    %" + p + "ptr = tt.addptr %" + q + "v, %" + q + "o : " + ptrs + ", " + full + "\n";
      return x;
    };
    // The operand `name` (a or b) of shape rows x cols into dot layout `dl`.
    std::string operands;
    auto operand = [&](const std::string &name, int rows, int cols, bool shared,
                       const std::string &sl, const std::string &dl) {
      const std::string ty = "tensor<" + shape(rows, cols, t) + ", ";
      s += tile(name, name, t, rows, cols, "#blk");
      s += "    %" + name + "t = tt.load %" + name + "ptr : tensor<" +
           shape(rows, cols, "!tt.ptr<" + t + ">") + ", #blk>\n";
      if (!shared) {
        s += "    %" + name + "d = ttg.convert_layout %" + name + "t : " + ty + "#blk> -> " + ty +
             dl + ">\n";
        return;
      }
      const std::string md = "!ttg.memdesc<" + shape(rows, cols, t) + ", " + sl + ", #smem>";
      s +=
          "    %" + name + "s = ttg.local_alloc %" + name + "t : (" + ty + "#blk>) -> " + md + "\n";
      operands +=
          "    %" + name + "d = ttg.local_load %" + name + "s : " + md + " -> " + ty + dl + ">\n";
    };
    operand("a", m, k, aShared, "#sa", "#da");
    operand("b", k, n, bShared, "#sb", "#db");
    const std::string c = acc(), accTy = "tensor<" + shape(m, n, c) + ", #mma>";
    s += "    %z = arith.constant dense<" + std::string(c == "i32" ? "0" : "0.0") + "> : " + accTy +
         "\n";
    s += operands;
    s += "    %d = tt.dot %ad, %bd, %z : tensor<" + shape(m, k, t) + ", #da> * tensor<" +
         shape(k, n, t) + ", #db> -> " + accTy + "\n";
    s += tile("c", "c", c, m, n, "#mma");
    s += "    tt.store %cptr, %d : tensor<" + shape(m, n, "!tt.ptr<" + c + ">") + ", #mma>\n";
    s += "    tt.return\n  }\n}\n";
    return s;
  }

  /// The bytes of the small integers `values` in this dot's element type.
  std::vector<uint8_t> encode(const std::vector<int> &values) const;
};

/// The bytes of the integers `values` stored as `type` (a float type holds them exactly when
/// they are small) as tt.store writes them.
inline std::vector<uint8_t> encodeAs(const std::string &type, const std::vector<int> &values) {
  const ir::ScalarKind kind = *ir::scalarKindFromName(type);
  const size_t w = size_t(ir::byteWidth(kind));
  std::vector<uint8_t> out(values.size() * w);
  for (size_t i = 0; i < values.size(); ++i) {
    const uint64_t bits = ir::isFloat(kind) ? ir::floatBits(double(values[i]), kind)
                                            : uint64_t(int64_t(values[i])); // two's complement
    std::memcpy(&out[i * w], &bits, w);
  }
  return out;
}

inline std::vector<uint8_t> RandomDot::encode(const std::vector<int> &values) const {
  return encodeAs(elem, values);
}

inline std::string randomSwizzle() {
  return "vec = " + std::to_string(*rc::gen::element(1, 2, 4, 8)) +
         ", perPhase = " + std::to_string(*rc::gen::element(1, 2, 4)) +
         ", maxPhase = " + std::to_string(*rc::gen::element(1, 2, 4, 8)) +
         ", order = " + *rc::gen::element(std::string("[1, 0]"), std::string("[0, 1]"));
}

/// A random dot (call inside a rapidcheck property): 1 to 8 warps, M and N up to 128, K of 1 to
/// 8 slice steps, kWidth 1, 2 or 4 fragment words' elements, each operand from registers or
/// shared memory (at least one shared).
inline RandomDot randomDot() {
  RandomDot d;
  d.elem = *rc::gen::element(std::string("f16"), std::string("bf16"), std::string("f32"),
                             std::string("i8"));
  d.kWidth = d.wordElems() * *rc::gen::element(1, 1, 2, 4);
  d.warpsM = *rc::gen::element(1, 2, 4);
  d.warpsN = *rc::gen::element(1, 2);
  d.m = 16 * d.warpsM * *rc::gen::element(1, 2);
  d.n = 8 * d.warpsN * *rc::gen::element(1, 2, 4);
  d.k = d.sliceStep() * *rc::gen::element(1, 2, 4, 8);
  d.aShared = *rc::gen::arbitrary<bool>();
  d.bShared = !d.aShared || *rc::gen::arbitrary<bool>();
  d.aSwizzle = randomSwizzle();
  d.bSwizzle = randomSwizzle();
  return d;
}

/// Small integers in [-3, 3] for a rows x cols operand.
inline std::vector<int> smallIntegers(size_t count) {
  return *rc::gen::container<std::vector<int>>(count, rc::gen::inRange(-3, 4));
}

} // namespace linlayout::lower::testing

#include "TritonMatrix.h"

#include "linlayout/ir/Builder.h"
#include "linlayout/ir/Verifier.h"

#include <cassert>

namespace linlayout::gpukernels {

using namespace linlayout::ir;

namespace {

using I64s = std::vector<int64_t>;

LayoutSpec blockedOf(I64s spt, I64s tpw, I64s wpc, I64s order) {
  auto s = BlockedSpec::make(std::move(spt), std::move(tpw), std::move(wpc), std::move(order));
  assert(s.ok() && "invalid blocked layout in the matrix");
  return *s;
}

LayoutSpec mmaOf(int major, int minor, I64s warps, I64s instr) {
  auto s = NvidiaMmaSpec::make(major, minor, std::move(warps), std::move(instr));
  assert(s.ok() && "invalid mma layout in the matrix");
  return *s;
}

LayoutSpec dotOf(int op, const LayoutSpec &parent, int kWidth) {
  auto s = DotOperandSpec::make(op, parent, kWidth);
  assert(s.ok() && "invalid dot operand in the matrix");
  return *s;
}

LayoutSpec sliceOf(int dim, const LayoutSpec &parent) {
  auto s = SliceSpec::make(dim, parent);
  assert(s.ok() && "invalid slice in the matrix");
  return *s;
}

LayoutSpec swizzledOf(int64_t vec, int64_t perPhase, int64_t maxPhase, I64s order) {
  auto s = SwizzledSharedSpec::make(vec, perPhase, maxPhase, std::move(order));
  assert(s.ok() && "invalid shared layout in the matrix");
  return *s;
}

// The eleven 2-D layouts of test_convert2d_layouts, in the test's order.
std::vector<LayoutSpec> layouts2d() {
  LayoutSpec v3 = mmaOf(3, 0, {4, 1}, {16, 32, 16});
  LayoutSpec v2 = mmaOf(2, 0, {4, 1}, {16, 8});
  return {
      blockedOf({1, 1}, {32, 1}, {2, 2}, {0, 1}),
      blockedOf({1, 16}, {8, 4}, {4, 1}, {1, 0}),
      v3,
      dotOf(0, v3, 2),
      dotOf(0, v3, 1),
      v2,
      dotOf(1, v2, 2),
      dotOf(0, mmaOf(2, 0, {2, 2}, {16, 8}), 2),
      dotOf(0, v2, 8),
      sliceOf(1, dotOf(0, mmaOf(3, 0, {4, 1, 1}, {16, 32, 16}), 2)),
      sliceOf(1, dotOf(1, mmaOf(2, 0, {4, 1, 1}, {1, 16, 8}), 2)),
  };
}

// The shared layouts the tile may go through first (none, then the four swizzled ones).
std::vector<std::optional<LayoutSpec>> intermediates() {
  return {std::nullopt, swizzledOf(1, 1, 1, {0, 1}), swizzledOf(1, 1, 1, {1, 0}),
          swizzledOf(4, 2, 4, {1, 0}), swizzledOf(2, 2, 4, {1, 0})};
}

// test_convert_mma2mma_layouts' NVIDIA pairs, flattened: pair p is (2p, 2p + 1).
std::vector<LayoutSpec> mmaPairs() {
  return {
      mmaOf(2, 0, {1, 4}, {16, 8}),       mmaOf(2, 0, {4, 1}, {16, 8}),
      mmaOf(2, 0, {2, 8}, {16, 8}),       mmaOf(2, 0, {8, 2}, {16, 8}),
      mmaOf(2, 1, {1, 4}, {16, 8}),       mmaOf(2, 1, {4, 1}, {16, 8}),
      mmaOf(2, 1, {2, 8}, {16, 8}),       mmaOf(2, 1, {8, 2}, {16, 8}),
      mmaOf(3, 0, {4, 1}, {16, 32, 32}),  mmaOf(3, 0, {4, 1}, {16, 64, 32}),
      mmaOf(3, 0, {1, 4}, {16, 32, 32}),  mmaOf(3, 0, {4, 1}, {16, 64, 32}),
      mmaOf(3, 0, {2, 8}, {16, 64, 32}),  mmaOf(3, 0, {8, 2}, {16, 32, 32}),
      mmaOf(3, 0, {4, 1}, {16, 128, 16}), mmaOf(3, 0, {4, 1}, {16, 64, 16}),
  };
}

// test_convert_warp_local_layouts' one-warp blocked layouts: size per thread and lanes.
struct WarpLocal {
  I64s spt, tpw;
};
std::vector<WarpLocal> warpLocals() {
  std::vector<WarpLocal> out;
  for (int64_t cols = 1; cols <= 32; cols *= 2)
    out.push_back({{1, 1}, {32 / cols, cols}});
  out.push_back({{32, 1}, {1, 32}});
  out.push_back({{16, 1}, {2, 16}});
  for (int64_t cols = 1; cols <= 32; cols *= 2)
    out.push_back({{1, 4}, {32 / cols, cols}});
  return out;
}

// test_convert1d_layouts' parents (each sliced along dim 0 or 1).
std::vector<LayoutSpec> layouts1d() {
  LayoutSpec v3 = mmaOf(3, 0, {4, 1}, {16, 32, 16});
  return {
      blockedOf({1, 4}, {1, 32}, {4, 1}, {1, 0}),
      blockedOf({1, 4}, {1, 32}, {2, 2}, {1, 0}),
      v3,
      mmaOf(2, 0, {4, 1}, {16, 8}),
      dotOf(0, v3, 2),
      dotOf(0, mmaOf(2, 0, {2, 2}, {16, 8}), 2),
  };
}

std::string shapeText(const I64s &shape) {
  std::string s;
  for (int64_t d : shape)
    s += (s.empty() ? "" : "x") + std::to_string(d);
  return s;
}

int64_t product(const I64s &v) {
  int64_t p = 1;
  for (int64_t x : v)
    p *= x;
  return p;
}

int warpsOf(const LayoutSpec &l) {
  if (const auto *m = l.as<NvidiaMmaSpec>())
    return int(product(m->warpsPerCta()));
  if (const auto *b = l.as<BlockedSpec>())
    return int(product(b->warpsPerCta()));
  return 4;
}

MatrixCase makeCase(std::string suite, const std::string &pair, const std::string &via,
                    LayoutSpec src, LayoutSpec dst, std::optional<LayoutSpec> shared, I64s shape,
                    ScalarKind elem, int warps) {
  MatrixCase c{suite + "/" + pair + "/" + via + "/" + shapeText(shape) + "/" +
                   std::string(name(elem)),
               suite,
               std::move(src),
               std::move(dst),
               std::move(shared),
               std::move(shape),
               elem,
               warps};
  return c;
}

} // namespace

std::vector<MatrixCase> tritonMatrix() {
  std::vector<MatrixCase> out;
  const ScalarKind extra[] = {ScalarKind::F32, ScalarKind::I8, ScalarKind::I64};

  // convert2d: every ordered pair of distinct layouts, f16 through each intermediate, the extra
  // types directly.
  std::vector<LayoutSpec> l2 = layouts2d();
  std::vector<std::optional<LayoutSpec>> via = intermediates();
  const I64s shapes2d[] = {{64, 1}, {64, 64}, {64, 128}, {1, 64}};
  for (size_t s = 0; s < l2.size(); ++s)
    for (size_t d = 0; d < l2.size(); ++d) {
      if (s == d)
        continue;
      std::string pair = std::to_string(s) + "-" + std::to_string(d);
      for (const I64s &shape : shapes2d) {
        for (size_t v = 0; v < via.size(); ++v)
          out.push_back(makeCase("convert2d", pair, v ? "swizzled" + std::to_string(v) : "none",
                                 l2[s], l2[d], via[v], shape, ScalarKind::F16, 4));
        for (ScalarKind e : extra)
          out.push_back(
              makeCase("convert2d", pair, "none", l2[s], l2[d], std::nullopt, shape, e, 4));
      }
    }

  // mma2mma: each pair both ways, with the source's warps.
  std::vector<LayoutSpec> mp = mmaPairs();
  const I64s shapesMma[] = {{16, 16}, {64, 1}, {1, 64}, {64, 64}, {128, 128}, {256, 256}};
  for (size_t p = 0; p + 1 < mp.size(); p += 2)
    for (int dir = 0; dir < 2; ++dir) {
      size_t s = p + size_t(dir), d = p + size_t(1 - dir);
      std::string pair = std::to_string(s) + "-" + std::to_string(d);
      for (const I64s &shape : shapesMma)
        for (ScalarKind e : {ScalarKind::F16, ScalarKind::F32, ScalarKind::I8, ScalarKind::I64})
          out.push_back(makeCase("mma2mma", pair, "none", mp[s], mp[d], std::nullopt, shape, e,
                                 warpsOf(mp[s])));
    }

  // warp_local: the pairs the test keeps (lanes along a dim halve or double, or stay).
  std::vector<WarpLocal> wl = warpLocals();
  for (size_t s = 0; s < wl.size(); ++s)
    for (size_t d = 0; d < wl.size(); ++d) {
      if (s == d)
        continue;
      int64_t a = wl[s].tpw[0] / wl[d].tpw[0], b = wl[s].tpw[1] / wl[d].tpw[1];
      if ((a != 0 ? a : b) > 2)
        continue;
      std::string pair = std::to_string(s) + "-" + std::to_string(d);
      LayoutSpec src = blockedOf(wl[s].spt, wl[s].tpw, {1, 1}, {1, 0});
      LayoutSpec dst = blockedOf(wl[d].spt, wl[d].tpw, {1, 1}, {1, 0});
      for (const I64s &shape : {I64s{32, 32}, I64s{64, 64}})
        for (ScalarKind e : {ScalarKind::F16, ScalarKind::F32, ScalarKind::I8, ScalarKind::I64})
          out.push_back(makeCase("warp_local", pair, "none", src, dst, std::nullopt, shape, e, 1));
    }

  // convert1d: slices of every parent along either dim, to every other.
  std::vector<LayoutSpec> l1 = layouts1d();
  for (int64_t m : {64, 128, 256})
    for (size_t s = 0; s < l1.size(); ++s)
      for (size_t d = 0; d < l1.size(); ++d)
        for (int sd = 0; sd < 2; ++sd)
          for (int dd = 0; dd < 2; ++dd) {
            std::string pair = std::to_string(s) + "." + std::to_string(sd) + "-" +
                               std::to_string(d) + "." + std::to_string(dd);
            for (ScalarKind e : {ScalarKind::I32, ScalarKind::I1, ScalarKind::F32, ScalarKind::I8,
                                 ScalarKind::I64})
              out.push_back(makeCase("convert1d", pair, "none", sliceOf(sd, l1[s]),
                                     sliceOf(dd, l1[d]), std::nullopt, {m}, e, 4));
          }

  // The warp-shuffle regression: two linear layouts of a 2x8 tile in one warp.
  auto linear = [](BasisList reg, BasisList lane) -> LayoutSpec {
    auto s = LinearSpec::make(std::move(reg), std::move(lane), {}, {}, {2, 8});
    assert(s.ok() && "invalid linear layout in the matrix");
    return *s;
  };
  LayoutSpec wsSrc = linear({{0, 1}, {0, 2}, {0, 4}}, {{1, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}});
  LayoutSpec wsDst = linear({{1, 0}, {0, 4}}, {{0, 0}, {0, 0}, {0, 1}, {0, 2}, {0, 0}});
  for (ScalarKind e : {ScalarKind::I16, ScalarKind::F32, ScalarKind::I8, ScalarKind::I64})
    out.push_back(
        makeCase("warp_shuffle", "0-1", "none", wsSrc, wsDst, std::nullopt, {2, 8}, e, 1));
  return out;
}

std::vector<MatrixCase> tritonMatrixSample(size_t stride, size_t first) {
  std::vector<MatrixCase> all = tritonMatrix(), out;
  for (size_t i = 0; i < all.size(); ++i)
    if (i % stride == first % stride || all[i].suite == "warp_shuffle")
      out.push_back(std::move(all[i]));
  return out;
}

ScalarKind matrixOutputType(const MatrixCase &c) {
  return c.elem == ScalarKind::I1 ? ScalarKind::I32 : c.elem;
}

Expected<Module> matrixKernel(const MatrixCase &c) {
  Module m;
  m.numWarps = c.warps;
  m.target = "cuda:90";
  Builder b(m);
  LayoutId ls = b.layout(c.src), ld = b.layout(c.dst);
  const bool isBool = c.elem == ScalarKind::I1;
  // Booleans live in memory as bytes, read as bytes and tested against zero (as Triton loads
  // them); the test stores them as int32.
  ScalarKind inElem = isBool ? ScalarKind::I8 : c.elem;
  Type args[] = {Type::pointer(inElem), Type::pointer(matrixOutputType(c))};
  ArgHints aligned;
  aligned.divisibility = 16;
  ArgHints hints[] = {aligned, aligned};
  b.beginFunction("convert", args, hints);
  Type i32 = Type::scalar(ScalarKind::I32);
  // Row-major offsets of the tile in layout l, from slices of l, as Triton's test makes them.
  auto offsets = [&](LayoutId l, const LayoutSpec &spec) -> Expected<ValueId> {
    if (c.shape.size() == 1)
      return b.makeRange(0, c.shape[0], l);
    int64_t rows = c.shape[0], cols = c.shape[1];
    LL_ASSIGN_OR_RETURN(SliceSpec s1, SliceSpec::make(1, spec));
    LL_ASSIGN_OR_RETURN(SliceSpec s0, SliceSpec::make(0, spec));
    LayoutId l1 = b.layout(s1), l0 = b.layout(s0);
    ValueId r = b.expandDims(b.makeRange(0, rows, l1), 1, l);
    r = b.binary(OpKind::MulI, r, b.splat(b.constantInt(cols, i32), {rows, 1}, l));
    ValueId col = b.expandDims(b.makeRange(0, cols, l0), 0, l);
    return b.binary(OpKind::AddI, b.broadcast(r, c.shape), b.broadcast(col, c.shape));
  };
  LL_ASSIGN_OR_RETURN(ValueId os, offsets(ls, c.src));
  ValueId x = b.load(b.addPtr(b.splat(b.arg(0), c.shape, ls), os));
  if (isBool)
    x = b.cmp(CmpPredicate::Ne, x, b.splat(b.constantInt(0, Type::scalar(inElem)), c.shape, ls));
  if (c.intermediate) {
    LayoutId lm = b.layout(*c.intermediate);
    ValueId tile = b.localAlloc(Type::memDesc(c.shape, c.elem, lm, /*isMutable=*/false), x);
    x = b.localLoad(tile, ls);
  }
  ValueId y = b.convertLayout(x, ld);
  if (isBool)
    y = b.cast(OpKind::ExtUI, y, ScalarKind::I32);
  LL_ASSIGN_OR_RETURN(ValueId od, offsets(ld, c.dst));
  b.store(b.addPtr(b.splat(b.arg(1), c.shape, ld), od), y);
  b.ret();
  LL_TRY_STATUS(b.endFunction());
  LL_TRY_STATUS(verify(m));
  return m;
}

} // namespace linlayout::gpukernels

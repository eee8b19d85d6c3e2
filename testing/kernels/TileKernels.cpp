#include "TileKernels.h"

#include "linlayout/ir/Builder.h"
#include "linlayout/ir/InsertFences.h"
#include "linlayout/ir/Parser.h"
#include "linlayout/ir/Verifier.h"
#include "linlayout/ir/Walk.h"

#include <algorithm>
#include <cassert>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

namespace linlayout::gpukernels {

using namespace linlayout::ir;

LayoutSpec blocked(std::vector<int64_t> spt, std::vector<int64_t> tpw, std::vector<int64_t> wpc,
                   std::vector<int64_t> order) {
  auto s = BlockedSpec::make(std::move(spt), std::move(tpw), std::move(wpc), std::move(order));
  assert(s.ok() && "invalid blocked layout in test data");
  return *s;
}

LayoutSpec mma(int version, std::vector<int64_t> warps, std::vector<int64_t> instr) {
  auto s = NvidiaMmaSpec::make(version, 0, std::move(warps), std::move(instr));
  assert(s.ok() && "invalid mma layout in test data");
  return *s;
}

std::vector<NamedPair> referencePairs() {
  LayoutSpec row = blocked({1, 8}, {4, 8}, {4, 1}, {1, 0});
  LayoutSpec row4 = blocked({1, 4}, {4, 8}, {4, 1}, {1, 0});
  LayoutSpec col4 = blocked({4, 1}, {8, 4}, {1, 4}, {0, 1});
  LayoutSpec lanePerm = blocked({1, 4}, {8, 4}, {4, 1}, {1, 0});
  LayoutSpec regPerm = blocked({2, 2}, {8, 4}, {4, 1}, {1, 0});
  LayoutSpec regPerm2 = blocked({2, 2}, {8, 4}, {4, 1}, {0, 1});
  LayoutSpec mma2 = mma(2, {2, 2}, {16, 8});
  LayoutSpec mma3 = mma(3, {4, 1}, {16, 128, 16});
  return {{"transpose_blocked", row4, col4},    {"lane_permute", row4, lanePerm},
          {"register_only", regPerm, regPerm2}, {"mma2_to_blocked", mma2, row},
          {"mma3_to_blocked", mma3, row},       {"mma2_to_transposed", mma2, col4}};
}

namespace {

Module newModule(int warps) {
  Module m;
  m.numWarps = warps;
  m.target = "cuda:90";
  return m;
}

// The kernels carry no vector widths: lower/ uses the widest access that is safe for every
// thread (ir::accessWidth), which the access-width pass would write too.
Expected<Module> finish(Module &m, Builder &b) {
  b.ret();
  LL_TRY_STATUS(b.endFunction());
  LL_TRY_STATUS(verify(m));
  return std::move(m);
}

ArgHints aligned() {
  ArgHints h;
  h.divisibility = 16;
  return h;
}

Type i32() { return Type::scalar(ScalarKind::I32); }

// base + i * rowStride + j * colStride over a rows x cols tile in layout `l` (i32 tensor).
// rowStride / colStride of kNoValue mean 1.
ValueId tileOffsets(Builder &b, LayoutId l, const LayoutSpec &spec, int64_t rows, int64_t cols,
                    ValueId rowStride, ValueId colStride, ValueId base = kNoValue, int warps = 4) {
  // A linear layout whose bases mix rows and columns has no thread-local broadcast from its
  // slices: build the offsets in a blocked layout and convert them (another planned conversion,
  // so a wrong plan still shows as a wrong result).
  if (spec.kind() == LayoutKind::Linear) {
    int64_t tc = std::min<int64_t>(32, cols);
    LayoutSpec helper = blocked({1, 1}, {32 / tc, tc}, {warps, 1}, {1, 0});
    LayoutId h = b.layout(helper);
    return b.convertLayout(tileOffsets(b, h, helper, rows, cols, rowStride, colStride, base, warps),
                           l);
  }
  LayoutId s1 = b.layout(SliceSpec::make(1, spec).value());
  LayoutId s0 = b.layout(SliceSpec::make(0, spec).value());
  ValueId r = b.expandDims(b.makeRange(0, rows, s1), 1, l);
  if (rowStride != kNoValue)
    r = b.binary(OpKind::MulI, r, b.splat(rowStride, {rows, 1}, l));
  ValueId c = b.expandDims(b.makeRange(0, cols, s0), 0, l);
  if (colStride != kNoValue)
    c = b.binary(OpKind::MulI, c, b.splat(colStride, {1, cols}, l));
  ValueId offs = b.binary(OpKind::AddI, b.broadcast(r, {rows, cols}), b.broadcast(c, {rows, cols}));
  if (base != kNoValue)
    offs = b.binary(OpKind::AddI, offs, b.splat(base, {rows, cols}, l));
  return offs;
}

ValueId one(Builder &b, ScalarKind elem) {
  Type t = Type::scalar(elem);
  return isFloat(elem) ? b.constantFloat(1.0, t) : b.constantInt(1, t);
}

} // namespace

Expected<Module> memcpy1d(ScalarKind elem, int64_t block, int64_t spt, int warps) {
  Module m = newModule(warps);
  Builder b(m);
  LayoutId l = b.layout(blocked({spt}, {32}, {warps}, {0}));
  Type args[] = {Type::pointer(elem), Type::pointer(elem), i32()};
  ArgHints hints[] = {aligned(), aligned(), aligned()};
  b.beginFunction("memcpy_1d", args, hints);
  ValueId start = b.binary(OpKind::MulI, b.programId(0), b.constantInt(block, i32()));
  ValueId offs = b.binary(OpKind::AddI, b.splat(start, {block}, l), b.makeRange(0, block, l));
  ValueId mask = b.cmp(CmpPredicate::Slt, offs, b.splat(b.arg(2), {block}, l));
  ValueId x = b.load(b.addPtr(b.splat(b.arg(0), {block}, l), offs), mask);
  b.store(b.addPtr(b.splat(b.arg(1), {block}, l), offs), x, mask);
  return finish(m, b);
}

Expected<Module> memcpy2d(ScalarKind elem, int64_t rows, int64_t cols, const LayoutSpec &layout,
                          int warps) {
  Module m = newModule(warps);
  Builder b(m);
  LayoutId l = b.layout(layout);
  Type args[] = {Type::pointer(elem), Type::pointer(elem), i32()};
  ArgHints hints[] = {aligned(), aligned(), aligned()};
  b.beginFunction("memcpy_2d", args, hints);
  // Tile (i, j) starts at i * rows * stride + j * cols.
  ValueId rowBase = b.binary(OpKind::MulI, b.programId(0), b.constantInt(rows, i32()));
  ValueId base = b.binary(OpKind::AddI, b.binary(OpKind::MulI, rowBase, b.arg(2)),
                          b.binary(OpKind::MulI, b.programId(1), b.constantInt(cols, i32())));
  ValueId offs = tileOffsets(b, l, layout, rows, cols, b.arg(2), kNoValue, base, warps);
  ValueId x = b.load(b.addPtr(b.splat(b.arg(0), {rows, cols}, l), offs));
  b.store(b.addPtr(b.splat(b.arg(1), {rows, cols}, l), offs), x);
  return finish(m, b);
}

Expected<Module> copy2dInOut(ScalarKind elem, int64_t xb, int64_t yb, const LayoutSpec &lin,
                             const LayoutSpec &lout, int warps) {
  Module m = newModule(warps);
  Builder b(m);
  LayoutId li = b.layout(lin), lo = b.layout(lout);
  Type args[] = {
      Type::pointer(elem), Type::pointer(elem), i32(), i32(), i32(), i32(), i32(), i32()};
  // Like Triton, the kernel is specialised for what the call passes: the unit strides (ysi, xso)
  // are constants, the other integers are multiples of 16.
  ArgHints hints[] = {aligned(), aligned(),  aligned(),  aligned(),
                      aligned(), ArgHints{}, ArgHints{}, aligned()};
  b.beginFunction("copy_2d_inout", args, hints);
  ValueId sx = b.binary(OpKind::MulI, b.programId(0), b.constantInt(xb, i32()));
  ValueId sy = b.binary(OpKind::MulI, b.programId(1), b.constantInt(yb, i32()));
  // Offsets and mask of the tile in one layout: (sx + i) * xs + (sy + j) * ys, i < xn, j < yn.
  auto side = [&](LayoutId l, const LayoutSpec &spec, ValueId xs, ValueId ys) {
    LayoutId s1 = b.layout(SliceSpec::make(1, spec).value());
    LayoutId s0 = b.layout(SliceSpec::make(0, spec).value());
    ValueId ix = b.binary(OpKind::AddI, b.splat(sx, {xb}, s1), b.makeRange(0, xb, s1));
    ValueId iy = b.binary(OpKind::AddI, b.splat(sy, {yb}, s0), b.makeRange(0, yb, s0));
    ValueId ix2 = b.expandDims(ix, 1, l), iy2 = b.expandDims(iy, 0, l);
    ValueId mx = b.cmp(CmpPredicate::Slt, ix2, b.splat(b.arg(2), {xb, 1}, l));
    ValueId my = b.cmp(CmpPredicate::Slt, iy2, b.splat(b.arg(3), {1, yb}, l));
    ValueId mask = b.binary(OpKind::AndI, b.broadcast(mx, {xb, yb}), b.broadcast(my, {xb, yb}));
    ValueId ox = b.binary(OpKind::MulI, ix2, b.splat(xs, {xb, 1}, l));
    ValueId oy = b.binary(OpKind::MulI, iy2, b.splat(ys, {1, yb}, l));
    ValueId offs = b.binary(OpKind::AddI, b.broadcast(ox, {xb, yb}), b.broadcast(oy, {xb, yb}));
    return std::pair{mask, offs};
  };
  ValueId unit = b.constantInt(1, i32());
  auto [mi, oi] = side(li, lin, b.arg(4), unit);
  auto [mo, oo] = side(lo, lout, unit, b.arg(7));
  ValueId v = b.load(b.addPtr(b.splat(b.arg(0), {xb, yb}, li), oi), mi);
  v = b.convertLayout(v, lo);
  b.store(b.addPtr(b.splat(b.arg(1), {xb, yb}, lo), oo), v, mo);
  return finish(m, b);
}

Expected<Module> convertCheck(ScalarKind elem, int64_t rows, int64_t cols, const LayoutSpec &src,
                              const LayoutSpec &dst, int warps) {
  Module m = newModule(warps);
  Builder b(m);
  LayoutId ls = b.layout(src), ld = b.layout(dst);
  Type args[] = {Type::pointer(elem), Type::pointer(elem), Type::pointer(elem)};
  ArgHints hints[] = {aligned(), aligned(), aligned()};
  b.beginFunction("convert_check", args, hints);
  ValueId base = b.binary(OpKind::MulI, b.programId(0), b.constantInt(rows * cols, i32()));
  ValueId n = b.constantInt(cols, i32());
  ValueId os = tileOffsets(b, ls, src, rows, cols, n, kNoValue, base, warps);
  ValueId od = tileOffsets(b, ld, dst, rows, cols, n, kNoValue, base, warps);
  ValueId x = b.load(b.addPtr(b.splat(b.arg(0), {rows, cols}, ls), os));
  ValueId y = b.convertLayout(x, ld);
  b.store(b.addPtr(b.splat(b.arg(1), {rows, cols}, ld), od), y);
  ValueId y1 = b.binary(isFloat(elem) ? OpKind::AddF : OpKind::AddI, y,
                        b.splat(one(b, elem), {rows, cols}, ld));
  ValueId z = b.convertLayout(y1, ls);
  b.store(b.addPtr(b.splat(b.arg(2), {rows, cols}, ls), os), z);
  return finish(m, b);
}

Expected<Module> sharedTrip(ScalarKind elem, int64_t rows, int64_t cols, const LayoutSpec &src,
                            const LayoutSpec &shared, const LayoutSpec &dst, int warps) {
  Module m = newModule(warps);
  Builder b(m);
  LayoutId ls = b.layout(src), ld = b.layout(dst), lsh = b.layout(shared);
  Type args[] = {Type::pointer(elem), Type::pointer(elem), Type::pointer(elem),
                 Type::pointer(elem)};
  ArgHints hints[] = {aligned(), aligned(), aligned(), aligned()};
  b.beginFunction("shared_trip", args, hints);
  ValueId base = b.binary(OpKind::MulI, b.programId(0), b.constantInt(rows * cols, i32()));
  ValueId n = b.constantInt(cols, i32());
  ValueId os = tileOffsets(b, ls, src, rows, cols, n, kNoValue, base, warps);
  ValueId od = tileOffsets(b, ld, dst, rows, cols, n, kNoValue, base, warps);
  ValueId x = b.load(b.addPtr(b.splat(b.arg(0), {rows, cols}, ls), os));
  ValueId tile = b.localAlloc(Type::memDesc({rows, cols}, elem, lsh, /*isMutable=*/false), x);
  b.store(b.addPtr(b.splat(b.arg(1), {rows, cols}, ld), od), b.localLoad(tile, ld));
  ValueId ring = b.localAlloc(Type::memDesc({2, rows, cols}, elem, lsh));
  ValueId slot = b.memDescIndex(ring, b.constantInt(1, i32()));
  b.localStore(b.binary(OpKind::AddI, x, b.splat(one(b, elem), {rows, cols}, ls)), slot);
  b.store(b.addPtr(b.splat(b.arg(2), {rows, cols}, ld), od), b.localLoad(slot, ld));
  int64_t half = rows / 2;
  ValueId view = b.memDescSubslice(tile, {half, 0}, {half, cols});
  ValueId base2 = b.binary(OpKind::MulI, b.programId(0), b.constantInt(half * cols, i32()));
  ValueId oh = tileOffsets(b, ld, dst, half, cols, n, kNoValue, base2, warps);
  b.store(b.addPtr(b.splat(b.arg(3), {half, cols}, ld), oh), b.localLoad(view, ld));
  return finish(m, b);
}

Expected<Module> convertLoop(ScalarKind elem, int64_t rows, int64_t cols, const LayoutSpec &src,
                             const LayoutSpec &dst, int warps, bool storeDst) {
  Module m = newModule(warps);
  Builder b(m);
  LayoutId ls = b.layout(src), ld = b.layout(dst);
  Type args[] = {Type::pointer(elem), Type::pointer(elem), i32()};
  ArgHints hints[] = {aligned(), aligned(), ArgHints{}};
  b.beginFunction("convert_loop", args, hints);
  ValueId base = b.binary(OpKind::MulI, b.programId(0), b.constantInt(rows * cols, i32()));
  ValueId os =
      tileOffsets(b, ls, src, rows, cols, b.constantInt(cols, i32()), kNoValue, base, warps);
  ValueId x = b.load(b.addPtr(b.splat(b.arg(0), {rows, cols}, ls), os));
  ValueId inc = b.splat(one(b, elem), {rows, cols}, ld);
  std::vector<ValueId> inits{x};
  if (storeDst)
    inits.push_back(b.convertLayout(x, ld));
  ForScope loop = b.beginFor(b.constantInt(0, i32()), b.arg(2), b.constantInt(1, i32()), inits);
  ValueId y = b.convertLayout(loop.iterArgs[0], ld);
  y = b.binary(isFloat(elem) ? OpKind::AddF : OpKind::AddI, y, inc);
  std::vector<ValueId> yields{b.convertLayout(y, ls)};
  if (storeDst)
    yields.push_back(y);
  std::vector<ValueId> out = b.endFor(yields);
  b.store(b.addPtr(b.splat(b.arg(1), {rows, cols}, ls), os), out.at(0));
  if (storeDst) {
    ValueId od =
        tileOffsets(b, ld, dst, rows, cols, b.constantInt(cols, i32()), kNoValue, base, warps);
    b.store(b.addPtr(b.splat(b.arg(1), {rows, cols}, ld), od), out.at(1));
  }
  return finish(m, b);
}

std::string sourceDir(const std::string &compiledIn) {
  if (const char *env = std::getenv("LINLAYOUT_SOURCE_DIR"))
    return env;
  if (std::ifstream("examples/matmul.tir"))
    return ".";
  return compiledIn;
}

Expected<std::string> exampleText(const std::string &file, const std::string &sourceDir) {
  std::ifstream in(sourceDir + "/examples/" + file);
  if (!in)
    return makeError("cannot read examples/" + file + " under " + sourceDir);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> exampleFilesStartingWith(const std::string &prefix,
                                                  const std::string &sourceDir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto &e : std::filesystem::directory_iterator(sourceDir + "/examples", ec)) {
    std::string f = e.path().filename().string();
    if (f.rfind(prefix, 0) == 0 && f.ends_with(".tir"))
      files.push_back(f);
  }
  std::sort(files.begin(), files.end());
  return files;
}

Expected<Module> exampleKernel(const std::string &file, const std::string &sourceDir) {
  LL_ASSIGN_OR_RETURN(std::string text, exampleText(file, sourceDir));
  LL_ASSIGN_OR_RETURN(Module m, parseModule(text, file));
  LL_TRY_STATUS(verify(m));
  return m;
}

int attentionHeadDim(const std::string &name) {
  std::string part;
  std::stringstream parts(name.substr(0, name.find('.')));
  while (std::getline(parts, part, '_'))
    if (part.size() > 1 && part[0] == 'd' &&
        std::all_of(part.begin() + 1, part.end(), [](char c) { return c >= '0' && c <= '9'; }))
      return std::stoi(part.substr(1));
  return 0;
}

Expected<Module> matmulKernel(ScalarKind elem, const std::string &sourceDir,
                              const std::string &file) {
  LL_ASSIGN_OR_RETURN(std::string text, exampleText(file, sourceDir));
  if (elem != ScalarKind::F16) {
    std::string to(name(elem));
    for (std::string from : {"xf16", "<f16>"}) {
      std::string repl = from[0] == 'x' ? "x" + to : "<" + to + ">";
      for (size_t p = text.find(from); p != std::string::npos; p = text.find(from, p + repl.size()))
        text.replace(p, from.size(), repl);
    }
    if (bitWidth(elem) == 32)
      for (size_t p = text.find("kWidth = 2"); p != std::string::npos;
           p = text.find("kWidth = 2", p))
        text.replace(p, 10, "kWidth = 1");
  }
  LL_ASSIGN_OR_RETURN(Module m, parseModule(text, file));
  LL_TRY_STATUS(verify(m));
  return m;
}

namespace {

// A random invertible F2 map of n bits: a permutation followed by random column additions.
std::vector<uint64_t> randomInvertible(std::mt19937_64 &rng, int n) {
  std::vector<uint64_t> cols(n);
  for (int i = 0; i < n; ++i)
    cols[i] = uint64_t(1) << i;
  std::shuffle(cols.begin(), cols.end(), rng);
  for (int t = 0; t < 2 * n; ++t) {
    int i = int(rng() % n), j = int(rng() % n);
    if (i != j && rng() % 2)
      cols[i] ^= cols[j];
  }
  return cols;
}

// A random distributed linear layout of a (2^rowBits x 2^colBits) tile over 32 lanes and
// 2^warpBits warps. broadcast: 0 none, 1 one lane basis is zero, 2 one warp basis is zero (the
// registers take the bit that lane / warp gave up).
LayoutSpec randomLinearLayout(std::mt19937_64 &rng, int rowBits, int colBits, int warpBits,
                              int broadcast) {
  int n = rowBits + colBits;
  std::vector<uint64_t> cols = randomInvertible(rng, n);
  int laneBases = 5, warpBases = warpBits;
  int laneNonZero = laneBases - (broadcast == 1), warpNonZero = warpBases - (broadcast == 2);
  int regs = n - laneNonZero - warpNonZero;
  auto basis = [&](uint64_t v) {
    return std::vector<int64_t>{int64_t(v >> colBits), int64_t(v & ((uint64_t(1) << colBits) - 1))};
  };
  BasisList reg, lane, warp;
  size_t next = 0;
  for (int i = 0; i < regs; ++i)
    reg.push_back(basis(cols[next++]));
  int zeroLane = broadcast == 1 ? int(rng() % laneBases) : -1;
  for (int i = 0; i < laneBases; ++i)
    lane.push_back(i == zeroLane ? basis(0) : basis(cols[next++]));
  int zeroWarp = broadcast == 2 ? int(rng() % warpBases) : -1;
  for (int i = 0; i < warpBases; ++i)
    warp.push_back(i == zeroWarp ? basis(0) : basis(cols[next++]));
  auto spec = LinearSpec::make(reg, lane, warp, {}, {int64_t(1) << rowBits, int64_t(1) << colBits});
  assert(spec.ok() && "random linear layout must be valid");
  return *spec;
}

} // namespace

RandomPair randomPair(std::mt19937_64 &rng) {
  for (;;) {
    int warpBits = int(rng() % 3);
    // At most 2^6 registers per thread: 5 + warpBits .. 10 + warpBits tensor bits.
    int n = 5 + warpBits + int(rng() % 6);
    int rowBits = 1 + int(rng() % std::min(7, n - 1));
    int colBits = n - rowBits;
    if (colBits < 1 || colBits > 8)
      continue;
    auto broadcast = [&] { return warpBits ? int(rng() % 3) : int(rng() % 2); };
    LayoutSpec src = randomLinearLayout(rng, rowBits, colBits, warpBits, broadcast());
    LayoutSpec dst = randomLinearLayout(rng, rowBits, colBits, warpBits, broadcast());
    return RandomPair{src, dst, rowBits, colBits, warpBits};
  }
}

std::string WgmmaTileCase::name() const {
  return std::string(ir::name(elem)) + " " + std::to_string(m) + "x" + std::to_string(n) + "x" +
         std::to_string(k) + " n" + std::to_string(instrN) + " sw" + std::to_string(swizzle) +
         (aInRegs ? " A-regs" : " A-smem") + (bTransposed ? " B-kmajor" : " B-nmajor") + " w" +
         std::to_string(warps) + (nWarps2 ? "x2" : "") + (isAsync ? " async" : " sync") +
         (kViews ? " K-views" : "") + (useC ? (*useC ? " useC" : " !useC") : "");
}

namespace {

// Lines computing `%<p>` = base + row * cols + col over a rows x cols tile in #blocked.
std::string tilePointers(const std::string &p, const std::string &base, int64_t rows, int64_t cols,
                         const std::string &ptrElem) {
  std::string R = std::to_string(rows), C = std::to_string(cols);
  std::string t2 = "tensor<" + R + "x" + C + "xi32, #blocked>";
  std::string s;
  s += "    %" + p + "_r = tt.make_range {end = " + R + " : i32, start = 0 : i32} : tensor<" + R +
       "xi32, #ttg.slice<{dim = 1, parent = #blocked}>>\n";
  s += "    %" + p + "_c = tt.make_range {end = " + C + " : i32, start = 0 : i32} : tensor<" + C +
       "xi32, #ttg.slice<{dim = 0, parent = #blocked}>>\n";
  s += "    %" + p + "_r2 = tt.expand_dims %" + p + "_r {axis = 1 : i32} : tensor<" + R +
       "xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<" + R + "x1xi32, #blocked>\n";
  s += "    %" + p + "_c2 = tt.expand_dims %" + p + "_c {axis = 0 : i32} : tensor<" + C +
       "xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x" + C + "xi32, #blocked>\n";
  s += "    %" + p + "_ld = arith.constant dense<" + C + "> : tensor<" + R + "x1xi32, #blocked>\n";
  s += "    %" + p + "_rs = arith.muli %" + p + "_r2, %" + p + "_ld : tensor<" + R +
       "x1xi32, #blocked>\n";
  s += "    %" + p + "_rb = tt.broadcast %" + p + "_rs : tensor<" + R + "x1xi32, #blocked> -> " +
       t2 + "\n";
  s += "    %" + p + "_cb = tt.broadcast %" + p + "_c2 : tensor<1x" + C + "xi32, #blocked> -> " +
       t2 + "\n";
  s += "    %" + p + "_off = arith.addi %" + p + "_rb, %" + p + "_cb : " + t2 + "\n";
  std::string pt = "tensor<" + R + "x" + C + "x!tt.ptr<" + ptrElem + ">, #blocked>";
  s += "    %" + p + "_v = tt.splat %" + base + " : !tt.ptr<" + ptrElem + "> -> " + pt + "\n";
  s += "    %" + p + " = tt.addptr %" + p + "_v, %" + p + "_off : " + pt + ", " + t2 + "\n";
  return s;
}

} // namespace

Expected<Module> wgmmaTileKernel(const WgmmaTileCase &c) {
  std::string M = std::to_string(c.m), N = std::to_string(c.n), K = std::to_string(c.k);
  std::string e(name(c.elem));
  std::string warps = c.nWarps2 ? "[" + std::to_string(c.warps / 2) + ", 2]"
                                : "[" + std::to_string(c.warps) + ", 1]";
  std::string ta = "tensor<" + M + "x" + K + "x" + e + ", #blocked>";
  std::string tb = "tensor<" + K + "x" + N + "x" + e + ", #blocked>";
  std::string sa = "!ttg.memdesc<" + M + "x" + K + "x" + e + ", #sa, #smem>";
  std::string sb = "!ttg.memdesc<" + K + "x" + N + "x" + e + ", #sb, #smem>";
  const int bits = ir::bitWidth(c.elem); // 16, or 32 for tf32
  std::string da =
      "tensor<" + M + "x" + K + "x" + e +
      ", #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = " + std::to_string(32 / bits) + "}>>";
  std::string tc = "tensor<" + M + "x" + N + "xf32, #mma>";
  std::string tcb = "tensor<" + M + "x" + N + "xf32, #blocked>";
  std::string sw = std::to_string(c.swizzle);
  std::string t =
      "#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = "
      "[" +
      std::to_string(c.warps) +
      ", 1], order = [1, 0]}>\n"
      "#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = " +
      warps + ", instrShape = [16, " + std::to_string(c.instrN) + ", " +
      std::to_string(256 / bits) +
      "]}>\n"
      "#sa = #ttg.nvmma_shared<{swizzlingByteWidth = " +
      sw + ", transposed = false, elementBitWidth = " + std::to_string(bits) +
      "}>\n"
      "#sb = #ttg.nvmma_shared<{swizzlingByteWidth = " +
      sw + ", transposed = " + (c.bTransposed ? "true" : "false") +
      ", elementBitWidth = " + std::to_string(bits) +
      "}>\n"
      "#smem = #ttg.shared_memory\n"
      "module attributes {\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = " +
      std::to_string(c.warps) +
      " : i32, ttg.target = \"cuda:90\", \"ttg.threads-per-warp\" = 32 "
      ": i32} {\n"
      "  tt.func public @wgmma_tile(%a: !tt.ptr<" +
      e +
      "> {tt.divisibility = 16 : i32}, %b: "
      "!tt.ptr<" +
      e +
      "> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : "
      "i32}) {\n";
  t += tilePointers("pa", "a", c.m, c.k, e);
  t += tilePointers("pb", "b", c.k, c.n, e);
  t += tilePointers("pc", "c", c.m, c.n, "f32");
  t += "    %x = tt.load %pa : tensor<" + M + "x" + K + "x!tt.ptr<" + e + ">, #blocked>\n";
  t += "    %y = tt.load %pb : tensor<" + K + "x" + N + "x!tt.ptr<" + e + ">, #blocked>\n";
  if (c.aInRegs)
    t += "    %as = ttg.convert_layout %x : " + ta + " -> " + da + "\n";
  else
    t += "    %as = ttg.local_alloc %x : (" + ta + ") -> " + sa + "\n";
  t += "    %bs = ttg.local_alloc %y : (" + tb + ") -> " + sb + "\n";
  t += "    %z = arith.constant dense<" + std::string(c.useC ? "1.0" : "0.0") + "> : " + tc + "\n";
  // The flag goes on the first wgmma only: a later one adds to the first's result.
  std::string flag;
  if (c.useC) {
    t += "    %u = arith.constant " + std::string(*c.useC ? "true" : "false") + "\n";
    flag = ", %u";
  }
  const std::string async = std::string("{isAsync = ") + (c.isAsync ? "true" : "false") + "}";
  if (c.kViews) {
    // A's columns and B's rows in two halves: views of the tiles, one wgmma sequence each.
    std::string H = std::to_string(c.k / 2);
    std::string va = "!ttg.memdesc<" + M + "x" + H + "x" + e + ", #sa, #smem, " + M + "x" + K + ">";
    std::string vb = "!ttg.memdesc<" + H + "x" + N + "x" + e + ", #sb, #smem, " + K + "x" + N + ">";
    for (int h = 0; h < 2; ++h) {
      std::string i = std::to_string(h), at = std::to_string(h * c.k / 2);
      t += "    %as" + i + " = ttg.memdesc_subslice %as [0, " + at + "] : " + sa + " -> " + va +
           "\n";
      t += "    %bs" + i + " = ttg.memdesc_subslice %bs [" + at + ", 0] : " + sb + " -> " + vb +
           "\n";
      t += std::string(h ? "    %d" : "    %d0") + " = ttng.warp_group_dot %as" + i + ", %bs" + i +
           ", " + (h ? "%d0" : "%z" + flag) + " " + async + " : " + va + " * " + vb + " -> " + tc +
           "\n";
    }
  } else {
    t += "    %d = ttng.warp_group_dot %as, %bs, %z" + flag + " " + async + " : " +
         (c.aInRegs ? da : sa) + " * " + sb + " -> " + tc + "\n";
  }
  std::string res = "%d";
  if (c.isAsync) {
    t += "    %w:2 = ttng.warp_group_dot_wait %d, %bs {pendings = 0 : i32} : " + tc + ", " + sb +
         "\n";
    res = "%w#0";
  }
  t += "    %r = ttg.convert_layout " + res + " : " + tc + " -> " + tcb + "\n";
  t += "    tt.store %pc, %r : tensor<" + M + "x" + N + "x!tt.ptr<f32>, #blocked>\n";
  t += "    tt.return\n  }\n}\n";
  LL_ASSIGN_OR_RETURN(Module m, parseModule(t, "wgmma_tile_" + c.name()));
  LL_TRY_STATUS(verify(m));
  LL_TRY_STATUS(ir::insertFences(m));
  return m;
}

std::vector<WgmmaTileCase> wgmmaTileCases() {
  using S = ScalarKind;
  auto mk = [](int64_t m, int64_t n, int64_t k, int64_t instrN, S elem, bool aRegs, bool bT, int sw,
               int warps, bool n2, bool async) {
    WgmmaTileCase c;
    c.m = m, c.n = n, c.k = k, c.instrN = instrN, c.elem = elem, c.aInRegs = aRegs;
    c.bTransposed = bT, c.swizzle = sw, c.warps = warps, c.nWarps2 = n2, c.isAsync = async;
    return c;
  };
  std::vector<WgmmaTileCase> cases{
      mk(64, 64, 64, 64, S::F16, false, false, 128, 4, false, true),
      mk(64, 64, 64, 64, S::BF16, false, false, 128, 4, false, false),
      mk(128, 128, 64, 128, S::F16, false, false, 128, 4, false, true),
      mk(64, 256, 16, 256, S::F16, false, true, 32, 4, false, true),
      mk(64, 128, 32, 128, S::BF16, false, true, 64, 4, false, false),
      mk(64, 64, 32, 32, S::F16, false, false, 64, 4, false, true),
      mk(64, 64, 64, 64, S::F16, true, false, 128, 4, false, true),
      mk(128, 64, 32, 64, S::BF16, true, true, 64, 4, false, false),
      // Two warp groups: along M ([8, 1]) and along N ([4, 2]).
      mk(128, 64, 64, 64, S::F16, false, false, 128, 8, false, true),
      mk(64, 128, 64, 64, S::F16, false, false, 128, 8, true, true),
      // Unswizzled: B of 8 columns, 16-byte rows read as core matrices, two K steps apart by
      // LBO (A from registers).
      mk(64, 8, 32, 8, S::F16, true, false, 0, 4, false, true),
      mk(64, 8, 64, 8, S::BF16, true, false, 0, 4, false, false),
      // tf32: K steps of 8, both operands K-major (B transposed), A from shared memory or
      // registers, two warp groups.
      mk(64, 64, 32, 64, S::F32, false, true, 128, 4, false, true),
      mk(64, 128, 16, 128, S::F32, true, true, 64, 4, false, false),
      mk(128, 64, 64, 64, S::F32, false, true, 32, 8, false, true),
  };
  // Views of the tiles along K: into the middle of the 128-byte swizzle's lines (A K-major, B
  // N-major), of a K-major B, with two warp groups along M.
  for (WgmmaTileCase c : {mk(64, 64, 64, 64, S::F16, false, false, 128, 4, false, true),
                          mk(64, 128, 64, 128, S::BF16, false, true, 128, 4, false, false),
                          mk(128, 64, 128, 64, S::F16, false, false, 64, 8, false, true)}) {
    c.kViews = true;
    cases.push_back(c);
  }
  // The useC flag on an accumulator of ones: ignored (false) and added (true), from shared
  // memory and registers, and on the first of two K halves.
  auto flagged = [](WgmmaTileCase c, bool useC, bool kViews) {
    c.useC = useC;
    c.kViews = kViews;
    return c;
  };
  cases.push_back(
      flagged(mk(64, 64, 64, 64, S::F16, false, false, 128, 4, false, true), false, false));
  cases.push_back(
      flagged(mk(64, 64, 64, 64, S::BF16, true, false, 128, 4, false, false), true, false));
  cases.push_back(
      flagged(mk(128, 64, 64, 64, S::F16, false, false, 128, 8, false, true), false, true));
  return cases;
}

} // namespace linlayout::gpukernels

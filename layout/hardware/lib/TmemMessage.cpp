#include "linlayout/layout/TmemMessage.h"

#include "linlayout/layout/AttrFields.h"
#include "linlayout/layout/AttrSyntax.h"
#include "linlayout/layout/TmemDescriptor.h"

#include "SpecCheck.h"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

namespace linlayout {

namespace {

using Vec = std::array<int64_t, 2>;
using List = std::vector<Vec>;

Vec xorOf(Vec a, Vec b) { return {a[0] ^ b[0], a[1] ^ b[1]}; }

// A tensor-memory layout as bases: row (7) and col -> (dim0, dim1) of `shape`.
struct Memory {
  List row, col;
  Vec shape;
  int64_t cols() const { return int64_t(1) << col.size(); }
  // The element at TMEM (row, col). Requires: r < 128, c < cols().
  Vec at(Vec rc) const {
    Vec v{0, 0};
    for (size_t i = 0; i < row.size(); ++i)
      if (rc[0] >> i & 1)
        v = xorOf(v, row[i]);
    for (size_t i = 0; i < col.size(); ++i)
      if (rc[1] >> i & 1)
        v = xorOf(v, col[i]);
    return v;
  }
};

// A distributed layout being built, in (dim0, dim1) or (row, col) coordinates.
struct Threads {
  List reg, lane, warp;
};

// Whether the vectors are linearly independent over GF(2) (none zero, none a sum of others).
bool independent(const List &vs) {
  std::vector<uint64_t> basis; // reduced, by leading bit
  for (const Vec &v : vs) {
    uint64_t x = uint64_t(v[0]) << 32 | uint64_t(v[1]);
    for (uint64_t b : basis)
      x = std::min(x, x ^ b);
    if (x == 0)
      return false;
    basis.push_back(x);
    std::sort(basis.rbegin(), basis.rend());
  }
  return true;
}

// (register, lane) -> (row, col) of one message, and its width in columns.
Threads atomTile(TmemAtom atom, int64_t &cols) {
  Threads t;
  switch (atom) {
  case TmemAtom::I32x32b:
    t.lane = {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}};
    cols = 1;
    break;
  case TmemAtom::I16x32bx2:
    t.lane = {{1, 0}, {2, 0}, {4, 0}, {8, 0}};
    cols = 1;
    break;
  case TmemAtom::I16x64b:
    t.lane = {{8, 0}, {0, 1}, {1, 0}, {2, 0}, {4, 0}};
    cols = 2;
    break;
  case TmemAtom::I16x128b:
    t.reg = {{8, 0}};
    t.lane = {{0, 1}, {0, 2}, {1, 0}, {2, 0}, {4, 0}};
    cols = 4;
    break;
  case TmemAtom::I16x256b:
    t.reg = {{0, 1}, {8, 0}};
    t.lane = {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}};
    cols = 8;
    break;
  }
  return t;
}

// Splits the first `n` column bits off `m` when they are `lead` (in dim1 units of `unit`):
// m = lead * q. Requires of q: its dim1 components are multiples of `scale`, divided by it.
std::optional<Memory> divideColumns(const Memory &m, const List &lead, int64_t scale) {
  if (m.col.size() < lead.size())
    return std::nullopt;
  for (size_t i = 0; i < lead.size(); ++i)
    if (m.col[i] != lead[i])
      return std::nullopt;
  if (m.shape[1] % scale != 0)
    return std::nullopt;
  Memory q;
  q.shape = {m.shape[0], m.shape[1] / scale};
  auto shrink = [&](const Vec &v, List &out) {
    if (v[1] % scale != 0)
      return false;
    out.push_back({v[0], v[1] / scale});
    return true;
  };
  for (const Vec &v : m.row)
    if (!shrink(v, q.row))
      return std::nullopt;
  for (size_t i = lead.size(); i < m.col.size(); ++i)
    if (!shrink(m.col[i], q.col))
      return std::nullopt;
  return q;
}

// `n` registers along dim1 below `inner` (Triton's identity1D(n, register, dim1) * inner).
Threads packBelow(int64_t n, const Threads &inner) {
  Threads r;
  for (int64_t c = 1; c < n; c *= 2)
    r.reg.push_back({0, c});
  auto scaled = [&](const List &l, List &out) {
    for (const Vec &v : l)
      out.push_back({v[0], v[1] * n});
  };
  scaled(inner.reg, r.reg);
  scaled(inner.lane, r.lane);
  scaled(inner.warp, r.warp);
  return r;
}

Expected<std::optional<Threads>> for32Bit(const Memory &m, TmemAtom atom, int64_t numWarps) {
  int64_t tileCols = 1;
  Threads tile = atomTile(atom, tileCols);
  if (m.cols() < tileCols)
    return std::optional<Threads>();
  int64_t missing = m.cols() / tileCols;
  bool rows32 = atom == TmemAtom::I32x32b;
  bool rows16 = m.row.size() > 4 && m.row[4] == Vec{0, 0};

  // The layout can be read back through the message only if no two of its (register, lane)
  // slots hold one element. 32x32b's lanes 16-31 are left out: on a 16-row layout Triton moves
  // them with 16x32bx2.
  List images;
  for (const Vec &v : tile.reg)
    images.push_back(m.at(v));
  for (size_t i = 0; i < tile.lane.size() - (rows32 ? 1 : 0); ++i)
    images.push_back(m.at(tile.lane[i]));
  if (!independent(images))
    return std::optional<Threads>();

  // TMEM row 16 (when the atom does not cover it and the layout uses it) goes to the next warp
  // bit past the first four warps, else to a register.
  enum class Row16 { None, Warp, Register };
  Row16 row16 = Row16::None;
  if (!rows32 && !rows16)
    row16 = numWarps > 4 ? Row16::Warp : Row16::Register;
  int64_t warpsToTile = numWarps / (row16 == Row16::Warp ? 8 : 4);
  int64_t warpBroadcast = warpsToTile / std::min(missing, warpsToTile);
  warpsToTile /= warpBroadcast;
  missing /= warpsToTile;

  int64_t cols = tileCols;
  if (missing > 1) {
    if (rows32 && rows16) {
      // 16x32bx2: lanes 0-15 take the first half of the columns, lanes 16-31 the second.
      tile.lane.pop_back();
      for (int64_t c = 1; c < missing / 2; c *= 2)
        tile.reg.push_back({0, c});
      tile.lane.push_back({0, missing / 2});
    } else {
      for (int64_t c = 1; c < missing; c *= 2)
        tile.reg.push_back({0, tileCols * c});
    }
    cols = tileCols * missing;
  }
  tile.warp = {{32, 0}, {64, 0}};
  if (row16 == Row16::Warp)
    tile.warp.push_back({16, 0});
  else if (row16 == Row16::Register)
    tile.reg.push_back({16, 0});
  for (int64_t w = 1; w < warpsToTile; w *= 2)
    tile.warp.push_back({0, cols * w});
  for (int64_t w = 1; w < warpBroadcast; w *= 2)
    tile.warp.push_back({0, 0});
  if (cols * warpsToTile != m.cols())
    return makeError("tmem message: " + std::to_string(cols * warpsToTile) +
                     " columns tiled for a layout of " + std::to_string(m.cols()));

  Threads out;
  for (const Vec &v : tile.reg)
    out.reg.push_back(m.at(v));
  for (const Vec &v : tile.lane)
    out.lane.push_back(m.at(v));
  for (const Vec &v : tile.warp)
    out.warp.push_back(m.at(v));
  return std::optional<Threads>(std::move(out));
}

// Elements narrower than 32 bits: packed along the columns, unpacked or padded first.
Expected<std::optional<Threads>> forBitwidth(const Memory &m, TmemAtom atom, int64_t numWarps,
                                             int bitwidth) {
  if (bitwidth == 32)
    return for32Bit(m, atom, numWarps);
  // Neighbouring elements in one 32-bit column: read them as one wider element.
  int64_t best = 1;
  std::optional<Memory> packed;
  for (int64_t contig = 2; bitwidth * contig <= 32; contig *= 2) {
    List lead;
    for (int64_t c = 1; c < contig; c *= 2)
      lead.push_back({0, c});
    auto q = divideColumns(m, lead, contig);
    if (!q)
      break;
    packed = std::move(q);
    best = contig;
  }
  if (best > 1) {
    LL_ASSIGN_OR_RETURN(auto inner, forBitwidth(*packed, atom, numWarps, int(bitwidth * best)));
    if (!inner)
      return inner;
    return std::optional<Threads>(packBelow(best, *inner));
  }
  int64_t perColumn = 32 / bitwidth;
  List zeros;
  for (int64_t c = 1; c < perColumn; c *= 2)
    zeros.push_back({0, 0});
  if (bitwidth == 16) {
    // Unpacked: one 16-bit element per 32-bit column; two neighbours make a register pair.
    List lead = zeros;
    lead.push_back({0, 1});
    if (auto q = divideColumns(m, lead, 2)) {
      LL_ASSIGN_OR_RETURN(auto inner, for32Bit(*q, atom, numWarps));
      if (!inner)
        return inner;
      return std::optional<Threads>(packBelow(2, *inner));
    }
  }
  // Padded in software: one element per 32-bit column.
  if (auto q = divideColumns(m, zeros, 1))
    return for32Bit(*q, atom, numWarps);
  if (m.col.empty())
    return for32Bit(m, atom, numWarps);
  return makeError("tmem message: the " + std::to_string(bitwidth) +
                   "-bit tensor-memory layout is neither packed, unpacked nor padded (its first "
                   "column bits do not hold neighbouring elements or nothing)");
}

} // namespace

std::string_view tmemAtomName(TmemAtom atom) {
  switch (atom) {
  case TmemAtom::I32x32b:
    return "32x32b";
  case TmemAtom::I16x64b:
    return "16x64b";
  case TmemAtom::I16x128b:
    return "16x128b";
  case TmemAtom::I16x256b:
    return "16x256b";
  case TmemAtom::I16x32bx2:
    return "16x32bx2";
  }
  return "?";
}

Expected<TmemAtom> tmemAtomFromName(std::string_view name) {
  for (TmemAtom a : {TmemAtom::I32x32b, TmemAtom::I16x64b, TmemAtom::I16x128b, TmemAtom::I16x256b,
                     TmemAtom::I16x32bx2})
    if (tmemAtomName(a) == name)
      return a;
  return makeError("tmem message: instr_variant '" + std::string(name.substr(0, 40)) +
                   "' is not 32x32b, 16x64b, 16x128b, 16x256b or 16x32bx2");
}

Expected<std::optional<LinearLayout>> tmemMessageLayout(const LayoutSpec &memory,
                                                        std::span<const int64_t> shape,
                                                        int64_t numWarps, TmemAtom atom,
                                                        int elementBitwidth, const CgaLayout &cga) {
  if (!memory.isTensorMemory())
    return makeError("tmem message: layout is " + std::string(kindName(memory.kind())) +
                     ", expected tensor_memory or tensor_memory_scales");
  if (atom == TmemAtom::I16x32bx2)
    return makeError("tmem message: 16x32bx2 is not asked for: Triton uses it inside 32x32b "
                     "when a 64-row block leaves lanes 16-31 idle");
  if (!spec::isPow2(numWarps) || numWarps < 4 || numWarps > 1024)
    return makeError("tmem message: num_warps is " + std::to_string(numWarps) +
                     ", expected a power of two from 4 to 1024");
  if (elementBitwidth != 8 && elementBitwidth != 16 && elementBitwidth != 32)
    return makeError("tmem message: element_bitwidth is " + std::to_string(elementBitwidth) +
                     ", expected 8, 16 or 32");
  if (cga.rank() != 2)
    return makeError("tmem message: cga_layout has rank " + std::to_string(cga.rank()) +
                     ", expected 2");
  // Gluon forms the descriptor before it looks for a message layout.
  LL_TRY_STATUS(checkTmemDescriptor(memory, shape, elementBitwidth));
  LL_ASSIGN_OR_RETURN(LinearLayout ll, toLinearLayout(memory, shape));
  Memory m;
  m.shape = {shape[0], shape[1]};
  for (int i = 0; i < ll.inDimBits(0); ++i) {
    auto b = ll.basis(ll.inDimName(0), i);
    m.row.push_back({int64_t(b[0]), int64_t(b[1])});
  }
  for (int i = 0; i < ll.inDimBits(1); ++i) {
    auto b = ll.basis(ll.inDimName(1), i);
    m.col.push_back({int64_t(b[0]), int64_t(b[1])});
  }

  // The CTA split is the memory layout's last column bits: divide it off, place one CTA's
  // part, then give the blocks their tiles.
  int64_t c0 = cga.splitNum(0), c1 = cga.splitNum(1);
  int n0 = spec::log2i(c0), n1 = spec::log2i(c1);
  Vec cta{shape[0] / c0, shape[1] / c1};
  std::string mismatch = "tmem message: cga_layout " + attrBasisList(cga.bases()) +
                         " is not the CTA split of " + printLayoutAttr(memory) + " over " +
                         spec::listText(shape);
  if (shape[0] % c0 != 0 || shape[1] % c1 != 0 || int(m.col.size()) < n0 + n1)
    return makeError(mismatch);
  size_t first = m.col.size() - size_t(n0 + n1);
  for (int i = 0; i < n0 + n1; ++i) {
    Vec want = i < n0 ? Vec{cta[0] << i, 0} : Vec{0, cta[1] << (i - n0)};
    if (m.col[first + size_t(i)] != want)
      return makeError(mismatch);
  }
  m.col.resize(first);
  for (const List *l : {&m.row, &m.col})
    for (const Vec &v : *l)
      if (v[0] >= cta[0] || v[1] >= cta[1])
        return makeError(mismatch);
  m.shape = cta;

  LL_ASSIGN_OR_RETURN(auto threads, forBitwidth(m, atom, numWarps, elementBitwidth));
  if (!threads)
    return std::optional<LinearLayout>();
  std::vector<InDimBases> in(4);
  in[0].name = DimName::reg();
  in[1].name = DimName::lane();
  in[2].name = DimName::warp();
  in[3].name = DimName::block();
  auto put = [](const List &l, InDimBases &d) {
    for (const Vec &v : l)
      d.bases.push_back({uint64_t(v[0]), uint64_t(v[1])});
  };
  put(threads->reg, in[0]);
  put(threads->lane, in[1]);
  put(threads->warp, in[2]);
  for (const auto &b : cga.bases())
    in[3].bases.push_back({uint64_t(b[0] * cta[0]), uint64_t(b[1] * cta[1])});
  std::vector<DimSize> outs{{DimName::dim(0), uint64_t(shape[0])},
                            {DimName::dim(1), uint64_t(shape[1])}};
  LL_ASSIGN_OR_RETURN(LinearLayout r,
                      LinearLayout::fromBases(in, outs, /*requireSurjective=*/false));
  return std::optional<LinearLayout>(std::move(r));
}

} // namespace linlayout

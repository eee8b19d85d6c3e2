// Pictures agree with `apply` on every element, checked by brute force over random distributed
// and shared layouts.
#include "linlayout/layout/OwnerMap.h"
#include "linlayout/layout/Picture.h"
#include "linlayout/testing/Generators.h"

#include "GTestProperty.h"

#include <algorithm>
#include <sstream>

using namespace linlayout;
using namespace linlayout::testing;

namespace {

// A random bijective shared layout: offset bits onto the tensor, possibly XOR-swizzled.
LinearLayout sharedLayout() {
  int rank = *rc::gen::inRange(1, 4);
  std::vector<int> bits = detail::splitBits(*rc::gen::inRange(0, 9), rank);
  std::vector<InDimBases> ins{{DimName::offset(), {}}};
  std::vector<DimSize> outs;
  for (int d = 0; d < rank; ++d)
    outs.push_back({DimName::dim(d), uint64_t(1) << bits[size_t(d)]});
  // Offsets step the innermost dim first, each row XOR-ed with a lower column at random.
  for (int d = rank - 1; d >= 0; --d)
    for (int b = 0; b < bits[size_t(d)]; ++b) {
      std::vector<uint64_t> v(size_t(rank), 0);
      v[size_t(d)] = uint64_t(1) << b;
      if (d != rank - 1 && bits[size_t(rank - 1)] > 0 && *rc::gen::arbitrary<bool>())
        v[size_t(rank - 1)] = uint64_t(1) << *rc::gen::inRange(0, bits[size_t(rank - 1)]);
      ins[0].bases.push_back(v);
    }
  auto made = LinearLayout::fromBases(ins, outs);
  RC_ASSERT(made.ok());
  return *made;
}

std::vector<std::string> lines(const std::string &s) {
  std::vector<std::string> out;
  std::istringstream is(s);
  for (std::string line; std::getline(is, line);)
    out.push_back(line);
  return out;
}

// One line per matrix row: a vector's picture wraps over several lines, joined here.
std::vector<std::string> matrixLines(const std::string &text, int rank) {
  std::vector<std::string> ls = lines(text);
  if (rank >= 2)
    return ls;
  std::string joined;
  for (const auto &l : ls)
    joined += joined.empty() ? l : " " + l.substr(1);
  return {joined};
}

// The cells of one line of an Owners-style matrix (no elision).
std::vector<std::string> cellsOf(std::string line) {
  size_t a = line.find_first_not_of("[ ");
  size_t b = line.find_last_not_of("],");
  std::string body = line.substr(a, b - a + 1);
  std::vector<std::string> out;
  size_t p = 0;
  while (true) {
    size_t q = body.find(", ", p);
    std::string c = body.substr(p, q == std::string::npos ? std::string::npos : q - p);
    c.erase(0, c.find_first_not_of(' '));
    out.push_back(c);
    if (q == std::string::npos)
      return out;
    p = q + 2;
  }
}

PictureOptions whole() {
  PictureOptions o;
  o.maxRows = o.maxCols = o.maxSlices = int64_t(1) << 30;
  return o;
}

} // namespace

LL_PROP(PictureProps, EveryInputIsListedUnderItsElement, 1000, (const Distributed &d)) {
  const LinearLayout &l = d.layout;
  auto m = OwnerMap::build(l);
  RC_ASSERT(m.ok());
  size_t total = 0;
  for (int64_t e = 0; e < m->numElements(); ++e) {
    auto hs = m->holders(e);
    total += hs.size();
    RC_ASSERT(std::is_sorted(hs.begin(), hs.end()));
    RC_ASSERT(std::adjacent_find(hs.begin(), hs.end()) == hs.end());
  }
  RC_ASSERT(total == size_t(1) << l.totalInBits());
  for (uint64_t x = 0; x < (uint64_t(1) << l.totalInBits()); ++x) {
    uint64_t out = l.apply(x);
    std::vector<int64_t> coords;
    for (int k = 0; k < l.numOutDims(); ++k)
      coords.push_back(int64_t(l.outValue(out, k)));
    Holder h{uint32_t(l.inValue(x, 3)), uint32_t(l.inValue(x, 2)), uint32_t(l.inValue(x, 1)),
             l.inValue(x, 0)};
    auto hs = m->holders(m->elementIndex(coords));
    RC_ASSERT(std::find(hs.begin(), hs.end(), h) != hs.end());
  }
}

LL_PROP(PictureProps, TextMapCellsAreTheHolders, 1000, (const Distributed &d)) {
  auto m = OwnerMap::build(d.layout);
  RC_ASSERT(m.ok());
  RC_PRE(m->rank() <= 2);
  std::vector<std::string> ls = matrixLines(renderTensorMap(*m, whole()), m->rank());
  int64_t rows = m->rank() == 2 ? m->shape()[0] : 1;
  int64_t cols = m->numElements() / rows;
  RC_ASSERT(int64_t(ls.size()) == rows);
  for (int64_t r = 0; r < rows; ++r) {
    std::vector<std::string> cells = cellsOf(ls[size_t(r)]);
    RC_ASSERT(int64_t(cells.size()) == cols);
    for (int64_t c = 0; c < cols; ++c) {
      int64_t e = r * cols + c;
      RC_ASSERT(cells[size_t(c)] == cellText(*m, e, CellStyle::Owners));
      // The cell names every holder: T<lane + 32 * warp>:<register>, C<block>: with CTAs.
      for (const Holder &h : m->holders(e)) {
        std::string t = "T" + std::to_string(h.lane + uint64_t(m->lanesPerWarp()) * h.warp) + ":" +
                        std::to_string(h.index);
        if (m->numBlocks() > 1)
          t = "C" + std::to_string(h.block) + ":" + t;
        std::string cell = "|" + cells[size_t(c)] + "|";
        RC_ASSERT(cell.find("|" + t + "|") != std::string::npos);
      }
    }
  }
}

LL_PROP(PictureProps, InverseViewListsWhatApplyGives, 1000, (const Distributed &d)) {
  const LinearLayout &l = d.layout;
  auto m = OwnerMap::build(l);
  RC_ASSERT(m.ok());
  auto inv = renderInverse(*m, whole());
  RC_ASSERT(inv.ok());
  std::vector<std::string> ls = lines(*inv);
  uint64_t threads = uint64_t(m->numBlocks()) * m->numWarps() * m->lanesPerWarp();
  RC_ASSERT(ls.size() == threads + 1);
  uint64_t t = *rc::gen::inRange<uint64_t>(0, threads);
  std::istringstream is(ls[size_t(t + 1)]);
  std::string label;
  is >> label;
  for (uint64_t r = 0; r < m->numIndices(); ++r) {
    std::string cell;
    is >> cell;
    uint64_t lane = t % m->lanesPerWarp(), warp = t / m->lanesPerWarp() % m->numWarps(),
             block = t / m->lanesPerWarp() / m->numWarps();
    uint64_t out = l.apply(l.packInput(std::vector<uint64_t>{r, lane, warp, block}));
    std::string want = "(";
    for (int k = 0; k < l.numOutDims(); ++k)
      want += (k ? "," : "") + std::to_string(l.outValue(out, k));
    RC_ASSERT(cell == want + ")");
  }
}

LL_PROP(PictureProps, ShownIndicesKeepTheEnds, 1000, (const Distributed &d)) {
  auto m = OwnerMap::build(d.layout);
  RC_ASSERT(m.ok());
  RC_PRE(m->rank() >= 1);
  int dim = *rc::gen::inRange(0, m->rank());
  int64_t max = *rc::gen::inRange<int64_t>(1, 40), head = *rc::gen::inRange<int64_t>(0, 5),
          tail = *rc::gen::inRange<int64_t>(0, 5), gh = *rc::gen::inRange<int64_t>(0, 3),
          gt = *rc::gen::inRange<int64_t>(0, 3);
  std::vector<int64_t> s = shownIndices(*m, dim, max, head, tail, gh, gt);
  int64_t n = m->shape()[size_t(dim)];
  if (n <= max) {
    RC_ASSERT(int64_t(s.size()) == n);
    for (int64_t i = 0; i < n; ++i)
      RC_ASSERT(s[size_t(i)] == i);
    return;
  }
  int64_t prev = -1;
  bool prevElided = false;
  for (int64_t v : s) {
    if (v == kElided) {
      RC_ASSERT(!prevElided);
      prevElided = true;
      continue;
    }
    RC_ASSERT(v > prev && v < n);
    // A jump is marked as elided; consecutive shown indices are not.
    RC_ASSERT((v == prev + 1) == !prevElided || prev == -1);
    prev = v;
    prevElided = false;
  }
  if (head >= 1 && gh >= 1)
    RC_ASSERT(s.front() == 0);
  if (tail >= 1 && gt >= 1)
    RC_ASSERT(s.back() == n - 1);
}

LL_PROP(PictureProps, SharedOffsetsAndBanksAreTheInverse, 1000, ()) {
  LinearLayout l = sharedLayout();
  auto m = OwnerMap::build(l);
  RC_ASSERT(m.ok());
  RC_ASSERT(m->isShared());
  int bw = *rc::gen::element(8, 16, 32, 64);
  for (uint64_t x = 0; x < (uint64_t(1) << l.totalInBits()); ++x) {
    uint64_t out = l.apply(x);
    std::vector<int64_t> coords;
    for (int k = 0; k < l.numOutDims(); ++k)
      coords.push_back(int64_t(l.outValue(out, k)));
    int64_t e = m->elementIndex(coords);
    RC_ASSERT(cellText(*m, e, CellStyle::Owners) == std::to_string(x));
  }
  auto banks = renderBanks(*m, bw, whole());
  RC_ASSERT(banks.ok());
  RC_PRE(m->rank() <= 2);
  std::vector<std::string> ls = matrixLines(*banks, m->rank());
  int64_t rows = m->rank() == 2 ? m->shape()[0] : 1;
  int64_t cols = m->numElements() / rows;
  for (int64_t r = 0; r < rows; ++r) {
    std::vector<std::string> cells = cellsOf(ls[size_t(r)]);
    RC_ASSERT(int64_t(cells.size()) == cols);
    for (int64_t c = 0; c < cols; ++c) {
      uint64_t offset = m->holders(r * cols + c)[0].index;
      // 32 banks of 4 bytes: the bank of the element's first byte.
      RC_ASSERT(cells[size_t(c)] == std::to_string(offset * uint64_t(bw) / 8 / 4 % 32));
    }
  }
}

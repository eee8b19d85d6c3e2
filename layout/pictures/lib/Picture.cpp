#include "linlayout/layout/Picture.h"

#include <algorithm>
#include <cassert>
#include <functional>
#include <sstream>

namespace linlayout {

namespace {

// Which kind of hardware bit produces one bit of a tensor coordinate.
enum class Producer { None, Register, Lane, Warp, Block, Offset };

// What changes between index i-1 and index i along a tensor dim, weakest first.
enum class Boundary { None, Warp, Repeat, Cta };

// Per bit of out dim `dim`, the hardware bit whose basis is exactly that coordinate bit (and
// nothing else). Bits reached only through combinations (swizzles) have no producer.
std::vector<Producer> producersOf(const LinearLayout &l, int dim) {
  std::vector<Producer> p(size_t(l.outDimBits(dim)), Producer::None);
  auto rank = [](Producer x) {
    switch (x) {
    case Producer::Block:
      return 5;
    case Producer::Warp:
      return 4;
    case Producer::Lane:
      return 3;
    case Producer::Register:
      return 2;
    case Producer::Offset:
      return 1;
    case Producer::None:
      return 0;
    }
    return 0;
  };
  for (int i = 0; i < l.numInDims(); ++i) {
    DimName n = l.inDimName(i);
    Producer kind = n == DimName::reg()     ? Producer::Register
                    : n == DimName::lane()  ? Producer::Lane
                    : n == DimName::warp()  ? Producer::Warp
                    : n == DimName::block() ? Producer::Block
                                            : Producer::Offset;
    for (int k = 0; k < l.inDimBits(i); ++k) {
      uint64_t col = l.column(l.inDimOffset(i) + k);
      for (int b = 0; b < l.outDimBits(dim); ++b)
        if (col == uint64_t(1) << (l.outDimOffset(dim) + b) && rank(kind) > rank(p[size_t(b)]))
          p[size_t(b)] = kind;
    }
  }
  return p;
}

// The boundary before each index of a dim (entry 0 is None).
std::vector<Boundary> boundariesOf(const OwnerMap &map, int dim) {
  std::vector<Producer> p = producersOf(map.layout(), dim);
  int64_t n = map.shape()[size_t(dim)];
  std::vector<Boundary> out(size_t(n), Boundary::None);
  for (int64_t i = 1; i < n; ++i) {
    int b = __builtin_ctzll(uint64_t(i));
    switch (p[size_t(b)]) {
    case Producer::Block:
      out[size_t(i)] = Boundary::Cta;
      break;
    case Producer::Warp:
      out[size_t(i)] = Boundary::Warp;
      break;
    case Producer::Register: {
      bool threadBelow = false;
      for (int k = 0; k < b; ++k)
        threadBelow |= p[size_t(k)] == Producer::Lane || p[size_t(k)] == Producer::Warp;
      out[size_t(i)] = threadBelow ? Boundary::Repeat : Boundary::None;
      break;
    }
    default:
      break;
    }
  }
  return out;
}

// The lowest bit of a dim that a block bit produces (its CTA tile size), or -1.
int lowestBlockBit(const OwnerMap &map, int dim) {
  std::vector<Producer> p = producersOf(map.layout(), dim);
  for (size_t b = 0; b < p.size(); ++b)
    if (p[b] == Producer::Block)
      return int(b);
  return -1;
}

// Whether every block bit moves to its own tile of the tensor, so that the position of an
// element says which CTA holds it.
bool blocksAreSpatial(const OwnerMap &map) {
  const LinearLayout &l = map.layout();
  int bi = l.inDimIndex(DimName::block());
  if (bi < 0)
    return true;
  for (int k = 0; k < l.inDimBits(bi); ++k) {
    uint64_t col = l.column(l.inDimOffset(bi) + k);
    if (col == 0 || (col & (col - 1)) != 0)
      return false;
  }
  return true;
}

std::string joinHolders(const OwnerMap &map, int64_t e, bool qualifyBlock,
                        const std::function<std::string(const Holder &)> &text) {
  std::string out;
  std::string last;
  for (const Holder &h : map.holders(e)) {
    std::string t = (qualifyBlock ? "C" + std::to_string(h.block) + ":" : "") + text(h);
    if (t == last)
      continue; // e.g. one thread holding the element in two registers, drawn by thread id
    if (!out.empty())
      out += '|';
    out += t;
    last = t;
  }
  return out.empty() ? "-" : out;
}

std::string cellTextImpl(const OwnerMap &map, int64_t e, CellStyle style, bool qualifyBlock) {
  if (map.isShared())
    return joinHolders(map, e, qualifyBlock,
                       [](const Holder &h) { return std::to_string(h.index); });
  if (map.isTensorMemory())
    return joinHolders(map, e, qualifyBlock, [](const Holder &h) {
      return "r" + std::to_string(h.lane + 32 * h.warp) + "c" + std::to_string(h.index);
    });
  bool hasRegs = map.layout().hasInDim(DimName::reg());
  if (style == CellStyle::ThreadIds)
    return joinHolders(map, e, qualifyBlock,
                       [&](const Holder &h) { return std::to_string(map.threadId(h)); });
  return joinHolders(map, e, qualifyBlock, [&](const Holder &h) {
    std::string t = "T";
    if (map.hasThreads())
      t += std::to_string(map.threadId(h));
    if (hasRegs)
      t += ":" + std::to_string(h.index);
    return t;
  });
}

bool qualifyBlocks(const OwnerMap &map, CellStyle style) {
  if (map.numBlocks() <= 1)
    return false;
  return style == CellStyle::Owners || !blocksAreSpatial(map);
}

std::string padLeft(const std::string &s, size_t w) {
  return s.size() >= w ? s : std::string(w - s.size(), ' ') + s;
}
std::string padRight(const std::string &s, size_t w) {
  return s.size() >= w ? s : s + std::string(w - s.size(), ' ');
}

void rstrip(std::string &s) {
  while (!s.empty() && s.back() == ' ')
    s.pop_back();
}

// The strongest boundary crossed going from shown index `from` to shown index `to` (from < to).
Boundary crossed(const std::vector<Boundary> &b, int64_t from, int64_t to) {
  Boundary k = Boundary::None;
  for (int64_t i = from + 1; i <= to; ++i)
    k = std::max(k, b[size_t(i)]);
  return k;
}

using CellFn = std::function<std::string(int64_t element)>;

// One matrix (rank-2 view: rows along dim rank-2, columns along dim rank-1, the outer coordinates
// fixed in `outer`) or one row (rank 1) of a picture.
struct Slice {
  const OwnerMap &map;
  std::vector<int64_t> outer;
  std::vector<int64_t> rows, cols; // shown indices (kElided for hidden runs)
  int rowDim, colDim;              // -1 when the tensor has no such dim

  int64_t element(int64_t r, int64_t c) const {
    std::vector<int64_t> coords = outer;
    if (rowDim >= 0)
      coords.push_back(r);
    if (colDim >= 0)
      coords.push_back(c);
    return map.elementIndex(coords);
  }
};

// Lines of a vector's picture are wrapped past this width.
constexpr size_t kWrapWidth = 100;

// Gluon's nested-list drawing: right-aligned cells, ", " between, "..." for hidden runs.
void drawOwners(std::ostringstream &os, const Slice &s, const CellFn &cell) {
  size_t w = 0;
  for (int64_t r : s.rows)
    for (int64_t c : s.cols)
      if (r != kElided && c != kElided)
        w = std::max(w, cell(s.element(r, c)).size());
  bool matrix = s.rowDim >= 0;
  for (size_t ri = 0; ri < s.rows.size(); ++ri) {
    int64_t r = s.rows[ri];
    if (r == kElided) {
      os << " ...\n";
      continue;
    }
    std::string line = matrix ? (ri == 0 ? "[[" : " [") : "[";
    size_t lineStart = 0;
    for (size_t ci = 0; ci < s.cols.size(); ++ci) {
      int64_t c = s.cols[ci];
      std::string text = c == kElided ? "..." : padLeft(cell(s.element(r, c)), w);
      if (ci) {
        line += ",";
        // A vector is one long row: wrap it as numpy does, a matrix row is never wrapped.
        if (!matrix && line.size() - lineStart + 1 + text.size() > kWrapWidth) {
          line += "\n ";
          lineStart = line.size() - 1;
        } else {
          line += " ";
        }
      }
      line += text;
    }
    line += matrix ? (ri + 1 == s.rows.size() ? "]]" : "],") : "]";
    os << line << "\n";
  }
}

// The TritonGPU docs' drawing: left-aligned cells followed by a space, "; " where the warp
// changes, " " where the tile repeats, one "[ ... ]" block per CTA with a "CTA [..]" heading.
void drawThreadIds(std::ostringstream &os, const Slice &s, const CellFn &cell,
                   const std::vector<Boundary> &rowB, const std::vector<Boundary> &colB,
                   bool ctaHeadings, const std::vector<int> &lowBlockBit) {
  size_t w = 0;
  for (int64_t r : s.rows)
    for (int64_t c : s.cols)
      if (r != kElided && c != kElided)
        w = std::max(w, cell(s.element(r, c)).size());

  // The layout of a row is the same for every row: where each CTA block starts, where each
  // repeated tile starts (the "..." of an elided row goes there), and what precedes each cell.
  struct ColItem {
    int64_t col;        // kElided for a hidden run
    std::string before; // separator written before the item
    bool newBlock;      // starts a new "[ ... ]" block
  };
  std::vector<ColItem> items;
  int64_t prev = -1;
  for (int64_t c : s.cols) {
    ColItem it{c, "", items.empty()};
    if (c != kElided && prev >= 0 && s.colDim >= 0) {
      switch (crossed(colB, prev, c)) {
      case Boundary::Cta:
        it.newBlock = true;
        break;
      case Boundary::Repeat:
        it.before = " ";
        break;
      case Boundary::Warp:
        it.before = "; ";
        break;
      case Boundary::None:
        break;
      }
    }
    if (c != kElided)
      prev = c;
    items.push_back(it);
  }

  std::vector<size_t> groupStarts; // positions of "[" and of repeat separators
  std::vector<size_t> blockStarts;
  std::vector<int64_t> blockFirstCol;
  auto drawRow = [&](int64_t r, bool record) {
    std::string line;
    for (size_t i = 0; i < items.size(); ++i) {
      const ColItem &it = items[i];
      if (it.newBlock) {
        if (i)
          line += "]  ";
        if (record) {
          blockStarts.push_back(line.size());
          groupStarts.push_back(line.size());
          blockFirstCol.push_back(it.col);
        }
        line += "[ ";
      } else if (record && it.before == " ") {
        groupStarts.push_back(line.size());
      }
      line += it.before;
      line +=
          it.col == kElided ? std::string("... ") : padRight(cell(s.element(r, it.col)), w) + " ";
    }
    line += "]";
    return line;
  };
  int64_t firstRow = kElided;
  for (int64_t r : s.rows)
    if (r != kElided) {
      firstRow = r;
      break;
    }
  if (firstRow == kElided)
    return;
  drawRow(firstRow, true);

  auto ctaCoords = [&](int64_t r, int64_t c) {
    std::string t = "CTA [";
    size_t n = s.outer.size();
    std::vector<int64_t> idx = s.outer;
    if (s.rowDim >= 0)
      idx.push_back(r);
    if (s.colDim >= 0)
      idx.push_back(c);
    for (size_t d = 0; d < idx.size(); ++d) {
      if (d)
        t += ",";
      int low = lowBlockBit[d];
      t += std::to_string(low < 0 ? 0 : idx[d] >> low);
    }
    (void)n;
    return t + "]";
  };
  auto overlay = [](std::string &line, size_t pos, const std::string &text) {
    if (line.size() < pos)
      line.resize(pos, ' ');
    else if (line.size() > pos)
      line += ' '; // never glue two labels together
    line += text;
  };

  int64_t prevRow = -1;
  bool firstBlockRow = true;
  for (int64_t r : s.rows) {
    if (r == kElided) {
      std::string line;
      for (size_t p : groupStarts)
        overlay(line, p, "...");
      os << line << "\n";
      continue;
    }
    bool newRowBlock = firstBlockRow || (s.rowDim >= 0 && prevRow >= 0 &&
                                         crossed(rowB, prevRow, r) == Boundary::Cta);
    if (newRowBlock && ctaHeadings) {
      if (!firstBlockRow)
        os << "\n";
      std::string line;
      for (size_t b = 0; b < blockStarts.size(); ++b)
        overlay(line, blockStarts[b], ctaCoords(r, blockFirstCol[b]));
      os << line << "\n";
    }
    firstBlockRow = false;
    prevRow = r;
    os << drawRow(r, false) << "\n";
  }
}

// Head and tail of 0..n-1 with kElided between, when n exceeds max.
std::vector<int64_t> simpleShown(int64_t n, int64_t max, int64_t head, int64_t tail) {
  std::vector<int64_t> out;
  if (n <= max || n <= head + tail + 1) {
    for (int64_t i = 0; i < n; ++i)
      out.push_back(i);
    return out;
  }
  for (int64_t i = 0; i < head; ++i)
    out.push_back(i);
  out.push_back(kElided);
  for (int64_t i = n - tail; i < n; ++i)
    out.push_back(i);
  return out;
}

// Calls `f` with each shown combination of outer coordinates (dims 0..rank-3), or with an empty
// vector and `elided` set for a hidden run.
void forEachOuter(const OwnerMap &map, const PictureOptions &o,
                  const std::function<void(const std::vector<int64_t> &, bool)> &f) {
  int outerRank = std::max(0, map.rank() - 2);
  std::vector<std::vector<int64_t>> shown;
  for (int d = 0; d < outerRank; ++d)
    shown.push_back(simpleShown(map.shape()[size_t(d)], o.maxSlices, 2, 1));
  std::vector<int64_t> prefix;
  std::function<void(int)> rec = [&](int d) {
    if (d == outerRank) {
      f(prefix, false);
      return;
    }
    for (int64_t v : shown[size_t(d)]) {
      if (v == kElided) {
        f({}, true);
        continue;
      }
      prefix.push_back(v);
      rec(d + 1);
      prefix.pop_back();
    }
  };
  rec(0);
}

std::string renderGrid(const OwnerMap &map, const PictureOptions &o, CellStyle style,
                       const CellFn &cell) {
  std::ostringstream os;
  int rank = map.rank();
  int rowDim = rank >= 2 ? rank - 2 : -1;
  int colDim = rank >= 1 ? rank - 1 : -1;
  std::vector<Boundary> rowB, colB;
  if (rowDim >= 0)
    rowB = boundariesOf(map, rowDim);
  if (colDim >= 0)
    colB = boundariesOf(map, colDim);
  std::vector<int> lowBlock;
  for (int d = 0; d < rank; ++d)
    lowBlock.push_back(lowestBlockBit(map, d));
  bool headings = style == CellStyle::ThreadIds && map.numBlocks() > 1 && blocksAreSpatial(map);

  std::vector<int64_t> rows{0}, cols{0};
  if (rowDim >= 0)
    rows = shownIndices(map, rowDim, o.maxRows, o.rowHead, o.rowTail, o.groupHead, o.groupTail);
  if (colDim >= 0)
    cols = shownIndices(map, colDim, o.maxCols, o.colHead, o.colTail, o.groupHead, o.groupTail);

  bool firstSlice = true;
  forEachOuter(map, o, [&](const std::vector<int64_t> &outer, bool elided) {
    if (elided) {
      os << "...\n";
      return;
    }
    if (rank >= 3) {
      if (!firstSlice)
        os << "\n";
      std::string h = "[";
      for (int64_t v : outer)
        h += std::to_string(v) + ", ";
      os << h << ":, :] =\n";
    }
    firstSlice = false;
    Slice s{map, outer, rows, cols, rowDim, colDim};
    if (style == CellStyle::Owners)
      drawOwners(os, s, cell);
    else
      drawThreadIds(os, s, cell, rowB, colB, headings, lowBlock);
  });
  return os.str();
}

std::string coordText(const std::vector<int64_t> &c) {
  std::string t = "(";
  for (size_t i = 0; i < c.size(); ++i)
    t += (i ? "," : "") + std::to_string(c[i]);
  return t + ")";
}

bool validBitwidth(int bw) { return bw == 8 || bw == 16 || bw == 32 || bw == 64; }

// Formats labelled rows of right-aligned columns under a header.
std::string table(const std::vector<std::string> &header, const std::vector<std::string> &labels,
                  const std::vector<std::vector<std::string>> &rows) {
  size_t lw = 0, cw = 0;
  for (const auto &l : labels)
    lw = std::max(lw, l.size());
  for (const auto &h : header)
    cw = std::max(cw, h.size());
  for (const auto &r : rows)
    for (const auto &c : r)
      cw = std::max(cw, c.size());
  std::ostringstream os;
  std::string line(lw, ' ');
  for (const auto &h : header)
    line += " " + padLeft(h, cw);
  rstrip(line);
  os << line << "\n";
  for (size_t i = 0; i < rows.size(); ++i) {
    if (labels[i] == "...") {
      os << "...\n";
      continue;
    }
    line = padRight(labels[i], lw);
    for (const auto &c : rows[i])
      line += " " + padLeft(c, cw);
    rstrip(line);
    os << line << "\n";
  }
  return os.str();
}

} // namespace

std::vector<int64_t> shownIndices(const OwnerMap &map, int dim, int64_t max, int64_t head,
                                  int64_t tail, int64_t groupHead, int64_t groupTail) {
  assert(dim >= 0 && dim < map.rank() && "dim out of range");
  assert(max >= 1 && head >= 0 && tail >= 0 && groupHead >= 0 && groupTail >= 0);
  int64_t n = map.shape()[size_t(dim)];
  std::vector<int64_t> out;
  if (n <= max) {
    for (int64_t i = 0; i < n; ++i)
      out.push_back(i);
    return out;
  }
  std::vector<Boundary> b = boundariesOf(map, dim);
  std::vector<int64_t> starts{0};
  for (int64_t i = 1; i < n; ++i)
    if (b[size_t(i)] != Boundary::None)
      starts.push_back(i);
  starts.push_back(n);
  int64_t groups = int64_t(starts.size()) - 1;
  auto push = [&](int64_t v) {
    if (v == kElided && !out.empty() && out.back() == kElided)
      return;
    out.push_back(v);
  };
  auto emitGroup = [&](int64_t g) {
    int64_t lo = starts[size_t(g)], hi = starts[size_t(g) + 1];
    if (hi - lo <= head + tail + 1) {
      for (int64_t i = lo; i < hi; ++i)
        push(i);
      return;
    }
    for (int64_t i = lo; i < lo + head; ++i)
      push(i);
    push(kElided);
    for (int64_t i = hi - tail; i < hi; ++i)
      push(i);
  };
  if (groups > groupHead + groupTail + 1) {
    // The kept groups share the budget, so that many groups do not multiply it.
    int64_t kept = std::max<int64_t>(1, groupHead + groupTail);
    head = head == 0 ? 0 : std::max<int64_t>(1, head / kept);
    tail = tail == 0 ? 0 : std::max<int64_t>(1, tail / kept);
    for (int64_t g = 0; g < groupHead; ++g)
      emitGroup(g);
    push(kElided);
    for (int64_t g = groups - groupTail; g < groups; ++g)
      emitGroup(g);
  } else {
    for (int64_t g = 0; g < groups; ++g)
      emitGroup(g);
  }
  return out;
}

int64_t columnsThatFit(const OwnerMap &map, CellStyle style, int64_t width) {
  assert(width >= 1 && "width must be positive");
  bool q = qualifyBlocks(map, style);
  size_t widest = 1;
  for (int64_t e = 0; e < map.numElements(); ++e)
    widest = std::max(widest, cellTextImpl(map, e, style, q).size());
  return std::max<int64_t>(4, width / int64_t(widest + 2));
}

std::string cellText(const OwnerMap &map, int64_t element, CellStyle style) {
  return cellTextImpl(map, element, style, qualifyBlocks(map, style));
}

std::string renderTensorMap(const OwnerMap &map, const PictureOptions &o) {
  bool q = qualifyBlocks(map, o.style);
  return renderGrid(map, o, o.style, [&](int64_t e) { return cellTextImpl(map, e, o.style, q); });
}

int bankOf(uint64_t offset, int bitwidth) {
  assert(validBitwidth(bitwidth) && "bitwidth must be 8, 16, 32 or 64");
  return int((offset * uint64_t(bitwidth) / 32) % 32);
}

uint64_t paddedAddress(uint64_t offset, const PictureOptions &o) {
  uint64_t a = offset;
  for (const auto &[interval, padding] : o.padding)
    a += offset / uint64_t(interval) * uint64_t(padding);
  return a;
}

Expected<std::string> renderAddresses(const OwnerMap &map, const PictureOptions &o) {
  if (!map.isShared())
    return makeError("addresses are drawn for shared layouts (in dims offset, block) only");
  bool q = qualifyBlocks(map, o.style);
  return renderGrid(map, o, o.style, [&](int64_t e) {
    return joinHolders(map, e, q,
                       [&](const Holder &h) { return std::to_string(paddedAddress(h.index, o)); });
  });
}

Expected<std::string> renderBanks(const OwnerMap &map, int bitwidth, const PictureOptions &o) {
  if (!map.isShared())
    return makeError("banks are drawn for shared layouts (in dims offset, block) only");
  if (!validBitwidth(bitwidth))
    return makeError("bitwidth " + std::to_string(bitwidth) + " is not 8, 16, 32 or 64");
  bool q = qualifyBlocks(map, o.style);
  return renderGrid(map, o, o.style, [&](int64_t e) {
    return joinHolders(map, e, q, [&](const Holder &h) {
      return std::to_string(bankOf(paddedAddress(h.index, o), bitwidth));
    });
  });
}

Expected<std::string> renderInverse(const OwnerMap &map, const PictureOptions &o, int bitwidth) {
  const LinearLayout &l = map.layout();
  auto coordsOf = [&](uint64_t out) {
    std::vector<int64_t> c;
    for (int d = 0; d < l.numOutDims(); ++d)
      c.push_back(int64_t(l.outValue(out, d)));
    return c;
  };
  auto inputOf = [&](uint32_t block, uint32_t warp, uint32_t lane, uint64_t index) {
    std::vector<uint64_t> v;
    for (int i = 0; i < l.numInDims(); ++i) {
      DimName n = l.inDimName(i);
      v.push_back(n == DimName::block()  ? block
                  : n == DimName::warp() ? warp
                  : n == DimName::lane() ? lane
                                         : index);
    }
    return l.packInput(v);
  };

  std::vector<std::string> header, labels;
  std::vector<std::vector<std::string>> rows;
  if (map.isTensorMemory())
    return makeError("the inverse is drawn for distributed and shared layouts; a tensor-memory "
                     "layout's cells already name their row and column");
  if (!map.isShared()) {
    std::vector<int64_t> regs =
        simpleShown(int64_t(map.numIndices()), o.maxCols, o.colHead, o.colTail);
    for (int64_t r : regs)
      header.push_back(r == kElided ? "..." : "r" + std::to_string(r));
    uint64_t threads = uint64_t(map.numBlocks()) * map.numWarps() * map.lanesPerWarp();
    std::vector<int64_t> ts = simpleShown(int64_t(threads), o.maxRows, o.rowHead, o.rowTail);
    for (int64_t t : ts) {
      if (t == kElided) {
        labels.push_back("...");
        rows.emplace_back();
        continue;
      }
      uint32_t lane = uint32_t(uint64_t(t) % map.lanesPerWarp());
      uint32_t warp = uint32_t(uint64_t(t) / map.lanesPerWarp() % map.numWarps());
      uint32_t block = uint32_t(uint64_t(t) / map.lanesPerWarp() / map.numWarps());
      Holder h{block, warp, lane, 0};
      std::string label = map.numBlocks() > 1 ? "C" + std::to_string(block) + ":" : "";
      label += "T" + (map.hasThreads() ? std::to_string(map.threadId(h)) : std::string()) + ":";
      labels.push_back(label);
      std::vector<std::string> cells;
      for (int64_t r : regs)
        cells.push_back(
            r == kElided ? "..."
                         : coordText(coordsOf(l.apply(inputOf(block, warp, lane, uint64_t(r))))));
      rows.push_back(cells);
    }
    return table(header, labels, rows);
  }

  if (!validBitwidth(bitwidth))
    return makeError("bitwidth " + std::to_string(bitwidth) + " is not 8, 16, 32 or 64");
  // One line per pass over the 32 banks: 128 bytes.
  uint64_t perLine = std::min<uint64_t>(1024 / uint64_t(bitwidth), map.numIndices());
  std::vector<int64_t> cols = simpleShown(int64_t(perLine), o.maxCols, o.colHead, o.colTail);
  for (int64_t c : cols)
    header.push_back(c == kElided ? "..." : "b" + std::to_string(bankOf(uint64_t(c), bitwidth)));
  uint64_t linesPerBlock = map.numIndices() / perLine;
  uint64_t lines = linesPerBlock * map.numBlocks();
  for (int64_t li : simpleShown(int64_t(lines), o.maxRows, o.rowHead, o.rowTail)) {
    if (li == kElided) {
      labels.push_back("...");
      rows.emplace_back();
      continue;
    }
    uint32_t block = uint32_t(uint64_t(li) / linesPerBlock);
    uint64_t base = uint64_t(li) % linesPerBlock * perLine;
    std::string label = map.numBlocks() > 1 ? "C" + std::to_string(block) + ":" : "";
    labels.push_back(label + "offset " + std::to_string(base) + ":");
    std::vector<std::string> cells;
    for (int64_t c : cols)
      cells.push_back(c == kElided
                          ? "..."
                          : coordText(coordsOf(l.apply(inputOf(block, 0, 0, base + uint64_t(c))))));
    rows.push_back(cells);
  }
  return table(header, labels, rows);
}

} // namespace linlayout

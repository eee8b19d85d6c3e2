#include "linlayout/layout/CuteLayout.h"

#include <bit>
#include <cassert>
#include <cstdlib>

namespace linlayout {

namespace {

// CuTe's strides and offsets are signed 64-bit integers; a linear layout's
// dimension holds at most 63 bits. Offsets at or past this bound are refused on
// both paths.
constexpr uint64_t kOffsetLimit = uint64_t(1) << 63;

// ------------------------------------------------------------------------------------------------
// Parsing
// ------------------------------------------------------------------------------------------------

class Parser {
public:
  explicit Parser(std::string_view text) : text_(text) {}

  Expected<CuteLayout> layout() {
    CuteLayout result;
    skipSpace();
    if (startsWith("Swizzle<") || startsWith("Sw<")) {
      pos_ += startsWith("Sw<") ? 3 : 8;
      LL_ASSIGN_OR_RETURN(int64_t b, integer("the swizzle's B"));
      LL_TRY_STATUS(expect(','));
      LL_ASSIGN_OR_RETURN(int64_t m, integer("the swizzle's M"));
      LL_TRY_STATUS(expect(','));
      LL_ASSIGN_OR_RETURN(int64_t s, integer("the swizzle's S"));
      LL_TRY_STATUS(expect('>'));
      if (b < 0 || m < 0)
        return makeError("Swizzle<" + std::to_string(b) + "," + std::to_string(m) + "," +
                         std::to_string(s) + "> has a negative B or M");
      if (std::llabs(s) < b)
        return makeError("Swizzle<" + std::to_string(b) + "," + std::to_string(m) + "," +
                         std::to_string(s) + "> has |S| < B (CuTe requires |S| >= B)");
      if (b + m + std::llabs(s) > 63)
        return makeError("Swizzle<" + std::to_string(b) + "," + std::to_string(m) + "," +
                         std::to_string(s) + "> reaches past bit 63");
      result.swizzle = CuteSwizzle{int(b), int(m), int(s)};
      LL_TRY_STATUS(compose());
      // `Sw<..> o 0 o L`: CuTe's ComposedLayout prints the offset between
      // swizzle and layout.
      size_t save = pos_;
      if (peekDigitOrUnderscore()) {
        LL_ASSIGN_OR_RETURN(int64_t offset, integer("the offset"));
        skipSpace();
        if (atCompose()) {
          if (offset != 0)
            return makeError("the offset " + std::to_string(offset) +
                             " makes the layout affine, not linear: a linear "
                             "layout maps index "
                             "0 to offset 0");
          LL_TRY_STATUS(compose());
        } else {
          pos_ = save;
        }
      }
    }
    LL_ASSIGN_OR_RETURN(CuteNode shape, tree(0, "a shape"));
    skipSpace();
    if (pos_ < text_.size() && text_[pos_] == ':') {
      ++pos_;
      LL_ASSIGN_OR_RETURN(CuteNode stride, tree(0, "a stride"));
      LL_TRY_STATUS(merge(shape, stride, "the stride"));
    } else {
      int64_t next = 1;
      defaultStrides(shape, next);
    }
    skipSpace();
    if (pos_ != text_.size())
      return error("expected the end of the layout");
    result.root = std::move(shape);
    return result;
  }

private:
  static constexpr int kMaxDepth = 32;

  bool startsWith(std::string_view s) const { return text_.substr(pos_, s.size()) == s; }
  void skipSpace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                                   text_[pos_] == '\n' || text_[pos_] == '\r'))
      ++pos_;
  }
  bool peekDigitOrUnderscore() {
    skipSpace();
    return pos_ < text_.size() &&
           ((text_[pos_] >= '0' && text_[pos_] <= '9') || text_[pos_] == '_');
  }
  bool atCompose() const { return startsWith("o ") || startsWith("o(") || startsWith("∘"); }

  Error error(const std::string &what) const {
    std::string near(text_.substr(pos_, 20));
    return Error{"cute layout: " + what + " at column " + std::to_string(pos_ + 1) +
                 (near.empty() ? std::string(" (the end)") : " ('" + near + "')")};
  }

  Status expect(char c) {
    skipSpace();
    if (pos_ >= text_.size() || text_[pos_] != c)
      return error(std::string("expected '") + c + "'");
    ++pos_;
    return {};
  }

  Status compose() {
    skipSpace();
    if (startsWith("∘")) {
      pos_ += std::string_view("∘").size();
      return {};
    }
    if (!atCompose())
      return error("expected 'o' (composition) after the swizzle");
    ++pos_;
    return {};
  }

  // An integer, CuTe's static `_8` included.
  Expected<int64_t> integer(const char *what) {
    skipSpace();
    size_t start = pos_;
    if (pos_ < text_.size() && text_[pos_] == '_')
      ++pos_;
    bool negative = pos_ < text_.size() && text_[pos_] == '-';
    if (negative)
      ++pos_;
    if (pos_ >= text_.size() || text_[pos_] < '0' || text_[pos_] > '9')
      return error(std::string("expected ") + what);
    int64_t v = 0;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
      if (v > (int64_t(1) << 58)) {
        pos_ = start;
        return error(std::string(what) + " is too large");
      }
      v = v * 10 + (text_[pos_++] - '0');
    }
    return negative ? -v : v;
  }

  Expected<CuteNode> tree(int depth, const char *what) {
    if (depth > kMaxDepth)
      return error("tuples nest deeper than 32");
    skipSpace();
    CuteNode node;
    if (pos_ < text_.size() && text_[pos_] == '(') {
      ++pos_;
      node.isTuple = true;
      skipSpace();
      if (pos_ < text_.size() && text_[pos_] == ')') {
        ++pos_;
        return node;
      }
      while (true) {
        LL_ASSIGN_OR_RETURN(CuteNode child, tree(depth + 1, what));
        node.children.push_back(std::move(child));
        skipSpace();
        if (pos_ < text_.size() && text_[pos_] == ',') {
          ++pos_;
          continue;
        }
        LL_TRY_STATUS(expect(')'));
        return node;
      }
    }
    LL_ASSIGN_OR_RETURN(int64_t v, integer(what));
    node.size = v;
    return node;
  }

  // Moves the stride tree's integers into the shape tree's leaves.
  Status merge(CuteNode &shape, const CuteNode &stride, const std::string &where) {
    if (shape.isTuple != stride.isTuple ||
        (shape.isTuple && shape.children.size() != stride.children.size()))
      return makeError("cute layout: the stride is not congruent to the shape: " + where +
                       (shape.isTuple ? " should be a tuple of " +
                                            std::to_string(shape.children.size()) + " modes"
                                      : " should be an integer"));
    if (!shape.isTuple) {
      if (shape.size < 1)
        return makeError("cute layout: a shape of " + std::to_string(shape.size) +
                         " (sizes are at least 1)");
      if (stride.size < 0)
        return makeError("cute layout: the stride " + std::to_string(stride.size) +
                         " is negative: a linear layout's offsets are sums of bits, never "
                         "differences");
      shape.stride = stride.size;
      return {};
    }
    for (size_t i = 0; i < shape.children.size(); ++i)
      LL_TRY_STATUS(
          merge(shape.children[i], stride.children[i], where + " mode " + std::to_string(i)));
    return {};
  }

  // CuTe's default for a shape alone: compact, first mode fastest (LayoutLeft).
  static void defaultStrides(CuteNode &node, int64_t &next) {
    if (!node.isTuple) {
      node.stride = node.size == 1 ? 0 : next;
      if (next < (int64_t(1) << 62) / std::max<int64_t>(node.size, 1))
        next *= std::max<int64_t>(node.size, 1);
      else
        next = int64_t(1) << 62;
      return;
    }
    for (CuteNode &c : node.children)
      defaultStrides(c, next);
  }

  std::string_view text_;
  size_t pos_ = 0;
};

void printTree(const CuteNode &n, bool strides, std::string &out) {
  if (!n.isTuple) {
    out += std::to_string(strides ? n.stride : n.size);
    return;
  }
  out += '(';
  for (size_t i = 0; i < n.children.size(); ++i) {
    if (i)
      out += ',';
    printTree(n.children[i], strides, out);
  }
  out += ')';
}

// ------------------------------------------------------------------------------------------------
// CuTe -> linear
// ------------------------------------------------------------------------------------------------

struct Step {
  uint64_t offset; // the offset of this single index bit
  int mode;        // top-level mode
  int bit;         // bit within the mode's index
  int64_t stride;  // the leaf's stride
};

Status collect(const CuteNode &n, int mode, int &bit, std::vector<Step> &steps) {
  if (n.isTuple) {
    for (const CuteNode &c : n.children)
      LL_TRY_STATUS(collect(c, mode, bit, steps));
    return {};
  }
  if (!std::has_single_bit(uint64_t(n.size)))
    return makeError("cute mode " + std::to_string(mode) + " has a leaf of size " +
                     std::to_string(n.size) +
                     ", not a power of two: a linear layout's dimensions are powers of two");
  int k = std::countr_zero(uint64_t(n.size));
  for (int j = 0; j < k; ++j) {
    uint64_t s = uint64_t(n.stride);
    if (s != 0 && (j >= 63 || s >= (kOffsetLimit >> j)))
      return makeError("cute mode " + std::to_string(mode) + ": stride " +
                       std::to_string(n.stride) + " over size " + std::to_string(n.size) +
                       " reaches offsets past 2^63");
    steps.push_back({s << j, mode, bit + j, n.stride});
  }
  bit += k;
  return {};
}

// Flat colexicographic index of one bit of one mode.
uint64_t flatIndex(const std::vector<int> &modeOffsets, const Step &s) {
  return uint64_t(1) << (modeOffsets[s.mode] + s.bit);
}

std::string modeBit(const Step &s) {
  return "bit " + std::to_string(s.bit) + " of mode " + std::to_string(s.mode);
}

} // namespace

uint64_t CuteSwizzle::apply(uint64_t offset) const {
  if (bits == 0)
    return offset;
  uint64_t mask = (uint64_t(1) << bits) - 1;
  uint64_t yyy = mask << (base + std::max(0, shift));
  uint64_t moved = offset & yyy;
  return offset ^ (shift >= 0 ? moved >> shift : moved << -shift);
}

std::string CuteLayout::toString() const {
  std::string out;
  if (swizzle)
    out += "Sw<" + std::to_string(swizzle->bits) + "," + std::to_string(swizzle->base) + "," +
           std::to_string(swizzle->shift) + "> o ";
  printTree(root, false, out);
  out += ':';
  printTree(root, true, out);
  return out;
}

Expected<CuteLayout> parseCuteLayout(std::string_view text) { return Parser(text).layout(); }

Expected<LinearLayout> cuteToLinear(const CuteLayout &layout, const CuteReadOptions &options) {
  std::vector<const CuteNode *> modes;
  if (layout.root.isTuple)
    for (const CuteNode &c : layout.root.children)
      modes.push_back(&c);
  else
    modes.push_back(&layout.root);
  if (int(modes.size()) > LinearLayout::kMaxDims)
    return makeError("cute layout has " + std::to_string(modes.size()) +
                     " top-level modes, more than " + std::to_string(LinearLayout::kMaxDims));
  if (!options.inDims.empty() && options.inDims.size() != modes.size())
    return makeError("cute layout has " + std::to_string(modes.size()) + " top-level modes but " +
                     std::to_string(options.inDims.size()) + " input dimension names were given");

  std::vector<Step> steps;
  std::vector<int> modeBits, modeOffsets;
  for (size_t m = 0; m < modes.size(); ++m) {
    int bit = 0;
    LL_TRY_STATUS(collect(*modes[m], int(m), bit, steps));
    modeOffsets.push_back(modeOffsets.empty() ? 0 : modeOffsets.back() + modeBits.back());
    modeBits.push_back(bit);
  }
  if (steps.size() > size_t(LinearLayout::kMaxBits))
    return makeError("cute layout has " + std::to_string(steps.size()) +
                     " index bits, more than 64");

  // CuTe sums the steps' offsets; the sum is their XOR for every index exactly
  // when no two nonzero offsets share a bit (two that do carry at the index
  // that sets both).
  uint64_t seen = 0;
  for (size_t i = 0; i < steps.size(); ++i) {
    if ((seen & steps[i].offset) == 0) {
      seen |= steps[i].offset;
      continue;
    }
    size_t j = 0;
    while ((steps[j].offset & steps[i].offset) == 0)
      ++j;
    const Step &a = steps[j], &b = steps[i];
    uint64_t ia = flatIndex(modeOffsets, a), ib = flatIndex(modeOffsets, b);
    std::string why;
    for (const Step *s : {&a, &b})
      if (!std::has_single_bit(uint64_t(s->stride)) && why.empty())
        why = " (the stride " + std::to_string(s->stride) + " is not a power of two)";
    if (why.empty() && a.offset == b.offset)
      why = " (two steps reach the same offset: the strides overlap)";
    return makeError(
        "cute layout " + layout.toString() + " is not linear over F2: index " + std::to_string(ia) +
        " (" + modeBit(a) + ") has offset " + std::to_string(a.offset) + " and index " +
        std::to_string(ib) + " (" + modeBit(b) + ") offset " + std::to_string(b.offset) +
        ", so index " + std::to_string(ia | ib) + " has offset " +
        std::to_string(a.offset + b.offset) + ", not " + std::to_string(a.offset) + " xor " +
        std::to_string(b.offset) + " = " + std::to_string(a.offset ^ b.offset) + why);
  }

  std::vector<uint64_t> cols;
  uint64_t reach = 0;
  for (const Step &s : steps) {
    uint64_t c = layout.swizzle ? layout.swizzle->apply(s.offset) : s.offset;
    cols.push_back(c);
    reach |= c;
  }
  uint64_t outSize = reach ? uint64_t(1) << std::bit_width(reach) : 1;
  if (reach >= kOffsetLimit)
    return makeError("cute layout " + layout.toString() + " reaches offsets past 2^63");
  if (options.outSize) {
    if (!std::has_single_bit(*options.outSize))
      return makeError("the offset size " + std::to_string(*options.outSize) +
                       " is not a power of two");
    if (*options.outSize < outSize)
      return makeError("cute layout " + layout.toString() + " reaches offset " +
                       std::to_string(outSize - 1) + ", past the offset size " +
                       std::to_string(*options.outSize));
    outSize = *options.outSize;
  }

  std::vector<DimSize> ins;
  for (size_t m = 0; m < modes.size(); ++m) {
    DimName name = options.inDims.empty() ? DimName::dim(int(m)) : options.inDims[m];
    ins.push_back({name, uint64_t(1) << modeBits[m]});
  }
  DimSize out{options.outDim, outSize};
  return LinearLayout::fromColumns(ins, std::span<const DimSize>(&out, 1), cols);
}

Expected<LinearLayout> cuteToShared(const CuteLayout &layout) {
  LL_ASSIGN_OR_RETURN(LinearLayout map, cuteToLinear(layout));
  if (auto inv = map.tryInvert())
    return *inv;
  std::string text = layout.toString();
  if (!map.isInjective()) {
    uint64_t k = map.kernelBasis().front();
    return makeError("cute layout " + text +
                     " is not a bijection, so it has no shared-memory "
                     "form: index " +
                     std::to_string(k) + " has offset 0, as index 0 does");
  }
  return makeError("cute layout " + text +
                   " is not a bijection, so it has no shared-memory "
                   "form: it reaches " +
                   std::to_string(uint64_t(1) << map.rank()) + " of the " +
                   std::to_string(map.outDimSize(DimName::offset())) + " offsets below " +
                   std::to_string(map.outDimSize(DimName::offset())));
}

// ------------------------------------------------------------------------------------------------
// linear -> CuTe
// ------------------------------------------------------------------------------------------------

namespace {

// The first column sharing a bit with an earlier one, as (earlier, later);
// nullopt when the nonzero columns are disjoint.
std::optional<std::pair<int, int>> firstOverlap(std::span<const uint64_t> cols) {
  uint64_t seen = 0;
  for (size_t i = 0; i < cols.size(); ++i) {
    if ((seen & cols[i]) == 0) {
      seen |= cols[i];
      continue;
    }
    for (size_t j = 0; j < i; ++j)
      if (cols[j] & cols[i])
        return std::make_pair(int(j), int(i));
  }
  return std::nullopt;
}

// One mode from its columns: maximal runs of doubling (or zero) offsets become
// leaves.
CuteNode modeNode(std::span<const uint64_t> cols) {
  std::vector<CuteNode> leaves;
  size_t j = 0;
  while (j < cols.size()) {
    size_t end = j + 1;
    auto doubles = [&](uint64_t a, uint64_t b) {
      return a == 0 ? b == 0 : (a < kOffsetLimit && b == a << 1);
    };
    while (end < cols.size() && doubles(cols[end - 1], cols[end]))
      ++end;
    CuteNode leaf;
    leaf.size = int64_t(1) << (end - j);
    leaf.stride = int64_t(cols[j]);
    leaves.push_back(leaf);
    j = end;
  }
  if (leaves.empty())
    return CuteNode{1, 0, {}, false};
  if (leaves.size() == 1)
    return leaves[0];
  CuteNode t;
  t.isTuple = true;
  t.children = std::move(leaves);
  return t;
}

} // namespace

Expected<CuteLayout> linearToCute(const LinearLayout &layout) {
  int n = layout.totalOutBits();
  int bits = layout.totalInBits();
  std::vector<uint64_t> cols(bits);
  for (int b = 0; b < bits; ++b)
    cols[b] = layout.column(b);

  CuteLayout result;
  std::vector<uint64_t> base = cols;
  if (auto clash = firstOverlap(cols)) {
    // CuTe's swizzles keep [0, 2^n) when B + M + |S| <= n; the smallest B is
    // tried first.
    bool found = false;
    for (int b = 1; b <= n && !found; ++b)
      for (int s = b; b + s <= n && !found; ++s)
        for (int sign : {1, -1}) {
          for (int m = 0; b + m + s <= n && !found; ++m) {
            CuteSwizzle sw{b, m, sign * s};
            for (int i = 0; i < bits; ++i)
              base[i] = sw.apply(cols[i]);
            if (!firstOverlap(base)) {
              result.swizzle = sw;
              found = true;
            }
          }
          if (found)
            break;
        }
    if (!found) {
      auto name = [&](int bit) {
        int d = 0;
        while (bit >= layout.inDimOffset(d) + layout.inDimBits(d))
          ++d;
        return "basis " + std::to_string(bit - layout.inDimOffset(d)) + " of '" +
               std::string(layout.inDimName(d).str()) + "' (offset " + std::to_string(cols[bit]) +
               ")";
      };
      return makeError("the layout has no CuTe form: " + name(clash->first) + " and " +
                       name(clash->second) +
                       " share an offset bit, so CuTe's sum of strides would carry, and no "
                       "Swizzle<B,M,S> separates them");
    }
  }
  for (uint64_t c : base)
    if (c >= kOffsetLimit)
      return makeError("the layout has no CuTe form: an offset of " + std::to_string(c) +
                       " is past CuTe's signed 64-bit strides");

  CuteNode root;
  root.isTuple = true;
  for (int d = 0; d < layout.numInDims(); ++d) {
    auto span = std::span<const uint64_t>(base).subspan(layout.inDimOffset(d), layout.inDimBits(d));
    root.children.push_back(modeNode(span));
  }
  // One mode that is a single leaf prints as CuTe prints a rank-1 layout,
  // `8:1`.
  if (root.children.size() == 1 && !root.children[0].isTuple)
    result.root = root.children[0];
  else
    result.root = std::move(root);
  return result;
}

Expected<CuteLayout> sharedToCute(const LinearLayout &layout) {
  auto inv = layout.tryInvert();
  if (!inv)
    return makeError("the shared layout is not invertible (rank " + std::to_string(layout.rank()) +
                     " of " + std::to_string(layout.totalInBits()) + " offset bits and " +
                     std::to_string(layout.totalOutBits()) +
                     " tensor bits), so no CuTe layout maps its coordinates to its offsets");
  return linearToCute(*inv);
}

} // namespace linlayout

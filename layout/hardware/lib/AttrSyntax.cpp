#include "linlayout/layout/AttrSyntax.h"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <limits>
#include <utility>
#include <variant>

namespace linlayout {

namespace {

// The longest list the parser reads (layout lists have a handful of entries; this only stops
// hostile input from allocating without bound before the families check their limits).
constexpr size_t kMaxListItems = 4096;

// The short name of a dialect written in full (`triton_gpu` is `ttg`).
std::string_view shortDialect(std::string_view d) {
  if (d == "triton_gpu")
    return "ttg";
  if (d == "triton_nvidia_gpu")
    return "ttng";
  return d;
}

// Whether `m` is the mnemonic (or older mnemonic) of family T.
template <typename T> bool isMnemonicOf(std::string_view m) {
  return m == T::kAttr.name || (!T::kAttr.oldName.empty() && m == T::kAttr.oldName);
}

template <size_t... I> bool isMnemonicIn(std::string_view m, std::index_sequence<I...>) {
  return (isMnemonicOf<std::variant_alternative_t<I, LayoutSpec::Variant>>(m) || ...);
}

bool isLayoutMnemonic(std::string_view m) {
  return isMnemonicIn(m, std::make_index_sequence<std::variant_size_v<LayoutSpec::Variant>>());
}

// The dialect (short name) whose layout `m` is; "" when no family has that mnemonic.
template <size_t... I> std::string_view dialectOfIn(std::string_view m, std::index_sequence<I...>) {
  std::string_view d;
  (void)((isMnemonicOf<std::variant_alternative_t<I, LayoutSpec::Variant>>(m)
              ? (d = std::variant_alternative_t<I, LayoutSpec::Variant>::kAttr.dialect, true)
              : false) ||
         ...);
  return d;
}

std::string_view dialectOf(std::string_view m) {
  return dialectOfIn(m, std::make_index_sequence<std::variant_size_v<LayoutSpec::Variant>>());
}

// "blocked, slice, ...": the mnemonics read, in the order of the variant.
template <size_t... I> std::string knownList(std::index_sequence<I...>) {
  std::string s;
  ((s += (s.empty() ? "" : ", ") +
         std::string(std::variant_alternative_t<I, LayoutSpec::Variant>::kAttr.name)),
   ...);
  return s;
}

const std::string &kKnownList() {
  static const std::string s =
      knownList(std::make_index_sequence<std::variant_size_v<LayoutSpec::Variant>>());
  return s;
}

// The key under which a body's leading list (`<[32:+4] {...}>`) is kept among its fields.
constexpr std::string_view kLeadingKey = "[";

bool isTritonGpuDialect(std::string_view d) { return d == "ttg" || d == "triton_gpu"; }

// Dialects whose `#dialect.name` is an attribute rather than an alias that contains a dot.
bool isKnownDialect(std::string_view d) {
  return isTritonGpuDialect(d) || d == "ttng" || d == "triton_nvidia_gpu" || d == "tt" ||
         d == "amdg" || d == "amdgpu" || d == "triton_amdgpu" || d == "llvm" || d == "nvvm" ||
         d == "gpu" || d == "proton";
}

bool isIdentStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool isIdentChar(char c) { return isIdentStart(c) || (c >= '0' && c <= '9') || c == '$'; }
bool isDigit(char c) { return c >= '0' && c <= '9'; }

// "line:column: " of a byte offset, both 1-based.
std::string where(std::string_view text, size_t pos) {
  pos = std::min(pos, text.size());
  size_t line = 1, lineStart = 0;
  for (size_t i = 0; i < pos; ++i)
    if (text[i] == '\n') {
      ++line;
      lineStart = i + 1;
    }
  return std::to_string(line) + ":" + std::to_string(pos - lineStart + 1) + ": ";
}

// A parsed attribute value, before it is understood as a layout.
struct Node {
  enum class Kind { Int, Bool, List, Attr, Alias, Pair };
  Kind kind = Kind::Int;
  size_t pos = 0;
  int64_t value = 0, value2 = 0; // Pair: `value:+value2`, only as a list item
  bool flag = false;
  std::vector<Node> items;       // List
  std::string dialect, name;     // Attr: dialect and mnemonic; Alias: name in `name`
  bool hasBody = false;          // Attr written with <...>
  std::vector<std::string> keys; // Attr fields, in order; values in `items`
  std::vector<size_t> keyPos;
};

class Parser {
public:
  Parser(std::string_view text, size_t pos) : t_(text), p_(pos) {}

  Expected<Node> value(int depth) {
    skipSpace();
    if (depth > kMaxAttrDepth)
      return err(p_, "nesting deeper than " + std::to_string(kMaxAttrDepth) + " levels");
    if (p_ >= t_.size())
      return err(p_, "expected a value, found the end of the text");
    char c = t_[p_];
    if (c == '[')
      return list(depth);
    if (c == '#')
      return hash(depth);
    if (c == '-' || isDigit(c))
      return integer();
    if (isIdentStart(c)) {
      size_t start = p_;
      std::string word = ident();
      if (word == "true" || word == "false") {
        Node n;
        n.kind = Node::Kind::Bool;
        n.pos = start;
        n.flag = word == "true";
        return n;
      }
      return err(start, "expected a value (a number, true, false, a list or an attribute), "
                        "found '" +
                            word + "'");
    }
    return err(p_, "expected a value (a number, true, false, a list or an attribute), found " +
                       found());
  }

  void skipSpace() {
    while (p_ < t_.size() && (t_[p_] == ' ' || t_[p_] == '\t' || t_[p_] == '\n' || t_[p_] == '\r'))
      ++p_;
  }
  size_t pos() const { return p_; }
  std::string found() const {
    if (p_ >= t_.size())
      return "the end of the text";
    char c = t_[p_];
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f)
      return "a byte " + std::to_string(static_cast<unsigned char>(c));
    return std::string("'") + c + "'";
  }
  Error err(size_t pos, const std::string &msg) const { return makeError(where(t_, pos) + msg); }

private:
  std::string ident() {
    size_t start = p_;
    while (p_ < t_.size() && isIdentChar(t_[p_]))
      ++p_;
    return std::string(t_.substr(start, p_ - start));
  }

  Expected<Node> integer() {
    Node n;
    n.kind = Node::Kind::Int;
    n.pos = p_;
    bool neg = false;
    if (t_[p_] == '-') {
      neg = true;
      ++p_;
    }
    if (p_ >= t_.size() || !isDigit(t_[p_]))
      return err(p_, "expected digits, found " + found());
    uint64_t v = 0;
    while (p_ < t_.size() && isDigit(t_[p_])) {
      uint64_t d = uint64_t(t_[p_] - '0');
      if (v > (uint64_t(std::numeric_limits<int64_t>::max()) - d) / 10)
        return err(n.pos, "integer too large");
      v = v * 10 + d;
      ++p_;
    }
    if (p_ < t_.size() && isIdentChar(t_[p_]))
      return err(p_, "expected a separator after the number, found " + found());
    n.value = neg ? -int64_t(v) : int64_t(v);
    return n;
  }

  Expected<Node> list(int depth) {
    Node n;
    n.kind = Node::Kind::List;
    n.pos = p_;
    ++p_; // '['
    skipSpace();
    if (p_ < t_.size() && t_[p_] == ']') {
      ++p_;
      return n;
    }
    while (true) {
      if (n.items.size() >= kMaxListItems)
        return err(n.pos, "list longer than " + std::to_string(kMaxListItems) + " items");
      LL_ASSIGN_OR_RETURN(Node item, value(depth + 1));
      skipSpace();
      // `a:+b`, as padded_shared writes its interval and padding pairs.
      if (item.kind == Node::Kind::Int && p_ < t_.size() && t_[p_] == ':') {
        ++p_;
        if (p_ >= t_.size() || t_[p_] != '+')
          return err(p_, "expected '+' after ':' in a pair like 32:+4, found " + found());
        ++p_;
        if (p_ >= t_.size() || !isDigit(t_[p_]))
          return err(p_, "expected digits after ':+', found " + found());
        LL_ASSIGN_OR_RETURN(Node second, integer());
        item.kind = Node::Kind::Pair;
        item.value2 = second.value;
        skipSpace();
      }
      n.items.push_back(std::move(item));
      if (p_ < t_.size() && t_[p_] == ',') {
        ++p_;
        continue;
      }
      if (p_ < t_.size() && t_[p_] == ']') {
        ++p_;
        return n;
      }
      return err(p_, "expected ',' or ']' in a list, found " + found());
    }
  }

  Expected<Node> hash(int depth) {
    Node n;
    n.pos = p_;
    ++p_; // '#'
    if (p_ >= t_.size() || !(isIdentStart(t_[p_]) || isDigit(t_[p_])))
      return err(p_, "expected a name after '#', found " + found());
    std::string first;
    while (p_ < t_.size() && isIdentChar(t_[p_]))
      first += t_[p_++];
    // `#dialect.mnemonic` is an attribute; any other name (dots allowed) is an alias.
    if (p_ < t_.size() && t_[p_] == '.' && isKnownDialect(first)) {
      ++p_;
      size_t mpos = p_;
      std::string mnemonic = ident();
      if (mnemonic.empty())
        return err(mpos, "expected an attribute name after '#" + first + ".', found " + found());
      n.kind = Node::Kind::Attr;
      n.dialect = first;
      n.name = mnemonic;
      std::string_view layoutDialect = dialectOf(mnemonic);
      if (!isTritonGpuDialect(first) && shortDialect(first) != "ttng")
        return err(n.pos, "'#" + first + "." + mnemonic + "' is not a TritonGPU layout");
      if (layoutDialect.empty() && !isTritonGpuDialect(first))
        return err(n.pos, "'#" + first + "." + mnemonic + "' is not a TritonGPU layout");
      if (layoutDialect.empty())
        return err(n.pos, "unsupported layout '#" + first + "." + mnemonic + "' (linlayout reads " +
                              kKnownList() + ")");
      if (shortDialect(first) != layoutDialect)
        return err(n.pos, "'" + mnemonic + "' is a layout of #" + std::string(layoutDialect) +
                              ", not of #" + first);
      skipSpace();
      if (p_ < t_.size() && t_[p_] == '<') {
        n.hasBody = true;
        ++p_;
        LL_TRY_STATUS(body(n, depth));
      }
      return n;
    }
    while (p_ < t_.size() && (isIdentChar(t_[p_]) || t_[p_] == '.'))
      first += t_[p_++];
    n.kind = Node::Kind::Alias;
    n.name = first;
    return n;
  }

  // Fields of `<{k = v, ...}, k = v, ...>` (the braces optional), up to and including '>'.
  Status body(Node &n, int depth) {
    skipSpace();
    // A list before the fields (`<[32:+4] {...}>`) is kept as a field of its own.
    if (p_ < t_.size() && t_[p_] == '[') {
      size_t lpos = p_;
      LL_ASSIGN_OR_RETURN(Node l, list(depth + 1));
      n.keys.emplace_back(kLeadingKey);
      n.keyPos.push_back(lpos);
      n.items.push_back(std::move(l));
      skipSpace();
    }
    bool braces = p_ < t_.size() && t_[p_] == '{';
    if (braces) {
      ++p_;
      skipSpace();
      if (p_ < t_.size() && t_[p_] == '}') {
        ++p_;
      } else {
        LL_TRY_STATUS(fields(n, depth, '}'));
      }
      skipSpace();
      if (p_ < t_.size() && t_[p_] == ',') {
        ++p_;
        LL_TRY_STATUS(fields(n, depth, '>'));
        return Status::success();
      }
    } else if (p_ < t_.size() && t_[p_] != '>') {
      LL_TRY_STATUS(fields(n, depth, '>'));
      return Status::success();
    }
    skipSpace();
    if (p_ < t_.size() && t_[p_] == '>') {
      ++p_;
      return Status::success();
    }
    return err(p_, std::string("expected ") + (braces ? "',' or '>'" : "'>'") +
                       " to close the attribute, found " + found());
  }

  // `k = v (, k = v)*` followed by `close` (consumed).
  Status fields(Node &n, int depth, char close) {
    while (true) {
      skipSpace();
      size_t kpos = p_;
      if (p_ >= t_.size() || !isIdentStart(t_[p_]))
        return err(p_, "expected a field name, found " + found());
      std::string key = ident();
      if (std::find(n.keys.begin(), n.keys.end(), key) != n.keys.end())
        return err(kpos, "field '" + key + "' is given twice");
      skipSpace();
      if (p_ >= t_.size() || t_[p_] != '=')
        return err(p_, "expected '=' after '" + key + "', found " + found());
      ++p_;
      LL_ASSIGN_OR_RETURN(Node v, value(depth + 1));
      n.keys.push_back(key);
      n.keyPos.push_back(kpos);
      n.items.push_back(std::move(v));
      skipSpace();
      if (p_ < t_.size() && t_[p_] == ',') {
        ++p_;
        continue;
      }
      if (p_ < t_.size() && t_[p_] == close) {
        ++p_;
        return Status::success();
      }
      return err(p_, std::string("expected ',' or '") + close + "' after the value of '" + key +
                         "', found " + found());
    }
  }

  std::string_view t_;
  size_t p_;
};

// The families name their parameters as Gluon does (size_per_thread); attributes spell them as
// Triton does (sizePerThread), so the families' messages are translated.
std::string inAttrTerms(std::string msg) {
  static const std::pair<const char *, const char *> kNames[] = {
      {"block[0] (blockM)", "blockM"},
      {"block[1] (blockN)", "blockN"},
      {"col_stride", "colStride"},
      {"cta_split_num[0]", "CTASplitM"},
      {"cta_split_num[1]", "CTASplitN"},
      {"size_per_thread", "sizePerThread"},
      {"threads_per_warp", "threadsPerWarp"},
      {"warps_per_cta", "warpsPerCTA"},
      {"instr_shape", "instrShape"},
      {"operand_index", "opIdx"},
      {"k_width", "kWidth"},
      {"per_phase", "perPhase"},
      {"max_phase", "maxPhase"},
      {"swizzle_byte_width", "swizzlingByteWidth"},
      {"element_bitwidth", "elementBitWidth"},
      {"fp4_padded", "fp4Padded"},
      {"cga_layout", "CGALayout"},
      {"ctas_per_cga", "CTAsPerCGA"},
      {"cta_split_num", "CTASplitNum"},
      {"cta_order", "CTAOrder"},
      {"reg_bases", "register"},
      {"lane_bases", "lane"},
      {"warp_bases", "warp"},
      {"block_bases", "block"},
      {"offset_bases", "offset"},
      {"tiles_per_warp", "tilesPerWarp"}};
  for (const auto &[from, to] : kNames) {
    std::string f = from;
    for (size_t p = msg.find(f); p != std::string::npos; p = msg.find(f, p)) {
      bool start = p == 0 || !isIdentChar(msg[p - 1]);
      bool end = p + f.size() >= msg.size() || !isIdentChar(msg[p + f.size()]);
      if (start && end) {
        msg.replace(p, f.size(), to);
        p += std::string(to).size();
      } else {
        p += f.size();
      }
    }
  }
  return msg;
}

// Turns parsed nodes into layout specs: finds the family of a mnemonic and lets it read its
// fields through Fields.
class Builder {
public:
  Builder(std::string_view text, const AttrAliases &aliases, const AttrParseOptions &opts)
      : t_(text), aliases_(aliases), opts_(opts) {}

  Expected<LayoutSpec> spec(const Node &n) {
    if (n.kind == Node::Kind::Alias) {
      auto s = aliases_.lookup(n.name);
      if (!s.ok())
        return err(n.pos, s.message());
      return s;
    }
    if (n.kind != Node::Kind::Attr)
      return err(n.pos, "expected a layout attribute (#ttg.<layout><{...}>) or an alias (#name)");
    if (!n.hasBody)
      return err(n.pos, "'" + full(n) + "' needs its parameters in <{...}>");
    return familyOf(n, std::make_index_sequence<std::variant_size_v<LayoutSpec::Variant>>());
  }

private:
  static std::string full(const Node &n) { return "#" + n.dialect + "." + n.name; }
  Error err(size_t pos, const std::string &msg) const { return makeError(where(t_, pos) + msg); }

  template <size_t... I> Expected<LayoutSpec> familyOf(const Node &n, std::index_sequence<I...>) {
    std::optional<Expected<LayoutSpec>> r;
    (void)((isMnemonicOf<std::variant_alternative_t<I, LayoutSpec::Variant>>(n.name)
                ? (r.emplace(readAs<std::variant_alternative_t<I, LayoutSpec::Variant>>(n)), true)
                : false) ||
           ...);
    if (!r)
      return err(n.pos, "unsupported layout '" + full(n) + "'");
    return std::move(*r);
  }

  template <typename T> Expected<LayoutSpec> readAs(const Node &n) {
    Fields f(*this, n);
    return T::parseAttr(f);
  }

  // The fields of one attribute, each read at most once; unread fields are errors.
  class Fields final : public AttrFields {
  public:
    Fields(Builder &b, const Node &n) : b_(b), n_(n), used_(n.keys.size(), false) {}

    std::string full() const override { return Builder::full(n_); }
    bool has(std::string_view key) const override {
      return std::find(n_.keys.begin(), n_.keys.end(), key) != n_.keys.end();
    }

    Expected<int64_t> integer(std::string_view key) override {
      LL_ASSIGN_OR_RETURN(const Node *v, required(key));
      return integer(*v, key);
    }
    Expected<std::vector<int64_t>> ints(std::string_view key) override {
      LL_ASSIGN_OR_RETURN(const Node *v, required(key));
      return ints(*v, key);
    }
    Expected<bool> boolean(std::string_view key, bool dflt) override {
      const Node *v = get(key);
      if (!v)
        return dflt;
      if (v->kind != Node::Kind::Bool)
        return b_.err(v->pos,
                      "'" + std::string(key) + "' of '" + full() + "' must be true or false");
      return v->flag;
    }
    Expected<BasisList> bases(std::string_view key) override {
      const Node *v = get(key);
      if (!v)
        return BasisList{};
      return bases(*v, key);
    }
    Expected<std::optional<int64_t>> optInteger(std::string_view key) override {
      const Node *v = get(key);
      if (!v)
        return std::optional<int64_t>();
      LL_ASSIGN_OR_RETURN(int64_t i, integer(*v, key));
      return std::optional<int64_t>(i);
    }
    Expected<std::optional<std::vector<int64_t>>> optInts(std::string_view key) override {
      const Node *v = get(key);
      if (!v)
        return std::optional<std::vector<int64_t>>();
      LL_ASSIGN_OR_RETURN(auto l, ints(*v, key));
      return std::optional<std::vector<int64_t>>(std::move(l));
    }

    Expected<std::vector<std::pair<int64_t, int64_t>>> leadingPairs() override {
      const Node *v = get(kLeadingKey);
      if (!v)
        return b_.err(n_.pos, "'" + full() + "' needs a list [a:+b, ...] before its fields");
      std::vector<std::pair<int64_t, int64_t>> out;
      for (const Node &i : v->items) {
        if (i.kind != Node::Kind::Pair)
          return b_.err(i.pos, "the list of '" + full() + "' must hold pairs like 32:+4");
        out.emplace_back(i.value, i.value2);
      }
      return out;
    }

    Status require(std::string_view key) override {
      LL_ASSIGN_OR_RETURN(const Node *v, required(key));
      (void)v;
      return Status::success();
    }
    Expected<LayoutSpec> spec(std::string_view key) override {
      for (size_t i = 0; i < n_.keys.size(); ++i)
        if (n_.keys[i] == key)
          return b_.spec(n_.items[i]);
      return b_.err(n_.pos, "'" + full() + "' needs '" + std::string(key) + "'");
    }

    Expected<std::optional<CgaLayout>> cga(int rank) override {
      const Node *basesNode = get("CGALayout");
      bool legacy = has("CTAsPerCGA") || has("CTASplitNum") || has("CTAOrder");
      if (basesNode && legacy)
        return b_.err(basesNode->pos, "give the CTA split either as CGALayout or as CTAsPerCGA/"
                                      "CTASplitNum/CTAOrder, not both");
      if (basesNode) {
        LL_ASSIGN_OR_RETURN(BasisList b, bases(*basesNode, "CGALayout"));
        auto c = CgaLayout::fromBases(b, rank);
        if (!c.ok())
          return b_.err(basesNode->pos, c.message());
        return std::optional<CgaLayout>(*c);
      }
      if (!legacy)
        return std::optional<CgaLayout>();
      std::vector<int64_t> ones(size_t(std::max(rank, 0)), 1), order;
      for (int d = rank - 1; d >= 0; --d)
        order.push_back(d);
      std::vector<int64_t> ctas = ones, split = ones;
      if (const Node *v = get("CTAsPerCGA")) {
        LL_ASSIGN_OR_RETURN(ctas, ints(*v, "CTAsPerCGA"));
      }
      if (const Node *v = get("CTASplitNum")) {
        LL_ASSIGN_OR_RETURN(split, ints(*v, "CTASplitNum"));
      }
      if (const Node *v = get("CTAOrder")) {
        LL_ASSIGN_OR_RETURN(order, ints(*v, "CTAOrder"));
      }
      auto c = CgaLayout::fromSplit(ctas, split, order);
      if (!c.ok())
        return b_.err(n_.pos, c.message());
      return std::optional<CgaLayout>(*c);
    }
    std::optional<int> cgaRank() const override {
      if (const Node *v = peek("CGALayout")) {
        if (v->kind == Node::Kind::List && !v->items.empty() &&
            v->items[0].kind == Node::Kind::List)
          return int(v->items[0].items.size());
        return std::nullopt;
      }
      std::optional<int> rank;
      for (const char *k : {"CTAsPerCGA", "CTASplitNum", "CTAOrder"})
        if (const Node *v = peek(k); v && v->kind == Node::Kind::List)
          rank = int(v->items.size());
      return rank;
    }
    std::optional<int> rankHint() const override { return b_.opts_.rank; }

    Status done(std::initializer_list<const char *> accepted) override {
      for (size_t i = 0; i < n_.keys.size(); ++i) {
        if (used_[i])
          continue;
        if (n_.keys[i] == kLeadingKey)
          return b_.err(n_.items[i].pos, "'" + full() + "' takes no list before its fields");
        std::string names;
        for (const char *a : accepted)
          names += (names.empty() ? "" : ", ") + std::string(a);
        return b_.err(n_.keyPos[i], "'" + full() + "' has no field '" + n_.keys[i] +
                                        "' (its fields: " + names + ")");
      }
      return Status::success();
    }

    Error error(const std::string &message) const override { return b_.err(n_.pos, message); }
    Error errorAt(std::string_view key, const std::string &message) const override {
      const Node *v = peek(key);
      return b_.err(v ? v->pos : n_.pos, message);
    }
    Error familyError(const std::string &message) const override {
      return b_.err(n_.pos, inAttrTerms(message));
    }

  private:
    const Node *peek(std::string_view key) const {
      for (size_t i = 0; i < n_.keys.size(); ++i)
        if (n_.keys[i] == key)
          return &n_.items[i];
      return nullptr;
    }
    const Node *get(std::string_view key) {
      for (size_t i = 0; i < n_.keys.size(); ++i)
        if (n_.keys[i] == key) {
          used_[i] = true;
          return &n_.items[i];
        }
      return nullptr;
    }
    Expected<const Node *> required(std::string_view key) {
      const Node *v = get(key);
      if (!v)
        return b_.err(n_.pos, "'" + full() + "' needs '" + std::string(key) + "'");
      return v;
    }
    Expected<int64_t> integer(const Node &v, std::string_view key) {
      if (v.kind != Node::Kind::Int)
        return b_.err(v.pos, "'" + std::string(key) + "' of '" + full() + "' must be an integer");
      return v.value;
    }
    Expected<std::vector<int64_t>> ints(const Node &v, std::string_view key) {
      if (v.kind != Node::Kind::List)
        return b_.err(v.pos, "'" + std::string(key) + "' of '" + full() +
                                 "' must be a list of integers like [1, 0]");
      std::vector<int64_t> out;
      for (const Node &i : v.items) {
        if (i.kind != Node::Kind::Int)
          return b_.err(i.pos,
                        "'" + std::string(key) + "' of '" + full() + "' must hold integers only");
        out.push_back(i.value);
      }
      return out;
    }
    Expected<BasisList> bases(const Node &v, std::string_view key) {
      if (v.kind != Node::Kind::List)
        return b_.err(v.pos, "'" + std::string(key) + "' of '" + full() +
                                 "' must be a list of bases like [[0, 1], [1, 0]]");
      BasisList out;
      for (const Node &i : v.items) {
        LL_ASSIGN_OR_RETURN(auto basis, ints(i, key));
        out.push_back(std::move(basis));
      }
      return out;
    }

    Builder &b_;
    const Node &n_;
    std::vector<bool> used_;
  };

  std::string_view t_;
  const AttrAliases &aliases_;
  AttrParseOptions opts_;
};
} // namespace

void AttrAliases::define(std::string name, LayoutSpec spec) {
  entries_.insert_or_assign(std::move(name), Entry{std::move(spec), ""});
}

void AttrAliases::defineOther(std::string name, std::string what) {
  entries_.insert_or_assign(std::move(name), Entry{std::nullopt, std::move(what)});
}

Expected<LayoutSpec> AttrAliases::lookup(std::string_view name) const {
  auto it = entries_.find(name);
  if (it == entries_.end())
    return makeError("alias '#" + std::string(name.substr(0, 64)) + "' is not defined");
  if (!it->second.spec)
    return makeError("alias '#" + std::string(name) + "' is " + it->second.other +
                     ", not a layout");
  return *it->second.spec;
}

std::vector<std::string> AttrAliases::names() const {
  std::vector<std::string> out;
  for (const auto &e : entries_)
    out.push_back(e.first);
  return out;
}

Expected<LayoutSpec> parseLayoutAttr(std::string_view text, const AttrAliases &aliases,
                                     const AttrParseOptions &options) {
  Parser p(text, 0);
  p.skipSpace();
  if (p.pos() >= text.size())
    return makeError(where(text, 0) + "expected a layout attribute, found the end of the text");
  if (text[p.pos()] != '#')
    return p.err(p.pos(), "expected a layout attribute (#ttg.<layout><{...}>) or an alias "
                          "(#name), found " +
                              p.found());
  LL_ASSIGN_OR_RETURN(Node n, p.value(0));
  p.skipSpace();
  if (p.pos() < text.size())
    return p.err(p.pos(), "unexpected " + p.found() + " after the attribute");
  return Builder(text, aliases, options).spec(n);
}

Expected<AttrAliases> parseAttrAliases(std::string_view dump) {
  AttrAliases aliases;
  size_t lineStart = 0;
  while (lineStart < dump.size()) {
    size_t lineEnd = dump.find('\n', lineStart);
    if (lineEnd == std::string_view::npos)
      lineEnd = dump.size();
    size_t p = lineStart;
    while (p < lineEnd && (dump[p] == ' ' || dump[p] == '\t'))
      ++p;
    if (p < lineEnd && dump[p] == '#') {
      size_t nameStart = p + 1, q = nameStart;
      while (q < lineEnd && (isIdentChar(dump[q]) || dump[q] == '.'))
        ++q;
      std::string name(dump.substr(nameStart, q - nameStart));
      size_t eq = q;
      while (eq < lineEnd && (dump[eq] == ' ' || dump[eq] == '\t'))
        ++eq;
      if (!name.empty() && eq < lineEnd && dump[eq] == '=' &&
          (eq + 1 >= lineEnd || dump[eq + 1] != '=')) {
        size_t rhs = eq + 1;
        while (rhs < lineEnd && (dump[rhs] == ' ' || dump[rhs] == '\t'))
          ++rhs;
        std::string_view value = dump.substr(rhs, lineEnd - rhs);
        // A TritonGPU layout or an alias of one is read strictly; anything else (locations,
        // memory spaces, other dialects' attributes) is only remembered as not a layout.
        bool layoutLike = false;
        for (std::string_view prefix : {"#ttg.", "#triton_gpu.", "#ttng.", "#triton_nvidia_gpu."})
          if (value.substr(0, prefix.size()) == prefix) {
            size_t m = prefix.size(), e = m;
            while (e < value.size() && isIdentChar(value[e]))
              ++e;
            layoutLike = isLayoutMnemonic(value.substr(m, e - m));
          }
        bool aliasOfAlias = value.size() > 1 && value[0] == '#' &&
                            aliases.contains(value.substr(1, value.find_first_of(" \t\r") - 1));
        if (layoutLike || aliasOfAlias) {
          Parser parser(dump, rhs);
          LL_ASSIGN_OR_RETURN(Node n, parser.value(0));
          // The definition may span lines; after it, only spaces or a comment on its last line.
          size_t end = parser.pos();
          size_t eol = std::min(dump.find('\n', end), dump.size());
          size_t k = end;
          while (k < eol && (dump[k] == ' ' || dump[k] == '\t' || dump[k] == '\r'))
            ++k;
          if (k < eol && dump.substr(k, 2) != "//")
            return makeError(where(dump, k) + "unexpected " + Parser(dump, k).found() +
                             " after the definition of '#" + name + "'");
          LL_ASSIGN_OR_RETURN(LayoutSpec spec, Builder(dump, aliases, {}).spec(n));
          aliases.define(name, std::move(spec));
          lineEnd = eol;
        } else {
          std::string what(value.substr(0, 60));
          while (!what.empty() && (what.back() == '\r' || what.back() == ' '))
            what.pop_back();
          aliases.defineOther(name, "'" + what + (value.size() > 60 ? "...'" : "'"));
        }
      }
    }
    lineStart = lineEnd + 1;
  }
  return aliases;
}

} // namespace linlayout

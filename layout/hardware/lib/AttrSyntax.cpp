#include "linlayout/layout/AttrSyntax.h"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <limits>

namespace linlayout {

namespace {

// The longest list the parser reads (layout lists have a handful of entries; this only stops
// hostile input from allocating without bound before the families check their limits).
constexpr size_t kMaxListItems = 4096;

const char *const kLayoutMnemonics[] = {"blocked", "slice",           "nvidia_mma", "mma",
                                        "dot_op",  "swizzled_shared", "shared",     "nvmma_shared",
                                        "linear",  "shared_linear",   "amd_mfma",   "amd_wmma"};
const char *const kKnownList = "blocked, slice, nvidia_mma, dot_op, swizzled_shared, "
                               "nvmma_shared, linear, shared_linear, amd_mfma, amd_wmma";

bool isLayoutMnemonic(std::string_view m) {
  for (const char *k : kLayoutMnemonics)
    if (m == k)
      return true;
  return false;
}

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
  enum class Kind { Int, Bool, List, Attr, Alias };
  Kind kind = Kind::Int;
  size_t pos = 0;
  int64_t value = 0;
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
      n.items.push_back(std::move(item));
      skipSpace();
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
      if (!isTritonGpuDialect(first))
        return err(n.pos, "'#" + first + "." + mnemonic + "' is not a TritonGPU layout");
      if (!isLayoutMnemonic(mnemonic))
        return err(n.pos, "unsupported layout '#" + first + "." + mnemonic + "' (linlayout reads " +
                              kKnownList + ")");
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

// Turns parsed nodes into layout specs, checking each field.
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
    const std::string &m = n.name;
    if (m == "blocked")
      return blocked(n);
    if (m == "slice")
      return slice(n);
    if (m == "nvidia_mma" || m == "mma")
      return mma(n);
    if (m == "dot_op")
      return dotOp(n);
    if (m == "swizzled_shared" || m == "shared")
      return swizzled(n);
    if (m == "nvmma_shared")
      return nvmma(n);
    if (m == "linear")
      return linear(n);
    if (m == "shared_linear")
      return sharedLinear(n);
    if (m == "amd_mfma")
      return amdMfma(n);
    if (m == "amd_wmma")
      return amdWmma(n);
    return err(n.pos, "unsupported layout '" + full(n) + "'");
  }

private:
  static std::string full(const Node &n) { return "#" + n.dialect + "." + n.name; }
  Error err(size_t pos, const std::string &msg) const { return makeError(where(t_, pos) + msg); }

  // The fields of one attribute, each read at most once; unread fields are errors.
  class Fields {
  public:
    Fields(Builder &b, const Node &n) : b_(b), n_(n), used_(n.keys.size(), false) {}

    const Node *get(std::string_view key) {
      for (size_t i = 0; i < n_.keys.size(); ++i)
        if (n_.keys[i] == key) {
          used_[i] = true;
          return &n_.items[i];
        }
      return nullptr;
    }
    bool has(std::string_view key) const {
      return std::find(n_.keys.begin(), n_.keys.end(), key) != n_.keys.end();
    }
    Expected<const Node *> required(std::string_view key) {
      const Node *v = get(key);
      if (!v)
        return b_.err(n_.pos, "'" + full(n_) + "' needs '" + std::string(key) + "'");
      return v;
    }
    Expected<int64_t> integer(const Node &v, std::string_view key) {
      if (v.kind != Node::Kind::Int)
        return b_.err(v.pos, "'" + std::string(key) + "' of '" + full(n_) + "' must be an integer");
      return v.value;
    }
    Expected<int64_t> integer(std::string_view key) {
      LL_ASSIGN_OR_RETURN(const Node *v, required(key));
      return integer(*v, key);
    }
    Expected<bool> boolean(std::string_view key, bool dflt) {
      const Node *v = get(key);
      if (!v)
        return dflt;
      if (v->kind != Node::Kind::Bool)
        return b_.err(v->pos,
                      "'" + std::string(key) + "' of '" + full(n_) + "' must be true or false");
      return v->flag;
    }
    Expected<std::vector<int64_t>> ints(const Node &v, std::string_view key) {
      if (v.kind != Node::Kind::List)
        return b_.err(v.pos, "'" + std::string(key) + "' of '" + full(n_) +
                                 "' must be a list of integers like [1, 0]");
      std::vector<int64_t> out;
      for (const Node &i : v.items) {
        if (i.kind != Node::Kind::Int)
          return b_.err(i.pos,
                        "'" + std::string(key) + "' of '" + full(n_) + "' must hold integers only");
        out.push_back(i.value);
      }
      return out;
    }
    Expected<std::vector<int64_t>> ints(std::string_view key) {
      LL_ASSIGN_OR_RETURN(const Node *v, required(key));
      return ints(*v, key);
    }
    Expected<BasisList> bases(const Node &v, std::string_view key) {
      if (v.kind != Node::Kind::List)
        return b_.err(v.pos, "'" + std::string(key) + "' of '" + full(n_) +
                                 "' must be a list of bases like [[0, 1], [1, 0]]");
      BasisList out;
      for (const Node &i : v.items) {
        LL_ASSIGN_OR_RETURN(auto basis, ints(i, key));
        out.push_back(std::move(basis));
      }
      return out;
    }
    Expected<BasisList> bases(std::string_view key) {
      const Node *v = get(key);
      if (!v)
        return BasisList{};
      return bases(*v, key);
    }
    // Every field read; the first unread one is an error listing the accepted ones.
    Status done(std::initializer_list<const char *> accepted) {
      for (size_t i = 0; i < n_.keys.size(); ++i) {
        if (used_[i])
          continue;
        std::string names;
        for (const char *a : accepted)
          names += (names.empty() ? "" : ", ") + std::string(a);
        return b_.err(n_.keyPos[i], "'" + full(n_) + "' has no field '" + n_.keys[i] +
                                        "' (its fields: " + names + ")");
      }
      return Status::success();
    }
    const Node &node() const { return n_; }

  private:
    Builder &b_;
    const Node &n_;
    std::vector<bool> used_;
  };

  template <typename T> Expected<LayoutSpec> checked(const Node &n, Expected<T> made) {
    if (!made.ok())
      return err(n.pos, inAttrTerms(made.message()));
    return LayoutSpec(std::move(made).value());
  }

  // The families name their parameters as Gluon does (size_per_thread); here they are read as
  // the attribute spells them (sizePerThread), so their messages are translated.
  static std::string inAttrTerms(std::string msg) {
    static const std::pair<const char *, const char *> kNames[] = {
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
    auto isWord = [](char c) { return isIdentChar(c); };
    for (const auto &[from, to] : kNames) {
      std::string f = from;
      for (size_t p = msg.find(f); p != std::string::npos; p = msg.find(f, p)) {
        bool start = p == 0 || !isWord(msg[p - 1]);
        bool end = p + f.size() >= msg.size() || !isWord(msg[p + f.size()]);
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

  Expected<int> smallInt(const Node &n, int64_t v, const char *what) {
    if (v < 0 || v > (int64_t(1) << 20))
      return err(n.pos, std::string(what) + " is " + std::to_string(v) + ", out of range");
    return int(v);
  }

  // The CTA split, in either form; nullopt when none is written.
  Expected<std::optional<CgaLayout>> cga(Fields &f, int rank) {
    const Node *bases = f.get("CGALayout");
    bool legacy = f.has("CTAsPerCGA") || f.has("CTASplitNum") || f.has("CTAOrder");
    if (bases && legacy)
      return err(bases->pos, "give the CTA split either as CGALayout or as CTAsPerCGA/"
                             "CTASplitNum/CTAOrder, not both");
    if (bases) {
      LL_ASSIGN_OR_RETURN(BasisList b, f.bases(*bases, "CGALayout"));
      auto c = CgaLayout::fromBases(b, rank);
      if (!c.ok())
        return err(bases->pos, c.message());
      return std::optional<CgaLayout>(*c);
    }
    if (!legacy)
      return std::optional<CgaLayout>();
    std::vector<int64_t> ones(size_t(std::max(rank, 0)), 1), order;
    for (int d = rank - 1; d >= 0; --d)
      order.push_back(d);
    std::vector<int64_t> ctas = ones, split = ones;
    if (const Node *v = f.get("CTAsPerCGA")) {
      LL_ASSIGN_OR_RETURN(ctas, f.ints(*v, "CTAsPerCGA"));
    }
    if (const Node *v = f.get("CTASplitNum")) {
      LL_ASSIGN_OR_RETURN(split, f.ints(*v, "CTASplitNum"));
    }
    if (const Node *v = f.get("CTAOrder")) {
      LL_ASSIGN_OR_RETURN(order, f.ints(*v, "CTAOrder"));
    }
    auto c = CgaLayout::fromSplit(ctas, split, order);
    if (!c.ok())
      return err(f.node().pos, c.message());
    return std::optional<CgaLayout>(*c);
  }

  Expected<LayoutSpec> blocked(const Node &n) {
    Fields f(*this, n);
    LL_ASSIGN_OR_RETURN(auto spt, f.ints("sizePerThread"));
    LL_ASSIGN_OR_RETURN(auto tpw, f.ints("threadsPerWarp"));
    LL_ASSIGN_OR_RETURN(auto wpc, f.ints("warpsPerCTA"));
    LL_ASSIGN_OR_RETURN(auto order, f.ints("order"));
    LL_ASSIGN_OR_RETURN(auto c, cga(f, int(order.size())));
    LL_TRY_STATUS(f.done({"sizePerThread", "threadsPerWarp", "warpsPerCTA", "order", "CTAsPerCGA",
                          "CTASplitNum", "CTAOrder", "CGALayout"}));
    return checked(n, BlockedSpec::make(spt, tpw, wpc, order, c));
  }

  Expected<LayoutSpec> slice(const Node &n) {
    Fields f(*this, n);
    LL_ASSIGN_OR_RETURN(int64_t dim, f.integer("dim"));
    LL_ASSIGN_OR_RETURN(const Node *p, f.required("parent"));
    LL_TRY_STATUS(f.done({"dim", "parent"}));
    LL_ASSIGN_OR_RETURN(LayoutSpec parent, spec(*p));
    return checked(n, SliceSpec::make(dim, parent));
  }

  Expected<LayoutSpec> mma(const Node &n) {
    Fields f(*this, n);
    int64_t major = 0, minor = 0;
    if (const Node *v = f.get("version")) { // the 2022 form: {version = 2, warpsPerCTA = [..]}
      if (f.has("versionMajor"))
        return err(v->pos, "give either 'version' or 'versionMajor', not both");
      LL_ASSIGN_OR_RETURN(major, f.integer(*v, "version"));
    } else {
      LL_ASSIGN_OR_RETURN(major, f.integer("versionMajor"));
      if (const Node *m = f.get("versionMinor")) {
        LL_ASSIGN_OR_RETURN(minor, f.integer(*m, "versionMinor"));
      }
    }
    LL_ASSIGN_OR_RETURN(auto warps, f.ints("warpsPerCTA"));
    LL_ASSIGN_OR_RETURN(auto c, cga(f, int(warps.size())));
    std::vector<int64_t> instr;
    if (const Node *v = f.get("instrShape")) {
      LL_ASSIGN_OR_RETURN(instr, f.ints(*v, "instrShape"));
    } else if (major == 2) {
      // Dumps from before instrShape existed: Ampere's m16n8 accumulator.
      instr = warps.size() == 3 ? std::vector<int64_t>{1, 16, 8} : std::vector<int64_t>{16, 8};
    } else {
      return err(n.pos,
                 "'" + full(n) + "' needs 'instrShape' for versionMajor " + std::to_string(major));
    }
    LL_TRY_STATUS(f.done({"versionMajor", "versionMinor", "version", "warpsPerCTA", "CTAsPerCGA",
                          "CTASplitNum", "CTAOrder", "CGALayout", "instrShape"}));
    LL_ASSIGN_OR_RETURN(int maj, smallInt(n, major, "versionMajor"));
    LL_ASSIGN_OR_RETURN(int min, smallInt(n, minor, "versionMinor"));
    return checked(n, NvidiaMmaSpec::make(maj, min, warps, instr, c));
  }

  Expected<LayoutSpec> dotOp(const Node &n) {
    Fields f(*this, n);
    LL_ASSIGN_OR_RETURN(int64_t opIdx, f.integer("opIdx"));
    LL_ASSIGN_OR_RETURN(const Node *p, f.required("parent"));
    const Node *kw = f.get("kWidth");
    if (const Node *v = f.get("isMMAv1Row"))
      return err(v->pos, "'isMMAv1Row' belongs to Volta's mma v1 operands, which linlayout does "
                         "not support");
    LL_TRY_STATUS(f.done({"opIdx", "parent", "kWidth"}));
    LL_ASSIGN_OR_RETURN(LayoutSpec parent, spec(*p));
    int64_t kWidth = parent.kind() == LayoutKind::NvidiaMma ? 2 : 0;
    if (kw) {
      LL_ASSIGN_OR_RETURN(kWidth, f.integer(*kw, "kWidth"));
    }
    return checked(n, DotOperandSpec::make(opIdx, parent, kWidth));
  }

  Expected<LayoutSpec> swizzled(const Node &n) {
    Fields f(*this, n);
    LL_ASSIGN_OR_RETURN(int64_t vec, f.integer("vec"));
    LL_ASSIGN_OR_RETURN(int64_t perPhase, f.integer("perPhase"));
    LL_ASSIGN_OR_RETURN(int64_t maxPhase, f.integer("maxPhase"));
    LL_ASSIGN_OR_RETURN(auto order, f.ints("order"));
    LL_ASSIGN_OR_RETURN(auto c, cga(f, int(order.size())));
    LL_ASSIGN_OR_RETURN(bool leadingOffset, f.boolean("hasLeadingOffset", false));
    LL_TRY_STATUS(f.done({"vec", "perPhase", "maxPhase", "order", "CTAsPerCGA", "CTASplitNum",
                          "CTAOrder", "CGALayout", "hasLeadingOffset"}));
    if (!leadingOffset)
      return checked(n, SwizzledSharedSpec::make(vec, perPhase, maxPhase, order, c));
    // Triton 3.0-3.2 wrote Hopper's NVMMA layout as a shared layout with a leading offset: a
    // 16-byte vector (vec elements), phases spanning 8 rows of 128 bytes.
    bool ok = vec >= 1 && vec <= 16 && (vec & (vec - 1)) == 0 && perPhase >= 1 &&
              perPhase * maxPhase == 8 && (perPhase & (perPhase - 1)) == 0 && !order.empty();
    if (!ok)
      return err(n.pos, "'" + full(n) +
                            "' with hasLeadingOffset = true needs vec * element "
                            "size = 16 bytes and perPhase * maxPhase = 8 (an NVMMA swizzle), "
                            "got vec " +
                            std::to_string(vec) + ", perPhase " + std::to_string(perPhase) +
                            ", maxPhase " + std::to_string(maxPhase));
    int64_t rank = int64_t(order.size());
    bool transposed = order[0] != rank - 1;
    return checked(n, NvmmaSharedSpec::make(128 / perPhase, 128 / vec, rank, transposed, false, c));
  }

  Expected<LayoutSpec> nvmma(const Node &n) {
    Fields f(*this, n);
    LL_ASSIGN_OR_RETURN(int64_t swizzle, f.integer("swizzlingByteWidth"));
    LL_ASSIGN_OR_RETURN(bool transposed, f.boolean("transposed", false));
    LL_ASSIGN_OR_RETURN(int64_t bits, f.integer("elementBitWidth"));
    LL_ASSIGN_OR_RETURN(bool fp4Padded, f.boolean("fp4Padded", false));
    // Triton prints the rank when it is not 2; older texts say it only through their CTA
    // split; otherwise the caller's hint, else 2.
    int rank = opts_.rank.value_or(2);
    if (f.has("rank")) {
      LL_ASSIGN_OR_RETURN(int64_t r, f.integer("rank"));
      if (r < 1 || r > 8)
        return err(n.pos, "'rank' of '" + full(n) + "' must be 1 to 8, got " + std::to_string(r));
      rank = int(r);
    } else if (const Node *v = f.get("CGALayout")) {
      if (v->kind == Node::Kind::List && !v->items.empty() && v->items[0].kind == Node::Kind::List)
        rank = int(v->items[0].items.size());
    } else {
      for (const char *k : {"CTAsPerCGA", "CTASplitNum", "CTAOrder"})
        if (const Node *v = f.get(k); v && v->kind == Node::Kind::List)
          rank = int(v->items.size());
    }
    LL_ASSIGN_OR_RETURN(auto c, cga(f, rank));
    LL_TRY_STATUS(f.done({"swizzlingByteWidth", "transposed", "elementBitWidth", "fp4Padded",
                          "rank", "CTAsPerCGA", "CTASplitNum", "CTAOrder", "CGALayout"}));
    return checked(n, NvmmaSharedSpec::make(swizzle, bits, rank, transposed, fp4Padded, c));
  }

  Expected<LayoutSpec> linear(const Node &n) {
    Fields f(*this, n);
    LL_ASSIGN_OR_RETURN(BasisList reg, f.bases("register"));
    LL_ASSIGN_OR_RETURN(BasisList lane, f.bases("lane"));
    LL_ASSIGN_OR_RETURN(BasisList warp, f.bases("warp"));
    LL_ASSIGN_OR_RETURN(BasisList block, f.bases("block"));
    LL_TRY_STATUS(f.done({"register", "lane", "warp", "block"}));
    // As in Triton, the tensor shape is what the bases span: per dimension the smallest power
    // of two above every component.
    size_t rank = 0;
    for (const BasisList *l : {&reg, &lane, &warp, &block})
      for (const auto &b : *l)
        rank = std::max(rank, b.size());
    if (rank == 0)
      return err(n.pos, "'" + full(n) + "' has no non-empty basis, so its rank is unknown");
    std::vector<int64_t> shape(rank, 1);
    for (const BasisList *l : {&reg, &lane, &warp, &block})
      for (const auto &b : *l)
        for (size_t d = 0; d < b.size() && d < rank; ++d) {
          if (b[d] < 0 || b[d] >= (int64_t(1) << 40))
            return err(n.pos, "'" + full(n) + "' has basis component " + std::to_string(b[d]) +
                                  ", out of range");
          while (shape[d] <= b[d])
            shape[d] *= 2;
        }
    return checked(n, LinearSpec::make(reg, lane, warp, block, shape));
  }

  Expected<LayoutSpec> sharedLinear(const Node &n) {
    Fields f(*this, n);
    LL_ASSIGN_OR_RETURN(BasisList offset, f.bases("offset"));
    LL_ASSIGN_OR_RETURN(BasisList block, f.bases("block"));
    int64_t alignment = 16;
    if (const Node *v = f.get("alignment")) {
      LL_ASSIGN_OR_RETURN(alignment, f.integer(*v, "alignment"));
    }
    LL_TRY_STATUS(f.done({"offset", "block", "alignment"}));
    return checked(n, SharedLinearSpec::make(offset, block, alignment));
  }

  // Triton prints isTransposed, tilesPerWarp and elementBitWidth only where they differ from
  // false, all 1 and 32.
  Expected<LayoutSpec> amdMfma(const Node &n) {
    Fields f(*this, n);
    LL_ASSIGN_OR_RETURN(int64_t version, f.integer("version"));
    LL_ASSIGN_OR_RETURN(auto warps, f.ints("warpsPerCTA"));
    LL_ASSIGN_OR_RETURN(auto instr, f.ints("instrShape"));
    LL_ASSIGN_OR_RETURN(bool transposed, f.boolean("isTransposed", false));
    LL_ASSIGN_OR_RETURN(auto c, cga(f, int(warps.size())));
    std::vector<int64_t> tiles;
    if (const Node *v = f.get("tilesPerWarp")) {
      LL_ASSIGN_OR_RETURN(tiles, f.ints(*v, "tilesPerWarp"));
    }
    int64_t bits = 32;
    if (const Node *v = f.get("elementBitWidth")) {
      LL_ASSIGN_OR_RETURN(bits, f.integer(*v, "elementBitWidth"));
    }
    LL_TRY_STATUS(
        f.done({"version", "warpsPerCTA", "instrShape", "isTransposed", "CTAsPerCGA", "CTASplitNum",
                "CTAOrder", "CGALayout", "tilesPerWarp", "elementBitWidth"}));
    LL_ASSIGN_OR_RETURN(int ver, smallInt(n, version, "version"));
    LL_ASSIGN_OR_RETURN(int width, smallInt(n, bits, "elementBitWidth"));
    return checked(n, AmdMfmaSpec::make(ver, instr, transposed, warps, width, tiles, c));
  }

  // Triton spells the WMMA flag isTranspose, and omits instrShape when it is [16, 16, 16].
  Expected<LayoutSpec> amdWmma(const Node &n) {
    Fields f(*this, n);
    LL_ASSIGN_OR_RETURN(int64_t version, f.integer("version"));
    LL_ASSIGN_OR_RETURN(bool transposed, f.boolean("isTranspose", false));
    LL_ASSIGN_OR_RETURN(auto warps, f.ints("warpsPerCTA"));
    LL_ASSIGN_OR_RETURN(auto c, cga(f, int(warps.size())));
    std::vector<int64_t> tiles, instr;
    if (const Node *v = f.get("tilesPerWarp")) {
      LL_ASSIGN_OR_RETURN(tiles, f.ints(*v, "tilesPerWarp"));
    }
    if (const Node *v = f.get("instrShape")) {
      LL_ASSIGN_OR_RETURN(instr, f.ints(*v, "instrShape"));
    }
    LL_TRY_STATUS(f.done({"version", "isTranspose", "warpsPerCTA", "CTAsPerCGA", "CTASplitNum",
                          "CTAOrder", "CGALayout", "tilesPerWarp", "instrShape"}));
    LL_ASSIGN_OR_RETURN(int ver, smallInt(n, version, "version"));
    return checked(n, AmdWmmaSpec::make(ver, transposed, warps, instr, tiles, c));
  }

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
        for (std::string_view prefix : {"#ttg.", "#triton_gpu."})
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

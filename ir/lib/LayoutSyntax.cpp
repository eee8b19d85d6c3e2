// A bridge parser/printer for the layout attributes the IR text uses, kept to the forms the IR
// printer writes plus the common Triton ones; layout/ owns the full syntax.
#include "LayoutSyntax.h"

#include <cctype>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <vector>

namespace linlayout::ir::detail {

namespace {

constexpr int kMaxNesting = 16;

// A parsed attribute value: an integer, a bool, a list, or a (nested) layout.
struct AttrValue {
  enum Kind { Int, Bool, List, Layout } kind = Int;
  int64_t i = 0;
  bool b = false;
  std::vector<AttrValue> list;
  std::shared_ptr<LayoutSpec> layout;
};

class AttrParser {
public:
  AttrParser(std::string_view text, const AliasLookup &aliases, int rankHint)
      : s_(text), aliases_(aliases), rankHint_(rankHint) {}

  Expected<LayoutSpec> parseWhole() {
    auto spec = parseLayout(0);
    if (!spec)
      return spec.error();
    skipWs();
    if (p_ != s_.size())
      return err("unexpected text after the layout attribute");
    return spec;
  }

private:
  Error err(std::string msg) const {
    return makeError("layout attribute: " + msg + " at offset " + std::to_string(p_));
  }
  void skipWs() {
    while (p_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[p_])))
      ++p_;
  }
  bool eat(char c) {
    skipWs();
    if (p_ < s_.size() && s_[p_] == c) {
      ++p_;
      return true;
    }
    return false;
  }
  std::string_view ident() {
    skipWs();
    size_t b = p_;
    while (p_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[p_])) || s_[p_] == '_' ||
                              s_[p_] == '.' || s_[p_] == '-'))
      ++p_;
    return s_.substr(b, p_ - b);
  }

  Expected<LayoutSpec> parseLayout(int depth) {
    if (depth > kMaxNesting)
      return err("layouts nested too deeply");
    skipWs();
    if (!eat('#'))
      return err("expected '#'");
    std::string_view name = ident();
    skipWs();
    if (p_ >= s_.size() || s_[p_] != '<') {
      std::string alias = "#" + std::string(name);
      const LayoutSpec *spec = aliases_ ? aliases_(alias) : nullptr;
      if (!spec)
        return err("unknown layout alias '" + alias + "'");
      return *spec;
    }
    std::string_view family = name;
    for (std::string_view prefix : {"ttg.", "triton_gpu."})
      if (family.substr(0, prefix.size()) == prefix)
        family.remove_prefix(prefix.size());
    ++p_;
    if (!eat('{'))
      return err("expected '{' after '<'");
    std::map<std::string, AttrValue, std::less<>> fields;
    skipWs();
    if (!eat('}')) {
      while (true) {
        std::string key(ident());
        if (key.empty())
          return err("expected a parameter name");
        if (!eat('='))
          return err("expected '=' after '" + key + "'");
        auto v = parseValue(depth + 1);
        if (!v)
          return v.error();
        fields[key] = std::move(*v);
        if (eat(','))
          continue;
        if (eat('}'))
          break;
        return err("expected ',' or '}'");
      }
    }
    if (!eat('>'))
      return err("expected '>'");
    return build(family, fields);
  }

  Expected<AttrValue> parseValue(int depth) {
    if (depth > kMaxNesting)
      return err("values nested too deeply");
    skipWs();
    AttrValue v;
    if (p_ < s_.size() && s_[p_] == '#') {
      auto l = parseLayout(depth + 1);
      if (!l)
        return l.error();
      v.kind = AttrValue::Layout;
      v.layout = std::make_shared<LayoutSpec>(std::move(*l));
      return v;
    }
    if (eat('[')) {
      v.kind = AttrValue::List;
      if (eat(']'))
        return v;
      while (true) {
        auto e = parseValue(depth + 1);
        if (!e)
          return e.error();
        v.list.push_back(std::move(*e));
        if (v.list.size() > 1024)
          return err("list too long");
        if (eat(','))
          continue;
        if (eat(']'))
          return v;
        return err("expected ',' or ']'");
      }
    }
    std::string_view word = ident();
    if (word == "true" || word == "false") {
      v.kind = AttrValue::Bool;
      v.b = word == "true";
      return v;
    }
    // Integers, optionally negative, optionally typed (`2 : i32`).
    skipWs();
    bool neg = false;
    if (word.empty() && eat('-')) {
      neg = true;
      word = ident();
    }
    if (word.empty() || word.size() > 18)
      return err("expected a value");
    int64_t x = 0;
    for (char c : word) {
      if (!std::isdigit(static_cast<unsigned char>(c)))
        return err("expected a value, got '" + std::string(word) + "'");
      x = x * 10 + (c - '0');
    }
    if (eat(':'))
      ident();
    v.i = neg ? -x : x;
    return v;
  }

  using Fields = std::map<std::string, AttrValue, std::less<>>;

  static Expected<std::vector<int64_t>> ints(const Fields &f, std::string_view key) {
    auto it = f.find(key);
    if (it == f.end())
      return makeError("layout attribute: missing '" + std::string(key) + "'");
    if (it->second.kind != AttrValue::List)
      return makeError("layout attribute: '" + std::string(key) + "' must be a list");
    std::vector<int64_t> out;
    for (const AttrValue &e : it->second.list) {
      if (e.kind != AttrValue::Int)
        return makeError("layout attribute: '" + std::string(key) + "' must list integers");
      out.push_back(e.i);
    }
    return out;
  }
  static Expected<BasisList> bases(const Fields &f, std::string_view key) {
    BasisList out;
    auto it = f.find(key);
    if (it == f.end())
      return out;
    if (it->second.kind != AttrValue::List)
      return makeError("layout attribute: '" + std::string(key) + "' must be a list of lists");
    for (const AttrValue &e : it->second.list) {
      if (e.kind != AttrValue::List)
        return makeError("layout attribute: '" + std::string(key) + "' must be a list of lists");
      std::vector<int64_t> b;
      for (const AttrValue &x : e.list) {
        if (x.kind != AttrValue::Int)
          return makeError("layout attribute: '" + std::string(key) + "' must hold integers");
        b.push_back(x.i);
      }
      out.push_back(std::move(b));
    }
    return out;
  }
  static Expected<int64_t> integer(const Fields &f, std::string_view key,
                                   std::optional<int64_t> dflt = std::nullopt) {
    auto it = f.find(key);
    if (it == f.end()) {
      if (dflt)
        return *dflt;
      return makeError("layout attribute: missing '" + std::string(key) + "'");
    }
    if (it->second.kind == AttrValue::Bool)
      return int64_t(it->second.b);
    if (it->second.kind != AttrValue::Int)
      return makeError("layout attribute: '" + std::string(key) + "' must be an integer");
    return it->second.i;
  }
  static Expected<LayoutSpec> parent(const Fields &f) {
    auto it = f.find("parent");
    if (it == f.end() || it->second.kind != AttrValue::Layout)
      return makeError("layout attribute: missing 'parent' layout");
    return *it->second.layout;
  }
  static Expected<std::optional<CgaLayout>> cga(const Fields &f, int rank) {
    if (f.count("CGALayout")) {
      auto b = bases(f, "CGALayout");
      if (!b)
        return b.error();
      auto c = CgaLayout::fromBases(*b, rank);
      if (!c)
        return c.error();
      return std::optional<CgaLayout>(*c);
    }
    if (!f.count("CTAsPerCGA"))
      return std::optional<CgaLayout>();
    auto ctas = ints(f, "CTAsPerCGA");
    auto split = ints(f, "CTASplitNum");
    auto order = ints(f, "CTAOrder");
    if (!ctas)
      return ctas.error();
    if (!split)
      return split.error();
    if (!order)
      return order.error();
    auto c = CgaLayout::fromSplit(*ctas, *split, *order);
    if (!c)
      return c.error();
    return std::optional<CgaLayout>(*c);
  }

  Expected<LayoutSpec> build(std::string_view family, const Fields &f) {
    if (family == "blocked") {
      auto spt = ints(f, "sizePerThread");
      auto tpw = ints(f, "threadsPerWarp");
      auto wpc = ints(f, "warpsPerCTA");
      auto ord = ints(f, "order");
      for (auto *e : {&spt, &tpw, &wpc, &ord})
        if (!*e)
          return e->error();
      auto c = cga(f, int(ord->size()));
      if (!c)
        return c.error();
      auto s = BlockedSpec::make(*spt, *tpw, *wpc, *ord, *c);
      if (!s)
        return s.error();
      return LayoutSpec(*s);
    }
    if (family == "slice") {
      auto dim = integer(f, "dim");
      if (!dim)
        return dim.error();
      auto par = parent(f);
      if (!par)
        return par.error();
      auto s = SliceSpec::make(*dim, *par);
      if (!s)
        return s.error();
      return LayoutSpec(*s);
    }
    if (family == "dot_op") {
      auto idx = integer(f, "opIdx");
      if (!idx)
        return idx.error();
      auto par = parent(f);
      if (!par)
        return par.error();
      auto kw = integer(f, "kWidth", 2);
      if (!kw)
        return kw.error();
      auto s = DotOperandSpec::make(*idx, *par, *kw);
      if (!s)
        return s.error();
      return LayoutSpec(*s);
    }
    if (family == "nvidia_mma" || family == "mma") {
      auto major = integer(f, f.count("version") ? "version" : "versionMajor");
      auto minor = integer(f, "versionMinor", 0);
      auto wpc = ints(f, "warpsPerCTA");
      if (!major)
        return major.error();
      if (!minor)
        return minor.error();
      if (!wpc)
        return wpc.error();
      std::vector<int64_t> instr;
      if (f.count("instrShape")) {
        auto is = ints(f, "instrShape");
        if (!is)
          return is.error();
        instr = *is;
      } else {
        instr = wpc->size() == 3 ? std::vector<int64_t>{1, 16, 8} : std::vector<int64_t>{16, 8};
      }
      auto c = cga(f, int(wpc->size()));
      if (!c)
        return c.error();
      auto s = NvidiaMmaSpec::make(int(*major), int(*minor), *wpc, instr, *c);
      if (!s)
        return s.error();
      return LayoutSpec(*s);
    }
    if (family == "swizzled_shared" || family == "shared") {
      auto vec = integer(f, "vec");
      auto pp = integer(f, "perPhase");
      auto mp = integer(f, "maxPhase");
      auto ord = ints(f, "order");
      for (auto *e : {&vec, &pp, &mp})
        if (!*e)
          return e->error();
      if (!ord)
        return ord.error();
      auto c = cga(f, int(ord->size()));
      if (!c)
        return c.error();
      auto s = SwizzledSharedSpec::make(*vec, *pp, *mp, *ord, *c);
      if (!s)
        return s.error();
      return LayoutSpec(*s);
    }
    if (family == "nvmma_shared") {
      auto sw = integer(f, "swizzlingByteWidth");
      auto tr = integer(f, "transposed", 0);
      auto eb = integer(f, "elementBitWidth");
      auto fp4 = integer(f, "fp4Padded", 0);
      for (auto *e : {&sw, &tr, &eb, &fp4})
        if (!*e)
          return e->error();
      int rank = rankHint_ > 0 ? rankHint_ : 2;
      if (f.count("CTAsPerCGA")) {
        auto ctas = ints(f, "CTAsPerCGA");
        if (ctas)
          rank = int(ctas->size());
      }
      auto c = cga(f, rank);
      if (!c)
        return c.error();
      auto s = NvmmaSharedSpec::make(*sw, *eb, rank, *tr != 0, *fp4 != 0, *c);
      if (!s)
        return s.error();
      return LayoutSpec(*s);
    }
    if (family == "linear") {
      auto reg = bases(f, "register");
      auto lane = bases(f, "lane");
      auto warp = bases(f, "warp");
      auto block = bases(f, "block");
      for (auto *e : {&reg, &lane, &warp, &block})
        if (!*e)
          return e->error();
      // The shape is implied by the bases: per dim, twice the largest component.
      size_t rank = 0;
      for (auto *e : {&reg, &lane, &warp, &block})
        for (auto &b : **e)
          rank = std::max(rank, b.size());
      if (rank == 0)
        return makeError("layout attribute: linear layout without bases");
      std::vector<int64_t> shape(rank, 1);
      for (auto *e : {&reg, &lane, &warp, &block})
        for (auto &b : **e)
          for (size_t d = 0; d < b.size(); ++d)
            while (b[d] > 0 && shape[d] <= b[d] && shape[d] < (int64_t(1) << 40))
              shape[d] *= 2;
      auto s = LinearSpec::make(*reg, *lane, *warp, *block, shape);
      if (!s)
        return s.error();
      return LayoutSpec(*s);
    }
    return makeError("layout attribute: unknown layout family '" + std::string(family) + "'");
  }

  std::string_view s_;
  size_t p_ = 0;
  const AliasLookup &aliases_;
  int rankHint_;
};

void printList(std::ostream &os, const std::vector<int64_t> &v) {
  os << '[';
  for (size_t i = 0; i < v.size(); ++i)
    os << (i ? ", " : "") << v[i];
  os << ']';
}

void printBases(std::ostream &os, const BasisList &b) {
  os << '[';
  for (size_t i = 0; i < b.size(); ++i) {
    os << (i ? ", " : "");
    printList(os, b[i]);
  }
  os << ']';
}

void printCga(std::ostream &os, const CgaLayout &c) {
  if (c.isSingle())
    return;
  if (const auto &legacy = c.legacySplit()) {
    os << ", CTAsPerCGA = ";
    printList(os, legacy->ctasPerCga);
    os << ", CTASplitNum = ";
    printList(os, legacy->ctaSplitNum);
    os << ", CTAOrder = ";
    printList(os, legacy->ctaOrder);
    return;
  }
  os << ", CGALayout = ";
  printBases(os, c.bases());
}

std::string nested(const LayoutSpec &spec, const AliasName &aliasName) {
  std::string a = aliasName ? aliasName(spec) : std::string();
  return a.empty() ? printLayoutAttr(spec, aliasName) : a;
}

} // namespace

Expected<LayoutSpec> parseLayoutAttr(std::string_view text, const AliasLookup &aliases,
                                     int rankHint) {
  return AttrParser(text, aliases, rankHint).parseWhole();
}

std::string printLayoutAttr(const LayoutSpec &spec, const AliasName &aliasName) {
  std::ostringstream os;
  if (const auto *b = spec.as<BlockedSpec>()) {
    os << "#ttg.blocked<{sizePerThread = ";
    printList(os, b->sizePerThread());
    os << ", threadsPerWarp = ";
    printList(os, b->threadsPerWarp());
    os << ", warpsPerCTA = ";
    printList(os, b->warpsPerCta());
    os << ", order = ";
    printList(os, b->order());
    printCga(os, b->cga());
    os << "}>";
  } else if (const auto *s = spec.as<SliceSpec>()) {
    os << "#ttg.slice<{dim = " << s->dim() << ", parent = " << nested(s->parent(), aliasName)
       << "}>";
  } else if (const auto *d = spec.as<DotOperandSpec>()) {
    os << "#ttg.dot_op<{opIdx = " << d->operandIndex()
       << ", parent = " << nested(d->parent(), aliasName) << ", kWidth = " << d->kWidth() << "}>";
  } else if (const auto *m = spec.as<NvidiaMmaSpec>()) {
    os << "#ttg.nvidia_mma<{versionMajor = " << m->versionMajor()
       << ", versionMinor = " << m->versionMinor() << ", warpsPerCTA = ";
    printList(os, m->warpsPerCta());
    printCga(os, m->cga());
    os << ", instrShape = ";
    printList(os, m->instrShape());
    os << "}>";
  } else if (const auto *w = spec.as<SwizzledSharedSpec>()) {
    os << "#ttg.swizzled_shared<{vec = " << w->vec() << ", perPhase = " << w->perPhase()
       << ", maxPhase = " << w->maxPhase() << ", order = ";
    printList(os, w->order());
    printCga(os, w->cga());
    os << "}>";
  } else if (const auto *n = spec.as<NvmmaSharedSpec>()) {
    os << "#ttg.nvmma_shared<{swizzlingByteWidth = " << n->swizzleByteWidth()
       << ", transposed = " << (n->transposed() ? "true" : "false")
       << ", elementBitWidth = " << n->elementBitwidth();
    if (n->fp4Padded())
      os << ", fp4Padded = true";
    printCga(os, n->cga());
    os << "}>";
  } else if (const auto *l = spec.as<LinearSpec>()) {
    os << "#ttg.linear<{register = ";
    printBases(os, l->regBases());
    os << ", lane = ";
    printBases(os, l->laneBases());
    os << ", warp = ";
    printBases(os, l->warpBases());
    os << ", block = ";
    printBases(os, l->blockBases());
    os << "}>";
  } else if (const auto *sl = spec.as<SharedLinearSpec>()) {
    os << "#ttg.shared_linear<{offset = ";
    printBases(os, sl->offsetBases());
    os << ", block = ";
    printBases(os, sl->blockBases());
    os << "}, alignment = " << sl->alignment() << ">";
  }
  return os.str();
}

std::string aliasStem(const LayoutSpec &spec) {
  switch (spec.kind()) {
  case LayoutKind::Blocked:
    return "blocked";
  case LayoutKind::Slice:
    return "slice";
  case LayoutKind::NvidiaMma:
    return "mma";
  case LayoutKind::DotOperand:
    return "dot_op";
  case LayoutKind::Linear:
    return "linear";
  case LayoutKind::SwizzledShared:
  case LayoutKind::NvmmaShared:
  case LayoutKind::SharedLinear:
    return "shared";
  }
  return "layout";
}

} // namespace linlayout::ir::detail

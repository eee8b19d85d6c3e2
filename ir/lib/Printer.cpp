#include "linlayout/ir/Printer.h"

#include "ops/OpPrinter.h"

#include "LayoutSyntax.h"
#include "linlayout/ir/Walk.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <sstream>

namespace linlayout::ir {

namespace {

constexpr int kMaxParentDepth = 16;

bool isInlineFamily(const LayoutSpec &s) {
  return s.kind() == LayoutKind::Slice || s.kind() == LayoutKind::DotOperand;
}

bool isIdentifier(std::string_view s) {
  if (s.empty() || s.size() > 64)
    return false;
  if (!(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_'))
    return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
      return false;
  return true;
}

// Layout aliases for one module: every layout a type uses, and the parents of slice / dot_op
// layouts, get an alias unless they are printed inline.
class Aliases {
public:
  explicit Aliases(const Module &m) : m_(m) {}

  void use(LayoutId id) {
    if (id >= m_.layouts.size())
      return;
    const LayoutSpec *s = &m_.layouts.get(id);
    add(*s, m_.layouts.aliasHint(id));
  }

  std::string aliasOf(const LayoutSpec &s) const {
    for (const auto &[spec, name] : entries_)
      if (spec == s)
        return name;
    return "";
  }

  std::string text(const LayoutSpec &s) const {
    std::string a = aliasOf(s);
    if (!a.empty())
      return a;
    return detail::printLayoutAttr(s, [this](const LayoutSpec &p) { return aliasOf(p); });
  }

  void printDefinitions(std::ostream &os) const {
    for (const auto &[spec, name] : entries_)
      os << name << " = "
         << detail::printLayoutAttr(spec, [this](const LayoutSpec &p) { return aliasOf(p); })
         << "\n";
  }

private:
  void add(const LayoutSpec &s, const std::string &hint) {
    // Walk down slice / dot_op parents (bounded: parents are finite but hostile specs may nest).
    const LayoutSpec *cur = &s;
    std::string curHint = hint;
    for (int depth = 0; depth < kMaxParentDepth; ++depth) {
      if (!isInlineFamily(*cur)) {
        addAliased(*cur, curHint);
        return;
      }
      const LayoutSpec *parent = nullptr;
      if (const auto *sl = cur->as<SliceSpec>())
        parent = &sl->parent();
      else if (const auto *d = cur->as<DotOperandSpec>())
        parent = &d->parent();
      if (!parent)
        return;
      cur = parent;
      curHint = hintOf(*cur);
    }
  }

  // The alias the parsed text gave a layout that is only reached as a parent.
  std::string hintOf(const LayoutSpec &s) const {
    for (LayoutId id = 0; id < m_.layouts.size(); ++id)
      if (m_.layouts.get(id) == s)
        return m_.layouts.aliasHint(id);
    return "";
  }

  void addAliased(const LayoutSpec &s, const std::string &hint) {
    if (!aliasOf(s).empty())
      return;
    std::string name;
    if (hint.size() > 1 && hint[0] == '#' && isIdentifier(hint.substr(1)) && !taken_.count(hint))
      name = hint;
    for (int i = 0; name.empty(); ++i) {
      std::string c = "#" + detail::aliasStem(s) + (i ? std::to_string(i) : "");
      if (!taken_.count(c))
        name = c;
    }
    taken_.insert(name);
    entries_.push_back({s, name});
  }

  const Module &m_;
  std::vector<std::pair<LayoutSpec, std::string>> entries_;
  std::set<std::string> taken_ = {"#smem"};
};

} // namespace

// An op's value hints as Triton prints them (` {tt.divisibility = dense<16> : tensor<1xi32>}`),
// or "" when it has none.
std::string valueHints(const OpAttrs &a) {
  std::string out;
  for (auto [key, member] : kValueHints) {
    const std::vector<int64_t> &v = a.*member;
    if (v.empty())
      continue;
    out += std::string(out.empty() ? " {" : ", ") + key + " = dense<";
    if (v.size() > 1)
      out += "[";
    for (size_t i = 0; i < v.size(); ++i)
      out += (i ? ", " : "") + std::to_string(v[i]);
    out +=
        std::string(v.size() > 1 ? "]" : "") + "> : tensor<" + std::to_string(v.size()) + "xi32>";
  }
  return out.empty() ? out : out + "}";
}

std::string formatFloat(double v, ScalarKind k) {
  if (!std::isfinite(v)) {
    // Non-finite values print as the hex bits of the element type, as MLIR does.
    std::ostringstream os;
    os << "0x" << std::hex << std::uppercase;
    if (k == ScalarKind::F64) {
      uint64_t bits;
      std::memcpy(&bits, &v, 8);
      os << bits;
    } else {
      float f = float(v);
      uint32_t bits;
      std::memcpy(&bits, &f, 4);
      if (k == ScalarKind::F16) {
        uint32_t sign = bits >> 31;
        bits = (sign << 15) | (std::isnan(v) ? 0x7E00u : 0x7C00u);
      } else if (k == ScalarKind::BF16) {
        bits >>= 16;
      }
      os << bits;
    }
    return os.str();
  }
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, r.ptr);
  if (s.find_first_of(".e") == std::string::npos)
    s += ".0";
  return s;
}

namespace {

class ModulePrinter final : public OpPrinter {
public:
  explicit ModulePrinter(const Module &m) : m_(m), aliases_(m) {}

  std::string run() {
    bool usesShared = false;
    // Only values the program defines count: passes leave dead entries in the value table.
    for (const Function &f : m_.functions) {
      auto use = [&](ValueId v) {
        if (!f.isValid(v))
          return;
        const Type &t = f.values[v].type;
        if (t.isTensor() || t.isMemDesc() || t.isTensorDesc())
          aliases_.use(t.layout());
        usesShared |= t.isMemDesc();
      };
      for (ValueId a : f.body.args)
        use(a);
      walkOps(f.body, [&](const Op &op) {
        for (ValueId r : op.results)
          use(r);
        for (const Block &b : op.regions)
          for (ValueId a : b.args)
            use(a);
      });
    }
    std::ostringstream os;
    aliases_.printDefinitions(os);
    if (usesShared)
      os << "#smem = #ttg.shared_memory\n";
    os << "module attributes {";
    // Only clustered kernels print their cluster, so that other modules print as before.
    if (m_.clusterSize() > 1)
      os << "\"ttg.cluster-dim-x\" = " << m_.clusterDims[0]
         << " : i32, \"ttg.cluster-dim-y\" = " << m_.clusterDims[1]
         << " : i32, \"ttg.cluster-dim-z\" = " << m_.clusterDims[2] << " : i32, ";
    os << "\"ttg.num-ctas\" = " << m_.numCtas << " : i32";
    if (m_.numStages)
      os << ", \"ttg.num-stages\" = " << m_.numStages << " : i32";
    os << ", \"ttg.num-warps\" = " << m_.numWarps << " : i32, ttg.target = \"" << m_.target
       << "\", \"ttg.threads-per-warp\" = " << m_.threadsPerWarp << " : i32} {\n";
    for (const Function &f : m_.functions)
      printFunction(os, f);
    os << "}\n";
    return os.str();
  }

  std::string type(const Type &t) const {
    std::ostringstream os;
    auto elem = [&](ElemType e) {
      if (e.pointer)
        os << "!tt.ptr<" << name(e.scalar) << ">";
      else
        os << name(e.scalar);
    };
    auto layout = [&](LayoutId id) {
      if (id < m_.layouts.size())
        os << aliases_.text(m_.layouts.get(id));
      else
        os << "#<no layout>";
    };
    switch (t.kind()) {
    case TypeKind::Scalar:
    case TypeKind::Pointer:
      elem(t.elem());
      break;
    case TypeKind::Tensor:
      os << "tensor<";
      for (int64_t d : t.shape())
        os << d << "x";
      elem(t.elem());
      os << ", ";
      layout(t.layout());
      os << ">";
      break;
    case TypeKind::MemDesc:
      os << "!ttg.memdesc<";
      for (int64_t d : t.shape())
        os << d << "x";
      elem(t.elem());
      os << ", ";
      layout(t.layout());
      os << ", #smem";
      if (t.isMutable())
        os << ", mutable";
      if (!t.allocShape().empty()) {
        os << ", ";
        for (size_t i = 0; i < t.allocShape().size(); ++i)
          os << (i ? "x" : "") << t.allocShape()[i];
      }
      os << ">";
      break;
    case TypeKind::TensorDesc:
      os << "!tt.tensordesc<tensor<";
      for (int64_t d : t.shape())
        os << d << "x";
      elem(t.elem());
      os << ", ";
      layout(t.layout());
      os << ">>";
      break;
    }
    return os.str();
  }

private:
  // Names every value of a function: the text's names when they are identifiers and unique,
  // numbers in program order otherwise; a multi-result op's results are `%name#i`.
  void nameValues(const Function &f) {
    names_.assign(f.values.size(), "");
    std::set<std::string> taken;
    auto claim = [&](ValueId v) {
      if (v >= f.values.size())
        return;
      const std::string &hint = f.values[v].name;
      if (isIdentifier(hint)) {
        std::string n = hint;
        for (int i = 1; taken.count(n); ++i)
          n = hint + "_" + std::to_string(i);
        taken.insert(n);
        names_[v] = "%" + n;
      }
    };
    for (ValueId a : f.body.args)
      claim(a);
    walkOps(f.body, [&](const Op &op) {
      if (op.results.size() == 1)
        claim(op.results[0]);
      for (const Block &b : op.regions)
        for (ValueId a : b.args)
          claim(a);
    });
    int next = 0;
    auto number = [&]() {
      std::string n;
      do
        n = std::to_string(next++);
      while (taken.count(n));
      taken.insert(n);
      return "%" + n;
    };
    for (ValueId a : f.body.args)
      if (a < names_.size() && names_[a].empty())
        names_[a] = number();
    walkOps(f.body, [&](const Op &op) {
      if (op.results.size() == 1 && names_[op.results[0]].empty())
        names_[op.results[0]] = number();
      if (op.results.size() > 1) {
        std::string base;
        const std::string &hint = f.values[op.results[0]].name;
        if (isIdentifier(hint)) {
          base = hint;
          for (int i = 1; taken.count(base); ++i)
            base = hint + "_" + std::to_string(i);
          taken.insert(base);
          base = "%" + base;
        } else {
          base = number();
        }
        for (size_t i = 0; i < op.results.size(); ++i)
          if (op.results[i] < names_.size())
            names_[op.results[i]] = base + "#" + std::to_string(i);
      }
      for (const Block &b : op.regions)
        for (ValueId a : b.args)
          if (a < names_.size() && names_[a].empty())
            names_[a] = number();
    });
  }

  std::string v(ValueId id) const {
    return id < names_.size() ? names_[id] : "%<invalid " + std::to_string(id) + ">";
  }
  std::string t(ValueId id) const {
    return id < fn_->values.size() ? type(fn_->values[id].type) : "<invalid>";
  }

  void printFunction(std::ostream &os, const Function &f) {
    fn_ = &f;
    nameValues(f);
    os << "  tt.func " << (f.isPublic ? "public " : "") << "@" << f.name << "(";
    for (size_t i = 0; i < f.body.args.size(); ++i) {
      ValueId a = f.body.args[i];
      os << (i ? ", " : "") << v(a) << ": " << t(a);
      ArgHints h = i < f.argHints.size() ? f.argHints[i] : ArgHints{};
      std::vector<std::string> parts;
      if (h.divisibility != 1)
        parts.push_back("tt.divisibility = " + std::to_string(h.divisibility) + " : i32");
      if (h.contiguity != 1)
        parts.push_back("tt.contiguity = " + std::to_string(h.contiguity) + " : i32");
      if (h.constancy != 1)
        parts.push_back("tt.constancy = " + std::to_string(h.constancy) + " : i32");
      if (!parts.empty()) {
        os << " {";
        for (size_t j = 0; j < parts.size(); ++j)
          os << (j ? ", " : "") << parts[j];
        os << "}";
      }
    }
    os << ") {\n";
    printBlockOps(os, f.body, 2);
    os << "  }\n";
  }

  // Blocks nest only through scf.for, whose depth the parser and verifier bound.
  void printBlockOps(std::ostream &os, const Block &b, int depth) {
    for (const Op &op : b.ops)
      printOp(os, op, depth);
  }

  std::string list(const std::vector<ValueId> &ids, size_t from = 0, size_t to = ~size_t(0)) const {
    std::string s;
    for (size_t i = from; i < ids.size() && i < to; ++i)
      s += (i > from ? ", " : "") + v(ids[i]);
    return s;
  }

  // `: a, b` after a value list: their types.
  std::string types(const std::vector<ValueId> &ids) {
    std::string s;
    for (size_t i = 0; i < ids.size(); ++i)
      s += (i ? ", " : "") + t(ids[i]);
    return s;
  }

  // A tt.reduce / tt.scan with a combining body, in MLIR's generic form as Triton prints it.
  void printGenericCombine(std::ostream &os, const Op &op, int depth) {
    const std::string ind(size_t(depth) * 2, ' ');
    const bool scan = op.kind == OpKind::Scan;
    const Block &body = op.regions[0];
    os << "\"" << mnemonic(op.kind) << "\"(" << list(op.operands) << ") <{axis = " << op.attrs.axis
       << " : i32" << (scan ? op.attrs.reverse ? ", reverse = true" : ", reverse = false" : "")
       << "}> ({\n"
       << ind << "^bb0(";
    for (size_t i = 0; i < body.args.size(); ++i)
      os << (i ? ", " : "") << v(body.args[i]) << ": " << t(body.args[i]);
    os << "):\n";
    for (const Op &inner : body.ops) {
      if (inner.kind != OpKind::CombineReturn) {
        printOp(os, inner, depth + 1);
        continue;
      }
      os << ind << "  " << (scan ? "tt.scan.return " : "tt.reduce.return ") << list(inner.operands)
         << " : " << types(inner.operands) << "\n";
    }
    os << ind << "}) : (" << types(op.operands) << ") -> ";
    if (op.results.size() == 1)
      os << t(op.results[0]);
    else
      os << "(" << types(op.results) << ")";
  }

  void printOp(std::ostream &os, const Op &op, int depth) {
    std::string ind(size_t(depth) * 2, ' ');
    os << ind;
    if (op.results.size() == 1)
      os << v(op.results[0]) << " = ";
    else if (op.results.size() > 1) {
      std::string base = v(op.results[0]);
      os << base.substr(0, base.find('#')) << ":" << op.results.size() << " = ";
    }
    if ((op.kind == OpKind::Reduce || op.kind == OpKind::Scan) && !op.regions.empty()) {
      printGenericCombine(os, op, depth);
      os << "\n";
      return;
    }
    os << mnemonic(op.kind);
    kPrintOp[size_t(op.kind)](*this, os, op, depth);
    os << "\n";
  }

  const Function &function() const { return *fn_; }

public:
private:
  const Module &m_;
  Aliases aliases_;
  const Function *fn_ = nullptr;
  std::vector<std::string> names_;
};

} // namespace

std::string print(const Module &m) { return ModulePrinter(m).run(); }

std::string printType(const Module &m, const Type &t) {
  Module empty;
  empty.layouts = m.layouts;
  return ModulePrinter(empty).type(t);
}

} // namespace linlayout::ir

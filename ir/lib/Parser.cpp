// The parser's driver: the module, its functions and their values' names, layouts and types; each
// op's text after its name is read by its family (ops/OpParser.h).
#include "linlayout/ir/Parser.h"

#include "LayoutSyntax.h"
#include "linlayout/ir/Printer.h"
#include "ops/OpParser.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace linlayout::ir {

namespace {

class Parser final : public OpParser {
public:
  Parser(std::string_view text, std::string_view fileName)
      : OpParser(text, std::string(fileName)) {}

  Expected<Module> run() {
    module_.fileName = file_;
    while (tok_.kind == Tok::Alias) {
      if (!parseAliasDefinition())
        return takeError();
    }
    if (isIdent("module")) {
      advance();
      if (isIdent("attributes")) {
        advance();
        Dict d;
        if (!parseDict(d))
          return takeError();
        if (!applyModuleAttrs(d))
          return takeError();
      }
      if (!expectPunct("{", "after the module header"))
        return takeError();
      while (!isPunct("}")) {
        if (tok_.kind == Tok::End) {
          fail("expected '}' to close the module, got end of input");
          return takeError();
        }
        if (!parseFunction())
          return takeError();
      }
      advance();
    } else {
      while (tok_.kind != Tok::End)
        if (!parseFunction())
          return takeError();
    }
    if (tok_.kind != Tok::End) {
      fail("expected end of input, got " + describe(tok_));
      return takeError();
    }
    return std::move(module_);
  }

private:
  Error takeError() { return makeError(error_ ? *error_ : "parse error"); }

  bool applyModuleAttrs(const Dict &d) {
    int64_t warps = module_.numWarps, ctas = module_.numCtas, tpw = module_.threadsPerWarp;
    if (!dictInt(d, "ttg.num-warps", warps, false) || !dictInt(d, "ttg.num-ctas", ctas, false) ||
        !dictInt(d, "ttg.threads-per-warp", tpw, false))
      return false;
    // Older dumps spell the prefix triton_gpu.
    if (!dictInt(d, "triton_gpu.num-warps", warps, false) ||
        !dictInt(d, "triton_gpu.num-ctas", ctas, false) ||
        !dictInt(d, "triton_gpu.threads-per-warp", tpw, false))
      return false;
    auto bounded = [&](int64_t v, std::string_view what) {
      if (v < 1 || v > 1024 || (v & (v - 1)))
        return fail(std::string(what) + " is " + std::to_string(v) +
                    ", expected a power of two in 1..1024");
      return true;
    };
    if (!bounded(warps, "ttg.num-warps") || !bounded(ctas, "ttg.num-ctas") ||
        !bounded(tpw, "ttg.threads-per-warp"))
      return false;
    const char *clusterKeys[3] = {"ttg.cluster-dim-x", "ttg.cluster-dim-y", "ttg.cluster-dim-z"};
    for (int i = 0; i < 3; ++i) {
      int64_t c = module_.clusterDims[size_t(i)];
      if (!dictInt(d, clusterKeys[i], c, false))
        return false;
      if (c < 1 || c > 16)
        return fail(std::string(clusterKeys[i]) + " is " + std::to_string(c) + ", expected 1..16");
      module_.clusterDims[size_t(i)] = int(c);
    }
    module_.numWarps = int(warps);
    module_.numCtas = int(ctas);
    module_.threadsPerWarp = int(tpw);
    int64_t stages = module_.numStages;
    if (!dictInt(d, "ttg.num-stages", stages, false))
      return false;
    if (stages < 0 || stages > 16)
      return fail("ttg.num-stages is " + std::to_string(stages) + ", expected 0..16");
    module_.numStages = int(stages);
    for (std::string_view key : {"ttg.target", "triton_gpu.target"}) {
      auto it = d.find(key);
      if (it != d.end() && it->second.kind == DictValue::String)
        module_.target = it->second.s;
    }
    return true;
  }

  // ---- layouts and types -----------------------------------------------------------------------

  bool parseAliasDefinition() {
    std::string name(tok_.text);
    Loc loc = tok_.loc;
    advance();
    if (!expectPunct("=", "after a layout alias name"))
      return false;
    if (aliases_.count(name) || memorySpaces_.count(name))
      return failAt(loc, "redefinition of alias '" + name + "'");
    if (tok_.kind == Tok::Alias && tok_.text == "#ttg.shared_memory") {
      advance();
      memorySpaces_.insert(name);
      return true;
    }
    if (tok_.kind != Tok::Attr)
      return fail("expected a layout attribute after '" + name + " =', got " + describe(tok_));
    auto spec = parseLayoutText(tok_, -1);
    if (!spec)
      return false;
    advance();
    attrAliases_.define(name.substr(1), *spec);
    aliases_.emplace(name, std::move(*spec));
    return true;
  }

  std::optional<LayoutSpec> parseLayoutText(const Token &t, int rankHint) {
    Expected<LayoutSpec> spec = detail::parseLayoutAttr(t.text, attrAliases_, rankHint);
    if (!spec) {
      failAt(t.loc, "in layout attribute: " + spec.message());
      return std::nullopt;
    }
    return std::move(*spec);
  }

  // A layout in a type: an alias or an inline attribute.
  bool parseLayoutRef(LayoutId &out, int rank) {
    if (tok_.kind == Tok::Alias) {
      auto it = aliases_.find(std::string(tok_.text));
      if (it == aliases_.end())
        return fail("unknown layout alias " + describe(tok_));
      out = module_.layouts.intern(it->second);
      if (module_.layouts.aliasHint(out).empty())
        module_.layouts.setAliasHint(out, it->first);
      advance();
      return true;
    }
    if (tok_.kind == Tok::Attr) {
      auto spec = parseLayoutText(tok_, rank);
      if (!spec)
        return false;
      out = module_.layouts.intern(*spec);
      advance();
      return true;
    }
    return fail("expected a layout (an alias such as #blocked or a #ttg attribute), got " +
                describe(tok_));
  }

  bool parseElem(ElemType &out) {
    if (tok_.kind == Tok::Bang && tok_.text == "tt.ptr") {
      advance();
      if (!expectPunct("<", "after '!tt.ptr'"))
        return false;
      ElemType inner;
      if (tok_.kind != Tok::Ident)
        return fail("expected a scalar type in !tt.ptr<...>, got " + describe(tok_));
      auto k = scalarKindFromName(tok_.text);
      if (!k)
        return fail("expected a scalar type in !tt.ptr<...>, got " + describe(tok_));
      advance();
      if (isPunct(",")) { // address space; only global (1) is meaningful here
        advance();
        int64_t as;
        if (!parseInt(as, "an address space"))
          return false;
        if (as != 1)
          return fail("address space " + std::to_string(as) + " is not supported, expected 1");
      }
      if (!expectPunct(">", "to close !tt.ptr<...>"))
        return false;
      out = ElemType{*k, true};
      return true;
    }
    if (tok_.kind == Tok::Ident) {
      auto k = scalarKindFromName(tok_.text);
      if (!k)
        return fail("expected an element type (i1, i8, i16, i32, i64, f16, bf16, f32, f64 or "
                    "!tt.ptr<...>), got " +
                    describe(tok_));
      advance();
      out = ElemType{*k, false};
      return true;
    }
    return fail("expected an element type, got " + describe(tok_));
  }

  // `128x64x` followed by the element: the lexer splits `128x64xf16` into 128 and `x64xf16`.
  // With `ringDim`, the first dim may be any count up to 1024 (the tiles of a memdesc ring).
  bool parseShapeAndElem(std::vector<int64_t> &shape, ElemType &elem, bool ringDim = false) {
    while (true) {
      if (tok_.kind == Tok::Integer) {
        int64_t d;
        Loc loc = tok_.loc;
        if (!parseInt(d, "a dimension"))
          return false;
        if (ringDim && shape.empty() && d >= 1 && d <= 1024) {
        } else if (d <= 0 || d > Type::kMaxNumElements || (d & (d - 1)))
          return failAt(loc, "dimension " + std::to_string(d) +
                                 " must be a power of two no larger than 2^20");
        shape.push_back(d);
        if (shape.size() > size_t(Type::kMaxRank))
          return failAt(loc, "rank exceeds " + std::to_string(Type::kMaxRank));
        // What follows the number: an identifier starting with 'x'.
        if (tok_.kind != Tok::Ident || tok_.text.empty() || tok_.text[0] != 'x')
          return fail("expected 'x' after a dimension, got " + describe(tok_));
        std::string_view rest = tok_.text.substr(1);
        Loc restLoc = tok_.loc;
        // rest is `64xf16`, `f16`, or empty (then the element follows, e.g. `x!tt.ptr<f32>`).
        while (!rest.empty() && std::isdigit(static_cast<unsigned char>(rest[0]))) {
          size_t n = 0;
          while (n < rest.size() && std::isdigit(static_cast<unsigned char>(rest[n])))
            ++n;
          auto dv = toInt(rest.substr(0, n));
          if (!dv || *dv <= 0 || *dv > Type::kMaxNumElements || (*dv & (*dv - 1)))
            return failAt(restLoc, "dimension '" + std::string(rest.substr(0, n)) +
                                       "' must be a power of two no larger than 2^20");
          shape.push_back(*dv);
          if (shape.size() > size_t(Type::kMaxRank))
            return failAt(restLoc, "rank exceeds " + std::to_string(Type::kMaxRank));
          rest.remove_prefix(n);
          if (rest.empty() || rest[0] != 'x')
            return failAt(restLoc,
                          "expected 'x' after a dimension in '" + std::string(tok_.text) + "'");
          rest.remove_prefix(1);
        }
        if (rest.empty()) {
          advance();
          return parseElem(elem);
        }
        auto k = scalarKindFromName(rest);
        if (!k)
          return failAt(restLoc, "expected an element type, got '" + std::string(rest) + "'");
        elem = ElemType{*k, false};
        advance();
        return true;
      }
      return parseElem(elem); // rank-0 is not a tensor, but let the caller complain
    }
  }

  // `256x128`: dims only (a memdesc's alloc shape), each a power of two up to 2^20 (the first
  // may be a ring's count up to 1024).
  bool parseAllocShape(std::vector<int64_t> &dims) {
    int64_t d;
    Loc loc = tok_.loc;
    if (!parseInt(d, "an alloc shape dimension"))
      return false;
    dims.push_back(d);
    if (tok_.kind == Tok::Ident && !tok_.text.empty() && tok_.text[0] == 'x') {
      std::string_view rest = tok_.text.substr(1);
      while (true) {
        size_t n = 0;
        while (n < rest.size() && std::isdigit(static_cast<unsigned char>(rest[n])))
          ++n;
        auto dv = toInt(rest.substr(0, n));
        if (n == 0 || !dv)
          return fail("expected a dimension in the alloc shape, got '" + std::string(tok_.text) +
                      "'");
        dims.push_back(*dv);
        rest.remove_prefix(n);
        if (rest.empty())
          break;
        if (rest[0] != 'x')
          return fail("expected 'x' between alloc shape dimensions in '" + std::string(tok_.text) +
                      "'");
        rest.remove_prefix(1);
      }
      advance();
    }
    if (dims.size() > size_t(Type::kMaxRank))
      return failAt(loc, "alloc shape rank exceeds " + std::to_string(Type::kMaxRank));
    for (size_t i = 0; i < dims.size(); ++i) {
      int64_t v = dims[i];
      bool ring = i == 0 && v >= 1 && v <= 1024;
      if (!ring && (v <= 0 || v > Type::kMaxNumElements || (v & (v - 1))))
        return failAt(loc, "alloc shape dimension " + std::to_string(v) +
                               " must be a power of two no larger than 2^20");
    }
    return true;
  }

  // `bareMemDesc`: `<...>` is read as a memdesc, as Triton prints an async copy's destination.
  bool parseType(Type &out, bool bareMemDesc = false) override {
    Loc loc = tok_.loc;
    if (tok_.kind == Tok::Ident && tok_.text == "tensor") {
      advance();
      if (!expectPunct("<", "after 'tensor'"))
        return false;
      std::vector<int64_t> shape;
      ElemType elem;
      if (!parseShapeAndElem(shape, elem))
        return false;
      if (shape.empty())
        return failAt(loc, "a tensor needs at least one dimension");
      if (Type::tensor(shape, elem, kNoLayout).numElements() > Type::kMaxNumElements)
        return failAt(loc, "tensor has more than 2^20 elements");
      if (!expectPunct(",", "and a layout after the element type"))
        return false;
      LayoutId l;
      if (!parseLayoutRef(l, int(shape.size())))
        return false;
      if (!expectPunct(">", "to close tensor<...>"))
        return false;
      out = Type::tensor(std::move(shape), elem, l);
      return true;
    }
    const bool bare = bareMemDesc && isPunct("<");
    if (bare || (tok_.kind == Tok::Bang && tok_.text == "ttg.memdesc")) {
      if (!bare)
        advance();
      if (!expectPunct("<", "after '!ttg.memdesc'"))
        return false;
      std::vector<int64_t> shape;
      ElemType elem;
      if (!parseShapeAndElem(shape, elem, /*ringDim=*/true))
        return false;
      if (shape.empty() || elem.pointer)
        return failAt(loc, "a memdesc needs a shape and a scalar element");
      if (Type::tensor(shape, elem, kNoLayout).numElements() > Type::kMaxNumElements)
        return failAt(loc, "memdesc has more than 2^20 elements");
      if (!expectPunct(",", "and a shared layout after the element type"))
        return false;
      LayoutId l;
      if (!parseLayoutRef(l, int(shape.size())))
        return false;
      if ((shape[0] & (shape[0] - 1)) && module_.layouts.get(l).rank() >= int(shape.size()))
        return failAt(loc, "dimension " + std::to_string(shape[0]) +
                               " must be a power of two no larger than 2^20 (only a ring's "
                               "leading dim may be any count)");
      bool isMutable = false;
      std::vector<int64_t> allocShape;
      while (isPunct(",")) {
        advance();
        if (tok_.kind == Tok::Alias &&
            (memorySpaces_.count(std::string(tok_.text)) || tok_.text == "#ttg.shared_memory"))
          advance();
        else if (isIdent("mutable")) {
          isMutable = true;
          advance();
        } else if (tok_.kind == Tok::Integer && allocShape.empty()) {
          // The alloc shape of a view (`256x128`, last): the lexer splits it into 256, x128.
          if (!parseAllocShape(allocShape))
            return false;
          if (allocShape.size() != shape.size())
            return failAt(loc, "the alloc shape has rank " + std::to_string(allocShape.size()) +
                                   ", the memdesc " + std::to_string(shape.size()));
        } else
          return fail("expected '#smem', 'mutable' or an alloc shape in !ttg.memdesc<...>, "
                      "got " +
                      describe(tok_));
      }
      if (!expectPunct(">", "to close !ttg.memdesc<...>"))
        return false;
      out = Type::memDesc(std::move(shape), elem.scalar, l, isMutable, std::move(allocShape));
      return true;
    }
    if (tok_.kind == Tok::Bang && tok_.text == "tt.tensordesc") {
      advance();
      if (!expectPunct("<", "after '!tt.tensordesc'"))
        return false;
      Type block;
      Loc bloc = tok_.loc;
      if (!isIdent("tensor"))
        return fail("expected the block type tensor<...> in !tt.tensordesc<...>, got " +
                    describe(tok_));
      if (!parseType(block))
        return false;
      if (block.isPointerLike())
        return failAt(bloc, "a tensor descriptor's block holds numbers, not pointers");
      if (!expectPunct(">", "to close !tt.tensordesc<...>"))
        return false;
      out = Type::tensorDesc(block.shape(), block.elem().scalar, block.layout());
      return true;
    }
    if (isTokenType())
      return fail("an async token (!ttg.async.token) is read only as the result or operand of an "
                  "async op or as a loop-carried value");
    ElemType e;
    if (!parseElem(e))
      return false;
    out = e.pointer ? Type::pointer(e.scalar) : Type::scalar(e.scalar);
    return true;
  }

  // ---- values ----------------------------------------------------------------------------------

  // Names of a function's values: %name -> ids (several for a multi-result op, used as %name#i).
  // `allowToken`: the value may be an async token (kAsyncToken), as loops and yields carry them.
  bool lookupValue(ValueId &out, bool allowToken = false) override {
    if (tok_.kind != Tok::Value)
      return fail("expected a value such as %0, got " + describe(tok_));
    std::string_view text = tok_.text;
    size_t hash = text.find('#');
    std::string base(text.substr(0, hash));
    auto it = names_.find(base);
    if (it == names_.end())
      return fail("use of undefined value '%" + std::string(text) + "'");
    size_t index = 0;
    if (hash != std::string_view::npos) {
      auto i = toInt(text.substr(hash + 1));
      if (!i || *i < 0 || size_t(*i) >= it->second.size())
        return fail("result index of '%" + std::string(text) + "' is out of range (the op has " +
                    std::to_string(it->second.size()) + " results)");
      index = size_t(*i);
    } else if (it->second.size() != 1) {
      return fail("'%" + base + "' names " + std::to_string(it->second.size()) +
                  " results; use '%" + base + "#<index>'");
    }
    out = it->second[index];
    if (out == kAsyncToken && !allowToken)
      return fail("'%" + std::string(text) +
                  "' is an async token, which only async ops, loops and yields take");
    advance();
    return true;
  }

  ValueId addValue(const Type &t, std::string name) override {
    return fn_->addValue(t, std::move(name));
  }
  const Type &valueType(ValueId v) const override { return fn_->type(v); }

  bool define(std::string_view name, Loc loc, std::vector<ValueId> ids) override {
    std::string n(name);
    if (names_.count(n))
      return failAt(loc, "redefinition of '%" + n + "'");
    if (!regionNames_.empty())
      regionNames_.back().push_back(n);
    names_.emplace(std::move(n), std::move(ids));
    return true;
  }

  void openRegion() override { regionNames_.emplace_back(); }
  void closeRegion() override {
    for (const std::string &n : regionNames_.back())
      names_.erase(n);
    regionNames_.pop_back();
  }

  // Checks that the written type of an operand is its type.
  bool checkType(ValueId v, const Type &written, Loc loc) override {
    const Type &actual = fn_->type(v);
    if (actual != written)
      return failAt(loc, "'%" + nameOf(v) + "' has type " + printType(module_, actual) +
                             ", but the op says " + printType(module_, written));
    return true;
  }
  std::string nameOf(ValueId v) const {
    for (const auto &[n, ids] : names_)
      for (size_t i = 0; i < ids.size(); ++i)
        if (ids[i] == v)
          return ids.size() == 1 ? n : n + "#" + std::to_string(i);
    return "?";
  }

  bool parseOperands(std::vector<ValueId> &out, size_t max, bool allowTokens = false) override {
    while (tok_.kind == Tok::Value) {
      ValueId v;
      if (!lookupValue(v, allowTokens))
        return false;
      out.push_back(v);
      if (out.size() > max)
        return fail("too many operands");
      if (!isPunct(","))
        break;
      advance();
      if (tok_.kind != Tok::Value) // `, inputPrecision = tf32` and the like follow operands
        break;
    }
    return true;
  }

  // ---- functions and ops -----------------------------------------------------------------------

  bool parseFunction() {
    Loc loc = tok_.loc;
    if (!expectIdent("tt.func", "to start a function"))
      return false;
    Function f;
    f.loc = loc;
    if (isIdent("public") || isIdent("private")) {
      f.isPublic = isIdent("public");
      advance();
    }
    if (tok_.kind != Tok::Symbol)
      return fail("expected a function name such as @kernel, got " + describe(tok_));
    f.name = std::string(tok_.text);
    if (module_.function(f.name))
      return fail("redefinition of function '@" + f.name + "'");
    advance();
    names_.clear();
    regionNames_.clear();
    fn_ = &f;
    if (!expectPunct("(", "to open the argument list"))
      return false;
    while (!isPunct(")")) {
      if (tok_.kind != Tok::Value)
        return fail("expected an argument such as %arg0, got " + describe(tok_));
      std::string_view name = tok_.text;
      Loc aloc = tok_.loc;
      if (name.find('#') != std::string_view::npos)
        return fail("an argument name cannot have a result index");
      advance();
      if (!expectPunct(":", "after an argument name"))
        return false;
      Type t;
      if (!parseType(t))
        return false;
      ArgHints h;
      if (isPunct("{")) {
        Dict d;
        if (!parseDict(d))
          return false;
        if (!dictInt(d, "tt.divisibility", h.divisibility, false) ||
            !dictInt(d, "tt.contiguity", h.contiguity, false) ||
            !dictInt(d, "tt.constancy", h.constancy, false))
          return false;
        for (int64_t x : {h.divisibility, h.contiguity, h.constancy})
          if (!isHintValue(x))
            return failAt(aloc, "argument hint " + std::to_string(x) +
                                    " must be a power of two in 1..2^30");
      }
      ValueId v = f.addValue(t, std::string(name));
      if (!define(name, aloc, {v}))
        return false;
      f.body.args.push_back(v);
      f.argHints.push_back(h);
      if (f.body.args.size() > 256)
        return fail("too many arguments");
      if (isPunct(",")) {
        advance();
        continue;
      }
      if (!isPunct(")"))
        return fail("expected ',' or ')' after an argument, got " + describe(tok_));
    }
    advance();
    if (isIdent("attributes")) {
      advance();
      Dict d;
      if (!parseDict(d))
        return false;
    }
    if (!expectPunct("{", "to open the function body"))
      return false;
    if (!parseBlockOps(f.body, 0))
      return false;
    advance(); // '}'
    fn_ = nullptr;
    module_.functions.push_back(std::move(f));
    return true;
  }

  // Ops up to (not including) the closing '}'.
  bool parseBlockOps(Block &b, int depth) override {
    while (!isPunct("}")) {
      if (tok_.kind == Tok::End)
        return fail("expected '}' to close a block, got end of input");
      Op op;
      if (!parseOp(op, depth))
        return false;
      b.ops.push_back(std::move(op));
    }
    return true;
  }

  bool parseOp(Op &op, int depth) {
    // Results: `%a = `, `%a:2 = `, `%a, %b = ` (a name each, as MLIR prints named results) or
    // none.
    std::string_view resultName;
    Loc resultLoc;
    int64_t numResults = 0;
    std::vector<std::pair<std::string_view, Loc>> eachName; // `%a, %b = `: one name per result
    if (tok_.kind == Tok::Value) {
      resultName = tok_.text;
      resultLoc = tok_.loc;
      if (resultName.find('#') != std::string_view::npos)
        return fail("a result name cannot have a result index");
      advance();
      numResults = 1;
      if (isPunct(",")) {
        eachName.push_back({resultName, resultLoc});
        while (isPunct(",")) {
          advance();
          if (tok_.kind != Tok::Value || tok_.text.find('#') != std::string_view::npos)
            return fail("expected a result name, got " + describe(tok_));
          if (eachName.size() >= 256)
            return fail("more than 256 result names");
          eachName.push_back({tok_.text, tok_.loc});
          advance();
        }
        numResults = int64_t(eachName.size());
      } else if (isPunct(":")) {
        advance();
        if (!parseInt(numResults, "a result count"))
          return false;
        if (numResults < 1 || numResults > 256)
          return failAt(resultLoc,
                        "result count " + std::to_string(numResults) + " must be in 1..256");
      }
      if (!expectPunct("=", "after the result name"))
        return false;
    }
    op.loc = tok_.loc;
    std::vector<Type> resultTypes;
    if (tok_.kind == Tok::String) {
      // MLIR's generic form, which Triton prints for tt.reduce and tt.scan (their bodies are
      // regions).
      if (tok_.text != "tt.reduce" && tok_.text != "tt.scan")
        return fail("unknown op " + describe(tok_) +
                    " (of the generic form \"op\"(...), only \"tt.reduce\" and \"tt.scan\" are "
                    "read)");
      op.kind = tok_.text == "tt.reduce" ? OpKind::Reduce : OpKind::Scan;
      advance();
      if (!parseGenericCombine(*this, op, resultTypes, depth))
        return false;
    } else {
      if (tok_.kind != Tok::Ident)
        return fail("expected an op name such as arith.addi, got " + describe(tok_));
      // A scan's combining body ends in tt.scan.return, a reduction's in tt.reduce.return: one
      // kind, printed by its parent's name.
      auto kind =
          tok_.text == "tt.scan.return" ? OpKind::CombineReturn : opKindFromMnemonic(tok_.text);
      if (!kind)
        return fail("unknown op " + describe(tok_));
      if (*kind == OpKind::CombineReturn) {
        if (combineReturns_.empty())
          return fail(describe(tok_) + " ends the combining body of a tt.reduce or tt.scan only");
        if (tok_.text != combineReturns_.back())
          return fail("expected '" + combineReturns_.back() + "' to end the combining body, got " +
                      describe(tok_));
      }
      op.kind = *kind;
      advance();
      if (!kParseOp[size_t(op.kind)](*this, op, resultTypes, depth))
        return false;
    }
    // An async op's one result in Triton's text is its token.
    if (isCopyGroupOp(op.kind) && resultTypes.empty() && numResults == 1)
      tokenResults_ = {0};
    if (size_t(numResults) != resultTypes.size() + tokenResults_.size())
      return failAt(op.loc, std::string(mnemonic(op.kind)) + " has " +
                                std::to_string(resultTypes.size()) +
                                " result(s), but the text names " + std::to_string(numResults));
    std::vector<ValueId> named;
    for (size_t i = 0, next = 0; i < size_t(numResults); ++i) {
      if (std::find(tokenResults_.begin(), tokenResults_.end(), i) != tokenResults_.end()) {
        named.push_back(kAsyncToken);
        continue;
      }
      op.results.push_back(fn_->addValue(
          resultTypes[next++], std::string(eachName.empty() ? resultName : eachName[i].first)));
      named.push_back(op.results.back());
    }
    tokenResults_.clear();
    if (!eachName.empty()) {
      for (size_t i = 0; i < eachName.size(); ++i)
        if (!define(eachName[i].first, eachName[i].second, {named[i]}))
          return false;
      return true;
    }
    if (numResults > 0 && !define(resultName, resultLoc, std::move(named)))
      return false;
    return true;
  }

  Module module_;
  std::map<std::string, LayoutSpec> aliases_;
  AttrAliases attrAliases_;
  std::set<std::string> memorySpaces_; // aliases of #ttg.shared_memory
  std::unordered_map<std::string, std::vector<ValueId>> names_;
  std::vector<std::vector<std::string>> regionNames_; // per open region, the names it defined
  Function *fn_ = nullptr;
};

} // namespace

Expected<Module> parseModule(std::string_view text, std::string_view fileName) {
  return Parser(text, fileName).run();
}

} // namespace linlayout::ir

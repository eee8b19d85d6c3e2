// The structure family: scf.for, scf.if, scf.yield, tt.return and the combining bodies' returns.
#include "../IntArith.h"
#include "FamilyTable.h"
#include "OpInterpreter.h"
#include "OpParser.h"
#include "OpPrinter.h"
#include "OpVerifier.h"
#include "linlayout/ir/CtaSplit.h"
#include "linlayout/ir/Parser.h"
#include "linlayout/ir/SharedTileLayout.h"

#include <array>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace linlayout::ir {

namespace {

// ---- printing -----------------------------------------------------------------------------------

// A branch of an scf.if: an empty scf.yield at its end is left out (the parser adds it back).
void printBranchOps(OpPrinter &p, std::ostream &os, const Block &b, int depth) {
  for (size_t i = 0; i < b.ops.size(); ++i)
    if (i + 1 < b.ops.size() || b.ops[i].kind != OpKind::Yield || !b.ops[i].operands.empty())
      p.printOp(os, b.ops[i], depth);
}

bool onlyEmptyYield(const Block &b) {
  return b.ops.size() == 1 && b.ops[0].kind == OpKind::Yield && b.ops[0].operands.empty();
}

// `a, b`: the types of ids.
std::string types(OpPrinter &p, const std::vector<ValueId> &ids) {
  std::string s;
  for (size_t i = 0; i < ids.size(); ++i)
    s += (i ? ", " : "") + p.t(ids[i]);
  return s;
}

// Return
void printReturn(OpPrinter &p, std::ostream &os, const Op &op, int depth) {}

// CombineReturn
void printCombineReturn(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  os << " " << p.list(op.operands) << " : " << types(p, op.operands);
}

// Yield
void printYield(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  if (!op.operands.empty()) {
    os << " " << p.list(op.operands) << " : ";
    for (size_t i = 0; i < op.operands.size(); ++i)
      os << (i ? ", " : "") << p.t(op.operands[i]);
  }
}

// For
void printFor(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  const std::string ind(size_t(depth) * 2, ' ');
  const Block *body = op.regions.empty() ? nullptr : &op.regions[0];
  ValueId iv = body && !body->args.empty() ? body->args[0] : kNoValue;
  os << " " << p.v(iv) << " = " << p.v(op.operands.size() > 0 ? op.operands[0] : kNoValue) << " to "
     << p.v(op.operands.size() > 1 ? op.operands[1] : kNoValue) << " step "
     << p.v(op.operands.size() > 2 ? op.operands[2] : kNoValue);
  if (op.operands.size() > 3) {
    os << " iter_args(";
    for (size_t i = 3; i < op.operands.size(); ++i) {
      ValueId arg = body && i - 2 < body->args.size() ? body->args[i - 2] : kNoValue;
      os << (i > 3 ? ", " : "") << p.v(arg) << " = " << p.v(op.operands[i]);
    }
    os << ") -> (";
    for (size_t i = 0; i < op.results.size(); ++i)
      os << (i ? ", " : "") << p.t(op.results[i]);
    os << ")";
  }
  os << " : " << (iv != kNoValue ? p.t(iv) : std::string("i32")) << " {\n";
  if (body)
    p.printBlockOps(os, *body, depth + 1);
  os << ind << "}";
  if (op.attrs.warpSpecialize)
    os << " {tt.warp_specialize}";
}

// If
void printIf(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  const std::string ind(size_t(depth) * 2, ' ');
  os << " " << p.v(op.operands.empty() ? kNoValue : op.operands[0]);
  if (!op.results.empty()) {
    os << " -> (";
    for (size_t i = 0; i < op.results.size(); ++i)
      os << (i ? ", " : "") << p.t(op.results[i]);
    os << ")";
  }
  os << " {\n";
  if (!op.regions.empty())
    printBranchOps(p, os, op.regions[0], depth + 1);
  os << ind << "}";
  if (op.regions.size() > 1 && !onlyEmptyYield(op.regions[1])) {
    os << " else {\n";
    printBranchOps(p, os, op.regions[1], depth + 1);
    os << ind << "}";
  }
}

constexpr auto kPrint = familyTable<OpFamily::Structure, PrintOpFn>({
    {OpKind::Return, printReturn},
    {OpKind::CombineReturn, printCombineReturn},
    {OpKind::Yield, printYield},
    {OpKind::For, printFor},
    {OpKind::If, printIf},
});

// ---- verification -------------------------------------------------------------------------------

// Return
Status checkReturn(OpVerifier &v, const Op &op) { return v.counts(op, 0, 0, 0); }

// Yield, For, If, CombineReturn
Status checkYieldForIfCombineReturn(OpVerifier &v, const Op &op) {
  return Status::success(); // checked with the loop, the if or the combining op
}

constexpr auto kChecks = familyTable<OpFamily::Structure, VerifyOpFn>({
    {OpKind::Return, checkReturn},
    {OpKind::Yield, checkYieldForIfCombineReturn},
    {OpKind::For, checkYieldForIfCombineReturn},
    {OpKind::If, checkYieldForIfCombineReturn},
    {OpKind::CombineReturn, checkYieldForIfCombineReturn},
});

} // namespace

void printStructureOp(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  kPrint[size_t(op.kind)](p, os, op, depth);
}

Status verifyStructureOp(OpVerifier &v, const Op &op) { return kChecks[size_t(op.kind)](v, op); }

// ---- interpretation -----------------------------------------------------------------------------

namespace {

// The driver's runBlock stops at a block's terminator and takes what it yields.
Status interpretTerminator(OpInterpreter &, const Op &) { return Status::success(); }

Status interpretFor(OpInterpreter &in, const Op &op) {
  const Type &it = in.type(op.operands[0]);
  ScalarKind k = it.elem().scalar;
  int64_t lb = in.val(op.operands[0]).i[0], ub = in.val(op.operands[1]).i[0],
          step = in.val(op.operands[2]).i[0];
  if (step <= 0)
    return in.err(op, "step " + std::to_string(step) + " must be positive");
  const Block &body = op.regions[0];
  std::vector<RtValue> carried;
  for (size_t i = 3; i < op.operands.size(); ++i)
    carried.push_back(in.val(op.operands[i]));
  for (int64_t iv = lb; iv < ub;) {
    in.setValue(body.args[0], RtValue{{wrapInt(iv, k)}, {}, {}});
    for (size_t i = 0; i < carried.size(); ++i)
      in.setValue(body.args[1 + i], std::move(carried[i]));
    std::vector<RtValue> next;
    LL_TRY_STATUS(in.runBlock(body, &next));
    carried = std::move(next);
    if (iv > std::numeric_limits<int64_t>::max() - step)
      break;
    iv = wrapInt(iv + step, k) > iv ? wrapInt(iv + step, k) : ub;
  }
  for (size_t i = 0; i < op.results.size(); ++i)
    in.setValue(op.results[i], std::move(carried[i]));
  return Status::success();
}

Status interpretIf(OpInterpreter &in, const Op &op) {
  std::vector<RtValue> yielded;
  LL_TRY_STATUS(in.runBlock(op.regions[in.val(op.operands[0]).i[0] ? 0 : 1], &yielded));
  for (size_t i = 0; i < op.results.size() && i < yielded.size(); ++i)
    in.setValue(op.results[i], std::move(yielded[i]));
  return Status::success();
}

constexpr auto kInterpret = familyTable<OpFamily::Structure, InterpretOpFn>({
    {OpKind::Return, interpretTerminator},
    {OpKind::Yield, interpretTerminator},
    {OpKind::CombineReturn, interpretTerminator},
    {OpKind::For, interpretFor},
    {OpKind::If, interpretIf},
});

} // namespace

Status interpretStructureOp(OpInterpreter &in, const Op &op) {
  return kInterpret[size_t(op.kind)](in, op);
}

// ---- parsing ------------------------------------------------------------------------------------

namespace {

bool parseReturn(OpParser &p, Op &op, std::vector<Type> &results, int depth) { return true; }

bool parseCombineReturn(OpParser &p, Op &op, std::vector<Type> &results, int depth) {
  return p.parseOperands(op.operands, 16) && p.expectPunct(":", "before the returned types") &&
         p.operandTypes(op, "returned types");
}

bool parseYield(OpParser &p, Op &op, std::vector<Type> &results, int depth) {
  Type t;
  if (!p.parseOperands(op.operands, 256, /*allowTokens=*/true))
    return false;
  if (!op.operands.empty()) {
    if (!p.expectPunct(":", "before the yielded types"))
      return false;
    // Written types, a token's too; then the tokens leave the operands.
    for (size_t i = 0; i < op.operands.size(); ++i) {
      if (i && !p.expectPunct(",", "between yielded types"))
        return false;
      if (op.operands[i] != OpParser::kAsyncToken) {
        if (!p.parseTypeOf(op.operands[i], t))
          return false;
      } else if (!p.isTokenType()) {
        return p.fail("expected !ttg.async.token for a yielded token, got " + p.describeToken());
      } else {
        p.advance();
      }
    }
  }
  p.yieldedTokens().clear();
  for (size_t i = 0; i < op.operands.size(); ++i)
    if (op.operands[i] == OpParser::kAsyncToken)
      p.yieldedTokens().push_back(i);
  std::erase(op.operands, OpParser::kAsyncToken);
  return true;
}

bool parseFor(OpParser &p, Op &op, std::vector<Type> &results, int depth) {
  if (depth + 1 > kMaxNesting)
    return p.fail("loops nested more than " + std::to_string(kMaxNesting) + " deep");
  if (p.token().kind != Tok::Value)
    return p.fail("expected the induction variable, got " + p.describeToken());
  std::string_view ivName = p.token().text;
  Loc ivLoc = p.token().loc;
  p.advance();
  ValueId lb, ub, step;
  if (!p.expectPunct("=", "after the induction variable") || !p.lookupValue(lb) ||
      !p.expectIdent("to", "after the lower bound") || !p.lookupValue(ub) ||
      !p.expectIdent("step", "after the upper bound") || !p.lookupValue(step))
    return false;
  op.operands = {lb, ub, step};
  // The iteration arguments; async tokens among them (Triton's) are dropped, their positions
  // kept in `tokens`.
  std::vector<std::pair<std::string_view, Loc>> argNames;
  std::vector<size_t> tokens;
  size_t written = 0;
  if (p.isIdent("iter_args")) {
    p.advance();
    if (!p.expectPunct("(", "after iter_args"))
      return false;
    while (!p.isPunct(")")) {
      if (p.token().kind != Tok::Value)
        return p.fail("expected an iteration argument, got " + p.describeToken());
      std::pair<std::string_view, Loc> name{p.token().text, p.token().loc};
      p.advance();
      ValueId init;
      if (!p.expectPunct("=", "after an iteration argument"))
        return false;
      if (!p.lookupValue(init, /*allowToken=*/true))
        return false;
      if (init == OpParser::kAsyncToken) {
        tokens.push_back(written);
        if (!p.define(name.first, name.second, {OpParser::kAsyncToken}))
          return false;
      } else {
        argNames.push_back(name);
        op.operands.push_back(init);
      }
      if (++written > 256)
        return p.fail("too many iteration arguments");
      if (p.isPunct(","))
        p.advance();
      else if (!p.isPunct(")"))
        return p.fail("expected ',' or ')' in iter_args, got " + p.describeToken());
    }
    p.advance();
    if (!p.expectPunct("->", "before the loop result types") ||
        !p.expectPunct("(", "to open the loop result types"))
      return false;
    for (size_t i = 0, arg = 0; i < written; ++i) {
      if (i && !p.expectPunct(",", "between loop result types"))
        return false;
      if (std::find(tokens.begin(), tokens.end(), i) != tokens.end()) {
        if (!p.isTokenType())
          return p.fail("expected !ttg.async.token for a loop-carried token, got " +
                        p.describeToken());
        p.advance();
        continue;
      }
      Type t;
      if (!p.parseTypeOf(op.operands[3 + arg++], t))
        return false;
      results.push_back(t);
    }
    if (!p.expectPunct(")", "to close the loop result types"))
      return false;
  }
  Type ivType = p.valueType(lb);
  if (p.isPunct(":")) {
    p.advance();
    if (!p.parseType(ivType))
      return false;
  }
  if (!p.expectPunct("{", "to open the loop body"))
    return false;
  Block body;
  p.openRegion();
  ValueId iv = p.addValue(ivType, std::string(ivName));
  if (!p.define(ivName, ivLoc, {iv}))
    return false;
  body.args.push_back(iv);
  for (size_t i = 0; i < argNames.size(); ++i) {
    ValueId a = p.addValue(p.valueType(op.operands[3 + i]), std::string(argNames[i].first));
    if (!p.define(argNames[i].first, argNames[i].second, {a}))
      return false;
    body.args.push_back(a);
  }
  if (!p.parseBlockOps(body, depth + 1))
    return false;
  p.advance(); // '}'
  p.closeRegion();
  // The loop's attributes (`{tt.warp_specialize, tt.num_stages = 3 : i32}`): only Triton's
  // request for warp specialization is kept.
  if (p.isPunct("{")) {
    Dict d;
    if (!p.parseDict(d))
      return false;
    if (auto it = d.find("tt.warp_specialize"); it != d.end()) {
      if (it->second.kind != DictValue::Bool)
        return p.failAt(it->second.loc, "tt.warp_specialize is a unit attribute or true/false");
      op.attrs.warpSpecialize = it->second.i != 0;
    }
  }
  // A loop without iteration arguments may leave out its empty scf.yield, as MLIR prints it.
  if (written == 0 && (body.ops.empty() || body.ops.back().kind != OpKind::Yield)) {
    body.ops.emplace_back();
    body.ops.back().kind = OpKind::Yield;
  } else if (!body.ops.empty() && body.ops.back().kind == OpKind::Yield &&
             p.yieldedTokens() != tokens) {
    return p.failAt(body.ops.back().loc,
                    "the loop's scf.yield must yield its async tokens where the loop carries them");
  }
  p.tokenResults() = std::move(tokens);
  op.regions.push_back(std::move(body));
  return true;
}

// `scf.if %cond [-> (types)] { ... } [else { ... }]`. A branch of an if without results may
// leave out its (empty) scf.yield, as MLIR prints it; the parser adds it.
bool parseIf(OpParser &p, Op &op, std::vector<Type> &results, int depth) {
  if (depth + 1 > kMaxNesting)
    return p.fail("regions nested more than " + std::to_string(kMaxNesting) + " deep");
  ValueId cond;
  if (!p.lookupValue(cond))
    return false;
  op.operands = {cond};
  if (p.isPunct("->")) {
    p.advance();
    if (!p.expectPunct("(", "to open the result types"))
      return false;
    while (!p.isPunct(")")) {
      if (!results.empty() && !p.expectPunct(",", "between result types"))
        return false;
      Type t;
      if (!p.parseType(t))
        return false;
      results.push_back(t);
      if (results.size() > 256)
        return p.fail("too many results");
    }
    p.advance();
  }
  for (int branch = 0; branch < 2; ++branch) {
    Block b;
    if (branch == 0 || p.isIdent("else")) {
      if (branch == 1)
        p.advance();
      Loc open = p.token().loc;
      if (!p.expectPunct("{", branch == 0 ? "to open the then block" : "to open the else block"))
        return false;
      p.openRegion();
      if (!p.parseBlockOps(b, depth + 1))
        return false;
      p.advance(); // '}'
      p.closeRegion();
      if (b.ops.empty() || b.ops.back().kind != OpKind::Yield) {
        if (!results.empty())
          return p.failAt(open, std::string(branch == 0 ? "the then" : "the else") +
                                    " block of an scf.if with results must end with scf.yield");
        b.ops.emplace_back();
        b.ops.back().kind = OpKind::Yield;
      }
    } else {
      if (!results.empty())
        return p.fail("an scf.if with results needs an else block, got " + p.describeToken());
      b.ops.emplace_back();
      b.ops.back().kind = OpKind::Yield;
    }
    op.regions.push_back(std::move(b));
  }
  return true;
}

constexpr auto kParse = familyTable<OpFamily::Structure, ParseOpFn>({
    {OpKind::Return, parseReturn},
    {OpKind::CombineReturn, parseCombineReturn},
    {OpKind::Yield, parseYield},
    {OpKind::For, parseFor},
    {OpKind::If, parseIf},
});

} // namespace

bool parseStructureOp(OpParser &p, Op &op, std::vector<Type> &results, int depth) {
  return kParse[size_t(op.kind)](p, op, results, depth);
}

} // namespace linlayout::ir

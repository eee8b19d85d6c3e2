#include "linlayout/ir/Verifier.h"

#include "ops/OpVerifier.h"

#include "linlayout/ir/CtaSplit.h"
#include "linlayout/ir/Parser.h"
#include "linlayout/ir/Printer.h"
#include "linlayout/ir/SharedTileLayout.h"
#include "linlayout/ir/VerifyLayoutSizes.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace linlayout::ir {

namespace {

bool isPow2(int64_t x) { return x > 0 && (x & (x - 1)) == 0; }

// Whether the op only moves, views or reinterprets its elements (and so may take 8-bit floats).
bool movesElementsOnly(OpKind k) {
  switch (category(k)) {
  case OpCategory::Shape:
  case OpCategory::Layout:
  case OpCategory::Select:
    return true;
  case OpCategory::BinaryInt:
  case OpCategory::BinaryFloat:
  case OpCategory::UnaryFloat:
  case OpCategory::Compare:
    return false;
  case OpCategory::Structure:
    return k != OpKind::CombineReturn;
  case OpCategory::Source:
    return k == OpKind::Constant;
  case OpCategory::Cast:
    return k == OpKind::Bitcast || k == OpKind::FpToFp;
  case OpCategory::Memory:
    return k == OpKind::AddPtr || k == OpKind::Load || k == OpKind::Store;
  case OpCategory::Shared:
    return k != OpKind::AsyncCommitGroup && k != OpKind::AsyncWait;
  case OpCategory::Compute:
    return k == OpKind::WarpGroupDot;
  case OpCategory::Sync:
    return k == OpKind::WarpGroupDotWait;
  }
  return false;
}
} // namespace

bool sameShapeAndLayout(const Type &a, const Type &b) {
  if (a.isTensor() != b.isTensor())
    return false;
  return !a.isTensor() || (a.shape() == b.shape() && a.layout() == b.layout());
}

bool hasBufferDims(const OpVerifier &v, const Type &t) {
  const LayoutTable &layouts = v.module().layouts;
  return t.layout() < layouts.size() && layouts.get(t.layout()).rank() < t.rank();
}

Status checkPermutation(const OpVerifier &v, const Op &op, int rank) {
  std::vector<bool> seen(size_t(rank), false);
  for (int32_t d : op.attrs.order) {
    if (d < 0 || d >= rank || seen[size_t(d)])
      return v.err(&op, "order is not a permutation of 0.." + std::to_string(rank - 1));
    seen[size_t(d)] = true;
  }
  return Status::success();
}

std::optional<LayoutSpec> sliceOf(const OpVerifier &v, LayoutId parent, int64_t axis) {
  const LayoutTable &layouts = v.module().layouts;
  if (parent >= layouts.size())
    return std::nullopt;
  Expected<SliceSpec> s = SliceSpec::make(axis, layouts.get(parent));
  if (!s)
    return std::nullopt;
  return LayoutSpec(*s);
}

namespace {

class FunctionVerifier final : public OpVerifier {
public:
  FunctionVerifier(const Module &m, const Function &f) : m_(m), f_(f) {}

  Status run() {
    if (f_.argHints.size() != f_.body.args.size())
      return err(nullptr, std::to_string(f_.argHints.size()) + " argument hints for " +
                              std::to_string(f_.body.args.size()) + " arguments");
    state_.assign(f_.values.size(), 0);
    for (ValueId a : f_.body.args)
      LL_TRY_STATUS(defineValue(a, nullptr));
    LL_TRY_STATUS(block(f_.body, 0, nullptr));
    if (f_.body.ops.empty() || f_.body.ops.back().kind != OpKind::Return)
      return err(nullptr, "the function body must end with tt.return");
    return Status::success();
  }

private:
  // ---- messages --------------------------------------------------------------------------------

  Status err(const Op *op, const std::string &msg) const {
    std::string where;
    if (op && op->loc.line > 0)
      where = (m_.fileName.empty() ? std::string("<input>") : m_.fileName) + ":" +
              std::to_string(op->loc.line) + ":" + std::to_string(op->loc.col) + ": ";
    else if (f_.loc.line > 0 && !op)
      where = (m_.fileName.empty() ? std::string("<input>") : m_.fileName) + ":" +
              std::to_string(f_.loc.line) + ":" + std::to_string(f_.loc.col) + ": ";
    else
      where = "@" + f_.name + ": ";
    if (op)
      where += "'" + std::string(mnemonic(op->kind)) + "': ";
    return Status(makeError(where + msg));
  }
  std::string valueName(ValueId v) const {
    return f_.values[v].name.empty() ? "value " + std::to_string(v) : "%" + f_.values[v].name;
  }
  std::string ty(ValueId v) const { return printType(m_, f_.type(v)); }
  std::string ty(const Type &t) const { return printType(m_, t); }

  // ---- types -----------------------------------------------------------------------------------

  std::optional<std::string> checkType(const Type &t) {
    if (t.isScalar() || t.isPointer())
      return std::nullopt;
    if (t.rank() < 1 || t.rank() > Type::kMaxRank)
      return "rank " + std::to_string(t.rank()) + " is outside 1.." +
             std::to_string(Type::kMaxRank);
    // A memdesc ring's leading dims (those its layout does not cover) may be any count.
    int ringDims = 0;
    if (t.isMemDesc() && t.layout() < m_.layouts.size())
      ringDims = std::max(0, t.rank() - m_.layouts.get(t.layout()).rank());
    for (int i = 0; i < t.rank(); ++i) {
      int64_t d = t.shape()[size_t(i)];
      if (i < ringDims ? (d < 1 || d > 1024) : (!isPow2(d) || d > Type::kMaxNumElements))
        return "dimension " + std::to_string(d) + " is not a power of two up to 2^20";
    }
    if (t.numElements() > Type::kMaxNumElements)
      return "more than 2^20 elements";
    if (t.layout() >= m_.layouts.size())
      return std::string("a ") + (t.isTensor() ? "tensor" : "memdesc") + " without a layout";
    const LayoutSpec &spec = m_.layouts.get(t.layout());
    if (spec.isTensorMemory())
      return std::string(t.isTensor() ? "tensor " : "memdesc ") + ty(t) + " has the " +
             std::string(kindName(spec.kind())) +
             " layout of Blackwell's tensor memory, which the tile IR does not hold (it has no "
             "tcgen05 ops)";
    if (t.isTensor() && !spec.isDistributed())
      return "tensor " + ty(t) + " has a shared layout, expected a distributed one";
    if (t.isMemDesc() && !spec.isShared())
      return "memdesc " + ty(t) + " has a distributed layout, expected a shared one";
    if (t.isMemDesc() && t.elem().pointer)
      return "memdesc of pointers";
    if (t.isTensorDesc()) {
      if (!spec.isShared())
        return "tensor descriptor " + ty(t) +
               " has a distributed layout, expected the shared "
               "layout its block lands in";
      if (t.rank() > 5)
        return "tensor descriptor " + ty(t) + " has rank " + std::to_string(t.rank()) +
               ", TMA copies 1 to 5 dims";
      for (int64_t d : t.shape())
        if (d > 256)
          return "tensor descriptor " + ty(t) + ": block dim " + std::to_string(d) +
                 " exceeds 256, the largest TMA box";
      if (t.elem().pointer || t.elem().scalar == ScalarKind::I1)
        return "tensor descriptor " + ty(t) + " must hold numbers of 8 bits or more";
    }
    if (int64_t n = numCtasOf(spec); n != 1 && n != m_.numCtas)
      return "layout of " + ty(t) + " covers " + std::to_string(n) + " CTAs, the kernel has " +
             std::to_string(m_.numCtas);
    // A memdesc may have leading buffer dims (a ring of tiles) before the dims its layout covers.
    if (spec.rank() != t.rank() && !(t.isMemDesc() && spec.rank() < t.rank()))
      return "layout of rank " + std::to_string(spec.rank()) + " on " + ty(t) + " of rank " +
             std::to_string(t.rank());
    if (!t.allocShape().empty()) {
      // A view (ttg.memdesc_subslice): its layout addresses the tile it views.
      const std::vector<int64_t> &as = t.allocShape();
      if (as.size() != t.shape().size() || spec.rank() != t.rank())
        return "alloc shape of " + ty(t) + " must have the memdesc's rank and no ring dims";
      int64_t n = 1;
      for (size_t i = 0; i < as.size(); ++i) {
        if (!isPow2(as[i]) || as[i] < t.shape()[i] || as[i] > Type::kMaxNumElements)
          return "alloc shape of " + ty(t) +
                 " must be powers of two no smaller than the memdesc's shape";
        n *= as[i];
        if (n > Type::kMaxNumElements)
          return "alloc shape of " + ty(t) + " has more than 2^20 elements";
      }
    }
    std::vector<int64_t> tile(t.viewedTileShape().end() - spec.rank(), t.viewedTileShape().end());
    auto key = std::make_pair(t.layout(), tile);
    auto it = linearChecked_.find(key);
    if (it == linearChecked_.end()) {
      Expected<LinearLayout> ll = toLinearLayout(spec, tile);
      it = linearChecked_.emplace(key, ll.ok() ? std::string() : ll.message()).first;
    }
    if (!it->second.empty())
      return "layout does not fit " + ty(t) + ": " + it->second;
    return std::nullopt;
  }

  // ---- structure -------------------------------------------------------------------------------

  Status defineValue(ValueId v, const Op *op) {
    if (!f_.isValid(v))
      return err(op, "defines value " + std::to_string(v) + ", which is not in the value table");
    if (state_[v] != 0)
      return err(op, "value " + std::to_string(v) + " is defined twice");
    if (auto e = checkType(f_.values[v].type))
      return err(op, "type of " + valueName(v) + ": " + *e);
    state_[v] = 1;
    if (!scopes_.empty())
      scopes_.back().push_back(v);
    return Status::success();
  }

  Status use(ValueId v, const Op &op) {
    if (!f_.isValid(v))
      return err(&op, "uses value " + std::to_string(v) + ", which is not in the value table");
    if (state_[v] != 1)
      return err(&op, "uses " + valueName(v) + " where its definition does not dominate the use");
    return Status::success();
  }

  // `parent` is the scf.for or scf.if whose region this block is (nullptr for the function
  // body).
  Status block(const Block &b, int depth, const Op *parent) {
    if (depth > kMaxNesting)
      return err(parent, "loops and ifs nested more than " + std::to_string(kMaxNesting) + " deep");
    scopes_.emplace_back();
    for (size_t i = 0; i < b.ops.size(); ++i) {
      const Op &op = b.ops[i];
      bool last = i + 1 == b.ops.size();
      const bool inCombiner = parent && isCombining(*parent);
      if (inCombiner)
        LL_TRY_STATUS(checkCombinerOp(op, last, *parent));
      if (op.kind == OpKind::Return && (!last || parent))
        return err(&op, "tt.return must be the last op of the function body");
      if (!inCombiner && op.kind == OpKind::CombineReturn)
        return err(&op, "tt.reduce.return / tt.scan.return ends a tt.reduce or tt.scan body only");
      const bool inWarpSpecialize = parent && parent->kind == OpKind::WarpSpecialize;
      if (op.kind == OpKind::Yield && (!last || !parent || inWarpSpecialize))
        return err(&op, "scf.yield must be the last op of a loop body or an scf.if branch");
      if (op.kind == OpKind::WarpYield && (!last || !inWarpSpecialize || &b != &parent->regions[0]))
        return err(&op, "ttg.warp_yield must be the last op of a ttg.warp_specialize's default "
                        "region");
      if (op.kind == OpKind::WarpReturn &&
          (!last || !inWarpSpecialize || &b == &parent->regions[0]))
        return err(&op, "ttg.warp_return must be the last op of a ttg.warp_specialize's partition");
      for (ValueId v : op.operands)
        LL_TRY_STATUS(use(v, op));
      if (op.kind == OpKind::For) {
        LL_TRY_STATUS(checkForHeader(op));
        LL_TRY_STATUS(regionWithArgs(op, depth));
      } else if (op.kind == OpKind::If) {
        LL_TRY_STATUS(checkIfHeader(op));
        for (const Block &branch : op.regions)
          LL_TRY_STATUS(block(branch, depth + 1, &op));
      } else if (isCombining(op) && !op.regions.empty()) {
        LL_TRY_STATUS(checkCombinerHeader(op));
        LL_TRY_STATUS(regionWithArgs(op, depth));
      } else if (op.kind == OpKind::WarpSpecialize) {
        LL_TRY_STATUS(warpSpecializeRegions(op, depth));
      } else if (!op.regions.empty()) {
        return err(&op, "has a region, but only scf.for, scf.if, tt.reduce, tt.scan and "
                        "ttg.warp_specialize may");
      }
      if (op.kind == OpKind::Yield)
        LL_TRY_STATUS(checkYield(op, *parent));
      else
        LL_TRY_STATUS(checkOp(op));
      for (ValueId r : op.results)
        LL_TRY_STATUS(defineValue(r, &op));
    }
    if (parent && isCombining(*parent)) {
      if (b.ops.empty() || b.ops.back().kind != OpKind::CombineReturn)
        return err(parent, "the combining body must end with " + combineReturn(*parent));
    } else if (parent && parent->kind == OpKind::WarpSpecialize) {
      // Its terminators are checked with the op (WarpSpecialize.cpp).
    } else if (parent && (b.ops.empty() || b.ops.back().kind != OpKind::Yield))
      return err(parent, parent->kind == OpKind::For
                             ? "the loop body must end with scf.yield"
                             : "each branch of an scf.if must end with scf.yield");
    for (ValueId v : scopes_.back())
      state_[v] = 2; // out of scope: later uses are not dominated
    scopes_.pop_back();
    return Status::success();
  }

  // The one region of a loop or a combining op, its arguments defined in it only.
  Status regionWithArgs(const Op &op, int depth) {
    scopes_.emplace_back();
    for (ValueId a : op.regions[0].args)
      LL_TRY_STATUS(defineValue(a, &op));
    LL_TRY_STATUS(block(op.regions[0], depth + 1, &op));
    for (ValueId v : scopes_.back())
      state_[v] = 2;
    scopes_.pop_back();
    return Status::success();
  }

  // The regions of a ttg.warp_specialize: the default region, then the partitions, whose
  // arguments are defined in them only.
  Status warpSpecializeRegions(const Op &op, int depth) {
    for (size_t r = 0; r < op.regions.size(); ++r) {
      scopes_.emplace_back();
      for (ValueId a : op.regions[r].args)
        LL_TRY_STATUS(defineValue(a, &op));
      LL_TRY_STATUS(block(op.regions[r], depth + 1, &op));
      for (ValueId v : scopes_.back())
        state_[v] = 2;
      scopes_.pop_back();
    }
    return Status::success();
  }

  static bool isCombining(const Op &op) {
    return op.kind == OpKind::Reduce || op.kind == OpKind::Scan;
  }
  static std::string combineReturn(const Op &parent) {
    return parent.kind == OpKind::Scan ? "tt.scan.return" : "tt.reduce.return";
  }

  // A tt.reduce / tt.scan with a combining body: one region, whose 2N arguments are the
  // operands' element types (the left elements', then the right ones').
  Status checkCombinerHeader(const Op &op) {
    if (op.regions.size() != 1)
      return err(&op,
                 "has one combining body, got " + std::to_string(op.regions.size()) + " regions");
    const std::vector<ValueId> &args = op.regions[0].args;
    const size_t n = op.operands.size();
    if (args.size() != 2 * n)
      return err(&op, "the combining body of " + std::to_string(n) + " operand(s) takes " +
                          std::to_string(2 * n) + " arguments, got " + std::to_string(args.size()));
    for (size_t i = 0; i < n; ++i) {
      const Type &t = f_.type(op.operands[i]);
      if (!t.isTensor())
        return err(&op, "operand " + std::to_string(i) + " must be a tensor, got " + ty(t));
      for (ValueId a : {args[i], args[n + i]})
        if (f_.type(a) != t.elementType())
          return err(&op, "combining body argument " + valueName(a) + " must have operand " +
                              std::to_string(i) + "'s element type " + ty(t.elementType()) +
                              ", got " + ty(f_.type(a)));
    }
    return Status::success();
  }

  // An op of a combining body: a scalar arith op (of numbers: no pointers), ending in the
  // return of one value per operand of the parent's operands' element types; it uses only the
  // body's arguments and values (the body is isolated from the function around it).
  Status checkCombinerOp(const Op &op, bool last, const Op &parent) {
    const std::string ret = combineReturn(parent);
    if (op.kind == OpKind::CombineReturn) {
      if (!last)
        return err(&op, ret + " must be the last op of the combining body");
      if (op.operands.size() != parent.operands.size())
        return err(&op, ret + " returns one value per operand (" +
                            std::to_string(parent.operands.size()) + "), got " +
                            std::to_string(op.operands.size()));
      for (size_t i = 0; i < op.operands.size(); ++i)
        if (f_.type(op.operands[i]) != f_.type(parent.operands[i]).elementType())
          return err(&op, ret + " value " + std::to_string(i) + " must have type " +
                              ty(f_.type(parent.operands[i]).elementType()) + ", got " +
                              ty(f_.type(op.operands[i])));
    } else {
      if ((!isElementwise(op.kind) || op.kind == OpKind::AddPtr) && op.kind != OpKind::Constant)
        return err(&op, "a combining body holds scalar arith ops only, got " +
                            std::string(mnemonic(op.kind)));
      if (last)
        return err(&parent, "the combining body must end with " + ret);
      for (ValueId r : op.results)
        if (!f_.type(r).isScalar() || f_.type(r).isPointerLike())
          return err(&op, "a combining body computes scalar numbers, got " + ty(f_.type(r)));
    }
    const Block &body = parent.regions[0];
    for (ValueId v : op.operands) {
      bool inside = std::find(body.args.begin(), body.args.end(), v) != body.args.end();
      for (size_t i = 0; !inside && i < body.ops.size() && &body.ops[i] != &op; ++i)
        inside = std::find(body.ops[i].results.begin(), body.ops[i].results.end(), v) !=
                 body.ops[i].results.end();
      if (!inside)
        return err(&op, "uses " + valueName(v) +
                            ", which the combining body does not define (it sees only its "
                            "arguments and its own values)");
    }
    return Status::success();
  }

  Status checkIfHeader(const Op &op) {
    if (op.operands.size() != 1)
      return err(&op, "takes one operand, the condition");
    const Type &c = f_.type(op.operands[0]);
    if (!c.isScalar() || c.elem().scalar != ScalarKind::I1 || c.elem().pointer)
      return err(&op, "the condition must be an i1 scalar, got " + ty(c));
    if (op.regions.size() != 2)
      return err(&op, "needs a then block and an else block (which may hold only its scf.yield)");
    for (const Block &branch : op.regions)
      if (!branch.args.empty())
        return err(&op, "its blocks take no arguments");
    for (ValueId r : op.results) {
      if (!f_.isValid(r))
        return err(&op, "result " + std::to_string(r) + " is not in the value table");
      if (f_.type(r).isMemDesc())
        return err(&op,
                   "results are tensors or scalars, not shared-memory descriptors, got " + ty(r));
    }
    return Status::success();
  }

  Status checkForHeader(const Op &op) {
    if (op.operands.size() < 3)
      return err(&op, "needs lower bound, upper bound and step");
    const Type &lb = f_.type(op.operands[0]);
    if (!lb.isScalar() || !lb.isIntLike() || lb.elem().scalar == ScalarKind::I1)
      return err(&op, "the bounds must be integer scalars, got " + ty(lb));
    for (int i = 1; i < 3; ++i)
      if (f_.type(op.operands[size_t(i)]) != lb)
        return err(&op, "lower bound, upper bound and step must have one type, got " + ty(lb) +
                            " and " + ty(op.operands[size_t(i)]));
    size_t n = op.operands.size() - 3;
    if (op.results.size() != n)
      return err(&op, std::to_string(n) + " iteration arguments but " +
                          std::to_string(op.results.size()) + " results");
    if (op.regions.size() != 1)
      return err(&op, "needs exactly one body");
    const Block &body = op.regions[0];
    if (body.args.size() != n + 1)
      return err(&op, "the body has " + std::to_string(body.args.size()) +
                          " arguments, expected the induction variable and " + std::to_string(n) +
                          " iteration arguments");
    for (ValueId a : body.args)
      if (!f_.isValid(a))
        return err(&op, "body argument " + std::to_string(a) + " is not in the value table");
    for (ValueId r : op.results)
      if (!f_.isValid(r))
        return err(&op, "result " + std::to_string(r) + " is not in the value table");
    if (f_.type(body.args[0]) != lb)
      return err(&op,
                 "the induction variable has type " + ty(body.args[0]) + ", expected " + ty(lb));
    for (size_t i = 0; i < n; ++i) {
      const Type &init = f_.type(op.operands[3 + i]);
      if (f_.type(body.args[1 + i]) != init || f_.type(op.results[i]) != init)
        return err(&op, "iteration argument " + std::to_string(i) + ": init " + ty(init) +
                            ", body argument " + ty(body.args[1 + i]) + ", result " +
                            ty(op.results[i]) + " must agree");
    }
    return Status::success();
  }

  Status checkYield(const Op &op, const Op &parent) {
    if (!op.results.empty())
      return err(&op, "has no results");
    bool loop = parent.kind == OpKind::For;
    std::string what = loop ? "the loop carries " : "the scf.if has result type ";
    if (op.operands.size() != parent.results.size())
      return err(&op, "yields " + std::to_string(op.operands.size()) + " values, " +
                          (loop ? "the loop has " : "the scf.if has ") +
                          std::to_string(parent.results.size()) +
                          (loop ? " iteration arguments" : " results"));
    for (size_t i = 0; i < op.operands.size(); ++i)
      if (f_.type(op.operands[i]) != f_.type(parent.results[i]))
        return err(&op, "yielded value " + std::to_string(i) + " has type " + ty(op.operands[i]) +
                            ", " + what + ty(parent.results[i]));
    return Status::success();
  }

  Status counts(const Op &op, size_t minOps, size_t maxOps, size_t results) {
    if (op.operands.size() < minOps || op.operands.size() > maxOps)
      return err(&op,
                 "takes " +
                     (minOps == maxOps ? std::to_string(minOps)
                                       : std::to_string(minOps) + ".." + std::to_string(maxOps)) +
                     " operand(s), got " + std::to_string(op.operands.size()));
    if (op.results.size() != results)
      return err(&op, "has " + std::to_string(results) + " result(s), got " +
                          std::to_string(op.results.size()));
    return Status::success();
  }

  // Value hints sit on integer ops and addptr, one per dimension of the result or one for all.
  Status checkHints(const Op &op) {
    const OpAttrs &a = op.attrs;
    if (!a.hasValueHints())
      return Status::success();
    if ((category(op.kind) != OpCategory::BinaryInt && op.kind != OpKind::AddPtr) ||
        op.results.size() != 1 || !f_.isValid(op.results[0]))
      return err(&op, "value hints (tt.divisibility, tt.contiguity, tt.constancy) belong on "
                      "integer ops and tt.addptr");
    const Type &r = f_.type(op.results[0]);
    size_t rank = r.isTensor() ? size_t(r.rank()) : 1;
    for (const auto &hint : kValueHints) {
      const std::vector<int64_t> &h = a.*hint.second;
      if (h.size() > 1 && h.size() != rank)
        return err(&op, "a value hint has " + std::to_string(h.size()) +
                            " entries; the result has rank " + std::to_string(rank));
      for (int64_t x : h)
        if (!isHintValue(x))
          return err(&op, "value hint " + std::to_string(x) + " is not a power of two in 1..2^30");
    }
    return Status::success();
  }

  // 8-bit floats are for moving, converting and multiplying: an op that would compute with
  // them (or convert them other than by tt.fp_to_fp and tt.bitcast) is an error.
  Status checkFp8(const Op &op) {
    if (movesElementsOnly(op.kind))
      return Status::success();
    auto fp8 = [&](ValueId v) { return isFp8(f_.type(v).elem().scalar); };
    if (std::any_of(op.operands.begin(), op.operands.end(), fp8) ||
        std::any_of(op.results.begin(), op.results.end(), fp8))
      return err(&op, "takes no 8-bit floats (f8E4M3FN, f8E5M2): convert them with tt.fp_to_fp");
    return Status::success();
  }

  // A cast: one operand and one result of the same shape and layout, neither a memdesc nor
  // pointers.
  Status checkElementCast(const Op &op) {
    LL_TRY_STATUS(counts(op, 1, 1, 1));
    const Type &s = f_.type(op.operands[0]), &r = f_.type(op.results[0]);
    if (!sameShapeAndLayout(s, r) || s.isMemDesc() || s.isPointerLike() || r.isPointerLike())
      return err(&op, "must keep shape and layout, got " + ty(s) + " to " + ty(r));
    return Status::success();
  }

  Status checkOp(const Op &op) {
    LL_TRY_STATUS(checkHints(op));
    LL_TRY_STATUS(checkFp8(op));
    return kVerifyOp[size_t(op.kind)](*this, op);
  }

public:
  const Module &module() const { return m_; }
  const Function &function() const { return f_; }

private:
  const Module &m_;
  const Function &f_;
  // Per value: 0 not yet defined, 1 in scope, 2 out of scope.
  std::vector<uint8_t> state_;
  std::vector<std::vector<ValueId>> scopes_;
  std::map<std::pair<LayoutId, std::vector<int64_t>>, std::string> linearChecked_;
};

} // namespace

Status verify(const Module &m) {
  if (m.numWarps < 1 || m.numCtas < 1 || m.threadsPerWarp < 1)
    return Status(makeError("module: warps, threads per warp and CTAs must be positive"));
  for (int c : m.clusterDims)
    if (c < 1 || c > 16)
      return Status(makeError("module: cluster dims (" + std::to_string(m.clusterDims[0]) + ", " +
                              std::to_string(m.clusterDims[1]) + ", " +
                              std::to_string(m.clusterDims[2]) + ") must be in 1..16"));
  if (m.clusterSize() > 16)
    return Status(makeError("module: a cluster of " + std::to_string(m.clusterSize()) +
                            " CTAs, more than the 16 a GPU can run"));
  // Two ways to ask for clusters: CTAs that split one program's tensors (num-ctas), or CTAs
  // that are programs of their own (cluster dims). A module uses one.
  if (m.clusterSize() > 1 && m.numCtas > 1)
    return Status(makeError("module: \"ttg.num-ctas\" = " + std::to_string(m.numCtas) +
                            " and a cluster of " + std::to_string(m.clusterSize()) +
                            " CTAs (\"ttg.cluster-dim-*\"): a module uses one or the other"));
  for (size_t i = 0; i < m.functions.size(); ++i) {
    for (size_t j = 0; j < i; ++j)
      if (m.functions[j].name == m.functions[i].name)
        return Status(
            makeError("module: function '@" + m.functions[i].name + "' is defined twice"));
    LL_TRY_STATUS(FunctionVerifier(m, m.functions[i]).run());
  }
  return verifyLayoutSizes(m);
}

} // namespace linlayout::ir

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

} // namespace

bool sameShapeAndLayout(const Type &a, const Type &b) {
  if (a.isTensor() != b.isTensor())
    return false;
  return !a.isTensor() || (a.shape() == b.shape() && a.layout() == b.layout());
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
      if (op.kind == OpKind::Yield && (!last || !parent))
        return err(&op, "scf.yield must be the last op of a loop body or an scf.if branch");
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
      } else if (!op.regions.empty()) {
        return err(&op, "has a region, but only scf.for, scf.if, tt.reduce and tt.scan may");
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

  // ---- per-op rules ----------------------------------------------------------------------------

  // Whether a (checked) memdesc has leading buffer dims its layout does not cover.
  bool hasBufferDims(const Type &t) const {
    return t.layout() < m_.layouts.size() && m_.layouts.get(t.layout()).rank() < t.rank();
  }

  // ttg.memdesc_subslice. With power-of-two sizes, an offset that is a multiple of the view's
  // size in its dim has no bit in common with the view's coordinates, so parent coordinate
  // o + x is o XOR x, and for the (linear) shared layout L of the viewed tile the view's element
  // x sits at offset L^-1(o) XOR L^-1(x): the parent's addressing XOR one constant. Any other
  // offset would add with carries, which no XOR of a constant expresses; such views are
  // rejected.
  Status checkSubslice(const Op &op) {
    const Type &s = f_.type(op.operands[0]);
    const Type &r = f_.type(op.results[0]);
    const std::vector<int64_t> &off = op.attrs.offsets;
    if (!s.isMemDesc() || !r.isMemDesc() || r.layout() != s.layout() || r.elem() != s.elem() ||
        r.isMutable() != s.isMutable() || r.rank() != s.rank())
      return err(&op, "takes a memdesc to a view of the same rank, layout, element and "
                      "mutability, got " +
                          ty(s) + " -> " + ty(r));
    if (hasBufferDims(s))
      return err(&op, "slices a whole ring " + ty(s) + "; index one tile first");
    if (r.viewedTileShape() != s.viewedTileShape())
      return err(&op, "the result's alloc shape must be the shape of the tile the operand "
                      "views, got " +
                          ty(s) + " -> " + ty(r));
    if (off.size() != size_t(s.rank()))
      return err(&op, std::to_string(off.size()) + " offset(s) for a memdesc of rank " +
                          std::to_string(s.rank()));
    for (size_t d = 0; d < off.size(); ++d) {
      int64_t n = r.shape()[d], size = s.shape()[d];
      if (off[d] < 0 || n > size || off[d] > size - n)
        return err(&op, "offset " + std::to_string(off[d]) + " of dim " + std::to_string(d) +
                            " puts the view (size " + std::to_string(n) + ") outside 0.." +
                            std::to_string(size - 1));
      if (off[d] % n != 0)
        return err(&op, "offset " + std::to_string(off[d]) + " of dim " + std::to_string(d) +
                            " is not a multiple of the view's size " + std::to_string(n) +
                            " there: only such views are the parent's layout XOR a constant "
                            "offset");
    }
    return Status::success();
  }

  // A view of the same bytes with the dims permuted: its layout must be the operand's with the
  // dims permuted (as TritonGPU writes it: a swizzled nvmma_shared of the other `transposed`,
  // the swizzled_shared of the permuted order, or any layout of the same map).
  Status checkMemDescTrans(const Op &op) {
    const Type &s = f_.type(op.operands[0]);
    const Type &r = f_.type(op.results[0]);
    const std::vector<int32_t> &order = op.attrs.order;
    if (!s.isMemDesc() || !r.isMemDesc() || r.elem() != s.elem() ||
        r.isMutable() != s.isMutable() || r.rank() != s.rank() || order.size() != size_t(s.rank()))
      return err(&op, "takes a memdesc to one of the same element, mutability and rank, with an "
                      "order for each dim, got " +
                          ty(s) + " -> " + ty(r));
    if (hasBufferDims(s) || hasBufferDims(r))
      return err(&op, "transposes a whole ring " + ty(s) + "; index one tile first");
    LL_TRY_STATUS(checkPermutation(op, s.rank()));
    if (r.allocShape().empty() != s.allocShape().empty())
      return err(&op,
                 "a view transposes to a view and a tile to a tile, got " + ty(s) + " -> " + ty(r));
    for (size_t i = 0; i < order.size(); ++i)
      if (r.shape()[i] != s.shape()[size_t(order[i])] ||
          r.viewedTileShape()[i] != s.viewedTileShape()[size_t(order[i])])
        return err(&op, "result dimension " + std::to_string(i) + " must be operand dimension " +
                            std::to_string(order[i]) + " (and so must its alloc shape), got " +
                            ty(s) + " -> " + ty(r));
    Expected<LinearLayout> from = toLinearLayout(m_.layouts.get(s.layout()), s.viewedTileShape());
    Expected<LinearLayout> to = toLinearLayout(m_.layouts.get(r.layout()), r.viewedTileShape());
    if (!from.ok() || !to.ok()) // the types' own checks say why
      return Status::success();
    Expected<LinearLayout> want = transposedTileLayout(*from, order);
    if (!want.ok())
      return err(&op, want.message());
    if (*want != *to)
      return err(&op, "the result's layout must store each element where the operand's does, "
                      "with the dims permuted (a swizzled nvmma_shared operand transposes to the "
                      "other `transposed`), got " +
                          ty(s) + " -> " + ty(r));
    return Status::success();
  }

  // tt.trans and ttg.memdesc_trans: `order` names each of the operand's `rank` dims once.
  Status checkPermutation(const Op &op, int rank) {
    std::vector<bool> seen(size_t(rank), false);
    for (int32_t d : op.attrs.order) {
      if (d < 0 || d >= rank || seen[size_t(d)])
        return err(&op, "order is not a permutation of 0.." + std::to_string(rank - 1));
      seen[size_t(d)] = true;
    }
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

  std::optional<LayoutSpec> sliceOf(LayoutId parent, int64_t axis) const {
    if (parent >= m_.layouts.size())
      return std::nullopt;
    Expected<SliceSpec> s = SliceSpec::make(axis, m_.layouts.get(parent));
    if (!s)
      return std::nullopt;
    return LayoutSpec(*s);
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
    switch (op.kind) {
    case OpKind::Return:
    case OpKind::Yield:
    case OpKind::For:
    case OpKind::If:
    case OpKind::Constant:
    case OpKind::Splat:
    case OpKind::Broadcast:
    case OpKind::ExpandDims:
    case OpKind::Reshape:
    case OpKind::Trans:
    case OpKind::Join:
    case OpKind::Split:
    case OpKind::Select:
    case OpKind::Bitcast:
    case OpKind::FpToFp:
    case OpKind::AddPtr:
    case OpKind::Load:
    case OpKind::Store:
    case OpKind::ConvertLayout:
    case OpKind::LocalAlloc:
    case OpKind::LocalStore:
    case OpKind::LocalLoad:
    case OpKind::LocalDealloc:
    case OpKind::MemDescIndex:
    case OpKind::MemDescSubslice:
    case OpKind::MemDescTrans:
    case OpKind::AsyncCopyGlobalToLocal:
    case OpKind::AsyncTmaCopyGlobalToLocal:
    case OpKind::AsyncTmaCopyLocalToGlobal:
    case OpKind::WarpGroupDot:
    case OpKind::WarpGroupDotWait:
      return Status::success();
    default:
      break;
    }
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

  // The ops of the families not yet moved to ir/lib/ops/.
  Status checkOpBody(const Op &op) {
    const OpAttrs &a = op.attrs;
    auto T = [&](size_t i) -> const Type & { return f_.type(op.operands[i]); };
    auto R = [&]() -> const Type & { return f_.type(op.results[0]); };
    switch (op.kind) {
    case OpKind::Return:
      return counts(op, 0, 0, 0);
    case OpKind::Yield:
    case OpKind::For:
    case OpKind::If:
    case OpKind::CombineReturn:
      return Status::success(); // checked with the loop, the if or the combining op
    case OpKind::Constant: {
      LL_TRY_STATUS(counts(op, 0, 0, 1));
      if (R().isMemDesc() || R().isPointerLike())
        return err(&op, "constants are integers, floats or tensors of them, got " + ty(R()));
      if (R().elem().scalar == ScalarKind::I1 && a.intValue != 0 && a.intValue != 1)
        return err(&op, "an i1 constant is 0 or 1, got " + std::to_string(a.intValue));
      return Status::success();
    }
    case OpKind::ProgramId:
    case OpKind::NumPrograms:
      LL_TRY_STATUS(counts(op, 0, 0, 1));
      if (a.axis < 0 || a.axis > 2)
        return err(&op, "axis " + std::to_string(a.axis) + " is not 0, 1 or 2");
      if (R() != Type::scalar(ScalarKind::I32))
        return err(&op, "result must be i32, got " + ty(R()));
      return Status::success();
    case OpKind::MakeRange:
      LL_TRY_STATUS(counts(op, 0, 0, 1));
      if (!R().isTensor() || R().rank() != 1 || R().elem() != ElemType{ScalarKind::I32, false})
        return err(&op, "result must be a 1-D i32 tensor, got " + ty(R()));
      if (a.start < 0 || a.end > (int64_t(1) << 31) || a.end - a.start != R().shape()[0])
        return err(&op, "range [" + std::to_string(a.start) + ", " + std::to_string(a.end) +
                            ") does not have " + std::to_string(R().shape()[0]) +
                            " elements within [0, 2^31)");
      return Status::success();
    case OpKind::Splat:
      LL_TRY_STATUS(counts(op, 1, 1, 1));
      if (T(0).isTensor() || T(0).isMemDesc() || !R().isTensor() || R().elem() != T(0).elem())
        return err(&op, "splats a scalar into a tensor of it, got " + ty(T(0)) + " -> " + ty(R()));
      return Status::success();
    case OpKind::Broadcast: {
      LL_TRY_STATUS(counts(op, 1, 1, 1));
      const Type &s = T(0);
      if (!s.isTensor() || !R().isTensor() || s.rank() != R().rank() || s.elem() != R().elem() ||
          s.layout() != R().layout())
        return err(&op, "operand and result must be tensors of one rank, element and layout, "
                        "got " +
                            ty(s) + " -> " + ty(R()));
      for (int d = 0; d < s.rank(); ++d)
        if (s.shape()[size_t(d)] != 1 && s.shape()[size_t(d)] != R().shape()[size_t(d)])
          return err(&op, "dimension " + std::to_string(d) + " of size " +
                              std::to_string(s.shape()[size_t(d)]) + " cannot broadcast to " +
                              std::to_string(R().shape()[size_t(d)]));
      return Status::success();
    }
    case OpKind::ExpandDims: {
      LL_TRY_STATUS(counts(op, 1, 1, 1));
      const Type &s = T(0);
      if (!s.isTensor() || !R().isTensor() || R().rank() != s.rank() + 1 || s.elem() != R().elem())
        return err(&op, "result must be the operand with one more dimension, got " + ty(s) +
                            " -> " + ty(R()));
      if (a.axis < 0 || a.axis > s.rank())
        return err(&op, "axis " + std::to_string(a.axis) + " is out of range");
      std::vector<int64_t> shape = s.shape();
      shape.insert(shape.begin() + a.axis, 1);
      if (shape != R().shape())
        return err(&op, "result shape must insert 1 at axis " + std::to_string(a.axis) + ", got " +
                            ty(R()));
      auto expected = sliceOf(R().layout(), a.axis);
      if (!expected || m_.layouts.get(s.layout()) != *expected)
        return err(&op, "operand layout must be the slice along " + std::to_string(a.axis) +
                            " of the result layout, got " + ty(s) + " -> " + ty(R()));
      return Status::success();
    }
    case OpKind::Join:
    case OpKind::Split: {
      const bool join = op.kind == OpKind::Join;
      LL_TRY_STATUS(join ? counts(op, 2, 2, 1) : counts(op, 1, 1, 2));
      const Type &narrow = join ? T(0) : R(), &wide = join ? R() : T(0);
      if (join && T(1) != T(0))
        return err(&op, "operands must have one type, got " + ty(T(0)) + " and " + ty(T(1)));
      if (!join && f_.type(op.results[1]) != R())
        return err(&op, "results must have one type");
      std::vector<int64_t> shape = narrow.isTensor() ? narrow.shape() : std::vector<int64_t>{};
      shape.push_back(2);
      if (!narrow.isTensor() || !wide.isTensor() || narrow.isMemDesc() || wide.isMemDesc() ||
          narrow.elem() != wide.elem() || wide.shape() != shape)
        return err(&op, std::string(join ? "the result" : "the operand") +
                            " must be the tensor with a last dimension of 2 added, got " +
                            ty(T(0)) + " -> " + ty(R()));
      return Status::success();
    }
    case OpKind::Reshape:
      LL_TRY_STATUS(counts(op, 1, 1, 1));
      if (!T(0).isTensor() || !R().isTensor() || T(0).elem() != R().elem() ||
          T(0).numElements() != R().numElements())
        return err(&op, "must keep the element type and count, got " + ty(T(0)) + " -> " + ty(R()));
      return Status::success();
    case OpKind::Trans: {
      LL_TRY_STATUS(counts(op, 1, 1, 1));
      const Type &s = T(0);
      if (!s.isTensor() || !R().isTensor() || s.elem() != R().elem() ||
          a.order.size() != size_t(s.rank()) || R().rank() != s.rank())
        return err(&op,
                   "order must permute the operand's dimensions, got " + ty(s) + " -> " + ty(R()));
      LL_TRY_STATUS(checkPermutation(op, s.rank()));
      for (size_t i = 0; i < a.order.size(); ++i) {
        int32_t d = a.order[i];
        if (R().shape()[i] != s.shape()[size_t(d)])
          return err(&op, "result dimension " + std::to_string(i) + " must be operand dimension " +
                              std::to_string(d));
      }
      return Status::success();
    }
    case OpKind::AddPtr:
      LL_TRY_STATUS(counts(op, 2, 2, 1));
      if (!T(0).isPointerLike() || T(0).isMemDesc() || R() != T(0))
        return err(&op, "first operand and result must be the same pointer type, got " + ty(T(0)) +
                            " and " + ty(R()));
      if (!T(1).isIntLike() || T(1).isMemDesc() || T(1).elem().scalar == ScalarKind::I1 ||
          !sameShapeAndLayout(T(0), T(1)))
        return err(&op,
                   "offset must be an integer of the pointer's shape and layout, got " + ty(T(1)));
      return Status::success();
    case OpKind::Load:
    case OpKind::Store: {
      bool isLoad = op.kind == OpKind::Load;
      LL_TRY_STATUS(counts(op, isLoad ? 1 : 2, 3, isLoad ? 1 : 0));
      const Type &p = T(0);
      if (!p.isPointerLike() || p.isMemDesc())
        return err(&op, "needs a pointer or tensor of pointers, got " + ty(p));
      Type value = p.withElem(ElemType{p.elem().scalar, false});
      if (isLoad && R() != value)
        return err(&op, "result must be " + ty(value) + ", got " + ty(R()));
      if (!isLoad && T(1) != value)
        return err(&op, "stored value must be " + ty(value) + ", got " + ty(T(1)));
      size_t maskIdx = isLoad ? 1 : 2;
      if (op.operands.size() > maskIdx) {
        Type mask = p.withElem(ElemType{ScalarKind::I1, false});
        if (T(maskIdx) != mask)
          return err(&op, "mask must be " + ty(mask) + ", got " + ty(T(maskIdx)));
      }
      if (isLoad && op.operands.size() > 2 && T(2) != value)
        return err(&op, "other must be " + ty(value) + ", got " + ty(T(2)));
      if (a.vectorWidth < 0 || a.vectorWidth > 64 || (a.vectorWidth && !isPow2(a.vectorWidth)))
        return err(&op, "vector width " + std::to_string(a.vectorWidth) +
                            " is not a power of two up to 64");
      return Status::success();
    }
    case OpKind::AtomicRMW:
    case OpKind::AtomicCAS: {
      // Pointers, then one value (rmw) or a compare value and a new value (cas) of the pointee
      // type, then an optional mask.
      const size_t values = atomicValueOperands(op.kind);
      LL_TRY_STATUS(counts(op, 1 + values, 2 + values, 1));
      const Type &p = T(0);
      if (!p.isPointerLike() || p.isMemDesc())
        return err(&op, "needs a pointer or tensor of pointers, got " + ty(p));
      Type value = p.withElem(ElemType{p.elem().scalar, false});
      for (size_t v = 1; v <= values; ++v)
        if (T(v) != value)
          return err(&op, std::string(v == values ? "value" : "compare value") + " must be " +
                              ty(value) + ", got " + ty(T(v)));
      if (R() != value)
        return err(&op, "result must be " + ty(value) + ", got " + ty(R()));
      if (op.operands.size() > 1 + values) {
        Type mask = p.withElem(ElemType{ScalarKind::I1, false});
        if (T(1 + values) != mask)
          return err(&op, "mask must be " + ty(mask) + ", got " + ty(T(1 + values)));
      }
      ScalarKind k = p.elem().scalar;
      int bits = bitWidth(k);
      bool ok = bits == 32 || bits == 64;
      if (op.kind == OpKind::AtomicCAS) {
        if (!ok && bits != 16)
          return err(&op, "no atomic compare-and-swap on " + std::string(name(k)) +
                              " (it takes 16-, 32- or 64-bit elements)");
        return Status::success();
      }
      switch (a.atomicKind) {
      case AtomicKind::FAdd:
        ok = isFloat(k); // f16, bf16 (sm_90), f32, f64
        break;
      case AtomicKind::Exch:
        break;
      case AtomicKind::And:
      case AtomicKind::Or:
      case AtomicKind::Xor:
      case AtomicKind::Add:
      case AtomicKind::Max:
      case AtomicKind::Min:
      case AtomicKind::UMax:
      case AtomicKind::UMin:
        ok = ok && isInt(k);
        break;
      }
      if (!ok)
        return err(&op, "no atomic " + std::string(name(a.atomicKind)) + " on " +
                            std::string(name(k)) +
                            " (fadd takes f16, bf16, f32 or f64; exch any 32- or 64-bit element; "
                            "the others i32 or i64)");
      return Status::success();
    }
    case OpKind::ConvertLayout:
      LL_TRY_STATUS(counts(op, 1, 1, 1));
      if (!T(0).isTensor() || !R().isTensor() || T(0).shape() != R().shape() ||
          T(0).elem() != R().elem())
        return err(&op, "must keep shape and element type, got " + ty(T(0)) + " -> " + ty(R()));
      return Status::success();
    case OpKind::LocalAlloc:
      LL_TRY_STATUS(counts(op, 0, 1, 1));
      if (!R().isMemDesc())
        return err(&op, "result must be a memdesc, got " + ty(R()));
      if (!op.operands.empty() && (!T(0).isTensor() || T(0).shape() != R().shape() ||
                                   T(0).elem() != R().elem() || hasBufferDims(R())))
        return err(&op, "initial value must be a tensor of the memdesc's shape and element, got " +
                            ty(T(0)));
      if (op.operands.empty() && !R().isMutable())
        return err(&op, "an allocation without a value must be mutable");
      if (!R().allocShape().empty())
        return err(&op, "allocates a whole tile; " + ty(R()) + " is a view (alloc shape)");
      return Status::success();
    case OpKind::LocalStore:
      LL_TRY_STATUS(counts(op, 2, 2, 0));
      if (T(1).isMemDesc() && hasBufferDims(T(1)))
        return err(&op, "stores to a whole ring " + ty(T(1)) + "; index one tile first");
      if (!T(1).isMemDesc() || !T(1).isMutable())
        return err(&op, "second operand must be a mutable memdesc, got " + ty(T(1)));
      if (!T(0).isTensor() || T(0).shape() != T(1).shape() || T(0).elem() != T(1).elem())
        return err(&op, "value must match the memdesc's shape and element, got " + ty(T(0)));
      return Status::success();
    case OpKind::LocalLoad:
      LL_TRY_STATUS(counts(op, 1, 1, 1));
      if (T(0).isMemDesc() && hasBufferDims(T(0)))
        return err(&op, "loads a whole ring " + ty(T(0)) + "; index one tile first");
      if (!T(0).isMemDesc() || !R().isTensor() || T(0).shape() != R().shape() ||
          T(0).elem() != R().elem())
        return err(&op, "loads a memdesc into a tensor of its shape and element, got " + ty(T(0)) +
                            " -> " + ty(R()));
      return Status::success();
    case OpKind::LocalDealloc:
      LL_TRY_STATUS(counts(op, 1, 1, 0));
      if (!T(0).isMemDesc())
        return err(&op, "needs a memdesc, got " + ty(T(0)));
      return Status::success();
    case OpKind::MemDescIndex: {
      LL_TRY_STATUS(counts(op, 2, 2, 1));
      const Type &s = T(0);
      if (!s.isMemDesc() || s.rank() < 2 || !R().isMemDesc() || R().layout() != s.layout() ||
          R().elem() != s.elem() || R().isMutable() != s.isMutable() ||
          std::vector<int64_t>(s.shape().begin() + 1, s.shape().end()) != R().shape())
        return err(&op, "takes a memdesc of rank >= 2 to one of its tiles (same layout, element "
                        "and mutability, the leading dim dropped), got " +
                            ty(s) + " -> " + ty(R()));
      if (!T(1).isScalar() || T(1).elem().scalar != ScalarKind::I32)
        return err(&op, "index must be i32, got " + ty(T(1)));
      if (!s.allocShape().empty() || !R().allocShape().empty())
        return err(&op,
                   "indexes a ring, not a view (alloc shape), got " + ty(s) + " -> " + ty(R()));
      return Status::success();
    }
    case OpKind::MemDescSubslice:
      LL_TRY_STATUS(counts(op, 1, 1, 1));
      return checkSubslice(op);
    case OpKind::MemDescTrans:
      LL_TRY_STATUS(counts(op, 1, 1, 1));
      return checkMemDescTrans(op);
    case OpKind::AsyncCopyGlobalToLocal: {
      LL_TRY_STATUS(counts(op, 2, 4, 0));
      const Type &p = T(0), &d = T(1);
      if (!p.isTensor() || !p.isPointerLike())
        return err(&op, "first operand must be a tensor of pointers, got " + ty(p));
      if (!d.isMemDesc() || !d.isMutable() || d.shape() != p.shape() || hasBufferDims(d) ||
          d.elem().scalar != p.elem().scalar)
        return err(&op, "destination must be a mutable memdesc of the pointers' shape and "
                        "pointee, got " +
                            ty(d));
      if (op.operands.size() > 2 &&
          (!T(2).isTensor() || T(2).elem() != ElemType{ScalarKind::I1, false} ||
           T(2).shape() != p.shape() || T(2).layout() != p.layout()))
        return err(&op, "mask must be an i1 tensor shaped like the pointers, got " + ty(T(2)));
      if (op.operands.size() > 3 && T(3) != p.withElem(ElemType{p.elem().scalar, false}))
        return err(&op, "other must be " + ty(p.withElem(ElemType{p.elem().scalar, false})) +
                            ", got " + ty(T(3)));
      if (a.vectorWidth < 0 || a.vectorWidth > 64 || (a.vectorWidth && !isPow2(a.vectorWidth)))
        return err(&op, "vector width " + std::to_string(a.vectorWidth) +
                            " is not a power of two up to 64");
      return Status::success();
    }
    case OpKind::AsyncCommitGroup:
      return counts(op, 0, 0, 0);
    case OpKind::AsyncWait:
      LL_TRY_STATUS(counts(op, 0, 0, 0));
      if (a.num < 0 || a.num > 1024)
        return err(&op, "num " + std::to_string(a.num) + " is outside 0..1024");
      return Status::success();
    case OpKind::Dot:
      LL_TRY_STATUS(counts(op, 3, 3, 1));
      return checkDot(op);
    case OpKind::Reduce:
    case OpKind::Scan: {
      const size_t n = op.operands.size();
      LL_TRY_STATUS(counts(op, 1, 16, n));
      const bool scan = op.kind == OpKind::Scan;
      const Type &s = T(0);
      for (size_t i = 0; i < n; ++i) {
        const Type &t = T(i);
        if (!t.isTensor() || t.isPointerLike())
          return err(&op, "needs tensors of numbers, got " + ty(t));
        if (!sameShapeAndLayout(t, s))
          return err(&op,
                     "operands must share one shape and layout, got " + ty(s) + " and " + ty(t));
      }
      if (op.regions.empty()) {
        if (n != 1)
          return err(&op, std::string(scan ? "scanning" : "reducing") +
                              " several tensors needs a combining body");
        if (bool f = isFloat(s.elem().scalar); !combinerOf(a.reduceKind, f))
          return err(&op, std::string(name(a.reduceKind)) + (scan ? " scans " : " reduces ") +
                              (f ? "integers" : "floats") + " only, got " + ty(s));
      }
      if (a.axis < 0 || a.axis >= s.rank())
        return err(&op, "axis " + std::to_string(a.axis) + " is out of range for " + ty(s));
      std::optional<LayoutSpec> sliced;
      if (!scan && s.rank() > 1) {
        auto expected = sliceOf(s.layout(), a.axis);
        if (!expected)
          return err(&op, "the operand layout has no slice along " + std::to_string(a.axis));
        sliced = std::move(expected);
      }
      for (size_t i = 0; i < n; ++i) {
        const Type &t = T(i), &r = f_.type(op.results[i]);
        std::string which = n == 1 ? "the result" : "result " + std::to_string(i);
        if (scan) {
          if (r != t)
            return err(&op, (n == 1 ? std::string("the result must have the operand's type ")
                                    : which + " must have its operand's type ") +
                                ty(t) + ", got " + ty(r));
          continue;
        }
        if (t.rank() == 1) {
          if (r != t.elementType())
            return err(&op, "reducing a 1-D tensor gives a scalar " + ty(t.elementType()) +
                                ", got " + ty(r));
          continue;
        }
        std::vector<int64_t> shape = t.shape();
        shape.erase(shape.begin() + a.axis);
        if (!r.isTensor() || r.shape() != shape || r.elem() != t.elem())
          return err(&op, which + " must drop dimension " + std::to_string(a.axis) + ", got " +
                              ty(t) + " -> " + ty(r));
        if (m_.layouts.get(r.layout()) != *sliced)
          return err(&op, which + " layout must be the slice along " + std::to_string(a.axis) +
                              " of the operand layout, got " + ty(r));
      }
      return Status::success();
    }
    case OpKind::WarpGroupDot:
      LL_TRY_STATUS(counts(op, 3, 3, 1));
      return checkWarpGroupDot(op);
    case OpKind::WarpGroupDotWait:
      if (op.operands.empty() || op.results.size() != op.operands.size())
        return err(&op, "returns one result per operand, got " +
                            std::to_string(op.operands.size()) + " operand(s) and " +
                            std::to_string(op.results.size()) + " result(s)");
      for (size_t i = 0; i < op.operands.size(); ++i)
        if (f_.type(op.results[i]) != T(i))
          return err(&op,
                     "result " + std::to_string(i) + " must have its operand's type " + ty(T(i)));
      if (a.pendings < 0 || a.pendings > 7)
        return err(&op, "pendings is " + std::to_string(a.pendings) + ", expected 0..7");
      return Status::success();
    case OpKind::FenceAsyncShared:
    case OpKind::Barrier:
      return counts(op, 0, 0, 0);
    case OpKind::InitBarrier:
      LL_TRY_STATUS(counts(op, 1, 1, 0));
      LL_TRY_STATUS(checkBarrier(op, 0));
      if (a.count < 1 || a.count >= (int64_t(1) << 20))
        return err(&op, "arrival count " + std::to_string(a.count) + " is outside 1..2^20-1");
      return Status::success();
    case OpKind::InvalBarrier:
      LL_TRY_STATUS(counts(op, 1, 1, 0));
      return checkBarrier(op, 0);
    case OpKind::BarrierExpect:
      LL_TRY_STATUS(counts(op, 2, 2, 0));
      LL_TRY_STATUS(checkBarrier(op, 0));
      LL_TRY_STATUS(checkScalar(op, 1, ScalarKind::I1, "predicate"));
      if (a.count < 0 || a.count >= (int64_t(1) << 20))
        return err(&op, "expected bytes " + std::to_string(a.count) +
                            " are outside 0..2^20-1 (the transaction count's range)");
      return Status::success();
    case OpKind::WaitBarrier:
      LL_TRY_STATUS(counts(op, 2, 3, 0));
      LL_TRY_STATUS(checkBarrier(op, 0));
      LL_TRY_STATUS(checkScalar(op, 1, ScalarKind::I32, "phase"));
      if (op.operands.size() > 2)
        LL_TRY_STATUS(checkScalar(op, 2, ScalarKind::I1, "predicate"));
      return Status::success();
    case OpKind::AsyncTmaCopyGlobalToLocal:
      return checkTmaCopy(op);
    case OpKind::AsyncTmaCopyLocalToGlobal:
      return checkTmaStore(op);
    case OpKind::AsyncTmaStoreWait:
      LL_TRY_STATUS(counts(op, 0, 0, 0));
      if (a.pendings < 0 || a.pendings > 63)
        return err(&op, "pendings is " + std::to_string(a.pendings) + ", expected 0..63");
      return Status::success();
    default: // interim: the families of ir/lib/ops/ check their own ops
      break;
    }
    return err(&op, "unknown op kind");
  }

private:
  // An mbarrier: one mutable 64-bit word of shared memory.
  Status checkBarrier(const Op &op, size_t i) {
    const Type &t = f_.type(op.operands[i]);
    if (!t.isMemDesc() || t.shape() != std::vector<int64_t>{1} ||
        t.elem() != ElemType{ScalarKind::I64, false} || !t.isMutable())
      return err(&op, "the barrier must be a !ttg.memdesc<1xi64, ..., mutable> (index a ring "
                      "of barriers first), got " +
                          ty(t));
    return Status::success();
  }

  Status checkScalar(const Op &op, size_t i, ScalarKind k, const char *what) {
    const Type &t = f_.type(op.operands[i]);
    if (!t.isScalar() || t.elem().scalar != k)
      return err(&op, std::string("the ") + what + " must be " + std::string(name(k)) + ", got " +
                          ty(t));
    return Status::success();
  }

  // The descriptor (operand 0) and its `coords` i32 coordinates (operands 1..) of a TMA copy
  // `from` or `into` it.
  Status checkTmaBox(const Op &op, size_t coords, const char *direction) {
    const Type &d = f_.type(op.operands[0]);
    if (!d.isTensorDesc())
      return err(&op, "the first operand must be a !tt.tensordesc, got " + ty(d));
    if (coords != size_t(d.rank()))
      return err(&op, std::string("a copy ") + direction + " " + ty(d) + " takes " +
                          std::to_string(d.rank()) + " coordinates, got " + std::to_string(coords));
    for (size_t i = 0; i < coords; ++i)
      LL_TRY_STATUS(checkScalar(op, 1 + i, ScalarKind::I32, "coordinate"));
    return Status::success();
  }

  // desc[coords] -> dst, completing on a barrier: the box is the descriptor's block, and lands
  // in the destination in the descriptor's shared layout.
  Status checkTmaCopy(const Op &op) {
    if (op.operands.size() < 5 || !op.results.empty())
      return err(&op, "takes a descriptor, its coordinates, a destination, a barrier and a "
                      "predicate, and has no results");
    size_t coords = op.operands.size() - 4;
    LL_TRY_STATUS(checkTmaBox(op, coords, "from"));
    const Type &d = f_.type(op.operands[0]);
    const Type &m = f_.type(op.operands[coords + 1]);
    if (!m.isMemDesc() || !m.isMutable() || hasBufferDims(m))
      return err(&op, "the destination must be a mutable memdesc of one tile, got " + ty(m));
    if (m.shape() != d.shape())
      return err(&op, "the box of " + ty(d) + " does not match the destination " + ty(m));
    if (m.elem() != d.elem())
      return err(&op, "the descriptor holds " + std::string(name(d.elem().scalar)) +
                          ", the destination " + std::string(name(m.elem().scalar)));
    if (m.layout() != d.layout())
      return err(&op, "the destination's layout must be the descriptor's (the copy writes the "
                      "box in it), got " +
                          ty(m) + " for " + ty(d));
    LL_TRY_STATUS(checkBarrier(op, coords + 2));
    return checkScalar(op, coords + 3, ScalarKind::I1, "predicate");
  }

  // src -> desc[coords]: the source tile is the descriptor's block in its shared layout.
  Status checkTmaStore(const Op &op) {
    if (op.operands.size() < 3 || !op.results.empty())
      return err(&op, "takes a descriptor, its coordinates and a source tile, and has no results");
    LL_TRY_STATUS(checkTmaBox(op, op.operands.size() - 2, "into"));
    const Type &d = f_.type(op.operands[0]);
    const Type &m = f_.type(op.operands.back());
    if (!m.isMemDesc() || hasBufferDims(m))
      return err(&op, "the source must be a memdesc of one tile, got " + ty(m));
    if (m.shape() != d.shape() || m.elem() != d.elem() || m.layout() != d.layout())
      return err(&op, "the source must be the block of " + ty(d) +
                          " in the descriptor's layout, got " + ty(m));
    return Status::success();
  }

  Status checkDot(const Op &op) {
    const Type &a = f_.type(op.operands[0]);
    const Type &b = f_.type(op.operands[1]);
    const Type &c = f_.type(op.operands[2]);
    const Type &r = f_.type(op.results[0]);
    if (r != c)
      return err(&op, "result must have the accumulator's type " + ty(c) + ", got " + ty(r));
    if (!a.isTensor() || !b.isTensor() || !c.isTensor() || a.rank() != c.rank() ||
        b.rank() != c.rank() || (c.rank() != 2 && c.rank() != 3))
      return err(&op, "operands must be 2-D (or batched 3-D) tensors, got " + ty(a) + ", " + ty(b) +
                          ", " + ty(c));
    int rk = c.rank();
    int64_t m = a.shape()[size_t(rk - 2)], k = a.shape()[size_t(rk - 1)];
    int64_t k2 = b.shape()[size_t(rk - 2)], n = b.shape()[size_t(rk - 1)];
    if (k != k2 || c.shape()[size_t(rk - 2)] != m || c.shape()[size_t(rk - 1)] != n ||
        (rk == 3 && (a.shape()[0] != c.shape()[0] || b.shape()[0] != c.shape()[0])))
      return err(&op, "shapes do not multiply: " + ty(a) + " * " + ty(b) + " -> " + ty(c));
    ScalarKind ea = a.elem().scalar, eb = b.elem().scalar, ec = c.elem().scalar;
    bool floats = isFloat(ea) && ea == eb && isFloat(ec) && bitWidth(ec) >= bitWidth(ea);
    bool ints = ea == ScalarKind::I8 && eb == ScalarKind::I8 && ec == ScalarKind::I32;
    if (a.isPointerLike() || b.isPointerLike() || c.isPointerLike() || !(floats || ints))
      return err(&op, "element types " + std::string(name(ea)) + " * " + std::string(name(eb)) +
                          " -> " + std::string(name(ec)) +
                          " are not supported (floats of one kind into an accumulator at least "
                          "as wide, or i8 * i8 -> i32)");
    const LayoutSpec &lc = m_.layouts.get(c.layout());
    if (lc.kind() != LayoutKind::NvidiaMma && lc.kind() != LayoutKind::Blocked)
      return err(&op, "the accumulator must be in an nvidia_mma or blocked layout, got " + ty(c));
    for (int idx = 0; idx < 2; ++idx) {
      const Type &t = idx == 0 ? a : b;
      const DotOperandSpec *d = m_.layouts.get(t.layout()).as<DotOperandSpec>();
      if (!d || d->operandIndex() != idx || d->parent() != lc)
        return err(&op, std::string(idx == 0 ? "A" : "B") +
                            " must be in a dot_op layout with opIdx = " + std::to_string(idx) +
                            " whose parent is the accumulator's layout, got " + ty(t));
    }
    return Status::success();
  }

  // wgmma: A from shared memory (nvmma_shared or shared_linear) or registers (dot_op of the
  // accumulator), B from shared memory, f16 / bf16 / f32 (tf32) / 8-bit float operands into an
  // f32 accumulator or i8 into i32, in an nvidia_mma version 3 layout.
  Status checkWarpGroupDot(const Op &op) {
    const Type &a = f_.type(op.operands[0]);
    const Type &b = f_.type(op.operands[1]);
    const Type &c = f_.type(op.operands[2]);
    const Type &r = f_.type(op.results[0]);
    if (r != c)
      return err(&op, "result must have the accumulator's type " + ty(c) + ", got " + ty(r));
    if (!c.isTensor() || c.rank() != 2 || a.rank() != 2 || b.rank() != 2 ||
        !(a.isTensor() || a.isMemDesc()) || !b.isMemDesc())
      return err(&op, "takes a 2-D memdesc or tensor A, a 2-D memdesc B and a 2-D tensor "
                      "accumulator, got " +
                          ty(a) + ", " + ty(b) + ", " + ty(c));
    if (a.shape()[1] != b.shape()[0] || c.shape()[0] != a.shape()[0] ||
        c.shape()[1] != b.shape()[1])
      return err(&op, "shapes do not multiply: " + ty(a) + " * " + ty(b) + " -> " + ty(c));
    ScalarKind ea = a.elem().scalar, eb = b.elem().scalar, ec = c.elem().scalar;
    const bool floats =
        ea == eb && (ea == ScalarKind::F16 || ea == ScalarKind::BF16 || ea == ScalarKind::F32);
    const bool fp8 = isFp8(ea) && isFp8(eb); // e4m3 and e5m2 may mix
    const bool ints = ea == ScalarKind::I8 && eb == ScalarKind::I8;
    if (!(((floats || fp8) && ec == ScalarKind::F32) || (ints && ec == ScalarKind::I32)) ||
        a.isPointerLike() || c.isPointerLike())
      return err(&op, "element types " + std::string(name(ea)) + " * " + std::string(name(eb)) +
                          " -> " + std::string(name(ec)) +
                          " are not supported (f16, bf16, f32 (tf32) or 8-bit float operands "
                          "into f32, i8 into i32)");
    const LayoutSpec &lc = m_.layouts.get(c.layout());
    const NvidiaMmaSpec *mma = lc.as<NvidiaMmaSpec>();
    if (!mma || !mma->isHopper())
      return err(&op, "the accumulator must be in an nvidia_mma version 3 layout, got " + ty(c));
    // Shared operands: NVMMA tiles, or any shared_linear layout (the lowering checks that wgmma's
    // descriptors can read it).
    auto wgmmaShared = [&](const Type &t) {
      LayoutKind k = m_.layouts.get(t.layout()).kind();
      return k == LayoutKind::NvmmaShared || k == LayoutKind::SharedLinear;
    };
    if (a.isMemDesc() && !wgmmaShared(a))
      return err(&op,
                 "A in shared memory must be in an nvmma_shared or shared_linear layout, got " +
                     ty(a));
    if (a.isTensor()) {
      const DotOperandSpec *d = m_.layouts.get(a.layout()).as<DotOperandSpec>();
      if (!d || d->operandIndex() != 0 || d->parent() != lc)
        return err(&op, "A in registers must be in a dot_op layout with opIdx = 0 whose parent "
                        "is the accumulator's layout, got " +
                            ty(a));
    }
    if (!wgmmaShared(b))
      return err(&op, "B must be in an nvmma_shared or shared_linear layout, got " + ty(b));
    return Status::success();
  }

  const Module &m_;
  const Function &f_;
  // Per value: 0 not yet defined, 1 in scope, 2 out of scope.
  std::vector<uint8_t> state_;
  std::vector<std::vector<ValueId>> scopes_;
  std::map<std::pair<LayoutId, std::vector<int64_t>>, std::string> linearChecked_;
};

} // namespace

#define LINLAYOUT_LEGACY(F)                                                                        \
  Status verify##F##Op(OpVerifier &v, const Op &op) {                                              \
    return static_cast<FunctionVerifier &>(v).checkOpBody(op);                                     \
  }
LINLAYOUT_LEGACY(Structure)
LINLAYOUT_LEGACY(Source)
LINLAYOUT_LEGACY(Shape)
LINLAYOUT_LEGACY(Memory)
LINLAYOUT_LEGACY(Shared)
LINLAYOUT_LEGACY(Compute)
LINLAYOUT_LEGACY(Hopper)
#undef LINLAYOUT_LEGACY

Status verify(const Module &m) {
  if (m.numWarps < 1 || m.numCtas < 1 || m.threadsPerWarp < 1)
    return Status(makeError("module: warps, threads per warp and CTAs must be positive"));
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

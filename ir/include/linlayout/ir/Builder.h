// The C++ way to write a tile-IR kernel: a builder that appends ops to a function, computes the
// result types it can infer, and keeps the first error it meets (so a chain of calls needs one
// check at the end). The builder does not verify; run verify() on the finished module.
//
// Example (a 1-D copy of 128 floats):
//   Module m;
//   Builder b(m);
//   LayoutId l = b.layout(BlockedSpec::make({4}, {32}, {1}, {0}).value());
//   b.beginFunction("copy", {Type::pointer(ScalarKind::F32), Type::pointer(ScalarKind::F32)});
//   ValueId offs = b.makeRange(0, 128, l);
//   ValueId src = b.addPtr(b.splat(b.arg(0), {128}, l), offs);
//   ValueId dst = b.addPtr(b.splat(b.arg(1), {128}, l), offs);
//   b.store(dst, b.load(src));
//   b.ret();
//   Status s = b.endFunction();
#pragma once

#include "linlayout/ir/Module.h"
#include "linlayout/layout/Expected.h"

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace linlayout::ir {

/// The values a loop body sees, returned by beginFor.
struct ForScope {
  ValueId inductionVar = kNoValue;
  std::vector<ValueId> iterArgs;
};

/// The arguments of an open combining body (Builder::beginReduce / beginScan): one left and one
/// right element per operand, the left the earlier in scan order.
struct CombineScope {
  std::vector<ValueId> lhs, rhs;
};

/// Appends ops to one function at a time.
class Builder {
public:
  explicit Builder(Module &module) : module_(module) {}

  /// Interns a layout in the module. Ensures: module.layouts.get(layout(s)) == s.
  LayoutId layout(const LayoutSpec &spec) { return module_.layouts.intern(spec); }

  /// Starts a function with arguments of the given types; ops go to its body.
  /// Requires: no function is being built (else the error is kept).
  void beginFunction(std::string name, std::span<const Type> argTypes,
                     std::span<const ArgHints> hints = {});
  /// Adds the function to the module. Returns the first error met since beginFunction.
  /// Requires: every beginFor was closed with endFor, every beginIf with endIf.
  Status endFunction();
  /// Argument i of the function being built. Requires: i < number of arguments.
  ValueId arg(size_t i);
  /// The type of a value of the function being built.
  const Type &type(ValueId v) const;
  /// Gives a value a name for printing ("pid" prints as %pid).
  void name(ValueId v, std::string nameHint);
  /// The first error met, if any.
  const Status &status() const { return status_; }

  // Sources.
  ValueId constantInt(int64_t value, const Type &t);
  ValueId constantFloat(double value, const Type &t);
  ValueId programId(int axis);
  ValueId numPrograms(int axis);
  /// tensor<(end-start)xi32, #layout> holding start, start+1, ..., end-1.
  ValueId makeRange(int64_t start, int64_t end, LayoutId layout);

  // Shapes.
  ValueId splat(ValueId scalar, std::vector<int64_t> shape, LayoutId layout);
  ValueId broadcast(ValueId v, std::vector<int64_t> shape);
  /// Inserts a size-1 dim at `axis`. The result layout defaults to the parent of the operand's
  /// slice layout (the usual case: expanding a slice back to its parent).
  ValueId expandDims(ValueId v, int axis, std::optional<LayoutId> layout = std::nullopt);
  ValueId reshape(ValueId v, std::vector<int64_t> shape, LayoutId layout);
  ValueId trans(ValueId v, std::vector<int32_t> order, LayoutId layout);
  /// a and b (one type) side by side along a new last dimension of 2, in `layout`.
  ValueId join(ValueId a, ValueId b, LayoutId layout);
  /// The two halves of v along its last dimension (of 2), each in `layout`.
  std::pair<ValueId, ValueId> split(ValueId v, LayoutId layout);

  // Elementwise.
  /// Binary ops of categories BinaryInt / BinaryFloat; the result has a's type.
  ValueId binary(OpKind kind, ValueId a, ValueId b);
  /// Unary float ops; the result has a's type.
  ValueId unary(OpKind kind, ValueId a);
  /// cmpi for an integer or pointer-free int predicate, cmpf for a float predicate; i1 result.
  ValueId cmp(CmpPredicate p, ValueId a, ValueId b);
  ValueId select(ValueId cond, ValueId a, ValueId b);
  /// A cast op (category Cast) to element `to`.
  ValueId cast(OpKind kind, ValueId v, ScalarKind to);

  // Memory.
  ValueId addPtr(ValueId ptr, ValueId offset);
  ValueId load(ValueId ptr, std::optional<ValueId> mask = std::nullopt,
               std::optional<ValueId> other = std::nullopt);
  void store(ValueId ptr, ValueId value, std::optional<ValueId> mask = std::nullopt);
  /// tt.atomic_rmw: `kind` applied atomically with `value` where `mask` is on; the values memory
  /// held (0 where masked off).
  ValueId atomicRmw(AtomicKind kind, ValueId ptr, ValueId value,
                    std::optional<ValueId> mask = std::nullopt,
                    MemSemantic order = MemSemantic::AcqRel, MemScope scope = MemScope::Gpu);
  /// tt.atomic_cas: `value` goes where memory holds the bits of `compare`; the values memory held
  /// (0 where masked off).
  ValueId atomicCas(ValueId ptr, ValueId compare, ValueId value,
                    std::optional<ValueId> mask = std::nullopt,
                    MemSemantic order = MemSemantic::AcqRel, MemScope scope = MemScope::Gpu);

  // Layouts and shared memory.
  ValueId convertLayout(ValueId v, LayoutId layout);
  /// An allocation of `type` (a descriptor), initialised from `init` when given.
  ValueId localAlloc(const Type &type, std::optional<ValueId> init = std::nullopt);
  void localStore(ValueId value, ValueId memDesc);
  ValueId localLoad(ValueId memDesc, LayoutId layout);
  void localDealloc(ValueId memDesc);
  /// Tile `index` (an i32) of a ring `!ttg.memdesc<S x tile>`: a memdesc of the tile's shape.
  ValueId memDescIndex(ValueId ring, ValueId index);
  /// ttg.memdesc_subslice: the sub-tile of `shape` at `offsets` of `tile` (a view; the verifier
  /// says which offsets are allowed).
  ValueId memDescSubslice(ValueId tile, std::vector<int64_t> offsets, std::vector<int64_t> shape);
  /// ttg.memdesc_trans: `tile` (or a view) with result dim i its dim order[i], in `layout`, which
  /// must store every element where `tile`'s layout does (the verifier checks).
  ValueId memDescTrans(ValueId tile, std::vector<int32_t> order, LayoutId layout);
  /// ttg.async_copy_global_to_local: global memory at `ptrs` to the tile `memDesc`, without
  /// registers; masked-off elements get `other` (or zero). Needs an async_wait before the tile is
  /// read.
  void asyncCopy(ValueId ptrs, ValueId memDesc, std::optional<ValueId> mask = std::nullopt,
                 std::optional<ValueId> other = std::nullopt);
  /// Closes the group of the async copies issued since the last commit.
  void asyncCommitGroup();
  /// Waits until at most `num` committed groups are still in flight.
  void asyncWait(int64_t num);

  // Compute.
  /// c + a * b; the result has c's type.
  ValueId dot(ValueId a, ValueId b, ValueId c);
  /// Reduces along `axis`. A rank-1 operand gives a scalar; otherwise the result is in the slice
  /// layout of the operand's layout along `axis`.
  ValueId reduce(ReduceKind kind, ValueId v, int axis);
  /// The inclusive scan along `axis` (each element combined with those before it, or with those
  /// after it when `reverse`); the result has the operand's type.
  ValueId scan(ReduceKind kind, ValueId v, int axis, bool reverse = false);
  /// Opens a tt.reduce of the tensors `vs` (one shape and layout) along `axis` whose combining
  /// function is a body of scalar ops (as argmax's: a value and its index); ops go to the body
  /// until endCombine. The results are as reduce's, one per operand.
  CombineScope beginReduce(std::span<const ValueId> vs, int axis);
  /// Opens a tt.scan of `vs` along `axis` with a combining body, as beginReduce.
  CombineScope beginScan(std::span<const ValueId> vs, int axis, bool reverse = false);
  /// Closes the innermost combining body with the return of `values` (one per operand); returns
  /// the reduce's or scan's results.
  std::vector<ValueId> endCombine(std::span<const ValueId> values);

  // Control flow.
  /// Opens `scf.for %iv = lb to ub step step iter_args(inits)`; ops go to its body until endFor.
  ForScope beginFor(ValueId lb, ValueId ub, ValueId step, std::span<const ValueId> inits);
  /// Closes the innermost loop with `scf.yield yields`; returns the loop's results.
  std::vector<ValueId> endFor(std::span<const ValueId> yields);
  /// Opens `scf.if cond -> (resultTypes)`; ops go to its then block until beginElse or endIf.
  void beginIf(ValueId cond, std::span<const Type> resultTypes = {});
  /// Closes the innermost if's then block with `scf.yield yields`; ops go to its else block.
  void beginElse(std::span<const ValueId> yields = {});
  /// Closes the innermost if's open block with `scf.yield yields` (an if closed in its then
  /// block gets an else block of only `scf.yield`); returns the if's results.
  std::vector<ValueId> endIf(std::span<const ValueId> yields = {});
  void ret();

  /// Appends an op built by hand (for ops this builder has no helper for); returns its results.
  std::vector<ValueId> append(OpKind kind, std::vector<ValueId> operands,
                              std::span<const Type> resultTypes, OpAttrs attrs = {});

private:
  void fail(std::string message);
  bool building() const;
  ValueId valueOrPoison(ValueId v);
  ValueId one(OpKind kind, std::vector<ValueId> operands, const Type &result, OpAttrs attrs = {});
  ValueId atomic(OpKind kind, std::vector<ValueId> operands, std::optional<ValueId> mask,
                 OpAttrs attrs);
  std::optional<Type> reducedType(ValueId v, int axis);
  CombineScope beginCombine(OpKind kind, std::span<const ValueId> vs, std::vector<Type> results,
                            OpAttrs attrs);
  Block &current();

  Module &module_;
  std::optional<Function> fn_;
  // The blocks ops go to: the body, then one per open loop or if branch (its op lives in the
  // enclosing block, which nothing appends to while the region is open, so the pointers stay
  // valid).
  std::vector<Block *> blocks_;
  Status status_;
};

} // namespace linlayout::ir

// An op of the tile IR: a kind, operand and result value ids, the attributes its kind uses, and
// (for scf.for) one region or (for scf.if) two. Values are ids into the function's value table
// (Function.h).
#pragma once

#include "linlayout/ir/OpKind.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace linlayout::ir {

/// A value: an index into Function::values.
using ValueId = uint32_t;
constexpr ValueId kNoValue = ~ValueId(0);

/// A position in the text the op was parsed from (line and column from 1; 0 when built in C++).
struct Loc {
  uint32_t line = 0;
  uint32_t col = 0;
};

/// Whether x can be a value hint (tt.divisibility, tt.contiguity, tt.constancy, of an argument
/// or an op): a power of two in 1..2^30.
inline bool isHintValue(int64_t x) {
  return x >= 1 && x <= (int64_t(1) << 30) && (x & (x - 1)) == 0;
}

/// The attributes of an op. Each kind reads only the fields its comment names; the others keep
/// their defaults (so that two ops compare equal field by field).
/// tt.fp_to_fp's rounding of a narrowing conversion (Triton's `rounding = rtne` / `rtz`).
enum class Rounding : uint8_t { None, Rtne, Rtz };

struct OpAttrs {
  /// program_id / num_programs: 0..2 (x, y, z); expand_dims, reduce and scan: the axis.
  int64_t axis = 0;
  /// make_range: the half-open range [start, end).
  int64_t start = 0;
  int64_t end = 0;
  /// arith.constant: the value (an integer kind reads intValue, a float kind floatValue).
  int64_t intValue = 0;
  double floatValue = 0;
  /// trans: result dim i is operand dim order[i].
  std::vector<int32_t> order;
  /// cmpi / cmpf.
  CmpPredicate predicate = CmpPredicate::Eq;
  /// reduce and scan: the combining function.
  ReduceKind reduceKind = ReduceKind::Sum;
  /// scan: whether each element combines those after it (a suffix scan) instead of before.
  bool reverse = false;
  /// atomic_rmw: the operation; atomic_rmw and atomic_cas: the memory ordering and scope.
  AtomicKind atomicKind = AtomicKind::Add;
  MemSemantic semantic = MemSemantic::AcqRel;
  MemScope scope = MemScope::Gpu;
  /// fp_to_fp: the rounding written (None for a widening conversion).
  Rounding rounding = Rounding::None;
  /// load / store: the vector width in elements chosen by the access-width pass (0: not yet).
  int64_t vectorWidth = 0;
  /// async_copy_global_to_local (`ll.slot_free`): no thread read the destination since the last
  /// CTA barrier (an async_wait or gpu.barrier), as in the software pipeliner's rings, which
  /// refill the slot read an iteration before. lower/ puts a bar.sync before any other copy that
  /// follows pending shared-memory reads; the interpreter checks the claim.
  bool slotFree = false;
  /// async_wait: the number of most recent commit groups that may still be in flight.
  int64_t num = 0;
  /// warp_group_dot: whether the result may be read only after a warp_group_dot_wait.
  bool isAsync = false;
  /// warp_group_dot_wait: how many of the most recent wgmma groups may still run.
  int64_t pendings = 0;
  /// init_barrier: the arrivals that complete a phase; barrier_expect: the bytes of asynchronous
  /// copies the phase waits for; arrive_barrier: the arrivals it makes.
  int64_t count = 0;
  /// arrive_barrier and async_tma_copy_global_to_local in a cluster (Triton's `multicastCTA`):
  /// a mask of cluster CTA rank bits; the op reaches every CTA whose rank differs from this
  /// one's only in those bits (itself included). 0: this CTA only.
  int64_t multicastCta = 0;
  /// cluster_arrive: without memory ordering (`relaxed = true`).
  bool relaxed = false;
  /// warp_specialize: each partition's warps (`num_warps(N)`, partition0 first), and the
  /// register budgets Triton writes: `requestedRegisters` (one per partition) and
  /// `actualRegisters` (the default region's, then each partition's); empty where not given.
  std::vector<int64_t> partitionWarps, requestedRegisters, actualRegisters;
  /// scf.for: Triton's `tt.warp_specialize` (what `tl.range(..., warp_specialize=True)` puts on
  /// the loop): the warp-specialize-loops pass (WarpSpecializeLoops.h) is asked to split it into
  /// a TMA producer partition and its consumers. Other loop attributes are read and dropped.
  bool warpSpecialize = false;
  /// memdesc_subslice: the view's origin in the operand, one static offset per dim.
  std::vector<int64_t> offsets;
  /// Integer ops and addptr: Triton's value hints (tl.multiple_of / tl.max_contiguous as
  /// `{tt.divisibility = dense<16> : tensor<1xi32>}`), powers of two, one per dimension or one
  /// for all; empty when not given. Axis info takes them as facts, as Triton does.
  std::vector<int64_t> hintDivisibility, hintContiguity, hintConstancy;
  bool hasValueHints() const {
    return !hintDivisibility.empty() || !hintContiguity.empty() || !hintConstancy.empty();
  }
  friend bool operator==(const OpAttrs &, const OpAttrs &) = default;
};

/// The value hints' attribute names and their OpAttrs members, in the order they print.
inline constexpr std::pair<const char *, std::vector<int64_t> OpAttrs::*> kValueHints[] = {
    {"tt.divisibility", &OpAttrs::hintDivisibility},
    {"tt.contiguity", &OpAttrs::hintContiguity},
    {"tt.constancy", &OpAttrs::hintConstancy}};

struct Op;

/// A straight-line list of ops with arguments (a function body or a loop body).
struct Block {
  std::vector<ValueId> args;
  std::vector<Op> ops;
};

/// One op. Operand and result conventions per kind are documented in docs/ir.md and checked by
/// the verifier; the ones that are not obvious:
///  - scf.for: operands (lb, ub, step, init...), results one per init, one region whose block
///    args are (iv, iter args...) and which ends in scf.yield with one operand per init.
///  - scf.if: operand (cond), an i1 scalar (the same in every thread, as all scalars are);
///    two regions without args, then and else (the else block of an if without one holds only
///    its scf.yield); each ends in scf.yield with one operand per result. Results are tensors or
///    scalars, not shared-memory descriptors.
///  - tt.reduce / tt.scan: operands N >= 1 tensors of one shape and layout, results N (each
///    operand's reduction or scan). With one operand, attrs.reduceKind may name the combining
///    function; otherwise (and for any combining function) one region holds it: block args
///    (lhs 0..N-1, rhs 0..N-1) of the operands' element types, scalar ops, and a
///    tt.reduce.return (OpKind::CombineReturn, printed tt.scan.return in a scan) with N values.
///    lhs is the earlier element in scan order (index order; the reverse for a reversed scan).
///  - tt.load: operands (ptr [, mask [, other]]); tt.store: (ptr, value [, mask]);
///    tt.atomic_rmw: (ptr, value [, mask]) -> the values memory held before.
///  - tt.dot: (a, b, c); ttg.local_alloc: ([init]); ttg.local_store: (value, memdesc).
///  - ttg.memdesc_index: (memdesc, i32 index) -> the index-th tile along the leading dim.
///  - ttg.memdesc_subslice: (memdesc) -> the sub-tile at the static `offsets` (a view: its type
///    carries the viewed tile's shape as alloc shape).
///  - ttg.async_copy_global_to_local: (pointers, memdesc [, mask [, other]]), no results (no
///    tokens: async_commit_group and async_wait act on the copies before them in program order).
///  - ttng.warp_group_dot: (a, b, c), a a memdesc or a dot_op tensor, b a memdesc;
///    ttng.warp_group_dot_wait: (values...) -> the same values, once the wgmmas are done.
///  - ttng.async_tma_copy_global_to_local: (desc, coord x rank (outermost first), memdesc,
///    barrier, pred); ttng.barrier_expect: (barrier, pred); ttng.wait_barrier: (barrier, phase
///    [, pred]); ttng.arrive_barrier: (barrier [, pred]); ttng.init_barrier /
///    ttng.inval_barrier: (barrier). A barrier is a `!ttg.memdesc<1xi64, ..., mutable>`.
///  - ttg.warp_specialize: operands (captures...), results those the default region's
///    ttg.warp_yield yields; regions: the default region (no args; it runs on the module's
///    warps and sees the values around it), then one per partition (args: one per capture, of
///    its type; it runs on its own warps and sees only its args), which ends in ttg.warp_return.
struct Op {
  OpKind kind = OpKind::Return;
  std::vector<ValueId> operands;
  std::vector<ValueId> results;
  OpAttrs attrs;
  std::vector<Block> regions;
  Loc loc;
};

} // namespace linlayout::ir

// The op kinds of the tile IR, listed once (LINLAYOUT_IR_OPS) so that every `switch` over
// `OpKind` is checked for exhaustiveness by the compiler (-Wswitch), and the mnemonic table, the
// category table and the enum cannot drift apart.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace linlayout::ir {

/// How an op relates its operands to its result, for verifiers and passes that treat a whole
/// family of ops alike.
enum class OpCategory : uint8_t {
  Structure,   // scf.for, scf.if, scf.yield, tt.return, tt.reduce.return / tt.scan.return,
               // ttg.warp_specialize, ttg.warp_yield, ttg.warp_return
  Source,      // constants, program ids, make_range: results from attributes only
  Shape,       // splat, broadcast, expand_dims, reshape, trans
  BinaryInt,   // same-typed integer operands and result
  BinaryFloat, // same-typed float operands and result
  UnaryFloat,  // same-typed float operand and result
  Compare,     // cmpi / cmpf: i1 result of the operands' shape and layout
  Select,      // arith.select
  Cast,        // element type changes; shape and layout stay
  Memory,      // addptr, load, store
  Layout,      // convert_layout
  Shared,      // local_alloc / store / load / dealloc, memdesc views, async copies
  Compute,     // dot, reduce, warp_group_dot
  Sync,        // CTA barriers; Hopper: wgmma waits, proxy fences, mbarriers
};

/// The file of ir/lib/ops/ that defines an op: its parsing, printing, verification and
/// interpretation (CONTRIBUTING.md, "Adding an op").
enum class OpFamily : uint8_t {
  Structure,   // Structure.cpp: scf.for, scf.if, scf.yield, tt.return, combining-body returns
  Source,      // Source.cpp: constants, program ids, make_range
  Shape,       // Shape.cpp: splat, broadcast, expand_dims, reshape, trans, join, split, convert
  Elementwise, // Elementwise.cpp: integer and float arithmetic, compares, select, casts
  Memory,      // Memory.cpp: addptr, load, store, atomics
  Shared,      // Shared.cpp: local memory, memdesc views, cp.async copies, gpu.barrier
  Compute,     // Compute.cpp: dot, reduce, scan
  Hopper,      // Hopper.cpp: wgmma, TMA copies, mbarriers, proxy fences, cluster ops
  Warp,        // WarpSpecialize.cpp: ttg.warp_specialize and its regions' terminators
};

// X(enumerator, mnemonic, category, family)
#define LINLAYOUT_IR_OPS(X)                                                                        \
  X(Return, "tt.return", Structure, Structure)                                                     \
  X(Yield, "scf.yield", Structure, Structure)                                                      \
  X(For, "scf.for", Structure, Structure)                                                          \
  X(If, "scf.if", Structure, Structure)                                                            \
  X(CombineReturn, "tt.reduce.return", Structure, Structure)                                       \
  X(WarpSpecialize, "ttg.warp_specialize", Structure, Warp)                                        \
  X(WarpYield, "ttg.warp_yield", Structure, Warp)                                                  \
  X(WarpReturn, "ttg.warp_return", Structure, Warp)                                                \
  X(Constant, "arith.constant", Source, Source)                                                    \
  X(ProgramId, "tt.get_program_id", Source, Source)                                                \
  X(NumPrograms, "tt.get_num_programs", Source, Source)                                            \
  X(MakeRange, "tt.make_range", Source, Source)                                                    \
  X(Splat, "tt.splat", Shape, Shape)                                                               \
  X(Broadcast, "tt.broadcast", Shape, Shape)                                                       \
  X(ExpandDims, "tt.expand_dims", Shape, Shape)                                                    \
  X(Reshape, "tt.reshape", Shape, Shape)                                                           \
  X(Trans, "tt.trans", Shape, Shape)                                                               \
  X(Join, "tt.join", Shape, Shape)                                                                 \
  X(Split, "tt.split", Shape, Shape)                                                               \
  X(AddI, "arith.addi", BinaryInt, Elementwise)                                                    \
  X(SubI, "arith.subi", BinaryInt, Elementwise)                                                    \
  X(MulI, "arith.muli", BinaryInt, Elementwise)                                                    \
  X(DivSI, "arith.divsi", BinaryInt, Elementwise)                                                  \
  X(RemSI, "arith.remsi", BinaryInt, Elementwise)                                                  \
  X(AndI, "arith.andi", BinaryInt, Elementwise)                                                    \
  X(OrI, "arith.ori", BinaryInt, Elementwise)                                                      \
  X(XOrI, "arith.xori", BinaryInt, Elementwise)                                                    \
  X(ShLI, "arith.shli", BinaryInt, Elementwise)                                                    \
  X(ShRSI, "arith.shrsi", BinaryInt, Elementwise)                                                  \
  X(MinSI, "arith.minsi", BinaryInt, Elementwise)                                                  \
  X(MaxSI, "arith.maxsi", BinaryInt, Elementwise)                                                  \
  X(DivUI, "arith.divui", BinaryInt, Elementwise)                                                  \
  X(RemUI, "arith.remui", BinaryInt, Elementwise)                                                  \
  X(ShRUI, "arith.shrui", BinaryInt, Elementwise)                                                  \
  X(MinUI, "arith.minui", BinaryInt, Elementwise)                                                  \
  X(MaxUI, "arith.maxui", BinaryInt, Elementwise)                                                  \
  X(MulHiUI, "tt.mulhiui", BinaryInt, Elementwise)                                                 \
  X(AddF, "arith.addf", BinaryFloat, Elementwise)                                                  \
  X(SubF, "arith.subf", BinaryFloat, Elementwise)                                                  \
  X(MulF, "arith.mulf", BinaryFloat, Elementwise)                                                  \
  X(DivF, "arith.divf", BinaryFloat, Elementwise)                                                  \
  X(MinF, "arith.minimumf", BinaryFloat, Elementwise)                                              \
  X(MaxF, "arith.maximumf", BinaryFloat, Elementwise)                                              \
  X(MinNumF, "arith.minnumf", BinaryFloat, Elementwise)                                            \
  X(MaxNumF, "arith.maxnumf", BinaryFloat, Elementwise)                                            \
  X(RemF, "arith.remf", BinaryFloat, Elementwise)                                                  \
  X(PreciseDivF, "tt.precise_divf", BinaryFloat, Elementwise)                                      \
  X(NegF, "arith.negf", UnaryFloat, Elementwise)                                                   \
  X(Exp, "math.exp", UnaryFloat, Elementwise)                                                      \
  X(Exp2, "math.exp2", UnaryFloat, Elementwise)                                                    \
  X(Log, "math.log", UnaryFloat, Elementwise)                                                      \
  X(Sqrt, "math.sqrt", UnaryFloat, Elementwise)                                                    \
  X(AbsF, "math.absf", UnaryFloat, Elementwise)                                                    \
  X(Log2, "math.log2", UnaryFloat, Elementwise)                                                    \
  X(Rsqrt, "math.rsqrt", UnaryFloat, Elementwise)                                                  \
  X(Floor, "math.floor", UnaryFloat, Elementwise)                                                  \
  X(Ceil, "math.ceil", UnaryFloat, Elementwise)                                                    \
  X(CmpI, "arith.cmpi", Compare, Elementwise)                                                      \
  X(CmpF, "arith.cmpf", Compare, Elementwise)                                                      \
  X(Select, "arith.select", Select, Elementwise)                                                   \
  X(SIToFP, "arith.sitofp", Cast, Elementwise)                                                     \
  X(FPToSI, "arith.fptosi", Cast, Elementwise)                                                     \
  X(UIToFP, "arith.uitofp", Cast, Elementwise)                                                     \
  X(FPToUI, "arith.fptoui", Cast, Elementwise)                                                     \
  X(ExtF, "arith.extf", Cast, Elementwise)                                                         \
  X(TruncF, "arith.truncf", Cast, Elementwise)                                                     \
  X(ExtSI, "arith.extsi", Cast, Elementwise)                                                       \
  X(ExtUI, "arith.extui", Cast, Elementwise)                                                       \
  X(TruncI, "arith.trunci", Cast, Elementwise)                                                     \
  X(Bitcast, "tt.bitcast", Cast, Elementwise)                                                      \
  X(FpToFp, "tt.fp_to_fp", Cast, Elementwise)                                                      \
  X(AddPtr, "tt.addptr", Memory, Memory)                                                           \
  X(Load, "tt.load", Memory, Memory)                                                               \
  X(Store, "tt.store", Memory, Memory)                                                             \
  X(AtomicRMW, "tt.atomic_rmw", Memory, Memory)                                                    \
  X(AtomicCAS, "tt.atomic_cas", Memory, Memory)                                                    \
  X(ConvertLayout, "ttg.convert_layout", Layout, Shape)                                            \
  X(LocalAlloc, "ttg.local_alloc", Shared, Shared)                                                 \
  X(LocalStore, "ttg.local_store", Shared, Shared)                                                 \
  X(LocalLoad, "ttg.local_load", Shared, Shared)                                                   \
  X(LocalDealloc, "ttg.local_dealloc", Shared, Shared)                                             \
  X(MemDescIndex, "ttg.memdesc_index", Shared, Shared)                                             \
  X(MemDescSubslice, "ttg.memdesc_subslice", Shared, Shared)                                       \
  X(MemDescTrans, "ttg.memdesc_trans", Shared, Shared)                                             \
  X(AsyncCopyGlobalToLocal, "ttg.async_copy_global_to_local", Shared, Shared)                      \
  X(AsyncCommitGroup, "ttg.async_commit_group", Shared, Shared)                                    \
  X(AsyncWait, "ttg.async_wait", Shared, Shared)                                                   \
  X(AsyncTmaCopyGlobalToLocal, "ttng.async_tma_copy_global_to_local", Shared, Hopper)              \
  X(AsyncTmaCopyLocalToGlobal, "ttng.async_tma_copy_local_to_global", Shared, Hopper)              \
  X(Dot, "tt.dot", Compute, Compute)                                                               \
  X(Reduce, "tt.reduce", Compute, Compute)                                                         \
  X(Scan, "tt.scan", Compute, Compute)                                                             \
  X(WarpGroupDot, "ttng.warp_group_dot", Compute, Hopper)                                          \
  X(WarpGroupDotWait, "ttng.warp_group_dot_wait", Sync, Hopper)                                    \
  X(FenceAsyncShared, "ttng.fence_async_shared", Sync, Hopper)                                     \
  X(Barrier, "gpu.barrier", Sync, Shared)                                                          \
  X(InitBarrier, "ttng.init_barrier", Sync, Hopper)                                                \
  X(InvalBarrier, "ttng.inval_barrier", Sync, Hopper)                                              \
  X(BarrierExpect, "ttng.barrier_expect", Sync, Hopper)                                            \
  X(WaitBarrier, "ttng.wait_barrier", Sync, Hopper)                                                \
  X(ArriveBarrier, "ttng.arrive_barrier", Sync, Hopper)                                            \
  X(AsyncTmaStoreWait, "ttng.async_tma_store_wait", Sync, Hopper)                                  \
  X(ClusterCtaId, "ttng.cluster_cta_id", Source, Hopper)                                           \
  X(ClusterArrive, "ttng.cluster_arrive", Sync, Hopper)                                            \
  X(ClusterWait, "ttng.cluster_wait", Sync, Hopper)                                                \
  X(FenceMbarrierInitCluster, "ttng.fence_mbarrier_init_release_cluster", Sync, Hopper)

/// Every op kind of the IR.
enum class OpKind : uint8_t {
#define LINLAYOUT_X(e, m, c, f) e,
  LINLAYOUT_IR_OPS(LINLAYOUT_X)
#undef LINLAYOUT_X
};

/// The number of op kinds.
constexpr int kNumOpKinds = 0
#define LINLAYOUT_X(e, m, c, f) +1
    LINLAYOUT_IR_OPS(LINLAYOUT_X)
#undef LINLAYOUT_X
    ;

/// The text-form name of a kind ("arith.addi").
/// Ensures: opKindFromMnemonic(mnemonic(k)) == k for every k.
std::string_view mnemonic(OpKind k);
/// The kind a mnemonic names, or nullopt.
std::optional<OpKind> opKindFromMnemonic(std::string_view text);
namespace detail {
inline constexpr OpCategory kCategories[] = {
#define LINLAYOUT_X(e, m, c, f) OpCategory::c,
    LINLAYOUT_IR_OPS(LINLAYOUT_X)
#undef LINLAYOUT_X
};
inline constexpr OpFamily kFamilies[] = {
#define LINLAYOUT_X(e, m, c, f) OpFamily::f,
    LINLAYOUT_IR_OPS(LINLAYOUT_X)
#undef LINLAYOUT_X
};
} // namespace detail
constexpr OpCategory category(OpKind k) { return detail::kCategories[size_t(k)]; }
/// The file of ir/lib/ops/ that defines the op.
constexpr OpFamily family(OpKind k) { return detail::kFamilies[size_t(k)]; }

/// Whether `table` (one entry per op kind) has an entry for every op of category `c`, for a
/// static_assert beside a table of per-op semantics: a new op without its entry fails to compile.
template <typename Table> constexpr bool coversCategory(const Table &table, OpCategory c) {
  for (size_t k = 0; k < size_t(kNumOpKinds); ++k)
    if (category(OpKind(k)) == c && !table[k])
      return false;
  return true;
}

/// Whether the op maps elements one to one: every tensor operand and result has the same shape
/// and layout (binary, unary, compare, select, cast, addptr). Such ops may run in any layout.
constexpr bool isElementwise(OpKind k) {
  switch (category(k)) {
  case OpCategory::BinaryInt:
  case OpCategory::BinaryFloat:
  case OpCategory::UnaryFloat:
  case OpCategory::Compare:
  case OpCategory::Select:
  case OpCategory::Cast:
    return true;
  case OpCategory::Memory:
    return k == OpKind::AddPtr;
  case OpCategory::Structure:
  case OpCategory::Source:
  case OpCategory::Shape:
  case OpCategory::Layout:
  case OpCategory::Shared:
  case OpCategory::Compute:
  case OpCategory::Sync:
    return false;
  }
  return false;
}
/// Whether the op has an effect besides its results (stores, allocation, control flow).
bool hasSideEffects(OpKind k);
/// Whether the op issues, commits or waits for cp.async copy groups (which software pipelining
/// counts per iteration).
bool isCopyGroupOp(OpKind k);

/// Predicates of arith.cmpi and arith.cmpf.
enum class CmpPredicate : uint8_t {
  Eq,
  Ne,
  Slt,
  Sle,
  Sgt,
  Sge,
  Ult,
  Ule,
  Ugt,
  Uge, // integers
  Oeq,
  One,
  Olt,
  Ole,
  Ogt,
  Oge,
  Une, // floats
};
std::string_view name(CmpPredicate p);
std::optional<CmpPredicate> cmpPredicateFromName(std::string_view text);
/// Whether a predicate belongs to cmpf (else cmpi).
bool isFloatPredicate(CmpPredicate p);

/// The operation of tt.atomic_rmw: integer and, or, xor, add, signed / unsigned max and min,
/// float add (f16, bf16, f32, f64), and exchange (any element of 32 or 64 bits).
enum class AtomicKind : uint8_t { And, Or, Xor, Add, FAdd, Max, Min, UMax, UMin, Exch };
std::string_view name(AtomicKind k);
std::optional<AtomicKind> atomicKindFromName(std::string_view text);
/// The value operands after an atomic's pointer: 1 for tt.atomic_rmw (the value), 2 for
/// tt.atomic_cas (the compare value, the new value); an optional mask follows them.
/// Requires: k is AtomicRMW or AtomicCAS.
size_t atomicValueOperands(OpKind k);

/// The memory ordering of an atomic (PTX .relaxed / .acquire / .release / .acq_rel).
enum class MemSemantic : uint8_t { Relaxed, Acquire, Release, AcqRel };
std::string_view name(MemSemantic s);
std::optional<MemSemantic> memSemanticFromName(std::string_view text);

/// The threads an atomic is atomic and ordered with (PTX .gpu / .cta / .sys).
enum class MemScope : uint8_t { Gpu, Cta, Sys };
std::string_view name(MemScope s);
std::optional<MemScope> memScopeFromName(std::string_view text);

/// The combining function of tt.reduce and tt.scan, as the arith op that combines two elements:
/// sum (addf / addi); max and min (maximumf / minimumf: NaN wins; maxsi / minsi: signed); maxnum
/// and minnum (maxnumf / minnumf: a NaN loses to a number; floats only); umax and umin (maxui /
/// minui; integers only); prod (mulf / muli). Each is commutative.
enum class ReduceKind : uint8_t { Sum, Max, Min, MaxNum, MinNum, UMax, UMin, Prod };
std::string_view name(ReduceKind k);
std::optional<ReduceKind> reduceKindFromName(std::string_view text);
/// The arith op that combines two elements of a float (`isFloat`) or integer reduction of kind
/// `k`, or nullopt where the kind has none for that type (maxnum of integers, umax of floats).
std::optional<OpKind> combinerOf(ReduceKind k, bool isFloat);
/// The reduction whose combiner is `combiner` (the body of Triton's generic tt.reduce).
std::optional<ReduceKind> reduceKindOfCombiner(OpKind combiner);

} // namespace linlayout::ir

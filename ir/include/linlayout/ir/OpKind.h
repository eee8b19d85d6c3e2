// The op kinds of the tile IR, listed once (LINLAYOUT_IR_OPS) so that every `switch` over
// `OpKind` is checked for exhaustiveness by the compiler (-Wswitch), and the mnemonic table, the
// category table and the enum cannot drift apart.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace linlayout::ir {

/// How an op relates its operands to its result, for verifiers and passes that treat a whole
/// family of ops alike.
enum class OpCategory : uint8_t {
  Structure,   // scf.for, scf.if, scf.yield, tt.return, tt.reduce.return / tt.scan.return
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

// X(enumerator, mnemonic, category)
#define LINLAYOUT_IR_OPS(X)                                                                        \
  X(Return, "tt.return", Structure)                                                                \
  X(Yield, "scf.yield", Structure)                                                                 \
  X(For, "scf.for", Structure)                                                                     \
  X(If, "scf.if", Structure)                                                                       \
  X(CombineReturn, "tt.reduce.return", Structure)                                                  \
  X(Constant, "arith.constant", Source)                                                            \
  X(ProgramId, "tt.get_program_id", Source)                                                        \
  X(NumPrograms, "tt.get_num_programs", Source)                                                    \
  X(MakeRange, "tt.make_range", Source)                                                            \
  X(Splat, "tt.splat", Shape)                                                                      \
  X(Broadcast, "tt.broadcast", Shape)                                                              \
  X(ExpandDims, "tt.expand_dims", Shape)                                                           \
  X(Reshape, "tt.reshape", Shape)                                                                  \
  X(Trans, "tt.trans", Shape)                                                                      \
  X(Join, "tt.join", Shape)                                                                        \
  X(Split, "tt.split", Shape)                                                                      \
  X(AddI, "arith.addi", BinaryInt)                                                                 \
  X(SubI, "arith.subi", BinaryInt)                                                                 \
  X(MulI, "arith.muli", BinaryInt)                                                                 \
  X(DivSI, "arith.divsi", BinaryInt)                                                               \
  X(RemSI, "arith.remsi", BinaryInt)                                                               \
  X(AndI, "arith.andi", BinaryInt)                                                                 \
  X(OrI, "arith.ori", BinaryInt)                                                                   \
  X(XOrI, "arith.xori", BinaryInt)                                                                 \
  X(ShLI, "arith.shli", BinaryInt)                                                                 \
  X(ShRSI, "arith.shrsi", BinaryInt)                                                               \
  X(MinSI, "arith.minsi", BinaryInt)                                                               \
  X(MaxSI, "arith.maxsi", BinaryInt)                                                               \
  X(DivUI, "arith.divui", BinaryInt)                                                               \
  X(RemUI, "arith.remui", BinaryInt)                                                               \
  X(ShRUI, "arith.shrui", BinaryInt)                                                               \
  X(MinUI, "arith.minui", BinaryInt)                                                               \
  X(MaxUI, "arith.maxui", BinaryInt)                                                               \
  X(MulHiUI, "tt.mulhiui", BinaryInt)                                                              \
  X(AddF, "arith.addf", BinaryFloat)                                                               \
  X(SubF, "arith.subf", BinaryFloat)                                                               \
  X(MulF, "arith.mulf", BinaryFloat)                                                               \
  X(DivF, "arith.divf", BinaryFloat)                                                               \
  X(MinF, "arith.minimumf", BinaryFloat)                                                           \
  X(MaxF, "arith.maximumf", BinaryFloat)                                                           \
  X(MinNumF, "arith.minnumf", BinaryFloat)                                                         \
  X(MaxNumF, "arith.maxnumf", BinaryFloat)                                                         \
  X(NegF, "arith.negf", UnaryFloat)                                                                \
  X(Exp, "math.exp", UnaryFloat)                                                                   \
  X(Exp2, "math.exp2", UnaryFloat)                                                                 \
  X(Log, "math.log", UnaryFloat)                                                                   \
  X(Sqrt, "math.sqrt", UnaryFloat)                                                                 \
  X(AbsF, "math.absf", UnaryFloat)                                                                 \
  X(Log2, "math.log2", UnaryFloat)                                                                 \
  X(Rsqrt, "math.rsqrt", UnaryFloat)                                                               \
  X(Floor, "math.floor", UnaryFloat)                                                               \
  X(Ceil, "math.ceil", UnaryFloat)                                                                 \
  X(CmpI, "arith.cmpi", Compare)                                                                   \
  X(CmpF, "arith.cmpf", Compare)                                                                   \
  X(Select, "arith.select", Select)                                                                \
  X(SIToFP, "arith.sitofp", Cast)                                                                  \
  X(FPToSI, "arith.fptosi", Cast)                                                                  \
  X(UIToFP, "arith.uitofp", Cast)                                                                  \
  X(FPToUI, "arith.fptoui", Cast)                                                                  \
  X(ExtF, "arith.extf", Cast)                                                                      \
  X(TruncF, "arith.truncf", Cast)                                                                  \
  X(ExtSI, "arith.extsi", Cast)                                                                    \
  X(ExtUI, "arith.extui", Cast)                                                                    \
  X(TruncI, "arith.trunci", Cast)                                                                  \
  X(Bitcast, "tt.bitcast", Cast)                                                                   \
  X(FpToFp, "tt.fp_to_fp", Cast)                                                                   \
  X(AddPtr, "tt.addptr", Memory)                                                                   \
  X(Load, "tt.load", Memory)                                                                       \
  X(Store, "tt.store", Memory)                                                                     \
  X(AtomicRMW, "tt.atomic_rmw", Memory)                                                            \
  X(AtomicCAS, "tt.atomic_cas", Memory)                                                            \
  X(ConvertLayout, "ttg.convert_layout", Layout)                                                   \
  X(LocalAlloc, "ttg.local_alloc", Shared)                                                         \
  X(LocalStore, "ttg.local_store", Shared)                                                         \
  X(LocalLoad, "ttg.local_load", Shared)                                                           \
  X(LocalDealloc, "ttg.local_dealloc", Shared)                                                     \
  X(MemDescIndex, "ttg.memdesc_index", Shared)                                                     \
  X(MemDescSubslice, "ttg.memdesc_subslice", Shared)                                               \
  X(MemDescTrans, "ttg.memdesc_trans", Shared)                                                     \
  X(AsyncCopyGlobalToLocal, "ttg.async_copy_global_to_local", Shared)                              \
  X(AsyncCommitGroup, "ttg.async_commit_group", Shared)                                            \
  X(AsyncWait, "ttg.async_wait", Shared)                                                           \
  X(AsyncTmaCopyGlobalToLocal, "ttng.async_tma_copy_global_to_local", Shared)                      \
  X(AsyncTmaCopyLocalToGlobal, "ttng.async_tma_copy_local_to_global", Shared)                      \
  X(Dot, "tt.dot", Compute)                                                                        \
  X(Reduce, "tt.reduce", Compute)                                                                  \
  X(Scan, "tt.scan", Compute)                                                                      \
  X(WarpGroupDot, "ttng.warp_group_dot", Compute)                                                  \
  X(WarpGroupDotWait, "ttng.warp_group_dot_wait", Sync)                                            \
  X(FenceAsyncShared, "ttng.fence_async_shared", Sync)                                             \
  X(Barrier, "gpu.barrier", Sync)                                                                  \
  X(InitBarrier, "ttng.init_barrier", Sync)                                                        \
  X(InvalBarrier, "ttng.inval_barrier", Sync)                                                      \
  X(BarrierExpect, "ttng.barrier_expect", Sync)                                                    \
  X(WaitBarrier, "ttng.wait_barrier", Sync)                                                        \
  X(AsyncTmaStoreWait, "ttng.async_tma_store_wait", Sync)

/// Every op kind of the IR.
enum class OpKind : uint8_t {
#define LINLAYOUT_X(e, m, c) e,
  LINLAYOUT_IR_OPS(LINLAYOUT_X)
#undef LINLAYOUT_X
};

/// The number of op kinds.
constexpr int kNumOpKinds = 0
#define LINLAYOUT_X(e, m, c) +1
    LINLAYOUT_IR_OPS(LINLAYOUT_X)
#undef LINLAYOUT_X
    ;

/// The text-form name of a kind ("arith.addi").
/// Ensures: opKindFromMnemonic(mnemonic(k)) == k for every k.
std::string_view mnemonic(OpKind k);
/// The kind a mnemonic names, or nullopt.
std::optional<OpKind> opKindFromMnemonic(std::string_view text);
OpCategory category(OpKind k);

/// Whether the op maps elements one to one: every tensor operand and result has the same shape
/// and layout (binary, unary, compare, select, cast, addptr). Such ops may run in any layout.
bool isElementwise(OpKind k);
/// Whether the op has an effect besides its results (stores, allocation, control flow).
bool hasSideEffects(OpKind k);
/// Whether the op issues, commits or waits for cp.async copy groups (which software pipelining
/// counts per iteration).
bool isCopyGroupOp(OpKind k);

/// Predicates of arith.cmpi and arith.cmpf.
enum class CmpPredicate : uint8_t {
  Eq, Ne, Slt, Sle, Sgt, Sge, Ult, Ule, Ugt, Uge, // integers
  Oeq, One, Olt, Ole, Ogt, Oge, Une,              // floats
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

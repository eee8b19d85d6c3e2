// Access width: how many elements one thread can move with one vector instruction for a global
// load or store. It is the smallest of
//  - the run of consecutive registers the thread holds along one tensor dimension (the layout's
//    register bases 1, 2, 4, ... stepping 1, 2, 4, ... along that dimension, the "fastest" one),
//    shortened until it is aligned for every thread: the other bases (later registers, lanes,
//    warps, blocks) leave the low bits of that dimension alone that the vector covers. Otherwise
//    a thread's vector would start in the middle of a run (misaligned), and since bases combine
//    by xor, its registers would not even hold ascending elements (lane basis 5 next to register
//    bases 1, 2: registers 0..3 of lane 1 hold 5, 4, 7, 6);
//  - the contiguity of the addresses along that dimension (axis info);
//  - the alignment of the addresses along it, in elements (divisibility in bytes / element size);
//  - the constancy of the mask along it (one predicate per vector);
//  - 16 bytes.
#pragma once

#include "linlayout/ir/AxisInfo.h"
#include "linlayout/ir/Module.h"
#include "linlayout/layout/LinearLayout.h"

#include <cstdint>

namespace linlayout::ir {

/// A run of registers that hold consecutive elements along one tensor dimension.
struct RegisterRun {
  /// The dimension (out dim index), or -1 when register 1 does not step along one dimension.
  int dim = -1;
  /// How many consecutive registers (a power of two; 1 when dim is -1).
  int64_t elements = 1;
};

/// The run of registers of `layout` starting at register 0.
/// Requires: layout has out dims dim0.. (in dim "register" may be missing: then the run is 1).
/// Ensures: for i < elements, register i holds the element at offset i along `dim` from
/// register 0's element (the other coordinates equal).
RegisterRun contiguousRegisters(const LinearLayout &layout);

/// The longest prefix of `run` registers (a power of two, at most `run`) that is aligned along
/// `dim`: every basis of `layout` other than register bases 0 .. log2(result) - 1 is a multiple
/// of result along `dim`.
/// Requires: dim is an out dim index of layout; run is a power of two >= 1 whose register bases
/// step `dim` by 1, 2, 4, ... (contiguousRegisters).
/// Ensures: for every hardware index h whose register bits below log2(result) are 0 and every
/// i < result, element(h | i) = element(h) + i along dim (the other coordinates equal), and
/// element(h) along dim is a multiple of result.
int64_t alignedRun(const LinearLayout &layout, int dim, int64_t run);

/// The vector width of a global access.
struct AccessWidth {
  int64_t elements = 1;
  int64_t bytes = 1;
  /// The dimension the vector runs along (-1 for a scalar access).
  int dim = -1;
  /// The bytes one warp's instruction covers back to back along dim: the vector continued by
  /// the lanes that step along dim after it, as far as the addresses' contiguity reaches
  /// (warpRun; `bytes` when there is no axis info). 32 or more, on a tensor whose rows start on
  /// 32-byte boundaries: every 32-byte sector the instruction touches is written whole. (The
  /// alignment that axis info can prove is often less, from a 16-byte divisibility hint; it
  /// bounds every layout's sectors alike.)
  int64_t warpBytes = 1;
};

/// The width of load or store `op` of f.
/// Requires: op is a tt.load or tt.store of f; verify(m) is ok; info is f's analysis.
/// Ensures: elements is a power of two; elements * element bytes <= 16; the addresses of each
/// vector are consecutive and aligned to the vector's size (by the axis-info claims).
AccessWidth accessWidth(const Module &m, const Function &f, const Op &op,
                        const AxisInfoAnalysis &info);

/// The width load or store `op` would have if its operands had `layout` instead.
/// Requires: as accessWidth; `layout` is a distributed layout of the pointers' rank.
AccessWidth accessWidthIn(const Module &m, const Function &f, const Op &op,
                          const AxisInfoAnalysis &info, LayoutId layout);

/// How many elements along `dim` one warp's access instruction covers back to back: the vector
/// of `vector` registers (the run of contiguousRegisters / alignedRun), continued by the lanes
/// whose bases step along `dim` right after it (lane bases 0, 1, 2, ... stepping vector,
/// 2 * vector, ... and nothing else), no further than `reach` (the addresses' contiguity), and
/// only as long as every other basis leaves the run's offset bits along `dim` alone.
/// Requires: vector is a power of two whose register bases step `dim` by 1, 2, 4, ... and are
/// aligned (alignedRun); reach >= 1.
/// Ensures: a power of two >= vector; for every hardware index h whose vector register bits and
/// run lane bits are 0, those bits index element(h) + 0 .. result-1 along dim in order, and
/// element(h) along dim is a multiple of the result.
int64_t warpRun(const LinearLayout &layout, int dim, int64_t vector, int64_t reach);

} // namespace linlayout::ir

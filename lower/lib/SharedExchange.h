// Moving a distributed tensor from one layout to another through shared memory: every thread
// writes its registers at the offsets a scratch layout gives, the CTA synchronises, every thread
// reads the registers of the destination layout. Addresses come from the index computation of
// src∘scratch⁻¹ and dst∘scratch⁻¹, so swizzles cost nothing beyond their XORs.
#pragma once

#include "LayoutIndex.h"

#include <llvm/IR/IRBuilder.h>

#include <vector>

namespace linlayout::lower {

/// One shared-memory round trip.
struct SharedExchange {
  /// Source and destination layouts: (register, lane, warp) -> tensor dims.
  LinearLayout src;
  LinearLayout dst;
  /// The scratch layout: offset (in elements) -> the same tensor dims; a bijection.
  LinearLayout scratch;
  /// Elements per st.shared / ld.shared (consecutive registers at consecutive offsets).
  int storeVector = 1;
  int loadVector = 1;
  /// Whether to end with a barrier too (when the scratch is reused right after).
  bool trailingBarrier = false;
};

/// What the exchange emitted, for cost checks.
struct SharedExchangeCounts {
  int stores = 0;
  int loads = 0;
  int barriers = 0;
};

/// Checks that the exchange can be emitted: the layouts share their out dims, the scratch is
/// invertible, and the first log2(vector) register bits of each side step through consecutive
/// offsets. Errors name the failing part.
Status checkSharedExchange(const SharedExchange &x);

/// Emits the exchange: `values` are the source registers (one per source register); returns one
/// value per destination register. `base` is the addrspace(3) start of the scratch.
/// Requires: checkSharedExchange(x) passes; all values have one type.
Expected<std::vector<llvm::Value *>> emitSharedExchange(llvm::IRBuilder<> &b,
                                                        const SharedExchange &x, llvm::Value *base,
                                                        llvm::Value *thread,
                                                        const std::vector<llvm::Value *> &values,
                                                        SharedExchangeCounts *counts = nullptr);

} // namespace linlayout::lower

// Access width: how many elements one thread can move with one vector instruction for a global
// load or store. It is the smallest of
//  - the run of consecutive registers the thread holds along one tensor dimension (the layout's
//    register bases 1, 2, 4, ... stepping 1, 2, 4, ... along that dimension, the "fastest" one);
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

/// The vector width of a global access.
struct AccessWidth {
  int64_t elements = 1;
  int64_t bytes = 1;
  /// The dimension the vector runs along (-1 for a scalar access).
  int dim = -1;
};

/// The width of load or store `op` of f.
/// Requires: op is a tt.load or tt.store of f; verify(m) is ok; info is f's analysis.
/// Ensures: elements is a power of two; elements * element bytes <= 16; the addresses of each
/// vector are consecutive and aligned to the vector's size (by the axis-info claims).
AccessWidth accessWidth(const Module &m, const Function &f, const Op &op,
                        const AxisInfoAnalysis &info);

} // namespace linlayout::ir

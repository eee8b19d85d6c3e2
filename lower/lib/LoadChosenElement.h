// Loads only the element a thread keeps of a vector it loads from global memory. A conversion
// whose source holds two candidates per word it keeps (the source repeats a tile a lane picks
// one half of) selects between two elements of each vector load; every word of every vector is
// in registers until its select, and where the tile must all be loaded before the first global
// store (which may alias it), ptxas hoists the loads and spills the vectors
// (convert2d/9-10/none/64x128/i64: 256 v2.u64 loads, 2024 bytes of local memory at 255
// registers; Triton's kernel 1440). Selecting the address instead loads half the words.
#pragma once

namespace llvm {
class Module;
} // namespace llvm

namespace linlayout::lower {

/// In each block of `m` whose global loads ahead of its first global store bring in more 32-bit
/// words than a thread's registers, rewrites `select c, extractelement(v, i), extractelement(v,
/// j)` (constant i, j; v a plain global load used by those two extracts only) into a load of
/// element `c ? i : j` alone. Runs after LLVM's optimizations, before SinkToUse.
/// Ensures: the module computes the same values; no load reads bytes the original did not.
void loadChosenElements(llvm::Module &m);

} // namespace linlayout::lower

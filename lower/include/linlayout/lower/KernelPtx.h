// The product of lowering: PTX text plus what a launcher needs to know about the kernel.
#pragma once

#include "linlayout/lower/PtxTarget.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace linlayout::lower {

/// How a kernel parameter is passed.
enum class ParamKind {
  GlobalPointer, ///< a 64-bit address of global memory
  Int,           ///< an integer of `bits` bits
  Float,         ///< a floating-point value of `bits` bits
  TensorMap,     ///< a 128-byte TMA tensor map passed by value (`.param .align 64 .b8 [128]`)
};

/// One kernel parameter, in launch order.
struct KernelParam {
  std::string name;
  ParamKind kind = ParamKind::Int;
  /// Width in bits of the value (64 for pointers).
  int bits = 32;
  /// For pointers: the alignment in bytes the kernel assumes (1 when nothing is assumed).
  int alignment = 1;
  /// For tensor maps, what the host encodes the map with: the box one copy moves (outermost
  /// first; a block wider than the swizzle is copied as several boxes side by side), the swizzle
  /// width in bytes (0, 32, 64, 128) and the element type ("f16", "bf16", "f32", ...).
  std::vector<uint32_t> box{};
  int swizzleBytes = 0;
  std::string element{};

  friend bool operator==(const KernelParam &, const KernelParam &) = default;
};

/// A compiled kernel.
/// Ensures (of every value lower/ returns): `ptx` declares one `.entry` named `name` whose
/// parameters are `params` in order; the kernel needs `sharedBytes` of dynamic shared memory and
/// is launched with `threadsPerBlock` threads (a multiple of 32). A program is a cluster of
/// `ctasPerCluster` CTAs (the module's "ttg.num-ctas"; the PTX requires it with
/// `.reqnctapercluster`): launch P programs along x as P * ctasPerCluster CTAs.
struct KernelPtx {
  std::string name;
  PtxTarget target;
  std::string ptx;
  std::vector<KernelParam> params;
  uint64_t sharedBytes = 0;
  int threadsPerBlock = 0;
  int ctasPerCluster = 1;
  /// The cluster of an explicitly clustered kernel ("ttg.cluster-dim-x/y/z"; the PTX declares it
  /// with `.explicitcluster` and `.reqnctapercluster`): each CTA is a program, and the grid is
  /// launched in clusters of this shape (its sizes multiples of these). 1, 1, 1 otherwise.
  std::array<int, 3> clusterDims{1, 1, 1};
};

} // namespace linlayout::lower

// Shared-memory allocation for one kernel: every buffer (a local_alloc, or the scratch of a
// convert_layout or reduce) is live over an interval of program points; buffers whose intervals
// overlap get disjoint byte ranges, the others may share. Greedy, largest first, lowest offset
// that fits: simple, deterministic, and optimal for the few buffers a kernel has in practice.
#pragma once

#include <cstdint>
#include <vector>

namespace linlayout::lower {

/// A buffer to place: `bytes` live from program point `first` to `last` (inclusive).
struct SharedBuffer {
  int64_t bytes = 0;
  int64_t first = 0;
  int64_t last = 0;
};

/// Byte offsets, one per buffer in input order, and the bytes the kernel needs.
struct SharedAllocation {
  std::vector<int64_t> offsets;
  int64_t totalBytes = 0;
};

/// Places the buffers, each at a multiple of `alignment` (a power of two).
/// Ensures: buffers whose live intervals overlap occupy disjoint byte ranges; every range lies
/// in [0, totalBytes); totalBytes is at most the sum of the aligned sizes.
SharedAllocation allocateShared(const std::vector<SharedBuffer> &buffers, int64_t alignment = 128);

} // namespace linlayout::lower

// Counts heap allocations in the benchmark binary (global operator new is replaced in
// AllocationCounter.cpp), so a benchmark can report allocations per iteration.
#pragma once

#include <cstddef>

namespace linlayout::bench {

/// The number of calls to global operator new so far in this process.
size_t allocationCount();

} // namespace linlayout::bench

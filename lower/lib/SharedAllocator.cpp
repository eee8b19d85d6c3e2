#include "SharedAllocator.h"

#include <algorithm>
#include <numeric>

namespace linlayout::lower {

SharedAllocation allocateShared(const std::vector<SharedBuffer> &buffers, int64_t alignment) {
  SharedAllocation out;
  out.offsets.assign(buffers.size(), 0);
  std::vector<size_t> order(buffers.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return buffers[a].bytes > buffers[b].bytes; });
  auto align = [&](int64_t x) { return (x + alignment - 1) & ~(alignment - 1); };
  std::vector<size_t> placed;
  for (size_t i : order) {
    const SharedBuffer &buf = buffers[i];
    // Candidate offsets: 0 and the end of every placed buffer that is live at the same time.
    std::vector<int64_t> candidates = {0};
    for (size_t j : placed)
      candidates.push_back(align(out.offsets[j] + buffers[j].bytes));
    std::sort(candidates.begin(), candidates.end());
    for (int64_t at : candidates) {
      bool fits = true;
      for (size_t j : placed) {
        bool liveTogether = buf.first <= buffers[j].last && buffers[j].first <= buf.last;
        bool overlap = at < out.offsets[j] + buffers[j].bytes && out.offsets[j] < at + buf.bytes;
        if (liveTogether && overlap) {
          fits = false;
          break;
        }
      }
      if (fits) {
        out.offsets[i] = at;
        break;
      }
    }
    placed.push_back(i);
    out.totalBytes = std::max(out.totalBytes, out.offsets[i] + buf.bytes);
  }
  return out;
}

} // namespace linlayout::lower

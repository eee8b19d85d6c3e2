#include "linlayout/ir/BlockedTiling.h"

#include <algorithm>
#include <string>
#include <vector>

namespace linlayout::ir {

Expected<BlockedSpec> tileBlocked(std::span<const int64_t> shape,
                                  std::span<const int64_t> sizePerThread,
                                  std::span<const int64_t> order, int64_t numWarps,
                                  int64_t threadsPerWarp, std::optional<CgaLayout> cga) {
  size_t rank = shape.size();
  if (rank == 0 || sizePerThread.size() != rank || order.size() != rank)
    return makeError("tile: shape, sizePerThread and order must have one rank, got " +
                     std::to_string(shape.size()) + ", " + std::to_string(sizePerThread.size()) +
                     ", " + std::to_string(order.size()));
  auto pow2 = [](int64_t x) { return x > 0 && (x & (x - 1)) == 0; };
  if (!pow2(numWarps) || !pow2(threadsPerWarp))
    return makeError("tile: warps " + std::to_string(numWarps) + " and threads per warp " +
                     std::to_string(threadsPerWarp) + " must be powers of two");
  std::vector<bool> seen(rank, false);
  for (int64_t d : order) {
    if (d < 0 || size_t(d) >= rank || seen[size_t(d)])
      return makeError("tile: order is not a permutation");
    seen[size_t(d)] = true;
  }
  std::vector<int64_t> perCta(shape.begin(), shape.end());
  for (size_t d = 0; d < rank; ++d) {
    if (!pow2(shape[d]) || !pow2(sizePerThread[d]))
      return makeError("tile: shape and sizePerThread entries must be powers of two");
    if (cga)
      perCta[d] = std::max<int64_t>(1, shape[d] / cga->splitNum(int(d)));
  }
  std::vector<int64_t> lanes(rank, 1), warps(rank, 1);
  int64_t laneLeft = threadsPerWarp, warpLeft = numWarps, threadLeft = numWarps * threadsPerWarp;
  int64_t lanesUsed = 1, warpsUsed = 1;
  for (size_t i = 0; i + 1 < rank; ++i) {
    size_t d = size_t(order[i]);
    int64_t room = std::max<int64_t>(1, perCta[d] / sizePerThread[d]);
    int64_t threads = std::clamp<int64_t>(threadLeft, 1, room);
    lanes[d] = std::clamp<int64_t>(threads, 1, laneLeft);
    warps[d] = std::clamp<int64_t>(threads / lanes[d], 1, warpLeft);
    laneLeft /= lanes[d];
    warpLeft /= warps[d];
    threadLeft = std::max<int64_t>(1, threadLeft / threads);
    lanesUsed *= lanes[d];
    warpsUsed *= warps[d];
  }
  size_t last = size_t(order[rank - 1]);
  lanes[last] = threadsPerWarp / lanesUsed;
  warps[last] = numWarps / warpsUsed;
  return BlockedSpec::make(std::vector<int64_t>(sizePerThread.begin(), sizePerThread.end()), lanes,
                           warps, std::vector<int64_t>(order.begin(), order.end()), cga);
}

} // namespace linlayout::ir

#include "SharedHazards.h"

#include <algorithm>

namespace linlayout::lower {

bool ByteRanges::overlaps(ByteRange r) const {
  if (r.begin >= r.end)
    return false;
  // The first range that ends after r begins is the only one that can overlap it first.
  auto it = std::upper_bound(ranges_.begin(), ranges_.end(), r.begin,
                             [](int64_t at, const ByteRange &x) { return at < x.end; });
  return it != ranges_.end() && it->begin < r.end;
}

void ByteRanges::add(ByteRange r) {
  if (r.begin >= r.end)
    return;
  std::vector<ByteRange> out;
  out.reserve(ranges_.size() + 1);
  bool placed = false;
  for (const ByteRange &x : ranges_) {
    if (x.end < r.begin) {
      out.push_back(x);
    } else if (r.end < x.begin) {
      if (!placed)
        out.push_back(r);
      placed = true;
      out.push_back(x);
    } else { // overlapping or touching: merge into r
      r.begin = std::min(r.begin, x.begin);
      r.end = std::max(r.end, x.end);
    }
  }
  if (!placed)
    out.push_back(r);
  ranges_ = std::move(out);
}

void ByteRanges::add(const ByteRanges &other) {
  for (const ByteRange &r : other.ranges_)
    add(r);
}

bool ByteRanges::covers(const ByteRanges &other) const {
  ByteRanges both = *this;
  both.add(other);
  return both == *this;
}

} // namespace linlayout::lower

// The barrier bookkeeping of one kernel: which bytes of its shared memory other threads may still
// be reading or writing since the last bar.sync. A write needs a bar.sync first when it overlaps a
// pending read or write, a read when it overlaps a pending write. Accesses whose bytes are not
// tracked count as touching everything, which is what the bookkeeping did before it had ranges.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

namespace linlayout::lower {

/// Bytes [begin, end) of the kernel's dynamic shared memory.
struct ByteRange {
  int64_t begin = 0;
  int64_t end = 0;
  /// Every byte: for an access whose place is not tracked.
  static ByteRange everything() { return {0, std::numeric_limits<int64_t>::max()}; }
  friend bool operator==(const ByteRange &, const ByteRange &) = default;
};

/// A union of byte ranges, kept sorted and with touching ranges merged.
class ByteRanges {
public:
  bool empty() const { return ranges_.empty(); }
  bool overlaps(ByteRange r) const;
  void add(ByteRange r);
  void add(const ByteRanges &other);
  /// Whether every byte of `other` is in this set.
  bool covers(const ByteRanges &other) const;
  void clear() { ranges_.clear(); }
  const std::vector<ByteRange> &ranges() const { return ranges_; }
  friend bool operator==(const ByteRanges &, const ByteRanges &) = default;

private:
  std::vector<ByteRange> ranges_;
};

/// What other threads may still read and write since the last bar.sync.
struct SharedHazards {
  ByteRanges reads;
  ByteRanges writes;

  bool writeNeedsBarrier(ByteRange r) const { return reads.overlaps(r) || writes.overlaps(r); }
  bool readNeedsBarrier(ByteRange r) const { return writes.overlaps(r); }
  /// A bar.sync: every earlier access is ordered before every later one.
  void barrier() {
    reads.clear();
    writes.clear();
  }
  /// Whether everything pending in `other` is pending here.
  bool covers(const SharedHazards &other) const {
    return reads.covers(other.reads) && writes.covers(other.writes);
  }
  /// Where two paths meet (a loop head): what is pending on either.
  void join(const SharedHazards &other) {
    reads.add(other.reads);
    writes.add(other.writes);
  }
  friend bool operator==(const SharedHazards &, const SharedHazards &) = default;
};

} // namespace linlayout::lower

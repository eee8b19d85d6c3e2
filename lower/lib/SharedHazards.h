// The barrier bookkeeping of one kernel: which bytes of its shared memory other threads may still
// be reading or writing since the last bar.sync. A write needs a bar.sync first when it overlaps a
// pending read or write, a read when it overlaps a pending write. Accesses whose bytes are not
// tracked count as touching everything.
//
// A pending access may also have an owner: the op whose scratch it touched, where each byte of
// that scratch is read and written by one warp only (the op's plan fixes which). A later access
// by the same owner to the same bytes comes from the same warp, so a warp-level sync
// (bar.warp.sync) orders it; anything else needs the bar.sync.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <vector>

namespace linlayout::lower {

/// Bytes [begin, end) of the kernel's dynamic shared memory.
struct ByteRange {
  int64_t begin = 0;
  int64_t end = 0;
  /// Every byte: for an access whose place is not tracked.
  static constexpr ByteRange everything() { return {0, std::numeric_limits<int64_t>::max()}; }
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

/// Who made a pending access: any thread (nullptr), or the op whose scratch each warp touches
/// only its own bytes of.
using HazardOwner = const void *;

/// The synchronisation an access needs first.
enum class SyncNeeded { None, Warp, Cta };

/// What other threads may still read and write since the last bar.sync, by owner.
class SharedHazards {
public:
  /// What a write of `r` by `owner` needs first.
  SyncNeeded beforeWrite(ByteRange r, HazardOwner owner = nullptr) const;
  /// What a read of `r` by `owner` needs first.
  SyncNeeded beforeRead(ByteRange r, HazardOwner owner = nullptr) const;
  bool writeNeedsBarrier(ByteRange r) const { return beforeWrite(r) == SyncNeeded::Cta; }
  bool readNeedsBarrier(ByteRange r) const { return beforeRead(r) == SyncNeeded::Cta; }

  void addRead(ByteRange r, HazardOwner owner = nullptr);
  void addWrite(ByteRange r, HazardOwner owner = nullptr);
  /// A bar.sync: every earlier access is ordered before every later one.
  void barrier() {
    reads_.clear();
    writes_.clear();
  }
  /// Where two paths meet (a loop head): what is pending on either.
  void join(const SharedHazards &other);
  /// Whether everything pending in `other` is pending here, with the same owner or with none
  /// (which asks more of later accesses).
  bool covers(const SharedHazards &other) const;
  bool empty() const { return reads_.empty() && writes_.empty(); }
  friend bool operator==(const SharedHazards &, const SharedHazards &) = default;

private:
  // By owner; no owner maps to an empty set.
  std::map<HazardOwner, ByteRanges> reads_, writes_;
};

} // namespace linlayout::lower

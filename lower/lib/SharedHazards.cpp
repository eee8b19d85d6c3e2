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

namespace {

// The sync an access of `r` by `owner` needs against the pending accesses `pending`.
SyncNeeded against(const std::map<HazardOwner, ByteRanges> &pending, ByteRange r,
                   HazardOwner owner) {
  SyncNeeded need = SyncNeeded::None;
  for (const auto &[who, ranges] : pending) {
    if (!ranges.overlaps(r))
      continue;
    if (!owner || who != owner)
      return SyncNeeded::Cta;
    need = SyncNeeded::Warp;
  }
  return need;
}

void addTo(std::map<HazardOwner, ByteRanges> &pending, ByteRange r, HazardOwner owner) {
  if (r.begin < r.end)
    pending[owner].add(r);
}

// Whether every access pending in `small` is pending in `big` by the same owner or by any thread
// (an access without an owner orders more: everything after it needs the bar.sync).
bool coversAll(const std::map<HazardOwner, ByteRanges> &big,
               const std::map<HazardOwner, ByteRanges> &small) {
  auto anyThread = big.find(nullptr);
  for (const auto &[who, ranges] : small) {
    ByteRanges pending;
    if (auto it = big.find(who); it != big.end())
      pending.add(it->second);
    if (anyThread != big.end())
      pending.add(anyThread->second);
    if (!pending.covers(ranges))
      return false;
  }
  return true;
}

} // namespace

SyncNeeded SharedHazards::beforeWrite(ByteRange r, HazardOwner owner) const {
  return std::max(against(reads_, r, owner), against(writes_, r, owner));
}

SyncNeeded SharedHazards::beforeRead(ByteRange r, HazardOwner owner) const {
  return against(writes_, r, owner);
}

void SharedHazards::addRead(ByteRange r, HazardOwner owner) { addTo(reads_, r, owner); }

void SharedHazards::addWrite(ByteRange r, HazardOwner owner) { addTo(writes_, r, owner); }

void SharedHazards::join(const SharedHazards &other) {
  for (const auto &[who, ranges] : other.reads_)
    reads_[who].add(ranges);
  for (const auto &[who, ranges] : other.writes_)
    writes_[who].add(ranges);
}

bool SharedHazards::covers(const SharedHazards &other) const {
  return coversAll(reads_, other.reads_) && coversAll(writes_, other.writes_);
}

} // namespace linlayout::lower

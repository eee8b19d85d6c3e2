#include "AsyncHazards.h"

#include <algorithm>

namespace linlayout::ir {

void AsyncHazards::allocate(size_t alloc, size_t elements, const Op *initializedBy) {
  if (allocs_.size() <= alloc)
    allocs_.resize(alloc + 1);
  Element fresh;
  if (initializedBy)
    fresh.generic = newRecord(*initializedBy, false, true);
  allocs_[alloc].assign(elements, fresh);
}

uint32_t AsyncHazards::newRecord(const Op &op, bool inFlight, bool unfenced) {
  records_.push_back(Record{&op, inFlight, unfenced});
  uint32_t id = uint32_t(records_.size() - 1);
  if (unfenced)
    unfenced_.push_back(id);
  return id;
}

std::string AsyncHazards::describe(uint32_t record) const {
  const Op &op = *records_[record].op;
  std::string s = "the " + std::string(mnemonic(op.kind));
  if (op.loc.line > 0)
    s += " at " + std::to_string(op.loc.line) + ":" + std::to_string(op.loc.col);
  return s;
}

std::string AsyncHazards::check(size_t alloc, std::span<const size_t> at, bool write,
                                bool async) const {
  if (alloc >= allocs_.size())
    return "";
  const std::vector<Element> &el = allocs_[alloc];
  for (size_t e : at) {
    if (e >= el.size())
      continue;
    const Element &x = el[e];
    if (x.writer && records_[x.writer].inFlight) {
      std::string why;
      if (records_[x.writer].op->kind == OpKind::AsyncTmaCopyGlobalToLocal)
        why = "no ttng.wait_barrier since has seen the barrier phase its bytes count in complete";
      else if (std::find(openCopies_.begin(), openCopies_.end(), x.writer) != openCopies_.end())
        why = "it is in no commit group yet (ttg.async_commit_group), so no ttg.async_wait "
              "retires it";
      else
        why = "no ttg.async_wait since has retired its commit group";
      return std::string(write ? "writes" : "reads") + " shared memory that " + describe(x.writer) +
             " may still be writing: " + why;
    }
    if (write && x.reader && records_[x.reader].inFlight)
      return "overwrites shared memory that " + describe(x.reader) +
             " may still be reading: no ttng.warp_group_dot_wait since has retired it";
    if (write && x.storeReader && records_[x.storeReader].inFlight)
      return "overwrites shared memory that " + describe(x.storeReader) +
             " may still be reading: no ttng.async_tma_store_wait since has retired it";
    if (async && checkFences_ && x.generic && records_[x.generic].unfenced)
      return std::string("the async proxy ") + (write ? "writes" : "reads") +
             " shared memory that " + describe(x.generic) +
             " wrote through the generic proxy, with no ttng.fence_async_shared since";
  }
  return "";
}

std::string AsyncHazards::load(const Op &op, size_t alloc, std::span<const size_t> at) {
  if (std::string h = check(alloc, at, false, false); !h.empty())
    return h;
  // One record per load op (it only names the op), so that loops do not grow the records.
  auto found = readRecords_.find(&op);
  const uint32_t record =
      found != readRecords_.end()
          ? found->second
          : readRecords_.emplace(&op, newRecord(op, false, false)).first->second;
  mark(alloc, at, [&](Element &x) {
    x.lastRead = record;
    x.readEpoch = epoch_ + 1;
  });
  return "";
}

std::string AsyncHazards::store(const Op &op, size_t alloc, std::span<const size_t> at) {
  if (std::string h = check(alloc, at, true, false); !h.empty())
    return h;
  uint32_t r = newRecord(op, false, true);
  mark(alloc, at, [&](Element &x) { x.generic = r; });
  return "";
}

std::string AsyncHazards::asyncCopy(const Op &op, size_t alloc, std::span<const size_t> at) {
  if (std::string h = check(alloc, at, true, false); !h.empty())
    return h;
  if (op.attrs.slotFree && alloc < allocs_.size())
    for (size_t e : at)
      if (e < allocs_[alloc].size() && allocs_[alloc][e].readEpoch == epoch_ + 1)
        return "is marked ll.slot_free, but " + describe(allocs_[alloc][e].lastRead) +
               " read its tile since the last CTA barrier (ttg.async_wait or gpu.barrier): "
               "other warps may still be reading it";
  uint32_t r = newRecord(op, true, true);
  openCopies_.push_back(r);
  mark(alloc, at, [&](Element &x) { x.writer = x.generic = r; });
  return "";
}

std::string AsyncHazards::tmaCopy(const Op &op, size_t alloc, std::span<const size_t> at,
                                  BarrierKey barrier, int64_t phase) {
  if (std::string h = check(alloc, at, true, true); !h.empty())
    return h;
  uint32_t r = newRecord(op, true, false);
  tmaCopies_.push_back({r, barrier, phase});
  mark(alloc, at, [&](Element &x) {
    x.writer = r;
    x.generic = 0;
  });
  return "";
}

uint32_t AsyncHazards::beginDot(const Op &op, bool async) {
  uint32_t r = newRecord(op, async, false);
  if (async)
    dots_.push_back(r);
  return r;
}

std::string AsyncHazards::wgmmaRead(uint32_t dot, size_t alloc, std::span<const size_t> at) {
  if (std::string h = check(alloc, at, false, true); !h.empty())
    return h;
  const bool inFlight = records_[dot].inFlight;
  mark(alloc, at, [&](Element &x) {
    x.lastRead = dot;
    x.readEpoch = epoch_ + 1;
    if (inFlight)
      x.reader = dot;
  });
  return "";
}

std::string AsyncHazards::dealloc(size_t alloc) {
  if (alloc >= allocs_.size())
    return "";
  for (const Element &x : allocs_[alloc]) {
    if (x.writer && records_[x.writer].inFlight)
      return "deallocates shared memory that " + describe(x.writer) + " may still be writing";
    for (uint32_t r : {x.reader, x.storeReader})
      if (r && records_[r].inFlight)
        return "deallocates shared memory that " + describe(r) + " may still be reading";
  }
  allocs_[alloc].clear();
  return "";
}

void AsyncHazards::commitGroup() {
  copyGroups_.push_back(std::move(openCopies_));
  openCopies_.clear();
}

void AsyncHazards::waitGroups(int64_t num) {
  while (int64_t(copyGroups_.size()) > std::max<int64_t>(num, 0)) {
    for (uint32_t r : copyGroups_.front())
      records_[r].inFlight = false;
    copyGroups_.pop_front();
  }
}

void AsyncHazards::phaseSeen(BarrierKey barrier, int64_t phase) {
  std::erase_if(tmaCopies_, [&](const TmaPending &t) {
    if (t.barrier != barrier || t.phase > phase)
      return false;
    records_[t.record].inFlight = false;
    return true;
  });
}

void AsyncHazards::waitDots(int64_t pendings) {
  while (int64_t(dots_.size()) > std::max<int64_t>(pendings, 0)) {
    records_[dots_.front()].inFlight = false;
    dots_.pop_front();
  }
}

std::string AsyncHazards::tmaStore(const Op &op, size_t alloc, std::span<const size_t> at,
                                   size_t issuer) {
  if (std::string h = check(alloc, at, false, true); !h.empty())
    return h;
  uint32_t r = newRecord(op, true, false);
  stores_[issuer].push_back(r);
  mark(alloc, at, [&](Element &x) { x.storeReader = r; });
  return "";
}

void AsyncHazards::waitStores(int64_t pendings, size_t issuer) {
  std::deque<uint32_t> &stores = stores_[issuer];
  while (int64_t(stores.size()) > std::max<int64_t>(pendings, 0)) {
    records_[stores.front()].inFlight = false;
    stores.pop_front();
  }
}

void AsyncHazards::fence() {
  for (uint32_t r : unfenced_)
    records_[r].unfenced = false;
  unfenced_.clear();
}

} // namespace linlayout::ir

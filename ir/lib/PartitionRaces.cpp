#include "PartitionRaces.h"

#include <algorithm>

namespace linlayout::ir {

namespace {

void join(PartitionRaces::Clock &into, const PartitionRaces::Clock &c) {
  if (into.size() < c.size())
    into.resize(c.size(), 0);
  for (size_t i = 0; i < c.size(); ++i)
    into[i] = std::max(into[i], c[i]);
}

std::string where(const Op *op) {
  if (!op)
    return "";
  std::string s = "'" + std::string(mnemonic(op->kind)) + "'";
  if (op->loc.line > 0)
    s += " at " + std::to_string(op->loc.line) + ":" + std::to_string(op->loc.col);
  return s;
}

} // namespace

// Epochs start at 1 so that 0 means "no access".
PartitionRaces::PartitionRaces(size_t tasks)
    : tasks_(tasks), clocks_(tasks, Clock(tasks, 1)), dots_(tasks), syncDot_(tasks) {
  for (size_t t = 0; t < tasks; ++t)
    clocks_[t][t] = 2;
}

std::string PartitionRaces::taskName(size_t task) {
  return task == 0 ? "the default region" : "partition " + std::to_string(task - 1);
}

PartitionRaces::Alloc &PartitionRaces::alloc(size_t a, std::span<const size_t> at) {
  if (allocs_.size() <= a)
    allocs_.resize(a + 1);
  Alloc &x = allocs_[a];
  size_t need = 0;
  for (size_t e : at)
    need = std::max(need, e + 1);
  if (x.el.size() < need) {
    x.el.resize(need);
    x.readEpoch.resize(need * tasks_, 0);
    x.readOp.resize(need * tasks_, nullptr);
  }
  return x;
}

std::string PartitionRaces::race(size_t task, const char *access, size_t other, const Op *otherOp,
                                 const char *otherAccess, const char *advice) const {
  return std::string(access) + " shared memory that " + taskName(other) + " " + otherAccess +
         (otherOp ? " (" + where(otherOp) + ")" : std::string()) + ", and no mbarrier wait in " +
         taskName(task) + " orders that access before this one: " + advice;
}

const PartitionRaces::Element *PartitionRaces::unorderedWrite(size_t task, const Alloc &x,
                                                              std::span<const size_t> at) const {
  const Clock &c = clocks_[task];
  for (size_t e : at) {
    const Element &el = x.el[e];
    if (el.writeEpoch && el.writer != task && el.writeEpoch > c[el.writer])
      return &el;
  }
  return nullptr;
}

namespace {
constexpr const char *kWaitForTheWrite =
    "wait for the barrier (phase) that the write completes on first, as a consumer waits for a "
    "stage's full barrier";
} // namespace

std::string PartitionRaces::read(size_t task, const Op &op, size_t a, std::span<const size_t> at) {
  Alloc &x = alloc(a, at);
  const Clock &c = clocks_[task];
  if (const Element *el = unorderedWrite(task, x, at))
    return race(task, "reads", el->writer, el->writeOp, "wrote", kWaitForTheWrite);
  for (size_t e : at) {
    x.readEpoch[e * tasks_ + task] = c[task];
    x.readOp[e * tasks_ + task] = &op;
  }
  return "";
}

std::string PartitionRaces::write(size_t task, const Op &op, size_t a, std::span<const size_t> at) {
  Alloc &x = alloc(a, at);
  const Clock &c = clocks_[task];
  if (const Element *el = unorderedWrite(task, x, at))
    return race(task, "overwrites", el->writer, el->writeOp, "wrote",
                "wait for a barrier the other write is ordered before");
  for (size_t e : at) {
    for (size_t t = 0; t < tasks_; ++t)
      if (t != task && x.readEpoch[e * tasks_ + t] > c[t])
        return race(task, "overwrites", t, x.readOp[e * tasks_ + t], "reads",
                    "wait for the barrier its reader arrives on once done (a stage's empty "
                    "barrier) first");
  }
  for (size_t e : at)
    x.el[e] = Element{uint32_t(task), c[task], &op};
  return "";
}

void PartitionRaces::beginDot(size_t task, const Op &op, bool async) {
  if (async) {
    dots_[task].push_back(PendingDot{&op, {}});
    syncDot_[task] = PendingDot{};
  } else {
    syncDot_[task] = PendingDot{&op, {}};
  }
}

std::string PartitionRaces::dotRead(size_t task, size_t a, std::span<const size_t> at) {
  if (syncDot_[task].op || dots_[task].empty())
    return syncDot_[task].op ? read(task, *syncDot_[task].op, a, at) : "";
  PendingDot &d = dots_[task].back();
  d.reads.emplace_back(a, std::vector<size_t>(at.begin(), at.end()));
  // The dot's reads start now: a write it would read must already be ordered before it.
  if (const Element *el = unorderedWrite(task, alloc(a, at), at))
    return race(task, "reads", el->writer, el->writeOp, "wrote", kWaitForTheWrite);
  return "";
}

std::string PartitionRaces::retireDots(size_t task, int64_t pendings) {
  std::deque<PendingDot> &q = dots_[task];
  while (int64_t(q.size()) > std::max<int64_t>(pendings, 0)) {
    PendingDot d = std::move(q.front());
    q.pop_front();
    // Reported at the wait that retires the dot: the message names the dot that reads.
    for (const auto &[a, at] : d.reads)
      if (std::string h = read(task, *d.op, a, at); !h.empty())
        return "the wgmma of " + where(d.op) + " " + h;
  }
  return "";
}

void PartitionRaces::release(size_t task, BarrierKey barrier) {
  join(pending_[barrier], clocks_[task]);
  tick(task);
}

void PartitionRaces::phaseCompleted(BarrierKey barrier) {
  completed_[barrier] = std::move(pending_[barrier]);
  pending_[barrier].clear();
}

void PartitionRaces::acquire(size_t task, BarrierKey barrier) {
  auto it = completed_.find(barrier);
  if (it != completed_.end())
    join(clocks_[task], it->second);
}

} // namespace linlayout::ir

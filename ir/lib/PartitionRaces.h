// The check that the partitions of a ttg.warp_specialize order their shared-memory accesses
// through mbarriers, so that an order the interpreter's scheduler did not take cannot race on the
// GPU. Each task (the default region is 0, partition i is i + 1) has a vector clock, as a race
// detector keeps one per thread: an arrive on an mbarrier releases the arriver's clock into the
// barrier's current phase, a TMA copy releases its issuer's clock when its bytes land, and a wait
// that sees a phase complete acquires what the phase gathered. An access of a shared element that
// another task accessed (both reading is fine) must come after that access in this order: a
// consumer reads a stage only after waiting for the full barrier the producer's copy completes,
// and a producer refills a stage only after waiting for the empty barrier the consumer arrives on
// once it has read it. An asynchronous warp_group_dot reads its operands until a
// warp_group_dot_wait retires it, so its reads count from there.
#pragma once

#include "linlayout/ir/Op.h"

#include <cstdint>
#include <deque>
#include <map>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace linlayout::ir {

class PartitionRaces {
public:
  using BarrierKey = std::pair<int64_t, int64_t>;
  using Clock = std::vector<uint32_t>;

  /// `tasks` tasks, all starting from the fork of the warp_specialize (its accesses before the
  /// fork are ordered before every task's).
  explicit PartitionRaces(size_t tasks);

  // Each access returns "" or the race (a sentence for the interpreter to prefix with the
  // accessing op's place). `task` runs it; `at`: elements of allocation `alloc`.
  std::string read(size_t task, const Op &op, size_t alloc, std::span<const size_t> at);
  std::string write(size_t task, const Op &op, size_t alloc, std::span<const size_t> at);
  /// A warp_group_dot starts, asynchronous or not; its shared operands' reads follow.
  void beginDot(size_t task, const Op &op, bool async);
  std::string dotRead(size_t task, size_t alloc, std::span<const size_t> at);
  /// warp_group_dot_wait {pendings} in `task`: its older dots' reads happen now.
  std::string retireDots(size_t task, int64_t pendings);

  /// An arrive of `task` on `barrier` (arrive_barrier, barrier_expect), or a TMA copy it issued
  /// landing there: the task's accesses so far come before the phase's completion.
  void release(size_t task, BarrierKey barrier);
  /// The current phase of `barrier` completed.
  void phaseCompleted(BarrierKey barrier);
  /// `task` saw the last completed phase of `barrier` complete.
  void acquire(size_t task, BarrierKey barrier);
  /// The name of task i in messages ("the default region", "partition 0").
  static std::string taskName(size_t task);

private:
  // Per element: the task and epoch of its last write and of each task's last read (0: none),
  // and the ops, for messages.
  struct Element {
    uint32_t writer = 0, writeEpoch = 0;
    const Op *writeOp = nullptr;
  };
  struct Alloc {
    std::vector<Element> el;
    std::vector<uint32_t> readEpoch; // element * tasks + task
    std::vector<const Op *> readOp;
  };
  struct PendingDot {
    const Op *op;
    std::vector<std::pair<size_t, std::vector<size_t>>> reads;
  };
  Alloc &alloc(size_t a, std::span<const size_t> at);
  // The message of an access by `task` that `other`'s access (`otherOp`) is not ordered before.
  std::string race(size_t task, const char *access, size_t other, const Op *otherOp,
                   const char *otherAccess, const char *advice) const;
  // The first element of `at` whose last write, by another task, is not ordered before `task`'s
  // present; nullptr if none.
  const Element *unorderedWrite(size_t task, const Alloc &x, std::span<const size_t> at) const;
  void tick(size_t task) { ++clocks_[task][task]; }

  size_t tasks_;
  std::vector<Clock> clocks_;
  std::map<BarrierKey, Clock> pending_, completed_;
  std::vector<Alloc> allocs_;
  std::vector<std::deque<PendingDot>> dots_; // per task, oldest first
  std::vector<PendingDot> syncDot_;          // per task: the synchronous dot being read
};

} // namespace linlayout::ir

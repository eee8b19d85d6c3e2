// Runs the regions of a ttg.warp_specialize as tasks scheduled cooperatively: one task runs at a
// time, until it finishes or blocks on a condition (an mbarrier wait whose phase has not
// completed); then the next task in turn that can go on runs. On the GPU the partitions run at
// once; any order the scheduler picks is one the GPU may take, and the interpreter's protocol
// checks (PartitionRaces.h) do not depend on the order. A task that blocks may be deep inside
// the interpreter's nested loops, so each task is a thread and the tasks pass one baton: only the
// holder runs, and the order is deterministic. When every unfinished task is blocked, none can
// go on: on the GPU the kernel hangs; here each blocked task returns the deadlock, named.
#pragma once

#include "linlayout/layout/Expected.h"

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace linlayout::ir {

class PartitionScheduler {
public:
  using Task = std::function<Status()>;

  /// Runs `tasks` (task i named `names[i]` in messages) to their ends.
  /// Ensures: the first error a task returned, or the deadlock found, or success.
  Status run(std::vector<Task> tasks, std::vector<std::string> names);
  /// From inside the running task: returns once `ready()` holds, other tasks running meanwhile.
  /// `what` describes the wait ("waits at 12:5 for phase parity 0 of %full") for a deadlock
  /// report. Error: every task is blocked (the deadlock), or another task failed.
  Status waitUntil(std::function<bool()> ready, std::string what);
  /// The running task's index.
  size_t current() const { return turn_; }
  /// From inside the running task: adds `tasks` (named `names[i]`), which run when the baton
  /// reaches them; returns their indices. run() returns once they have ended too. (A cluster's
  /// CTAs are tasks; the regions of a warp_specialize one of them reaches join them so.)
  std::vector<size_t> spawn(std::vector<Task> tasks, std::vector<std::string> names);
  /// Whether task i has ended. Requires: called by the running task.
  bool done(size_t i) const { return state_[i] == State::Done; }

private:
  enum class State { Runnable, Blocked, Done };
  // With the lock held: gives the baton to the next task after `from` that can go on (`from`
  // last), or ends the run (all done, or a deadlock).
  void handOff(size_t from);
  void body(size_t i, const Task &task);

  std::mutex mu_;
  std::condition_variable cv_;
  size_t turn_ = 0;
  bool stop_ = false;
  Status first_ = Status::success();
  std::vector<State> state_;
  std::vector<std::function<bool()>> ready_;
  std::vector<std::string> what_, names_;
  // Every task's body: a deque, so that spawning (which appends) leaves the others in place.
  std::deque<Task> tasks_;
  std::deque<std::thread> threads_;
};

} // namespace linlayout::ir

#include "PartitionScheduler.h"

#include <thread>

namespace linlayout::ir {

Status PartitionScheduler::run(std::vector<Task> tasks, std::vector<std::string> names) {
  const size_t n = tasks.size();
  state_.assign(n, State::Runnable);
  ready_.assign(n, nullptr);
  what_.assign(n, "");
  names_ = std::move(names);
  // The partitions first: they are usually the producers, and a consumer that forgot a wait then
  // reads a stage whose copy is still in flight, which the async check reports.
  turn_ = n > 1 ? 1 : 0;
  stop_ = false;
  first_ = Status::success();
  std::vector<std::thread> threads;
  threads.reserve(n);
  for (size_t i = 0; i < n; ++i)
    threads.emplace_back([this, i, &tasks] { body(i, tasks[i]); });
  for (std::thread &t : threads)
    t.join();
  return first_;
}

void PartitionScheduler::body(size_t i, const Task &task) {
  {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return turn_ == i || stop_; });
    if (stop_) {
      state_[i] = State::Done;
      return;
    }
  }
  // Only the baton's holder runs, so the task reads and writes the interpreter's state alone.
  Status s = task();
  std::unique_lock<std::mutex> lock(mu_);
  state_[i] = State::Done;
  if (!s.ok() && !stop_) {
    stop_ = true;
    first_ = std::move(s);
    cv_.notify_all();
    return;
  }
  if (!stop_)
    handOff(i);
}

void PartitionScheduler::handOff(size_t from) {
  const size_t n = state_.size();
  for (size_t k = 1; k <= n; ++k) {
    size_t j = (from + k) % n;
    if (state_[j] == State::Runnable || (state_[j] == State::Blocked && ready_[j]())) {
      state_[j] = State::Runnable;
      turn_ = j;
      cv_.notify_all();
      return;
    }
  }
  bool blocked = false;
  std::string report;
  for (size_t j = 0; j < n; ++j)
    if (state_[j] == State::Blocked) {
      report += (blocked ? "; " : "") + names_[j] + " " + what_[j];
      blocked = true;
    }
  stop_ = true;
  if (blocked)
    first_ = Status(makeError("deadlock: every partition still running waits and none can go on "
                              "(on the GPU the kernel hangs): " +
                              report));
  cv_.notify_all();
}

Status PartitionScheduler::waitUntil(std::function<bool()> ready, std::string what) {
  if (ready())
    return Status::success();
  std::unique_lock<std::mutex> lock(mu_);
  const size_t me = turn_;
  state_[me] = State::Blocked;
  ready_[me] = std::move(ready);
  what_[me] = std::move(what);
  handOff(me);
  cv_.wait(lock, [&] { return (turn_ == me && state_[me] == State::Runnable) || stop_; });
  if (stop_)
    return Status(makeError(
        "stopped: " + (first_.ok() ? std::string("another partition failed") : first_.message())));
  return Status::success();
}

} // namespace linlayout::ir

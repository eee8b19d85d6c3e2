#include "PartitionScheduler.h"

#include <thread>

namespace linlayout::ir {

Status PartitionScheduler::run(std::vector<Task> tasks, std::vector<std::string> names) {
  const size_t n = tasks.size();
  state_.assign(n, State::Runnable);
  ready_.assign(n, nullptr);
  what_.assign(n, "");
  names_ = std::move(names);
  tasks_.assign(std::make_move_iterator(tasks.begin()), std::make_move_iterator(tasks.end()));
  // The partitions first: they are usually the producers, and a consumer that forgot a wait then
  // reads a stage whose copy is still in flight, which the async check reports.
  turn_ = n > 1 ? 1 : 0;
  stop_ = false;
  first_ = Status::success();
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (size_t i = 0; i < n; ++i)
      threads_.emplace_back([this, i] { body(i, tasks_[i]); });
  }
  // Tasks spawned meanwhile append threads: join until none is left.
  for (size_t i = 0;; ++i) {
    std::thread *t = nullptr;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (i == threads_.size())
        break;
      t = &threads_[i];
    }
    t->join();
  }
  threads_.clear();
  tasks_.clear();
  return first_;
}

std::vector<size_t> PartitionScheduler::spawn(std::vector<Task> tasks,
                                              std::vector<std::string> names) {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<size_t> ids;
  for (size_t k = 0; k < tasks.size(); ++k) {
    size_t i = state_.size();
    state_.push_back(State::Runnable);
    ready_.push_back(nullptr);
    what_.push_back("");
    names_.push_back(k < names.size() ? names[k] : "task " + std::to_string(i));
    tasks_.push_back(std::move(tasks[k]));
    threads_.emplace_back([this, i] { body(i, tasks_[i]); });
    ids.push_back(i);
  }
  return ids;
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

// A CUDA stream and the events that time work on it.
#pragma once

#include "linlayout/runtime/Driver.h"

namespace linlayout::runtime {

/// A stream. Move-only; destroyed on destruction. `Stream::null()` is the legacy default stream.
class Stream {
public:
  static Expected<Stream> create();
  static Stream null() { return Stream(); }
  /// A stream someone else created and destroys (e.g. a torch.cuda.Stream's handle).
  /// Requires: `handle` outlives the returned value and its uses.
  /// Ensures: destroying the returned value leaves `handle` alive.
  static Stream borrow(CUstream handle) {
    Stream s;
    s.s_ = handle;
    s.owned_ = false;
    return s;
  }

  Stream(Stream &&other) noexcept;
  Stream &operator=(Stream &&other) noexcept;
  Stream(const Stream &) = delete;
  Stream &operator=(const Stream &) = delete;
  ~Stream();

  Status synchronize() const;
  CUstream handle() const { return s_; }

private:
  Stream() = default;
  CUstream s_ = nullptr;
  bool owned_ = true;
};

/// An event. Move-only.
class Event {
public:
  static Expected<Event> create();

  Event(Event &&other) noexcept;
  Event &operator=(Event &&other) noexcept;
  Event(const Event &) = delete;
  Event &operator=(const Event &) = delete;
  ~Event();

  Status record(const Stream &stream) const;
  Status synchronize() const;
  /// Milliseconds from `start` to `end`. Requires: both recorded and complete.
  static Expected<float> elapsedMs(const Event &start, const Event &end);
  CUevent handle() const { return e_; }

private:
  Event() = default;
  CUevent e_ = nullptr;
};

} // namespace linlayout::runtime

#include "linlayout/runtime/Stream.h"

#include <utility>

namespace linlayout::runtime {

Expected<Stream> Stream::create() {
  LL_ASSIGN_OR_RETURN(const DriverApi *api, driver());
  Stream s;
  LL_TRY_STATUS(check(api->cuStreamCreate(&s.s_, 0), "cuStreamCreate"));
  return s;
}

Stream::Stream(Stream &&o) noexcept
    : s_(std::exchange(o.s_, nullptr)), owned_(std::exchange(o.owned_, true)) {}
Stream &Stream::operator=(Stream &&o) noexcept {
  if (this != &o) {
    this->~Stream();
    s_ = std::exchange(o.s_, nullptr);
    owned_ = std::exchange(o.owned_, true);
  }
  return *this;
}
Stream::~Stream() {
  if (s_ && owned_)
    (*driver())->cuStreamDestroy(s_);
}

Status Stream::synchronize() const {
  LL_ASSIGN_OR_RETURN(const DriverApi *api, driver());
  return check(api->cuStreamSynchronize(s_), "cuStreamSynchronize");
}

Expected<Event> Event::create() {
  LL_ASSIGN_OR_RETURN(const DriverApi *api, driver());
  Event e;
  LL_TRY_STATUS(check(api->cuEventCreate(&e.e_, 0), "cuEventCreate"));
  return e;
}

Event::Event(Event &&o) noexcept : e_(std::exchange(o.e_, nullptr)) {}
Event &Event::operator=(Event &&o) noexcept {
  if (this != &o) {
    this->~Event();
    e_ = std::exchange(o.e_, nullptr);
  }
  return *this;
}
Event::~Event() {
  if (e_)
    (*driver())->cuEventDestroy(e_);
}

Status Event::record(const Stream &stream) const {
  return check((*driver())->cuEventRecord(e_, stream.handle()), "cuEventRecord");
}

Status Event::synchronize() const {
  return check((*driver())->cuEventSynchronize(e_), "cuEventSynchronize");
}

Expected<float> Event::elapsedMs(const Event &start, const Event &end) {
  float ms = 0;
  LL_TRY_STATUS(
      check((*driver())->cuEventElapsedTime(&ms, start.e_, end.e_), "cuEventElapsedTime"));
  return ms;
}

} // namespace linlayout::runtime

#include "linlayout/runtime/DeviceBuffer.h"

#include <utility>

namespace linlayout::runtime {

Expected<DeviceBuffer> DeviceBuffer::allocate(size_t bytes) {
  if (bytes == 0)
    return makeError("cannot allocate a device buffer of 0 bytes");
  LL_ASSIGN_OR_RETURN(const DriverApi *api, driver());
  DeviceBuffer b;
  LL_TRY_STATUS(check(api->cuMemAlloc(&b.ptr_, bytes), "cuMemAlloc"));
  b.size_ = bytes;
  return b;
}

DeviceBuffer::DeviceBuffer(DeviceBuffer &&o) noexcept
    : ptr_(std::exchange(o.ptr_, 0)), size_(std::exchange(o.size_, 0)) {}
DeviceBuffer &DeviceBuffer::operator=(DeviceBuffer &&o) noexcept {
  if (this != &o) {
    this->~DeviceBuffer();
    ptr_ = std::exchange(o.ptr_, 0);
    size_ = std::exchange(o.size_, 0);
  }
  return *this;
}
DeviceBuffer::~DeviceBuffer() {
  if (ptr_)
    (*driver())->cuMemFree(ptr_);
}

namespace {
Status fits(size_t bytes, size_t size) {
  if (bytes > size)
    return makeError("copy of " + std::to_string(bytes) + " bytes does not fit a buffer of " +
                     std::to_string(size));
  return Status::success();
}
} // namespace

Status DeviceBuffer::copyFromHost(const void *src, size_t bytes) {
  LL_TRY_STATUS(fits(bytes, size_));
  return check((*driver())->cuMemcpyHtoD(ptr_, src, bytes), "cuMemcpyHtoD");
}
Status DeviceBuffer::copyToHost(void *dst, size_t bytes) const {
  LL_TRY_STATUS(fits(bytes, size_));
  return check((*driver())->cuMemcpyDtoH(dst, ptr_, bytes), "cuMemcpyDtoH");
}
Status DeviceBuffer::copyFrom(const DeviceBuffer &src, size_t bytes) {
  LL_TRY_STATUS(fits(bytes, size_));
  LL_TRY_STATUS(fits(bytes, src.size_));
  return check((*driver())->cuMemcpyDtoD(ptr_, src.ptr_, bytes), "cuMemcpyDtoD");
}
Status DeviceBuffer::fill(unsigned char byte) {
  return check((*driver())->cuMemsetD8(ptr_, byte, size_), "cuMemsetD8");
}

Status DeviceBuffer::fill(unsigned char byte, const Stream &stream) {
  return check((*driver())->cuMemsetD8Async(ptr_, byte, size_, stream.handle()), "cuMemsetD8Async");
}

} // namespace linlayout::runtime

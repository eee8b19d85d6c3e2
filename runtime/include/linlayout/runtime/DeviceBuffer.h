// Device memory: plain allocations (cuMemAlloc), freed on destruction.
#pragma once

#include "linlayout/runtime/Driver.h"
#include "linlayout/runtime/Stream.h"

#include <span>
#include <vector>

namespace linlayout::runtime {

/// A device allocation. Move-only.
class DeviceBuffer {
public:
  /// Allocates `bytes` (> 0) of device memory. Requires: a current context.
  static Expected<DeviceBuffer> allocate(size_t bytes);
  /// Allocates and fills from host data.
  template <typename T> static Expected<DeviceBuffer> fromHost(std::span<const T> data) {
    LL_ASSIGN_OR_RETURN(DeviceBuffer b, allocate(data.size_bytes()));
    LL_TRY_STATUS(b.copyFromHost(data.data(), data.size_bytes()));
    return b;
  }

  DeviceBuffer(DeviceBuffer &&other) noexcept;
  DeviceBuffer &operator=(DeviceBuffer &&other) noexcept;
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  ~DeviceBuffer();

  /// Requires: bytes <= size() (an error otherwise).
  Status copyFromHost(const void *src, size_t bytes);
  Status copyToHost(void *dst, size_t bytes) const;
  Status copyFrom(const DeviceBuffer &src, size_t bytes);
  /// Sets every byte (e.g. to poison outputs before a run).
  Status fill(unsigned char byte);
  /// Sets every byte in `stream`'s order, without waiting for the host: returns once queued.
  Status fill(unsigned char byte, const Stream &stream);
  template <typename T> Expected<std::vector<T>> toHost() const {
    std::vector<T> v(size_ / sizeof(T));
    LL_TRY_STATUS(copyToHost(v.data(), v.size() * sizeof(T)));
    return v;
  }

  CUdeviceptr ptr() const { return ptr_; }
  size_t size() const { return size_; }

private:
  DeviceBuffer() = default;
  CUdeviceptr ptr_ = 0;
  size_t size_ = 0;
};

} // namespace linlayout::runtime

// A device's primary context made current on the calling thread, with what a kernel author asks of
// the device (name, compute capability, SM count).
#pragma once

#include "linlayout/runtime/Driver.h"

#include <string>

namespace linlayout::runtime {

/// The primary context of one device. Move-only; released on destruction.
class Context {
public:
  /// Retains device `ordinal`'s primary context and makes it current.
  /// Requires: a driver and such a device (an error otherwise).
  static Expected<Context> create(int ordinal = 0);

  Context(Context &&other) noexcept;
  Context &operator=(Context &&other) noexcept;
  Context(const Context &) = delete;
  Context &operator=(const Context &) = delete;
  ~Context();

  /// Makes this context current on the calling thread.
  Status makeCurrent() const;
  /// Waits for all work in the context.
  Status synchronize() const;

  const std::string &name() const { return name_; }
  /// Compute capability as major*10 + minor (90 for an H100/H200).
  int computeCapability() const { return cc_; }
  /// The PTX target name for this device, e.g. "sm_90".
  std::string target() const { return "sm_" + std::to_string(cc_); }
  int multiprocessorCount() const { return sms_; }
  int driverVersion() const { return driverVersion_; }
  CUcontext handle() const { return ctx_; }

private:
  Context() = default;
  CUcontext ctx_ = nullptr;
  CUdevice device_ = 0;
  std::string name_;
  int cc_ = 0, sms_ = 0, driverVersion_ = 0;
};

} // namespace linlayout::runtime

// Typed kernel launches: each argument is passed by value as the kernel parameter of the same
// type (a DeviceBuffer passes its device address).
#pragma once

#include "linlayout/runtime/DeviceBuffer.h"
#include "linlayout/runtime/Module.h"
#include "linlayout/runtime/Stream.h"

#include <array>
#include <tuple>
#include <type_traits>

namespace linlayout::runtime {

struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
};

/// Launch configuration. `cluster` (CTAs along x, y, z) other than 1, 1, 1 launches the grid
/// (in CTAs) as thread-block clusters of that shape (sm_90; cuLaunchKernelEx with the cluster
/// dimension attribute).
struct LaunchConfig {
  Dim3 grid;
  Dim3 block;
  unsigned dynamicSharedBytes = 0;
  Dim3 cluster;
};

/// Launches `fn` with parameters given as addresses (the driver's form).
/// Requires: each pointer addresses a value of the kernel's parameter type; with a cluster, each
/// grid size is a multiple of the cluster's and the driver has cuLaunchKernelEx (an error naming
/// the sizes, or saying the driver lacks it, otherwise; nothing is launched then).
Status launchRaw(const Function &fn, const LaunchConfig &config, const Stream &stream,
                 void **params);

/// How many clusters of `config.cluster` CTAs (each of `config.block` threads and
/// `config.dynamicSharedBytes`) fit on the GPU at once (cuOccupancyMaxActiveClusters): a
/// persistent clustered kernel's grid is at most that many clusters.
/// Requires: a cluster other than 1, 1, 1 and a driver that has the entry point (an error
/// otherwise).
Expected<int> maxActiveClusters(const Function &fn, const LaunchConfig &config);

namespace detail {
template <typename T> auto asParam(const T &v) {
  if constexpr (std::is_same_v<T, DeviceBuffer>)
    return v.ptr();
  else {
    static_assert(std::is_trivially_copyable_v<T>, "kernel arguments must be trivially copyable");
    return v;
  }
}
} // namespace detail

/// Launches `fn(args...)`: `launch(fn, {{grid}, {128}}, stream, out, in, n)`.
template <typename... Args>
Status launch(const Function &fn, const LaunchConfig &config, const Stream &stream,
              const Args &...args) {
  auto values = std::make_tuple(detail::asParam(args)...);
  std::array<void *, sizeof...(Args) + 1> params{};
  std::apply(
      [&](auto &...v) {
        size_t i = 0;
        ((params[i++] = static_cast<void *>(&v)), ...);
      },
      values);
  return launchRaw(fn, config, stream, params.data());
}

} // namespace linlayout::runtime

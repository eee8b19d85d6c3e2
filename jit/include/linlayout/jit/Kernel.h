// A compiled, loaded kernel: its PTX, what lower/ and the driver's JIT made of it, and a typed
// launch that checks every argument against the kernel's parameters before launching.
#pragma once

#include "linlayout/jit/KernelArg.h"
#include "linlayout/lower/Lower.h"
#include "linlayout/runtime/Context.h"
#include "linlayout/runtime/Launch.h"
#include "linlayout/runtime/Module.h"
#include "linlayout/runtime/Stream.h"

#include <array>
#include <memory>
#include <span>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace linlayout::jit {

/// What is known about a compiled kernel.
struct KernelMetadata {
  std::string name;
  /// The architecture the PTX targets ("sm_90") and the device's compute capability (90).
  std::string target;
  int computeCapability = 0;
  // From lower/.
  int threadsPerBlock = 0;
  uint64_t dynamicSharedBytes = 0;
  /// CTAs per program ("ttg.num-ctas"): launch() runs grid.x programs as that many clusters.
  int ctasPerCluster = 1;
  /// The cluster of an explicitly clustered kernel ("ttg.cluster-dim-x/y/z"; 1, 1, 1 for none):
  /// launch() runs grid CTAs, each a program, in clusters of this shape.
  std::array<int, 3> clusterDims{1, 1, 1};
  std::vector<lower::KernelParam> params;
  std::vector<lower::ConversionReport> conversions;
  // From the driver's JIT (cuFuncGetAttribute).
  int registers = 0;
  int staticSharedBytes = 0;
  int localBytes = 0; ///< spills and stack per thread; 0 for a kernel that spills nothing
  int maxThreadsPerBlock = 0;
  /// CTAs of this kernel that fit on one SM at once (the driver's occupancy for its threads and
  /// shared memory): a persistent kernel's grid is this many per SM.
  int ctasPerSm = 0;
  /// A clustered kernel's clusters that fit on the GPU at once (cuOccupancyMaxActiveClusters; a
  /// GPC's SMs host whole clusters, so this can be less than SMs / cluster size): a persistent
  /// clustered kernel's grid is at most this many clusters. 0 without clusters.
  int maxActiveClusters = 0;
  // Wall-clock milliseconds of the two compile stages.
  double lowerMs = 0, jitMs = 0;
};

/// A kernel ready to launch. Immutable; shared by the compiler's cache and its users, and keeps
/// its CUDA context alive.
class Kernel {
public:
  const std::string &ptx() const { return ptx_; }
  const KernelMetadata &metadata() const { return meta_; }
  /// The driver's JIT info log (often empty).
  const std::string &jitLog() const { return module_.jitLog(); }

  /// Launches the kernel on `grid` programs (each a cluster of metadata().ctasPerCluster CTAs
  /// along x) of metadata().threadsPerBlock threads per CTA, with
  /// metadata().dynamicSharedBytes of dynamic shared memory: `k.launch({n / 1024}, dst, src, n)`
  /// or `k.launch({n / 1024}, dst, src, n, stream)` (the last argument may be a Stream; without
  /// one, the legacy default stream).
  /// Requires: the arguments match metadata().params in number, kind and width; pointers have
  /// the alignment the kernel assumes; grid.x * ctasPerCluster in 1..2^31-1, grid.y and grid.z
  /// in 1..65535, each a multiple of metadata().clusterDims' (each
  /// an error naming the argument otherwise; nothing is launched then).
  template <typename... Ts> Status launch(runtime::Dim3 grid, const Ts &...argsAndStream) const {
    constexpr size_t n = sizeof...(Ts);
    if constexpr (lastIsStream<Ts...>()) {
      auto all = std::forward_as_tuple(argsAndStream...);
      return launchSplit(grid, all, std::make_index_sequence<n - 1>());
    } else {
      std::array<KernelArg, n> args{KernelArg::of(argsAndStream)...};
      return launchArgs(grid, args, runtime::Stream::null());
    }
  }

  /// Launches with arguments whose types are known at run time (see launch).
  Status launchArgs(runtime::Dim3 grid, std::span<const KernelArg> args,
                    const runtime::Stream &stream) const;

  /// Checks `args` against the parameters without launching (what launch checks first).
  Status checkArgs(std::span<const KernelArg> args) const;

private:
  friend class Compiler;
  Kernel(std::shared_ptr<const runtime::Context> context, runtime::Module module,
         runtime::Function function, std::string ptx, KernelMetadata meta)
      : context_(std::move(context)), module_(std::move(module)), function_(function),
        ptx_(std::move(ptx)), meta_(std::move(meta)) {}

  template <typename... Ts> static constexpr bool lastIsStream() {
    if constexpr (sizeof...(Ts) == 0)
      return false;
    else
      return std::is_same_v<
          std::remove_cvref_t<std::tuple_element_t<sizeof...(Ts) - 1, std::tuple<Ts...>>>,
          runtime::Stream>;
  }

  template <typename Tuple, size_t... I>
  Status launchSplit(runtime::Dim3 grid, const Tuple &all, std::index_sequence<I...>) const {
    std::array<KernelArg, sizeof...(I)> args{KernelArg::of(std::get<I>(all))...};
    return launchArgs(grid, args, std::get<sizeof...(I)>(all));
  }

  // Declared first: the module is unloaded before the context is released.
  std::shared_ptr<const runtime::Context> context_;
  runtime::Module module_;
  runtime::Function function_;
  std::string ptx_;
  KernelMetadata meta_;
};

} // namespace linlayout::jit

#include "linlayout/runtime/Launch.h"

namespace linlayout::runtime {

Status launchRaw(const Function &fn, const LaunchConfig &c, const Stream &stream, void **params) {
  LL_ASSIGN_OR_RETURN(const DriverApi *api, driver());
  if (!fn.handle())
    return makeError("launch of an empty Function");
  if (c.block.x * c.block.y * c.block.z == 0 || c.grid.x * c.grid.y * c.grid.z == 0)
    return makeError("launch of '" + fn.name() + "' with an empty grid or block");
  return check(api->cuLaunchKernel(fn.handle(), c.grid.x, c.grid.y, c.grid.z, c.block.x, c.block.y,
                                   c.block.z, c.dynamicSharedBytes, stream.handle(), params,
                                   nullptr),
               "cuLaunchKernel(" + fn.name() + ")");
}

} // namespace linlayout::runtime

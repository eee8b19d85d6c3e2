#include "linlayout/runtime/Context.h"

#include <utility>

namespace linlayout::runtime {
namespace {
constexpr int kAttrMultiprocessorCount = 16;
constexpr int kAttrCcMajor = 75;
constexpr int kAttrCcMinor = 76;
} // namespace

Expected<Context> Context::create(int ordinal) {
  LL_ASSIGN_OR_RETURN(const DriverApi *api, driver());
  int count = 0;
  LL_TRY_STATUS(check(api->cuDeviceGetCount(&count), "cuDeviceGetCount"));
  if (ordinal < 0 || ordinal >= count)
    return makeError("no CUDA device " + std::to_string(ordinal) + " (the driver sees " +
                     std::to_string(count) + ")");
  Context c;
  LL_TRY_STATUS(check(api->cuDeviceGet(&c.device_, ordinal), "cuDeviceGet"));
  char name[256] = {};
  LL_TRY_STATUS(check(api->cuDeviceGetName(name, sizeof name - 1, c.device_), "cuDeviceGetName"));
  c.name_ = name;
  int major = 0, minor = 0;
  LL_TRY_STATUS(
      check(api->cuDeviceGetAttribute(&major, kAttrCcMajor, c.device_), "cuDeviceGetAttribute"));
  LL_TRY_STATUS(
      check(api->cuDeviceGetAttribute(&minor, kAttrCcMinor, c.device_), "cuDeviceGetAttribute"));
  LL_TRY_STATUS(check(api->cuDeviceGetAttribute(&c.sms_, kAttrMultiprocessorCount, c.device_),
                      "cuDeviceGetAttribute"));
  c.cc_ = major * 10 + minor;
  LL_TRY_STATUS(check(api->cuDriverGetVersion(&c.driverVersion_), "cuDriverGetVersion"));
  LL_TRY_STATUS(
      check(api->cuDevicePrimaryCtxRetain(&c.ctx_, c.device_), "cuDevicePrimaryCtxRetain"));
  LL_TRY_STATUS(c.makeCurrent());
  return c;
}

Context::Context(Context &&o) noexcept
    : ctx_(std::exchange(o.ctx_, nullptr)), device_(o.device_), name_(std::move(o.name_)),
      cc_(o.cc_), sms_(o.sms_), driverVersion_(o.driverVersion_) {}

Context &Context::operator=(Context &&o) noexcept {
  if (this != &o) {
    this->~Context();
    new (this) Context(std::move(o));
  }
  return *this;
}

Context::~Context() {
  if (ctx_)
    (*driver())->cuDevicePrimaryCtxRelease(device_);
}

Status Context::makeCurrent() const {
  return check((*driver())->cuCtxSetCurrent(ctx_), "cuCtxSetCurrent");
}

Status Context::synchronize() const {
  return check((*driver())->cuCtxSynchronize(), "cuCtxSynchronize");
}

} // namespace linlayout::runtime

// Properties of this module run 1000 cases each unless RC_PARAMS says otherwise (rapidcheck reads
// its configuration on first use, after static initialisation).
#include <cstdlib>

namespace {
const int kConfigured = [] {
  setenv("RC_PARAMS", "max_success=1000", 0);
  return 0;
}();
} // namespace

// The query ops over hardware layout specs (to_linear); filled in with the hardware layouts.
#include "query/Query.h"

namespace linlayout::query {

void addSpecOps(OpTable &) {}

} // namespace linlayout::query

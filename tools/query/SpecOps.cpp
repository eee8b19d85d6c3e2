// The query ops over hardware layout specs: to_linear.
#include "query/LayoutJson.h"
#include "query/Query.h"
#include "query/SpecJson.h"

namespace linlayout::query {
namespace {

Expected<Json> toLinear(const Json &req) {
  LL_ASSIGN_OR_RETURN(const Json *l, field(req, "layout"));
  LL_ASSIGN_OR_RETURN(LayoutSpec spec, specFromJson(*l, "layout"));
  LL_ASSIGN_OR_RETURN(const Json *s, field(req, "shape"));
  LL_ASSIGN_OR_RETURN(std::vector<int64_t> shape, toIntList(*s, "shape"));
  LL_ASSIGN_OR_RETURN(LinearLayout ll, toLinearLayout(spec, shape));
  return layoutToJson(ll);
}

} // namespace

void addSpecOps(OpTable &t) { t["to_linear"] = toLinear; }

} // namespace linlayout::query

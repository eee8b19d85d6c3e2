// The query ops over explicit linear layouts: compose, invert, pseudoinvert, invert_and_compose,
// apply, is_surjective, is_injective.
#include "query/LayoutJson.h"
#include "query/Query.h"

namespace linlayout::query {
namespace {

Expected<LinearLayout> layoutField(const Json &req, const char *key) {
  LL_ASSIGN_OR_RETURN(const Json *j, field(req, key));
  return layoutFromJson(*j, key);
}

Expected<Json> toJson(Expected<LinearLayout> l) {
  if (!l.ok())
    return l.error();
  return layoutToJson(*l);
}

Expected<Json> compose(const Json &req) {
  LL_ASSIGN_OR_RETURN(LinearLayout a, layoutField(req, "a"));
  LL_ASSIGN_OR_RETURN(LinearLayout b, layoutField(req, "b"));
  return toJson(a.then(b));
}

Expected<Json> invert(const Json &req) {
  LL_ASSIGN_OR_RETURN(LinearLayout a, layoutField(req, "a"));
  return toJson(a.invert());
}

Expected<Json> pseudoinvert(const Json &req) {
  LL_ASSIGN_OR_RETURN(LinearLayout a, layoutField(req, "a"));
  return toJson(a.pseudoInvert());
}

Expected<Json> invertAndCompose(const Json &req) {
  LL_ASSIGN_OR_RETURN(LinearLayout a, layoutField(req, "a"));
  LL_ASSIGN_OR_RETURN(LinearLayout b, layoutField(req, "b"));
  return toJson(a.invertAndCompose(b));
}

Expected<Json> apply(const Json &req) {
  LL_ASSIGN_OR_RETURN(LinearLayout a, layoutField(req, "a"));
  LL_ASSIGN_OR_RETURN(const Json *inputs, field(req, "inputs"));
  LL_ASSIGN_OR_RETURN(auto named, namedValuesFromJson(*inputs, "inputs"));
  std::vector<DimValue> values;
  for (const auto &[name, v] : named) {
    LL_ASSIGN_OR_RETURN(DimName n, dimNameFrom(name, "input dimension"));
    values.push_back({n, v});
  }
  LL_ASSIGN_OR_RETURN(DimValues out, a.apply(values));
  Json r = Json::array();
  for (const DimValue &v : out)
    r.push_back(Json::array({std::string(v.name.str()), v.value}));
  return r;
}

Expected<Json> isSurjective(const Json &req) {
  LL_ASSIGN_OR_RETURN(LinearLayout a, layoutField(req, "a"));
  return Json(a.isSurjective());
}

Expected<Json> isInjective(const Json &req) {
  LL_ASSIGN_OR_RETURN(LinearLayout a, layoutField(req, "a"));
  return Json(a.isInjective());
}

} // namespace

void addAlgebraOps(OpTable &t) {
  t["compose"] = compose;
  t["invert"] = invert;
  t["pseudoinvert"] = pseudoinvert;
  t["invert_and_compose"] = invertAndCompose;
  t["apply"] = apply;
  t["is_surjective"] = isSurjective;
  t["is_injective"] = isInjective;
}

} // namespace linlayout::query

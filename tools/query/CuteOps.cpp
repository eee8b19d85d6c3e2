// The query ops between CuTe's shape:stride notation and linear layouts:
// from_cute and to_cute (layout/include/linlayout/layout/CuteLayout.h says what
// a CuTe layout maps).
#include "linlayout/layout/CuteLayout.h"
#include "query/LayoutJson.h"
#include "query/Query.h"

namespace linlayout::query {
namespace {

// "map" (coordinate -> offset, CuTe's own direction) or "shared" (offset ->
// coordinates).
Expected<bool> sharedForm(const Json &req) {
  if (!hasField(req, "form"))
    return false;
  LL_ASSIGN_OR_RETURN(const Json *f, field(req, "form"));
  LL_ASSIGN_OR_RETURN(std::string form, toString(*f, "form"));
  if (form != "map" && form != "shared")
    return makeError("form is '" + form + "', expected 'map' or 'shared'");
  return form == "shared";
}

Expected<Json> fromCute(const Json &req) {
  LL_ASSIGN_OR_RETURN(const Json *j, field(req, "layout"));
  LL_ASSIGN_OR_RETURN(std::string text, toString(*j, "layout"));
  LL_ASSIGN_OR_RETURN(CuteLayout cute, parseCuteLayout(text));
  LL_ASSIGN_OR_RETURN(bool shared, sharedForm(req));
  if (shared) {
    if (hasField(req, "in_dims") || hasField(req, "out_dim"))
      return makeError("in_dims and out_dim name the map form; the shared form "
                       "is always offset "
                       "-> dim0, dim1, ...");
    LL_ASSIGN_OR_RETURN(LinearLayout l, cuteToShared(cute));
    return layoutToJson(l);
  }
  CuteReadOptions o;
  if (hasField(req, "in_dims")) {
    const Json &names = req["in_dims"];
    if (!names.is_array())
      return makeError("in_dims is " + brief(names) + ", expected an array of names");
    for (size_t i = 0; i < names.size(); ++i) {
      std::string what = "in_dims[" + std::to_string(i) + "]";
      LL_ASSIGN_OR_RETURN(std::string s, toString(names[i], what));
      LL_ASSIGN_OR_RETURN(DimName n, dimNameFrom(s, what));
      o.inDims.push_back(n);
    }
  }
  if (hasField(req, "out_dim")) {
    LL_ASSIGN_OR_RETURN(std::string s, toString(req["out_dim"], "out_dim"));
    LL_ASSIGN_OR_RETURN(o.outDim, dimNameFrom(s, "out_dim"));
  }
  LL_ASSIGN_OR_RETURN(LinearLayout l, cuteToLinear(cute, o));
  return layoutToJson(l);
}

Expected<Json> toCute(const Json &req) {
  LL_ASSIGN_OR_RETURN(const Json *j, field(req, "a"));
  LL_ASSIGN_OR_RETURN(LinearLayout a, layoutFromJson(*j, "a"));
  LL_ASSIGN_OR_RETURN(bool shared, sharedForm(req));
  LL_ASSIGN_OR_RETURN(CuteLayout cute, shared ? sharedToCute(a) : linearToCute(a));
  return Json(cute.toString());
}

} // namespace

void addCuteOps(OpTable &t) {
  t["from_cute"] = fromCute;
  t["to_cute"] = toCute;
}

} // namespace linlayout::query

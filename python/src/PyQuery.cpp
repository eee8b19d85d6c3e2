// The query engine (tools/query) under Python: layout specs, to_linear, bank conflicts, plans
// and pictures answer exactly what `linlayout query` and `linlayout plan --json` answer, since
// they run the same handlers. JSON crosses as text; the Python side turns it into objects.
#include "PyCommon.h"

#include "linlayout/layout/OwnerMap.h"
#include "linlayout/layout/Picture.h"
#include "query/LayoutArg.h"
#include "query/LayoutJson.h"
#include "query/Query.h"
#include "query/SpecJson.h"

#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

namespace py = pybind11;

namespace linlayout::python {
namespace {

using query::Json;

Json parse(const std::string &text, const char *what) {
  return unwrap(query::parseJson(text, what));
}

// One query op on a request given as JSON text; the result as JSON text.
std::string runOp(const std::string &op, const std::string &request) {
  auto handler = query::ops().find(op);
  if (handler == query::ops().end())
    throw py::value_error("unknown query op '" + op.substr(0, 40) + "'");
  Json req = parse(request, "request");
  if (!req.is_object())
    throw py::value_error("a query request is a JSON object");
  return unwrap(handler->second(req)).dump();
}

// A layout given as a person gives it to the CLI: attribute text, a tensor type, or JSON (a
// spec or a linear layout). Answers the linear layout and, for a spec, the spec's JSON.
std::pair<LinearLayout, std::optional<std::string>>
layoutArg(const std::string &text, const std::optional<std::vector<int64_t>> &shape) {
  query::LayoutArg arg = unwrap(query::layoutFromArg(text, shape));
  std::optional<std::string> spec;
  if (arg.spec)
    spec = query::specToJson(*arg.spec).dump();
  return {arg.layout, spec};
}

// A spec (JSON text of an object or of an attribute string) in its normal JSON form.
std::string normalSpec(const std::string &text) {
  Json j = parse(text, "layout");
  return query::specToJson(unwrap(query::specFromJson(j, "layout"))).dump();
}

LinearLayout layoutFromJson(const std::string &text) {
  return unwrap(query::layoutFromJson(parse(text, "layout"), "layout"));
}

} // namespace

void addQuery(py::module_ &m) {
  m.def("_query", &runOp, py::arg("op"), py::arg("request"));
  m.def("_query_ops", [] {
    std::vector<std::string> names;
    for (const auto &[name, _] : query::ops())
      names.push_back(name);
    return names;
  });
  m.def("_layout_arg", &layoutArg, py::arg("text"), py::arg("shape") = py::none());
  m.def("_normal_spec", &normalSpec, py::arg("text"));
  m.def("_layout_from_json", &layoutFromJson, py::arg("text"));
  m.def("_layout_to_json", [](const LinearLayout &l) { return query::layoutToJson(l).dump(); });
  m.def("_svg", &svgOf, py::arg("layout"), py::arg("bitwidth") = 16, py::arg("title") = "",
        py::arg("max_rows") = 32, py::arg("max_cols") = 32);
}

} // namespace linlayout::python

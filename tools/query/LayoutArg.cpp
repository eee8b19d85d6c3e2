#include "query/LayoutArg.h"

#include "linlayout/layout/CuteLayout.h"
#include "query/LayoutJson.h"
#include "query/SpecJson.h"

namespace linlayout::query {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() &&
         (s.front() == ' ' || s.front() == '\n' || s.front() == '\t' || s.front() == '\r'))
    s.remove_prefix(1);
  while (!s.empty() &&
         (s.back() == ' ' || s.back() == '\n' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

std::string shapeText(const std::vector<int64_t> &shape) {
  std::string t;
  for (size_t i = 0; i < shape.size(); ++i)
    t += (i ? "x" : "") + std::to_string(shape[i]);
  return t;
}

// A linear layout given directly must have the shape given, if any.
Expected<LayoutArg> checkedShape(const LinearLayout &l,
                                 const std::optional<std::vector<int64_t>> &shape,
                                 const char *what) {
  if (shape) {
    std::vector<int64_t> sizes;
    for (const DimSize &d : l.outDims())
      sizes.push_back(int64_t(d.size));
    if (sizes != *shape)
      return makeError(std::string(what) + "'s out dims have sizes " + shapeText(sizes) +
                       ", not the shape given, " + shapeText(*shape));
  }
  return LayoutArg{l, std::nullopt};
}

Expected<LayoutArg> fromSpec(const LayoutSpec &spec,
                             const std::optional<std::vector<int64_t>> &shape) {
  if (!shape)
    return makeError("a layout spec needs a tensor shape (e.g. --shape 16x16)");
  LL_ASSIGN_OR_RETURN(LinearLayout l, toLinearLayout(spec, *shape));
  return LayoutArg{l, spec};
}

} // namespace

Expected<TensorTypeText> splitTensorType(std::string_view t) {
  t = trim(t);
  if (t.substr(0, 7) != "tensor<")
    return makeError("'" + std::string(t.substr(0, 60)) + "' is not a tensor type");
  std::string_view body = t.substr(7);
  if (body.empty() || body.back() != '>')
    return makeError("tensor type '" + std::string(t.substr(0, 60)) + "' does not end with '>'");
  body.remove_suffix(1);
  size_t comma = body.find(',');
  if (comma == std::string_view::npos)
    return makeError("tensor type has no layout (expected tensor<16x16xf32, #layout>)");
  std::string_view dims = body.substr(0, comma);
  TensorTypeText r;
  while (!dims.empty() && dims.front() >= '0' && dims.front() <= '9') {
    int64_t v = 0;
    while (!dims.empty() && dims.front() >= '0' && dims.front() <= '9') {
      if (v > (int64_t(1) << 40))
        return makeError("tensor dimension too large");
      v = v * 10 + (dims.front() - '0');
      dims.remove_prefix(1);
    }
    r.shape.push_back(v);
    if (dims.empty() || dims.front() != 'x')
      return makeError("tensor type dimensions must be followed by 'x' and the element type");
    dims.remove_prefix(1);
  }
  r.element = trim(dims);
  r.layout = trim(body.substr(comma + 1));
  return r;
}

Expected<LayoutArg> layoutFromArg(std::string_view text,
                                  const std::optional<std::vector<int64_t>> &shape,
                                  const AttrAliases &aliases) {
  text = trim(text);
  if (text.substr(0, 7) == "tensor<") {
    LL_ASSIGN_OR_RETURN(TensorTypeText typed, splitTensorType(text));
    if (shape && *shape != typed.shape)
      return makeError("the tensor type's shape " + shapeText(typed.shape) +
                       " differs from the shape given, " + shapeText(*shape));
    AttrParseOptions o;
    o.rank = int(typed.shape.size());
    LL_ASSIGN_OR_RETURN(LayoutSpec spec, parseLayoutAttr(typed.layout, aliases, o));
    return fromSpec(spec, typed.shape);
  }
  if (!text.empty() && text.front() == '#') {
    AttrParseOptions o;
    if (shape)
      o.rank = int(shape->size());
    LL_ASSIGN_OR_RETURN(LayoutSpec spec, parseLayoutAttr(text, aliases, o));
    return fromSpec(spec, shape);
  }
  if (text.substr(0, 5) == "cute:") {
    // A CuTe layout maps coordinates to offsets; drawn as a shared layout, offset -> dims.
    LL_ASSIGN_OR_RETURN(CuteLayout cute, parseCuteLayout(text.substr(5)));
    LL_ASSIGN_OR_RETURN(LinearLayout l, cuteToShared(cute));
    return checkedShape(l, shape, "the cute layout");
  }
  if (text.empty() || (text.front() != '{' && text.front() != '"'))
    return makeError("expected a layout: JSON ({...}), attribute syntax (#ttg....), a tensor "
                     "type (tensor<...>) or cute:SHAPE:STRIDE");
  LL_ASSIGN_OR_RETURN(Json j, parseJson(text, "the layout"));
  if (j.is_string()) {
    std::string s = j.get<std::string>();
    return layoutFromArg(s, shape, aliases);
  }
  if (j.is_object() && j.contains("in_dims")) {
    LL_ASSIGN_OR_RETURN(LinearLayout l, layoutFromJson(j, "layout"));
    return checkedShape(l, shape, "the linear layout");
  }
  LL_ASSIGN_OR_RETURN(LayoutSpec spec, specFromJson(j, "layout"));
  return fromSpec(spec, shape);
}

} // namespace linlayout::query

#include "query/LayoutJson.h"

namespace linlayout::query {

Expected<DimName> dimNameFrom(const std::string &text, const std::string &what) {
  std::optional<DimName> n = DimName::tryGet(text);
  if (!n)
    return makeError(what + " '" + text.substr(0, 40) + "' is not a usable dimension name " +
                     "(empty, longer than " + std::to_string(DimName::kMaxLength) +
                     " characters, or too many distinct names)");
  return *n;
}

namespace {

// [name, payload] pairs.
Expected<std::pair<DimName, const Json *>> namedPair(const Json &j, const std::string &what) {
  if (!j.is_array() || j.size() != 2)
    return makeError(what + " is " + brief(j) + ", expected [name, value]");
  LL_ASSIGN_OR_RETURN(std::string name, toString(j[0], what + " name"));
  LL_ASSIGN_OR_RETURN(DimName n, dimNameFrom(name, what + " name"));
  return std::make_pair(n, &j[1]);
}

} // namespace

Expected<LinearLayout> layoutFromJson(const Json &j, const std::string &what) {
  if (j.is_string())
    return makeError(what +
                     " is a string; a linear layout is {\"in_dims\": ..., \"out_dims\": ...}");
  LL_ASSIGN_OR_RETURN(const Json *ins, field(j, "in_dims"));
  LL_ASSIGN_OR_RETURN(const Json *outs, field(j, "out_dims"));
  if (!ins->is_array())
    return makeError(what + ".in_dims is " + brief(*ins) + ", expected an array");
  if (!outs->is_array())
    return makeError(what + ".out_dims is " + brief(*outs) + ", expected an array");
  if (ins->size() > size_t(LinearLayout::kMaxDims) || outs->size() > size_t(LinearLayout::kMaxDims))
    return makeError(what + " has more than " + std::to_string(LinearLayout::kMaxDims) +
                     " in or out dimensions");
  std::vector<DimSize> outDims;
  for (size_t i = 0; i < outs->size(); ++i) {
    std::string w = what + ".out_dims[" + std::to_string(i) + "]";
    LL_ASSIGN_OR_RETURN(auto p, namedPair((*outs)[i], w));
    LL_ASSIGN_OR_RETURN(uint64_t size, toUInt(*p.second, w + " size"));
    outDims.push_back({p.first, size});
  }
  std::vector<InDimBases> inDims;
  for (size_t i = 0; i < ins->size(); ++i) {
    std::string w = what + ".in_dims[" + std::to_string(i) + "]";
    LL_ASSIGN_OR_RETURN(auto p, namedPair((*ins)[i], w));
    const Json &bs = *p.second;
    if (!bs.is_array())
      return makeError(w + " bases are " + brief(bs) + ", expected an array of bases");
    if (bs.size() > size_t(LinearLayout::kMaxBits))
      return makeError(w + " has " + std::to_string(bs.size()) + " bases, more than " +
                       std::to_string(LinearLayout::kMaxBits) + " bits");
    InDimBases in{p.first, {}};
    for (size_t k = 0; k < bs.size(); ++k) {
      LL_ASSIGN_OR_RETURN(auto b, toUIntList(bs[k], w + " basis " + std::to_string(k)));
      in.bases.push_back(std::move(b));
    }
    inDims.push_back(std::move(in));
  }
  auto l = LinearLayout::fromBases(inDims, outDims);
  if (!l.ok())
    return makeError(what + ": " + l.message());
  return l;
}

Json layoutToJson(const LinearLayout &l) {
  Json ins = Json::array();
  for (const InDimBases &b : l.bases()) {
    Json bases = Json::array();
    for (const auto &v : b.bases)
      bases.push_back(v);
    ins.push_back(Json::array({std::string(b.name.str()), std::move(bases)}));
  }
  Json outs = Json::array();
  for (const DimSize &d : l.outDims())
    outs.push_back(Json::array({std::string(d.name.str()), d.size}));
  return Json{{"in_dims", std::move(ins)}, {"out_dims", std::move(outs)}};
}

Expected<std::vector<std::pair<std::string, uint64_t>>>
namedValuesFromJson(const Json &j, const std::string &what) {
  if (!j.is_array())
    return makeError(what + " is " + brief(j) + ", expected [[name, value], ...]");
  std::vector<std::pair<std::string, uint64_t>> r;
  for (size_t i = 0; i < j.size(); ++i) {
    std::string w = what + "[" + std::to_string(i) + "]";
    const Json &p = j[i];
    if (!p.is_array() || p.size() != 2)
      return makeError(w + " is " + brief(p) + ", expected [name, value]");
    LL_ASSIGN_OR_RETURN(std::string name, toString(p[0], w + " name"));
    LL_ASSIGN_OR_RETURN(uint64_t v, toUInt(p[1], w + " value"));
    r.emplace_back(std::move(name), v);
  }
  return r;
}

} // namespace linlayout::query

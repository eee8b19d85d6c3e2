// The query op over pictures: `picture`, the text that `linlayout show` prints, as JSON.
#include "linlayout/layout/OwnerMap.h"
#include "linlayout/layout/Picture.h"
#include "query/LayoutJson.h"
#include "query/Query.h"
#include "query/SpecJson.h"

#include <algorithm>
#include <array>

namespace linlayout::query {
namespace {

Expected<int64_t> positive(const Json &req, const char *key, int64_t dflt) {
  if (!hasField(req, key))
    return dflt; // a default of 0 is filled in later
  LL_ASSIGN_OR_RETURN(uint64_t v, toUInt(req[key], key));
  if (v < 1 || v > (uint64_t(1) << 20))
    return makeError(std::string(key) + " is " + std::to_string(v) + ", expected 1 to 2^20");
  return int64_t(v);
}

Expected<Json> picture(const Json &req) {
  LL_ASSIGN_OR_RETURN(const Json *l, field(req, "layout"));
  LinearLayout layout;
  int bitwidth = 16;
  std::vector<std::array<int64_t, 2>> padding; // a padded layout's: banks of its addresses
  if (l->is_object() && l->contains("in_dims")) {
    LL_ASSIGN_OR_RETURN(layout, layoutFromJson(*l, "layout"));
  } else {
    LL_ASSIGN_OR_RETURN(LayoutSpec spec, specFromJson(*l, "layout"));
    LL_ASSIGN_OR_RETURN(const Json *s, field(req, "shape"));
    LL_ASSIGN_OR_RETURN(std::vector<int64_t> shape, toIntList(*s, "shape"));
    LL_ASSIGN_OR_RETURN(layout, toLinearLayout(spec, shape));
    for (const PadInterval &p : sharedPadding(spec))
      padding.push_back({p.interval, p.padding});
    if (const auto *nv = spec.as<NvmmaSharedSpec>())
      bitwidth = nv->elementBitwidth();
  }
  PictureOptions o;
  o.padding = padding;
  if (hasField(req, "style")) {
    LL_ASSIGN_OR_RETURN(std::string style, toString(req["style"], "style"));
    if (style != "owners" && style != "threads")
      return makeError("style is '" + style.substr(0, 40) + "', expected 'owners' or 'threads'");
    o.style = style == "threads" ? CellStyle::ThreadIds : CellStyle::Owners;
  }
  LL_ASSIGN_OR_RETURN(o.maxRows, positive(req, "max_rows", 32));
  LL_ASSIGN_OR_RETURN(o.maxCols, positive(req, "max_cols", 0));
  if (hasField(req, "bitwidth")) {
    LL_ASSIGN_OR_RETURN(uint64_t bw, toUInt(req["bitwidth"], "bitwidth"));
    if (bw != 8 && bw != 16 && bw != 32 && bw != 64)
      return makeError("bitwidth is " + std::to_string(bw) + ", expected 8, 16, 32 or 64");
    bitwidth = int(bw);
  }
  bool inverse = false;
  if (hasField(req, "inverse")) {
    LL_ASSIGN_OR_RETURN(inverse, toBool(req["inverse"], "inverse"));
  }
  LL_ASSIGN_OR_RETURN(OwnerMap map, OwnerMap::build(layout));
  if (!hasField(req, "max_cols")) // as many columns as fit in 130 characters, as `show` does
    o.maxCols = columnsThatFit(map, o.style, 130);
  o.rowHead = std::max<int64_t>(1, o.maxRows / 2);
  o.rowTail = std::max<int64_t>(1, o.maxRows / 4);
  o.colHead = std::max<int64_t>(1, o.maxCols / 2);
  o.colTail = std::max<int64_t>(1, o.maxCols / 4);
  Json out = Json::object();
  out["text"] = renderTensorMap(map, o);
  if (map.isShared()) {
    if (!o.padding.empty()) {
      LL_ASSIGN_OR_RETURN(std::string addresses, renderAddresses(map, o));
      out["addresses"] = addresses;
    }
    LL_ASSIGN_OR_RETURN(std::string banks, renderBanks(map, bitwidth, o));
    out["banks"] = banks;
  }
  if (inverse) {
    LL_ASSIGN_OR_RETURN(std::string inv, renderInverse(map, o, bitwidth));
    out["inverse"] = inv;
  }
  return out;
}

} // namespace

void addPictureOps(OpTable &t) { t["picture"] = picture; }

} // namespace linlayout::query

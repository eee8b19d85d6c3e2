// The query ops over hardware layout specs: to_linear, and tmem_reg_layout (the register layout
// of tcgen05.ld/st messages over a tensor-memory layout, Gluon's get_tmem_reg_layout).
#include "query/LayoutJson.h"
#include "query/Query.h"
#include "query/SpecJson.h"

#include "linlayout/layout/AttrSyntax.h"
#include "linlayout/layout/TmemMessage.h"

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

// {"layout": tensor-memory spec, "shape", "num_warps", "instr_variant" ("32x32b"),
//  "element_bitwidth" (32), "cga_layout" ([])}: Gluon's get_tmem_reg_layout arguments.
Expected<Json> tmemRegLayout(const Json &req) {
  LL_ASSIGN_OR_RETURN(const Json *l, field(req, "layout"));
  LL_ASSIGN_OR_RETURN(LayoutSpec spec, specFromJson(*l, "layout"));
  LL_ASSIGN_OR_RETURN(const Json *s, field(req, "shape"));
  LL_ASSIGN_OR_RETURN(std::vector<int64_t> shape, toIntList(*s, "shape"));
  LL_ASSIGN_OR_RETURN(const Json *w, field(req, "num_warps"));
  LL_ASSIGN_OR_RETURN(int64_t warps, toInt(*w, "num_warps"));
  std::string variant = "32x32b";
  if (auto it = req.find("instr_variant"); it != req.end()) {
    LL_ASSIGN_OR_RETURN(variant, toString(*it, "instr_variant"));
  }
  int64_t bits = 32;
  if (auto it = req.find("element_bitwidth"); it != req.end()) {
    LL_ASSIGN_OR_RETURN(bits, toInt(*it, "element_bitwidth"));
  }
  std::vector<std::vector<int64_t>> cgaBases;
  if (auto it = req.find("cga_layout"); it != req.end() && !it->is_null()) {
    LL_ASSIGN_OR_RETURN(cgaBases, toIntMatrix(*it, "cga_layout"));
  }
  auto cga = CgaLayout::fromBases(std::move(cgaBases), 2);
  if (!cga.ok())
    return makeError("cga_layout: " + cga.message());
  LL_ASSIGN_OR_RETURN(TmemAtom atom, tmemAtomFromName(variant));
  if (bits < 1 || bits > 64)
    return makeError("element_bitwidth is " + std::to_string(bits) + ", expected 8, 16 or 32");
  LL_ASSIGN_OR_RETURN(auto ll, tmemMessageLayout(spec, shape, warps, atom, int(bits), *cga));
  if (!ll)
    return makeError("no " + variant + " message layout for " + printLayoutAttr(spec) + " over " +
                     s->dump() + " with " + std::to_string(warps) +
                     " warps (the message is wider than the layout's columns, or its lanes "
                     "would hold an element twice)");
  return layoutToJson(*ll);
}

} // namespace

void addSpecOps(OpTable &t) {
  t["to_linear"] = toLinear;
  t["tmem_reg_layout"] = tmemRegLayout;
}

} // namespace linlayout::query

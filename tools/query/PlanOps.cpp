// The query ops over layout conversions: bank_conflicts and plan.
#include "linlayout/layout/BankConflicts.h"
#include "linlayout/layout/PlanConversion.h"
#include "query/LayoutJson.h"
#include "query/PlanJson.h"
#include "query/Query.h"
#include "query/SpecJson.h"

namespace linlayout::query {
namespace {

// A spec field over the request's shape, with the family checked.
Expected<LayoutSpec> specOf(const Json &req, const char *key, bool distributed) {
  LL_ASSIGN_OR_RETURN(const Json *j, field(req, key));
  LL_ASSIGN_OR_RETURN(LayoutSpec spec, specFromJson(*j, key));
  if (distributed ? !spec.isDistributed() : !spec.isShared())
    return makeError(std::string("field '") + key + "' is a " + std::string(kindName(spec.kind())) +
                     " layout, expected a " +
                     (distributed ? "distributed (register)" : "shared-memory") + " layout");
  return spec;
}

Expected<LinearLayout> specField(const Json &req, const char *key, std::span<const int64_t> shape,
                                 bool distributed) {
  LL_ASSIGN_OR_RETURN(LayoutSpec spec, specOf(req, key, distributed));
  return toLinearLayout(spec, shape);
}

Expected<int> bitwidthField(const Json &req) {
  LL_ASSIGN_OR_RETURN(const Json *b, field(req, "bitwidth"));
  LL_ASSIGN_OR_RETURN(uint64_t bits, toUInt(*b, "bitwidth"));
  if (bits < 1 || bits > 128 || (bits & (bits - 1)) != 0)
    return makeError("bitwidth " + std::to_string(bits) +
                     " is not a power of two between 1 and 128");
  return int(bits);
}

Expected<Json> bankConflictsOp(const Json &req) {
  LL_ASSIGN_OR_RETURN(const Json *s, field(req, "shape"));
  LL_ASSIGN_OR_RETURN(std::vector<int64_t> shape, toIntList(*s, "shape"));
  LL_ASSIGN_OR_RETURN(LinearLayout reg, specField(req, "reg", shape, true));
  LL_ASSIGN_OR_RETURN(LayoutSpec sharedSpec, specOf(req, "shared", false));
  LL_ASSIGN_OR_RETURN(LinearLayout shared, toLinearLayout(sharedSpec, shape));
  LL_ASSIGN_OR_RETURN(int bits, bitwidthField(req));
  int banks = 32;
  if (hasField(req, "banks")) {
    LL_ASSIGN_OR_RETURN(const Json *b, field(req, "banks"));
    LL_ASSIGN_OR_RETURN(uint64_t n, toUInt(*b, "banks"));
    if (n != 32 && n != 64)
      return makeError("banks is " + std::to_string(n) + ", expected 32 or 64 (gfx950's LDS)");
    banks = int(n);
  }
  // A padded layout's addresses are its offsets with padding (sharedPadding is empty for the
  // others).
  LL_ASSIGN_OR_RETURN(int conflicts,
                      bankConflicts(reg, shared, bits, banks, sharedPadding(sharedSpec)));
  return Json(conflicts);
}

Expected<Json> planOp(const Json &req) {
  LL_ASSIGN_OR_RETURN(const Json *s, field(req, "shape"));
  LL_ASSIGN_OR_RETURN(std::vector<int64_t> shape, toIntList(*s, "shape"));
  LL_ASSIGN_OR_RETURN(LinearLayout src, specField(req, "src", shape, true));
  LL_ASSIGN_OR_RETURN(LayoutSpec dstSpec, specOf(req, "dst", true));
  LL_ASSIGN_OR_RETURN(LinearLayout dst, toLinearLayout(dstSpec, shape));
  LL_ASSIGN_OR_RETURN(int bits, bitwidthField(req));
  PlanOptions opt;
  opt.dstIsMmaOperand = isMmaOperand(dstSpec);
  if (hasField(req, "target")) {
    LL_ASSIGN_OR_RETURN(const Json *t, field(req, "target"));
    LL_ASSIGN_OR_RETURN(std::string name, toString(*t, "target"));
    auto target = parseGpuTarget(name);
    if (!target)
      return makeError("target '" + name.substr(0, 40) + "' is not one of sm_80, sm_90");
    opt.target = *target;
  }
  if (hasField(req, "path")) {
    LL_ASSIGN_OR_RETURN(const Json *t, field(req, "path"));
    LL_ASSIGN_OR_RETURN(std::string name, toString(*t, "path"));
    opt.forcePath = parseConversionPath(name);
    if (!opt.forcePath)
      return makeError("path '" + name.substr(0, 40) +
                       "' is not one of no-op, register-permute, warp-shuffle, shared-memory, "
                       "distributed-shared-memory");
  }
  if (hasField(req, "allow_padding")) {
    LL_ASSIGN_OR_RETURN(const Json *d, field(req, "allow_padding"));
    LL_ASSIGN_OR_RETURN(bool allow, toBool(*d, "allow_padding"));
    opt.padding = allow ? ScratchPadding::WhereCheaper : ScratchPadding::Never;
  }
  bool detail = false;
  if (hasField(req, "detail")) {
    LL_ASSIGN_OR_RETURN(const Json *d, field(req, "detail"));
    LL_ASSIGN_OR_RETURN(detail, toBool(*d, "detail"));
  }
  LL_ASSIGN_OR_RETURN(ConversionPlan plan, planConversion(src, dst, bits, opt));
  return planToJson(plan, detail);
}

} // namespace

void addPlanOps(OpTable &t) {
  t["bank_conflicts"] = bankConflictsOp;
  t["plan"] = planOp;
}

} // namespace linlayout::query

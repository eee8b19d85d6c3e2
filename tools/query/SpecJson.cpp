#include "query/SpecJson.h"

#include <optional>
#include <set>
#include <type_traits>
#include <utility>
#include <variant>

namespace linlayout::query {
namespace {

// The fields of one spec object: each read marks its key as known, so that a misspelled or
// unsupported field is reported instead of silently ignored.
class Fields {
public:
  Fields(const Json &obj, std::string what) : obj_(obj), what_(std::move(what)) {}

  Expected<const Json *> required(const char *key) {
    known_.insert(key);
    auto it = obj_.find(key);
    if (it == obj_.end())
      return makeError(what_ + ": missing field '" + key + "'");
    return &*it;
  }
  const Json *optional(const char *key) {
    known_.insert(key);
    auto it = obj_.find(key);
    return it == obj_.end() ? nullptr : &*it;
  }
  std::string name(const char *key) const { return what_ + "." + key; }

  Status noOthers() const {
    for (auto it = obj_.begin(); it != obj_.end(); ++it)
      if (!known_.count(it.key())) {
        std::string list;
        for (const auto &k : known_)
          list += (list.empty() ? "" : ", ") + k;
        return makeError(what_ + ": unknown field '" + it.key().substr(0, 40) +
                         "' (known: " + list + ")");
      }
    return Status::success();
  }

  Expected<int64_t> integer(const char *key) {
    LL_ASSIGN_OR_RETURN(const Json *j, required(key));
    return toInt(*j, name(key));
  }
  Expected<std::vector<int64_t>> list(const char *key) {
    LL_ASSIGN_OR_RETURN(const Json *j, required(key));
    return toIntList(*j, name(key));
  }
  Expected<BasisList> matrix(const char *key, bool isOptional = false) {
    const Json *j = optional(key);
    if (!j) {
      if (isOptional)
        return BasisList{};
      return makeError(what_ + ": missing field '" + key + "'");
    }
    return toIntMatrix(*j, name(key));
  }
  Expected<bool> flag(const char *key, bool dflt) {
    const Json *j = optional(key);
    if (!j)
      return dflt;
    return toBool(*j, name(key));
  }

  const std::string &what() const { return what_; }

private:
  const Json &obj_;
  std::string what_;
  std::set<std::string> known_;
};

// Prefixes a family error with where the spec sits in the request.
template <typename T> Expected<T> located(Expected<T> r, const std::string &what) {
  if (!r.ok())
    return makeError(what + ": " + r.message());
  return r;
}

template <typename T> Expected<LayoutSpec> asSpec(Expected<T> r, const std::string &what) {
  if (!r.ok())
    return makeError(what + ": " + r.message());
  return LayoutSpec(std::move(r).value());
}

// The optional CTA split: `cga_layout` bases or the older three lists.
Expected<std::optional<CgaLayout>> cgaFrom(Fields &f, int rank) {
  const Json *bases = f.optional("cga_layout");
  const Json *ctas = f.optional("ctas_per_cga");
  const Json *split = f.optional("cta_split_num");
  const Json *order = f.optional("cta_order");
  bool legacy = ctas || split || order;
  if (bases && legacy)
    return makeError(f.what() + ": give the CTA split either as cga_layout or as ctas_per_cga, "
                                "cta_split_num, cta_order, not both");
  if (bases) {
    LL_ASSIGN_OR_RETURN(BasisList b, toIntMatrix(*bases, f.name("cga_layout")));
    LL_ASSIGN_OR_RETURN(CgaLayout c, located(CgaLayout::fromBases(std::move(b), rank), f.what()));
    return std::optional<CgaLayout>(std::move(c));
  }
  if (!legacy)
    return std::optional<CgaLayout>();
  LL_ASSIGN_OR_RETURN(auto c, f.list("ctas_per_cga"));
  LL_ASSIGN_OR_RETURN(auto s, f.list("cta_split_num"));
  LL_ASSIGN_OR_RETURN(auto o, f.list("cta_order"));
  LL_ASSIGN_OR_RETURN(CgaLayout cga, located(CgaLayout::fromSplit(c, s, o), f.what()));
  if (cga.rank() != rank)
    return makeError(f.what() + ": cta_order has " + std::to_string(cga.rank()) +
                     " entries, expected the rank " + std::to_string(rank));
  return std::optional<CgaLayout>(std::move(cga));
}

// Parents nest at most this deep (a slice of a slice ... is bounded by the rank anyway).
constexpr int kMaxNesting = 16;

Expected<LayoutSpec> specAt(const Json &j, const std::string &what, int depth);

Json matrixJson(const BasisList &m) {
  Json r = Json::array();
  for (const auto &row : m)
    r.push_back(row);
  return r;
}

void putCga(Json &j, const CgaLayout &cga) {
  if (!cga.isSingle())
    j["cga_layout"] = matrixJson(cga.bases());
}

// The JSON form of each family, with Gluon's field names: read (every field checked, parents at
// depth + 1) and write. One specialization per member of LayoutSpec::Variant: a family without
// one does not compile.
template <typename T> struct JsonForm;

template <> struct JsonForm<BlockedSpec> {
  static Expected<LayoutSpec> read(Fields &f, int) {
    LL_ASSIGN_OR_RETURN(auto spt, f.list("size_per_thread"));
    LL_ASSIGN_OR_RETURN(auto tpw, f.list("threads_per_warp"));
    LL_ASSIGN_OR_RETURN(auto wpc, f.list("warps_per_cta"));
    LL_ASSIGN_OR_RETURN(auto order, f.list("order"));
    LL_ASSIGN_OR_RETURN(auto cga, cgaFrom(f, int(order.size())));
    LL_TRY_STATUS(f.noOthers());
    return asSpec(BlockedSpec::make(std::move(spt), std::move(tpw), std::move(wpc),
                                    std::move(order), std::move(cga)),
                  f.what());
  }
  static void write(Json &j, const BlockedSpec &s) {
    j["size_per_thread"] = s.sizePerThread();
    j["threads_per_warp"] = s.threadsPerWarp();
    j["warps_per_cta"] = s.warpsPerCta();
    j["order"] = s.order();
    putCga(j, s.cga());
  }
};

template <> struct JsonForm<SliceSpec> {
  static Expected<LayoutSpec> read(Fields &f, int depth) {
    LL_ASSIGN_OR_RETURN(int64_t dim, f.integer("dim"));
    LL_ASSIGN_OR_RETURN(const Json *p, f.required("parent"));
    LL_ASSIGN_OR_RETURN(LayoutSpec parent, specAt(*p, f.name("parent"), depth + 1));
    LL_TRY_STATUS(f.noOthers());
    return asSpec(SliceSpec::make(dim, parent), f.what());
  }
  static void write(Json &j, const SliceSpec &s) {
    j["dim"] = s.dim();
    j["parent"] = specToJson(s.parent());
  }
};

template <> struct JsonForm<NvidiaMmaSpec> {
  static Expected<LayoutSpec> read(Fields &f, int) {
    LL_ASSIGN_OR_RETURN(auto version, f.list("version"));
    if (version.size() != 2)
      return makeError(f.name("version") + " has " + std::to_string(version.size()) +
                       " entries, expected [major, minor]");
    LL_ASSIGN_OR_RETURN(auto wpc, f.list("warps_per_cta"));
    LL_ASSIGN_OR_RETURN(auto instr, f.list("instr_shape"));
    LL_ASSIGN_OR_RETURN(auto cga, cgaFrom(f, int(wpc.size())));
    LL_TRY_STATUS(f.noOthers());
    for (int64_t v : version)
      if (v < 0 || v > 1000)
        return makeError(f.name("version") + " has entry " + std::to_string(v) +
                         ", expected [2, 0] or [3, 0]");
    return asSpec(NvidiaMmaSpec::make(int(version[0]), int(version[1]), std::move(wpc),
                                      std::move(instr), std::move(cga)),
                  f.what());
  }
  static void write(Json &j, const NvidiaMmaSpec &s) {
    j["version"] = Json::array({s.versionMajor(), s.versionMinor()});
    j["warps_per_cta"] = s.warpsPerCta();
    j["instr_shape"] = s.instrShape();
    putCga(j, s.cga());
  }
};

template <> struct JsonForm<DotOperandSpec> {
  static Expected<LayoutSpec> read(Fields &f, int depth) {
    LL_ASSIGN_OR_RETURN(int64_t idx, f.integer("operand_index"));
    LL_ASSIGN_OR_RETURN(const Json *p, f.required("parent"));
    LL_ASSIGN_OR_RETURN(LayoutSpec parent, specAt(*p, f.name("parent"), depth + 1));
    int64_t kWidth = 0;
    if (const Json *k = f.optional("k_width")) {
      LL_ASSIGN_OR_RETURN(kWidth, toInt(*k, f.name("k_width")));
    } else if (parent.kind() != LayoutKind::Blocked) {
      return makeError(f.what() + ": missing field 'k_width'");
    }
    LL_TRY_STATUS(f.noOthers());
    return asSpec(DotOperandSpec::make(idx, parent, kWidth), f.what());
  }
  static void write(Json &j, const DotOperandSpec &s) {
    j["operand_index"] = s.operandIndex();
    j["parent"] = specToJson(s.parent());
    j["k_width"] = s.kWidth();
  }
};

template <> struct JsonForm<LinearSpec> {
  static Expected<LayoutSpec> read(Fields &f, int) {
    LL_ASSIGN_OR_RETURN(auto reg, f.matrix("reg_bases"));
    LL_ASSIGN_OR_RETURN(auto lane, f.matrix("lane_bases"));
    LL_ASSIGN_OR_RETURN(auto warp, f.matrix("warp_bases"));
    LL_ASSIGN_OR_RETURN(auto block, f.matrix("block_bases", /*isOptional=*/true));
    LL_ASSIGN_OR_RETURN(auto shape, f.list("shape"));
    LL_TRY_STATUS(f.noOthers());
    return asSpec(LinearSpec::make(std::move(reg), std::move(lane), std::move(warp),
                                   std::move(block), std::move(shape)),
                  f.what());
  }
  static void write(Json &j, const LinearSpec &s) {
    j["reg_bases"] = matrixJson(s.regBases());
    j["lane_bases"] = matrixJson(s.laneBases());
    j["warp_bases"] = matrixJson(s.warpBases());
    j["block_bases"] = matrixJson(s.blockBases());
    j["shape"] = s.shape();
  }
};

template <> struct JsonForm<SwizzledSharedSpec> {
  static Expected<LayoutSpec> read(Fields &f, int) {
    LL_ASSIGN_OR_RETURN(int64_t vec, f.integer("vec"));
    LL_ASSIGN_OR_RETURN(int64_t perPhase, f.integer("per_phase"));
    LL_ASSIGN_OR_RETURN(int64_t maxPhase, f.integer("max_phase"));
    LL_ASSIGN_OR_RETURN(auto order, f.list("order"));
    LL_ASSIGN_OR_RETURN(auto cga, cgaFrom(f, int(order.size())));
    LL_TRY_STATUS(f.noOthers());
    return asSpec(
        SwizzledSharedSpec::make(vec, perPhase, maxPhase, std::move(order), std::move(cga)),
        f.what());
  }
  static void write(Json &j, const SwizzledSharedSpec &s) {
    j["vec"] = s.vec();
    j["per_phase"] = s.perPhase();
    j["max_phase"] = s.maxPhase();
    j["order"] = s.order();
    putCga(j, s.cga());
  }
};

template <> struct JsonForm<NvmmaSharedSpec> {
  static Expected<LayoutSpec> read(Fields &f, int) {
    LL_ASSIGN_OR_RETURN(int64_t swizzle, f.integer("swizzle_byte_width"));
    LL_ASSIGN_OR_RETURN(int64_t bits, f.integer("element_bitwidth"));
    int64_t rank = 2;
    if (const Json *r = f.optional("rank")) {
      LL_ASSIGN_OR_RETURN(rank, toInt(*r, f.name("rank")));
    }
    LL_ASSIGN_OR_RETURN(bool transposed, f.flag("transposed", false));
    LL_ASSIGN_OR_RETURN(bool fp4, f.flag("fp4_padded", false));
    if (rank < 1 || rank > CgaLayout::kMaxRank)
      return makeError(f.name("rank") + " is " + std::to_string(rank) + ", expected 1 to " +
                       std::to_string(CgaLayout::kMaxRank));
    LL_ASSIGN_OR_RETURN(auto cga, cgaFrom(f, int(rank)));
    LL_TRY_STATUS(f.noOthers());
    return asSpec(NvmmaSharedSpec::make(swizzle, bits, rank, transposed, fp4, std::move(cga)),
                  f.what());
  }
  static void write(Json &j, const NvmmaSharedSpec &s) {
    j["swizzle_byte_width"] = s.swizzleByteWidth();
    j["element_bitwidth"] = s.elementBitwidth();
    j["rank"] = s.rank();
    j["transposed"] = s.transposed();
    if (s.fp4Padded())
      j["fp4_padded"] = true;
    putCga(j, s.cga());
  }
};

template <> struct JsonForm<SharedLinearSpec> {
  static Expected<LayoutSpec> read(Fields &f, int) {
    LL_ASSIGN_OR_RETURN(auto offset, f.matrix("offset_bases"));
    LL_ASSIGN_OR_RETURN(auto block, f.matrix("block_bases", /*isOptional=*/true));
    int64_t alignment = 16;
    if (const Json *a = f.optional("alignment")) {
      LL_ASSIGN_OR_RETURN(alignment, toInt(*a, f.name("alignment")));
    }
    LL_TRY_STATUS(f.noOthers());
    return asSpec(SharedLinearSpec::make(std::move(offset), std::move(block), alignment), f.what());
  }
  static void write(Json &j, const SharedLinearSpec &s) {
    j["offset_bases"] = matrixJson(s.offsetBases());
    j["block_bases"] = matrixJson(s.blockBases());
    j["alignment"] = s.alignment();
  }
};

// Gluon's AMDMFMALayout fields; element_bitwidth and tiles_per_warp as Gluon defaults them.
template <> struct JsonForm<AmdMfmaSpec> {
  static Expected<LayoutSpec> read(Fields &f, int) {
    LL_ASSIGN_OR_RETURN(int64_t version, f.integer("version"));
    LL_ASSIGN_OR_RETURN(auto instr, f.list("instr_shape"));
    LL_ASSIGN_OR_RETURN(bool transposed, f.flag("transposed", false));
    LL_ASSIGN_OR_RETURN(auto wpc, f.list("warps_per_cta"));
    int64_t bits = 32;
    if (const Json *b = f.optional("element_bitwidth")) {
      LL_ASSIGN_OR_RETURN(bits, toInt(*b, f.name("element_bitwidth")));
    }
    std::vector<int64_t> tiles;
    if (f.optional("tiles_per_warp")) {
      LL_ASSIGN_OR_RETURN(tiles, f.list("tiles_per_warp"));
    }
    LL_ASSIGN_OR_RETURN(auto cga, cgaFrom(f, int(wpc.size())));
    LL_TRY_STATUS(f.noOthers());
    if (version < 0 || version > 1000 || bits < 0 || bits > 1000)
      return makeError(f.what() + ": version " + std::to_string(version) + " or element_bitwidth " +
                       std::to_string(bits) + " out of range");
    return asSpec(AmdMfmaSpec::make(int(version), std::move(instr), transposed, std::move(wpc),
                                    int(bits), std::move(tiles), std::move(cga)),
                  f.what());
  }
  static void write(Json &j, const AmdMfmaSpec &s) {
    j["version"] = s.version();
    j["instr_shape"] = s.instrShape();
    j["transposed"] = s.transposed();
    j["warps_per_cta"] = s.warpsPerCta();
    j["element_bitwidth"] = s.elementBitwidth();
    j["tiles_per_warp"] = s.tilesPerWarp();
    putCga(j, s.cga());
  }
};

// Gluon's AMDWMMALayout fields; instr_shape defaults to [16, 16, 16] as in Gluon.
template <> struct JsonForm<AmdWmmaSpec> {
  static Expected<LayoutSpec> read(Fields &f, int) {
    LL_ASSIGN_OR_RETURN(int64_t version, f.integer("version"));
    LL_ASSIGN_OR_RETURN(bool transposed, f.flag("transposed", false));
    LL_ASSIGN_OR_RETURN(auto wpc, f.list("warps_per_cta"));
    std::vector<int64_t> instr, tiles;
    if (f.optional("instr_shape")) {
      LL_ASSIGN_OR_RETURN(instr, f.list("instr_shape"));
    }
    if (f.optional("tiles_per_warp")) {
      LL_ASSIGN_OR_RETURN(tiles, f.list("tiles_per_warp"));
    }
    LL_ASSIGN_OR_RETURN(auto cga, cgaFrom(f, int(wpc.size())));
    LL_TRY_STATUS(f.noOthers());
    if (version < 0 || version > 1000)
      return makeError(f.name("version") + " is " + std::to_string(version) + ", out of range");
    return asSpec(AmdWmmaSpec::make(int(version), transposed, std::move(wpc), std::move(instr),
                                    std::move(tiles), std::move(cga)),
                  f.what());
  }
  static void write(Json &j, const AmdWmmaSpec &s) {
    j["version"] = s.version();
    j["transposed"] = s.transposed();
    j["warps_per_cta"] = s.warpsPerCta();
    j["instr_shape"] = s.instrShape();
    j["tiles_per_warp"] = s.tilesPerWarp();
    putCga(j, s.cga());
  }
};

// Gluon's PaddedSharedLayout(interval_padding_pairs, offset_bases, cga_layout, shape). Unlike the
// distributed families' CTA split, this cga_layout holds the block bases in tensor coordinates:
// Triton 3.6 refuses ("Broadcasting is not supported") a Gluon layout whose cga_layout bases,
// read so, repeat an offset basis (1000 Gluon cases drawn on the H200,
// tests/reference/triton36-padded-cases.jsonl.gz). Optional: one CTA.
template <> struct JsonForm<PaddedSharedSpec> {
  static Expected<LayoutSpec> read(Fields &f, int) {
    LL_ASSIGN_OR_RETURN(auto pairs, f.matrix("interval_padding_pairs"));
    LL_ASSIGN_OR_RETURN(auto offset, f.matrix("offset_bases"));
    LL_ASSIGN_OR_RETURN(auto block, f.matrix("cga_layout", /*isOptional=*/true));
    LL_ASSIGN_OR_RETURN(auto shape, f.list("shape"));
    LL_TRY_STATUS(f.noOthers());
    std::vector<PadInterval> pads;
    for (size_t i = 0; i < pairs.size(); ++i) {
      if (pairs[i].size() != 2)
        return makeError(f.name("interval_padding_pairs") + "[" + std::to_string(i) + "] has " +
                         std::to_string(pairs[i].size()) +
                         " entries, expected [interval, padding]");
      pads.push_back({pairs[i][0], pairs[i][1]});
    }
    return asSpec(PaddedSharedSpec::make(std::move(pads), std::move(offset), std::move(block),
                                         std::move(shape)),
                  f.what());
  }
  static void write(Json &j, const PaddedSharedSpec &s) {
    Json pairs = Json::array();
    for (const PadInterval &p : s.padding())
      pairs.push_back(Json::array({p.interval, p.padding}));
    j["interval_padding_pairs"] = pairs;
    j["offset_bases"] = matrixJson(s.offsetBases());
    j["cga_layout"] = matrixJson(s.blockBases());
    j["shape"] = s.shape();
  }
};

// Gluon's CTA split of the tensor-memory layouts: cta_split_num [M, N] (null or absent: one CTA).
Expected<std::vector<int64_t>> tmemSplit(Fields &f) {
  const Json *j = f.optional("cta_split_num");
  if (!j || j->is_null())
    return std::vector<int64_t>{1, 1};
  LL_ASSIGN_OR_RETURN(auto split, toIntList(*j, f.name("cta_split_num")));
  if (split.size() != 2)
    return makeError(f.name("cta_split_num") + " has " + std::to_string(split.size()) +
                     " entries, expected [M, N]");
  return split;
}

// Gluon's TensorMemoryLayout(block, col_stride, cta_split_num, two_ctas); Triton before
// col_stride had `unpacked` (16-bit elements one per 32-bit column: col_stride 2).
template <> struct JsonForm<TensorMemorySpec> {
  static Expected<LayoutSpec> read(Fields &f, int) {
    LL_ASSIGN_OR_RETURN(auto block, f.list("block"));
    if (block.size() != 2)
      return makeError(f.name("block") + " has " + std::to_string(block.size()) +
                       " entries, expected [M, N]");
    int64_t colStride = 1;
    if (const Json *u = f.optional("unpacked")) {
      if (f.optional("col_stride"))
        return makeError(f.what() + ": both 'unpacked' and 'col_stride' given");
      LL_ASSIGN_OR_RETURN(bool unpacked, toBool(*u, f.name("unpacked")));
      colStride = unpacked ? 2 : 1;
    } else {
      LL_ASSIGN_OR_RETURN(colStride, f.integer("col_stride"));
    }
    LL_ASSIGN_OR_RETURN(auto split, tmemSplit(f));
    LL_ASSIGN_OR_RETURN(bool twoCtas, f.flag("two_ctas", false));
    LL_TRY_STATUS(f.noOthers());
    return asSpec(
        TensorMemorySpec::make(block[0], block[1], colStride, split[0], split[1], twoCtas),
        f.what());
  }
  static void write(Json &j, const TensorMemorySpec &s) {
    j["block"] = Json::array({s.blockM(), s.blockN()});
    j["col_stride"] = s.colStride();
    if (s.numCtas() != 1)
      j["cta_split_num"] = Json::array({s.ctaSplitM(), s.ctaSplitN()});
    if (s.twoCtas())
      j["two_ctas"] = true;
  }
};

// Gluon's TensorMemoryScalesLayout(cta_split_num).
template <> struct JsonForm<TensorMemoryScalesSpec> {
  static Expected<LayoutSpec> read(Fields &f, int) {
    LL_ASSIGN_OR_RETURN(auto split, tmemSplit(f));
    LL_TRY_STATUS(f.noOthers());
    return asSpec(TensorMemoryScalesSpec::make(split[0], split[1]), f.what());
  }
  static void write(Json &j, const TensorMemoryScalesSpec &s) {
    if (s.numCtas() != 1)
      j["cta_split_num"] = Json::array({s.ctaSplitM(), s.ctaSplitN()});
  }
};

using Variant = LayoutSpec::Variant;
constexpr size_t kFamilies = std::variant_size_v<Variant>;

// The family whose kind is `kind`, read from `f`; nullopt when no family has that kind.
template <size_t... I>
std::optional<Expected<LayoutSpec>> readKind(const std::string &kind, Fields &f, int depth,
                                             std::index_sequence<I...>) {
  std::optional<Expected<LayoutSpec>> r;
  (void)((kind == std::variant_alternative_t<I, Variant>::kKind
              ? (r.emplace(JsonForm<std::variant_alternative_t<I, Variant>>::read(f, depth)), true)
              : false) ||
         ...);
  return r;
}

// "blocked, slice, ... or amd_wmma": the kinds, in the order of the variant.
template <size_t... I> std::string kindList(std::index_sequence<I...>) {
  std::string s;
  size_t i = 0;
  ((s += (i == 0               ? ""
          : i + 1 == kFamilies ? " or "
                               : ", ") +
         std::string(std::variant_alternative_t<I, Variant>::kKind),
    ++i),
   ...);
  return s;
}

Expected<LayoutSpec> specAt(const Json &j, const std::string &what, int depth) {
  if (depth > kMaxNesting)
    return makeError(what + ": parents nested deeper than " + std::to_string(kMaxNesting) +
                     " levels");
  if (j.is_string()) {
    auto r = specFromText(j.get_ref<const std::string &>());
    if (!r.ok())
      return makeError(what + ": " + r.message());
    return r;
  }
  if (!j.is_object())
    return makeError(what + " is " + brief(j) +
                     ", expected a layout spec object (with \"kind\") or attribute text");
  Fields f(j, what);
  LL_ASSIGN_OR_RETURN(const Json *k, f.required("kind"));
  LL_ASSIGN_OR_RETURN(std::string kind, toString(*k, f.name("kind")));
  if (auto r = readKind(kind, f, depth, std::make_index_sequence<kFamilies>()))
    return std::move(*r);
  return makeError(f.name("kind") + " is '" + kind.substr(0, 40) + "', expected " +
                   kindList(std::make_index_sequence<kFamilies>()));
}

} // namespace

Expected<LayoutSpec> specFromJson(const Json &j, const std::string &what) {
  return specAt(j, what, 0);
}

Json specToJson(const LayoutSpec &spec) {
  Json j = Json::object();
  j["kind"] = std::string(kindName(spec.kind()));
  std::visit([&](const auto &s) { JsonForm<std::decay_t<decltype(s)>>::write(j, s); },
             spec.variant());
  return j;
}

} // namespace linlayout::query

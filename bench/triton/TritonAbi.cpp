#include "TritonAbi.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>

namespace linlayout::bench::triton {

namespace {

// llvm::Twine (LLVM 19 and many versions before): two 16-byte children, then their kinds.
struct Twine {
  const char *lhs = nullptr;
  size_t lhsLength = 0;
  const void *rhs = nullptr;
  size_t rhsLength = 0;
  unsigned char lhsKind = 1; // EmptyKind
  unsigned char rhsKind = 1;
};
static_assert(offsetof(Twine, lhsKind) == 32 && sizeof(Twine) == 40);
constexpr unsigned char kTwineCString = 3;

template <typename Fn>
bool lookUp(const ElfSymbols &s, Fn &fn, std::initializer_list<const char *> names,
            const char *what, std::string &log) {
  for (const char *n : names)
    if (uintptr_t a = s.address(n)) {
      fn = reinterpret_cast<Fn>(a);
      char line[120];
      const auto *code = reinterpret_cast<const unsigned char *>(a);
      std::snprintf(line, sizeof line, "  %-20s 0x%012lx (+0x%lx) code %02x %02x %02x %02x  ", what,
                    (unsigned long)a, (unsigned long)(a - s.loadBias()), code[0], code[1], code[2],
                    code[3]);
      log += line + std::string(n) + "\n";
      return true;
    }
  log += std::string("  ") + what + " MISSING (" + *names.begin() + ")\n";
  return false;
}

template <typename T> T at(const void *p, size_t off) {
  T v;
  std::memcpy(&v, static_cast<const unsigned char *>(p) + off, sizeof v);
  return v;
}

} // namespace

std::unique_ptr<Api> Api::resolve(const ElfSymbols &s, std::string &log) {
  auto api = std::make_unique<Api>();
  Api &a = *api;
  bool ok = true;
  ok &=
      lookUp(s, a.contextCtor,
             {"_ZN4mlir11MLIRContextC1ENS0_9ThreadingE", "_ZN4mlir11MLIRContextC2ENS0_9ThreadingE"},
             "MLIRContext()", log);
  ok &= lookUp(s, a.stringAttrGet, {"_ZN4mlir10StringAttr3getEPNS_11MLIRContextERKN4llvm5TwineE"},
               "StringAttr::get", log);
  ok &= lookUp(s, a.stringAttrValue, {"_ZNK4mlir10StringAttr8getValueEv"}, "StringAttr::getValue",
               log);
  ok &=
      lookUp(s, a.ctorFromBases,
             {"_ZN4mlir6triton12LinearLayoutC1EN4llvm8ArrayRefISt4pairINS_10StringAttrESt6vectorIS"
              "6_IiSaIiEESaIS8_EEEEENS3_IS4_IS5_iEEEb",
              "_ZN4mlir6triton12LinearLayoutC2EN4llvm8ArrayRefISt4pairINS_10StringAttrESt6vectorIS"
              "6_IiSaIiEESaIS8_EEEEENS3_IS4_IS5_iEEEb"},
             "LinearLayout(bases)", log);
  ok &= lookUp(s, a.copyCtor,
               {"_ZN4mlir6triton12LinearLayoutC1ERKS1_", "_ZN4mlir6triton12LinearLayoutC2ERKS1_"},
               "LinearLayout(copy)", log);
  ok &=
      lookUp(s, a.dtor, {"_ZN4mlir6triton12LinearLayoutD1Ev", "_ZN4mlir6triton12LinearLayoutD2Ev"},
             "~LinearLayout", log);
  lookUp(s, a.toString, {"_ZNK4mlir6triton12LinearLayout8toStringB5cxx11Ev"}, "toString", log);
  lookUp(s, a.compose, {"_ZNK4mlir6triton12LinearLayout7composeERKS1_"}, "compose", log);
  lookUp(s, a.invertAndCompose, {"_ZNK4mlir6triton12LinearLayout16invertAndComposeERKS1_"},
         "invertAndCompose", log);
  lookUp(s, a.invert, {"_ZNK4mlir6triton12LinearLayout6invertEv"}, "invert", log);
  lookUp(s, a.pseudoinvert, {"_ZNK4mlir6triton12LinearLayout12pseudoinvertEv"}, "pseudoinvert",
         log);
  lookUp(s, a.product, {"_ZN4mlir6tritonmlENS0_12LinearLayoutES1_"}, "operator*", log);
  lookUp(s, a.divideLeft, {"_ZN4mlir6triton10divideLeftERKNS0_12LinearLayoutES3_"}, "divideLeft",
         log);
  lookUp(s, a.sublayout,
         {"_ZNK4mlir6triton12LinearLayout9sublayoutEN4llvm8ArrayRefINS_10StringAttrEEES5_"},
         "sublayout", log);
  lookUp(s, a.quotient,
         {"_ZNK4mlir6triton12LinearLayout8quotientEN4llvm8ArrayRefINS_10StringAttrEEE"}, "quotient",
         log);
  lookUp(s, a.reshapeIns,
         {"_ZNK4mlir6triton12LinearLayout10reshapeInsEN4llvm8ArrayRefISt4pairINS_10StringAttrEiEE"
          "E"},
         "reshapeIns", log);
  lookUp(s, a.reshapeOuts,
         {"_ZNK4mlir6triton12LinearLayout11reshapeOutsEN4llvm8ArrayRefISt4pairINS_10StringAttrEiE"
          "EE"},
         "reshapeOuts", log);
  lookUp(s, a.transposeIns,
         {"_ZNK4mlir6triton12LinearLayout12transposeInsEN4llvm8ArrayRefINS_10StringAttrEEE"},
         "transposeIns", log);
  lookUp(s, a.transposeOuts,
         {"_ZNK4mlir6triton12LinearLayout13transposeOutsEN4llvm8ArrayRefINS_10StringAttrEEE"},
         "transposeOuts", log);
  lookUp(s, a.apply,
         {"_ZNK4mlir6triton12LinearLayout5applyEN4llvm8ArrayRefISt4pairINS_10StringAttrEiEEE"},
         "apply", log);
  lookUp(s, a.freeVariableMasks, {"_ZNK4mlir6triton12LinearLayout20getFreeVariableMasksEv"},
         "getFreeVariableMasks", log);
  lookUp(s, a.deallocateBuffer, {"_ZN4llvm17deallocate_bufferEPvmm"}, "deallocate_buffer", log);
  if (!a.product)
    for (const std::string &n : s.namesStartingWith("_ZN4mlir6tritonml", 8))
      log += "    operator* candidate: " + n + "\n";
  if (a.freeVariableMasks && !a.deallocateBuffer)
    a.freeVariableMasks = nullptr; // its result could not be freed
  if (!ok)
    return nullptr;
  return api;
}

bool Api::makeContext(std::string &error) {
  // MLIRContext holds one unique_ptr; the storage is generous in case that ever grows.
  context_ = std::calloc(1, 512);
  contextCtor(context_, /*Threading::DISABLED*/ 0);
  Attr probe = attr("register");
  std::string back = name(probe);
  if (!probe.impl || back != "register") {
    error = "StringAttr::get(\"register\") reads back as '" + back + "' (Twine layout?)";
    return false;
  }
  return true;
}

Attr Api::attr(const std::string &n) {
  auto it = attrs_.find(n);
  if (it != attrs_.end())
    return it->second;
  Twine t;
  if (!n.empty()) {
    t.lhs = n.c_str();
    t.lhsKind = kTwineCString;
  }
  Attr a = stringAttrGet(context_, &t);
  attrs_.emplace(n, a);
  return a;
}

std::string Api::name(Attr a) const {
  if (!a.impl)
    return "<null>";
  Str s = stringAttrValue(&a);
  return std::string(s.data, s.size);
}

void Api::freeApplyResult(Raw &r) {
  // SmallVector<pair<StringAttr, int32_t>> with 3 inline entries after its 16-byte header.
  void *begin = at<void *>(r.bytes, 0);
  if (begin != r.bytes + 16)
    std::free(begin);
}

void Api::freeMasksResult(Raw &r) const {
  // MapVector<StringAttr, int32_t>: DenseMap {epoch, buckets, entries, tombstones, #buckets}
  // then SmallVector<pair<StringAttr, int32_t>, 0> {begin, size, capacity}.
  void *begin = at<void *>(r.bytes, 0x20);
  if (begin != r.bytes + 0x30)
    std::free(begin);
  deallocateBuffer(at<void *>(r.bytes, 0x08), size_t(at<uint32_t>(r.bytes, 0x18)) * 16, 8);
}

bool readView(const Api &api, const void *layout, View &out, std::string &error) {
  out = View();
  auto *basesBegin = at<const unsigned char *>(layout, 0x20);
  uint32_t nIn = at<uint32_t>(layout, 0x28);
  auto *outsBegin = at<const unsigned char *>(layout, 0x50);
  uint32_t nOut = at<uint32_t>(layout, 0x58);
  out.rank = at<int32_t>(layout, 0x60);
  if (nIn > 16 || nOut > 16 || (nIn && !basesBegin) || (nOut && !outsBegin)) {
    error = "implausible fields: " + std::to_string(nIn) + " in dims, " + std::to_string(nOut) +
            " out dims";
    return false;
  }
  for (uint32_t o = 0; o < nOut; ++o) {
    out.outNames.push_back(api.name(at<Attr>(outsBegin, 16 * o)));
    out.outSizes.push_back(at<int32_t>(outsBegin, 16 * o + 8));
  }
  for (uint32_t i = 0; i < nIn; ++i) {
    out.inNames.push_back(api.name(at<Attr>(basesBegin, 32 * i)));
    const auto &bases =
        *reinterpret_cast<const std::vector<std::vector<int>> *>(basesBegin + 32 * i + 8);
    if (bases.size() > 64) {
      error = "in dim " + out.inNames.back() + " has " + std::to_string(bases.size()) + " bases";
      return false;
    }
    auto &dst = out.bases.emplace_back();
    for (const auto &b : bases) {
      if (b.size() != nOut) {
        error = "a basis of " + out.inNames.back() + " has " + std::to_string(b.size()) +
                " components, expected " + std::to_string(nOut);
        return false;
      }
      dst.emplace_back(b.begin(), b.end());
    }
  }
  return true;
}

std::string compareViews(const View &a, const View &b) {
  auto find = [](const std::vector<std::string> &v, const std::string &n) {
    for (size_t i = 0; i < v.size(); ++i)
      if (v[i] == n)
        return int(i);
    return -1;
  };
  // Out dims: sizes by name; a dim of size 1 may be missing on one side.
  std::vector<std::string> outOrderA, outOrderB;
  for (size_t o = 0; o < a.outNames.size(); ++o) {
    int j = find(b.outNames, a.outNames[o]);
    if (j < 0) {
      if (a.outSizes[o] != 1)
        return "out dim " + a.outNames[o] + " only in ours";
      continue;
    }
    if (a.outSizes[o] != b.outSizes[j])
      return "out dim " + a.outNames[o] + " has size " + std::to_string(a.outSizes[o]) +
             " in ours, " + std::to_string(b.outSizes[j]) + " in Triton's";
    outOrderA.push_back(a.outNames[o]);
  }
  for (size_t o = 0; o < b.outNames.size(); ++o) {
    if (find(a.outNames, b.outNames[o]) >= 0)
      outOrderB.push_back(b.outNames[o]);
    else if (b.outSizes[o] != 1)
      return "out dim " + b.outNames[o] + " only in Triton's";
  }
  auto component = [&](const View &v, const std::vector<int64_t> &basis, const std::string &out) {
    int j = find(v.outNames, out);
    return j < 0 ? int64_t(0) : basis[j];
  };
  std::vector<std::string> inOrderA, inOrderB;
  for (size_t i = 0; i < a.inNames.size(); ++i) {
    int j = find(b.inNames, a.inNames[i]);
    if (j < 0) {
      if (!a.bases[i].empty())
        return "in dim " + a.inNames[i] + " only in ours";
      continue;
    }
    inOrderA.push_back(a.inNames[i]);
    if (a.bases[i].size() != b.bases[j].size())
      return "in dim " + a.inNames[i] + " has " + std::to_string(a.bases[i].size()) +
             " bases in ours, " + std::to_string(b.bases[j].size()) + " in Triton's";
    for (size_t k = 0; k < a.bases[i].size(); ++k)
      for (const std::string &out : outOrderA)
        if (component(a, a.bases[i][k], out) != component(b, b.bases[j][k], out))
          return "basis " + std::to_string(k) + " of " + a.inNames[i] + " differs along " + out +
                 ": " + std::to_string(component(a, a.bases[i][k], out)) + " vs " +
                 std::to_string(component(b, b.bases[j][k], out));
  }
  for (size_t i = 0; i < b.inNames.size(); ++i) {
    if (find(a.inNames, b.inNames[i]) >= 0)
      inOrderB.push_back(b.inNames[i]);
    else if (!b.bases[i].empty())
      return "in dim " + b.inNames[i] + " only in Triton's";
  }
  if (inOrderA != inOrderB || outOrderA != outOrderB)
    return "order: the dims are the same but in another order";
  return "";
}

std::string hexDump(const void *p, size_t n) {
  std::string r;
  const auto *b = static_cast<const unsigned char *>(p);
  for (size_t i = 0; i < n; ++i) {
    char h[8];
    std::snprintf(h, sizeof h, "%s%02x", i % 16 == 0 ? (i ? "\n    " : "    ") : " ", b[i]);
    r += h;
  }
  return r;
}

} // namespace linlayout::bench::triton

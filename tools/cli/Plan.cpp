// `linlayout plan`: plan a layout conversion and explain it (what moves where, the path, the
// shared-memory scratch and its banks, the cost of each path).
#include "Args.h"
#include "Commands.h"

#include "linlayout/ir/Type.h"
#include "linlayout/layout/PlanConversion.h"
#include "linlayout/layout/SharedMemoryModel.h"
#include "query/JsonUtil.h"
#include "query/LayoutArg.h"
#include "query/PlanJson.h"
#include "query/SpecJson.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace linlayout::cli {
namespace {

using query::Json;

std::optional<int> dtypeBits(const std::string &t) {
  // Names the IR has no kind by (aliases, u8, tf32, AMD's 8-bit floats); the rest by the IR's
  // names (i8, f16, f8E4M3FN as a TritonGPU tensor type spells it, ...).
  static const std::map<std::string, int> bits{
      {"f8", 8},    {"fp8", 8},   {"e4m3", 8},  {"e5m2", 8},       {"u8", 8},        {"fp16", 16},
      {"fp32", 32}, {"tf32", 32}, {"fp64", 64}, {"f8E4M3FNUZ", 8}, {"f8E5M2FNUZ", 8}};
  if (auto it = bits.find(t); it != bits.end())
    return it->second;
  if (auto kind = ir::scalarKindFromName(t); kind && *kind != ir::ScalarKind::I1)
    return ir::bitWidth(*kind);
  return std::nullopt;
}

// A layout given to --src / --dst: JSON (a spec, or a linear layout), attribute syntax
// (#ttg.blocked<...>, #alias through --aliases) or a tensor type; errors name the side.
struct Side {
  LinearLayout layout;
  std::optional<LayoutSpec> spec;
};

Expected<Side> readSide(const std::string &text, const char *what,
                        const std::optional<std::vector<int64_t>> &shape,
                        const AttrAliases &aliases) {
  auto l = query::layoutFromArg(text, shape, aliases);
  if (!l.ok())
    return makeError(std::string(what) + ": " + l.message());
  return Side{l->layout, l->spec};
}

// "register 2 ^ lane 0" for a packed src hardware input word.
std::string hardwareBits(uint64_t word, const LinearLayout &l) {
  std::string s;
  for (int d = 0; d < l.numInDims(); ++d)
    for (int i = 0; i < l.inDimBits(d); ++i)
      if (word >> (l.inDimOffset(d) + i) & 1)
        s += (s.empty() ? "" : " ^ ") + std::string(l.inDimName(d).str()) + " " + std::to_string(i);
  return s.empty() ? "(nothing: a broadcast copy)" : s;
}

std::string coords(const LinearLayout &l, uint64_t packed) {
  std::string s = "(";
  for (int o = 0; o < l.numOutDims(); ++o)
    s += (o ? "," : "") + std::to_string(l.outValue(packed, o));
  return s + ")";
}

void explainMoves(std::ostream &os, const ConversionPlan &p) {
  const LinearLayout &c = p.sourceOf;
  os << "Where each dst hardware bit reads from (src hardware bits; tensor step in brackets):\n";
  int moved = 0, kept = 0;
  for (int d = 0; d < c.numInDims(); ++d)
    for (int i = 0; i < c.inDimBits(d); ++i) {
      uint64_t col = c.column(c.inDimOffset(d) + i);
      uint64_t mine = uint64_t(1) << (c.outDimOffset(d) + i);
      std::string name = std::string(c.inDimName(d).str()) + " " + std::to_string(i);
      uint64_t tensor = p.dst.column(p.dst.inDimOffset(d) + i);
      bool same = d > 0 && col == mine;
      (same ? kept : moved)++;
      char buf[160];
      std::snprintf(buf, sizeof buf, "  dst %-12s %-10s <- src %s%s\n", name.c_str(),
                    coords(p.dst, tensor).c_str(), hardwareBits(col, c).c_str(),
                    same ? "  (stays)" : "");
      os << buf;
    }
  os << "  " << kept << " thread bits stay in place; the other bits are register choices or "
     << "moves.\n";
}

void explainShared(std::ostream &os, const ConversionPlan &p) {
  const SharedStep &st = p.shared;
  const int e = p.elementBits;
  os << "\nScratch (offset -> tensor), " << st.scratchBytes << " bytes per CTA, " << st.rounds
     << (st.rounds == 1 ? " round" : " rounds") << ":" << st.scratch.toString() << "\n";
  // A padded scratch: the banks below are of addresses, and an address may be padding.
  std::map<uint64_t, uint64_t> offsetAt; // address -> offset, padded scratches only
  if (!st.padding.empty()) {
    os << "Padding: offset o is stored at o";
    for (const PadInterval &pi : st.padding)
      os << " + (o / " << pi.interval << ") * " << pi.padding;
    os << " (#ttg.padded_shared [";
    for (size_t i = 0; i < st.padding.size(); ++i)
      os << (i ? ", " : "") << st.padding[i].interval << ":+" << st.padding[i].padding;
    os << "]), in place of a swizzle\n";
    uint64_t n = uint64_t(1) << st.scratch.inDimBits(DimName::offset());
    for (uint64_t o = 0; o < n && paddedOffset(int64_t(o), st.padding) < 8 * kSharedRowBytes; ++o)
      offsetAt[uint64_t(paddedOffset(int64_t(o), st.padding))] = o;
  }
  // Picture: which tensor element starts each 16-byte bank group of the first rows.
  int elemsPerGroup = std::max(1, 128 / e);
  int groupsPerRow = kSharedRowBytes / 16;
  uint64_t elems = uint64_t(1) << st.scratch.inDimBits(DimName::offset());
  int rows = int(std::min<uint64_t>(8, elems * e / 8 / kSharedRowBytes));
  os << "Banks: the tensor element at the start of each 16-byte group (4 banks) of the first "
     << rows << " rows:\n       ";
  for (int g = 0; g < groupsPerRow; ++g) {
    char buf[32];
    std::snprintf(buf, sizeof buf, " banks %2d-%-2d", 4 * g, 4 * g + 3);
    os << buf;
  }
  os << "\n";
  for (int r = 0; r < rows; ++r) {
    char head[32];
    std::snprintf(head, sizeof head, "  row %d", r);
    os << head;
    for (int g = 0; g < groupsPerRow; ++g) {
      uint64_t off = uint64_t(r) * (kSharedRowBytes * 8 / e) + uint64_t(g) * elemsPerGroup;
      std::string cell;
      if (st.padding.empty()) {
        cell = coords(st.scratch, st.scratch.apply(off));
      } else {
        auto at = offsetAt.find(off); // `off` is an address here
        cell = at == offsetAt.end() ? "pad" : coords(st.scratch, st.scratch.apply(at->second));
      }
      char buf[32];
      std::snprintf(buf, sizeof buf, " %12s", cell.c_str());
      os << buf;
    }
    os << "\n";
  }
  auto side = [&](const char *what, SharedOp op, int vec, size_t n, int waves, int minWaves) {
    os << what << ": " << n << " x " << sharedOpName(op);
    if (!isMatrixOp(op))
      os << ".v" << std::max(1, vec * e / 32) << ".b" << std::min(32, vec * e);
    os << " per thread (" << vec << " elements each), " << waves << " wavefronts per warp "
       << "instruction ("
       << (waves == minWaves ? "conflict-free" : "minimum " + std::to_string(minWaves)) << ")\n";
  };
  side("Store", st.storeOp, st.storeVectorElements, st.stores.size(), st.storeWavefronts,
       st.storeMinWavefronts);
  if (st.storingWarps() < p.cost.warps)
    os << "  by " << st.storingWarps() << " of " << p.cost.warps
       << " warps: the others hold copies of the same elements and skip their stores\n";
  side("Load", st.loadOp, st.loadVectorElements, st.loads.size(), st.loadWavefronts,
       st.loadMinWavefronts);
  if (st.withinWarps)
    os << "Syncs: every scratch byte is stored and loaded by one warp, so the phases sync warps "
          "(bar.warp.sync), not the CTA\n";
  else if (p.cost.barriers > 1)
    os << "Syncs: " << p.cost.barriers << " bar.sync per CTA as planned; in a kernel the first, "
       << "which orders the stores after earlier uses of the scratch, is left out where nothing "
          "may still touch it (compile --report counts those emitted)\n";
}

void costRow(std::ostream &os, const char *name, const std::vector<std::string> &cells) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "  %-22s", name);
  os << buf;
  for (const std::string &c : cells) {
    std::snprintf(buf, sizeof buf, " %20s", c.c_str());
    os << buf;
  }
  os << "\n";
}

void costTable(std::ostream &os, const ConversionPlan &p) {
  std::vector<std::pair<ConversionPath, ConversionCost>> cols{{p.path, p.cost}};
  for (const auto &a : p.alternatives)
    cols.push_back({a.path, a.cost});
  auto cells = [&](auto f) {
    std::vector<std::string> v;
    for (const auto &c : cols)
      v.push_back(f(c.second));
    return v;
  };
  os << "\nCost (per warp unless noted; " << gpuTargetName(p.target)
     << " throughput table, docs/conversions.md):\n";
  std::vector<std::string> head;
  for (size_t i = 0; i < cols.size(); ++i)
    head.push_back(std::string(conversionPathName(cols[i].first)) + (i == 0 ? " *" : ""));
  costRow(os, "", head);
  auto num = [](auto x) { return std::to_string(x); };
  costRow(os, "shfl.sync", cells([&](const ConversionCost &c) { return num(c.shuffles); }));
  costRow(os, "selp", cells([&](const ConversionCost &c) { return num(c.selects); }));
  costRow(os, "prmt", cells([&](const ConversionCost &c) { return num(c.prmts); }));
  costRow(os, "st.shared", cells([&](const ConversionCost &c) {
            return num(c.stores[0] + c.stores[1] + c.stores[2] + c.stores[3] + c.stores[4]);
          }));
  costRow(os, "ld.shared", cells([&](const ConversionCost &c) {
            return num(c.loads[0] + c.loads[1] + c.loads[2] + c.loads[3] + c.loads[4]);
          }));
  costRow(os, "address ops", cells([&](const ConversionCost &c) { return num(c.addressOps); }));
  costRow(os, "stmatrix", cells([&](const ConversionCost &c) { return num(c.stmatrix); }));
  costRow(os, "ldmatrix", cells([&](const ConversionCost &c) { return num(c.ldmatrix); }));
  costRow(os, "barriers (CTA)", cells([&](const ConversionCost &c) { return num(c.barriers); }));
  costRow(os, "bar.warp.sync", cells([&](const ConversionCost &c) { return num(c.warpSyncs); }));
  costRow(os, "wavefronts st+ld", cells([&](const ConversionCost &c) {
            return num(c.storeWavefronts) + "+" + num(c.loadWavefronts);
          }));
  costRow(os, "of them conflicts",
          cells([&](const ConversionCost &c) { return num(c.conflictWavefronts); }));
  costRow(os, "scratch bytes (CTA)",
          cells([&](const ConversionCost &c) { return num(c.scratchBytes); }));
  costRow(os, "est. cycles (CTA)", cells([&](const ConversionCost &c) {
            char b[32];
            std::snprintf(b, sizeof b, "%.0f", c.cycles);
            return std::string(b);
          }));
}

std::string opText(SharedOp op, int vec, int bits) {
  std::string s(sharedOpName(op));
  // An ldmatrix / stmatrix moves one 32-bit register per 8x8 matrix and thread: .x4 for 8
  // 16-bit elements a thread.
  if (isMatrixOp(op))
    return s + ".x" + std::to_string(std::max(1, vec * bits / 32)) + ".b16";
  int total = vec * bits;
  if (total <= 32)
    return s + ".b" + std::to_string(total);
  return s + ".v" + std::to_string(total / 32) + ".b32";
}

// One line: the path and its instruction counts.
std::string summaryLine(const ConversionPlan &p) {
  const ConversionCost &c = p.cost;
  std::string s = std::string(conversionPathName(p.path)) + ":";
  char cyc[32];
  std::snprintf(cyc, sizeof cyc, "~%.0f cycles", c.cycles);
  switch (p.path) {
  case ConversionPath::NoOp:
    return s + " nothing to do";
  case ConversionPath::RegisterPermute:
    return s + " " + std::to_string(c.selects) + " selp per thread, " + cyc;
  case ConversionPath::WarpShuffle: {
    std::string mode = "idx";
    for (const ShuffleRound &r : p.shuffle.rounds)
      if (r.mode == ShuffleMode::Bfly)
        mode = "bfly";
    return s + " " + std::to_string(c.shuffles) + " shfl.sync." + mode + " (" +
           std::to_string(p.shuffle.slotsPerWord) +
           (p.shuffle.slotsPerWord == 1 ? " element" : " elements") + " per word), " +
           std::to_string(c.selects) + " selp, " + std::to_string(c.prmts) + " prmt per thread, " +
           cyc;
  }
  case ConversionPath::SharedMemory:
  case ConversionPath::DistributedSharedMemory: {
    const SharedStep &st = p.shared;
    return s + " " + std::to_string(st.stores.size()) + " " +
           opText(st.storeOp, st.storeVectorElements, p.elementBits) + " + " +
           std::to_string(st.loads.size()) + " " +
           opText(st.loadOp, st.loadVectorElements, p.elementBits) + " per thread, " +
           (c.prmts ? std::to_string(c.prmts) + " prmt, " : std::string()) +
           (st.withinWarps ? std::to_string(c.warpSyncs) + " bar.warp.sync"
                           : std::to_string(c.barriers) + (p.path == ConversionPath::SharedMemory
                                                               ? " bar.sync"
                                                               : " cluster barriers")) +
           ", " + std::to_string(c.storeWavefronts) + "+" + std::to_string(c.loadWavefronts) +
           " wavefronts per warp (" + std::to_string(c.conflictWavefronts) + " from conflicts), " +
           std::to_string(c.scratchBytes) + " B scratch, " + cyc;
  }
  }
  return s;
}

struct PlanArgs {
  std::string src, dst, shape, dtype, target = "sm_90", path, aliases;
  bool json = false, detail = false, summary = false, padding = false, paddingAlways = false;
};

int usageError(const std::string &why) {
  std::cerr << "linlayout plan: " << why << "\nRun 'linlayout plan --help' for usage.\n";
  return 2;
}

int runPlan(const PlanArgs &a) {
  const bool json = a.json, detail = a.detail, summary = a.summary;
  std::string dtype = a.dtype;
  std::optional<std::vector<int64_t>> shape;
  if (!a.shape.empty()) {
    auto s = parseShape(a.shape);
    if (!s.ok())
      return usageError(s.message());
    shape = *s;
  }
  // A tensor type gives the shape and the element type.
  for (const std::string *side : {&a.src, &a.dst}) {
    std::string_view t = *side;
    while (!t.empty() && t.front() == ' ')
      t.remove_prefix(1);
    if (!t.starts_with("tensor<"))
      continue;
    auto typed = query::splitTensorType(t);
    if (!typed.ok())
      continue; // reported with the side below
    if (!shape)
      shape = typed->shape;
    if (dtype.empty())
      dtype = std::string(typed->element);
  }
  if (!shape || dtype.empty())
    return usageError("--shape and --dtype are required unless --src or --dst is a tensor type "
                      "(tensor<64x64xf16, #layout>)");
  auto bits = dtypeBits(dtype);
  if (!bits)
    return usageError("unknown dtype '" + dtype + "'");
  auto tgt = parseGpuTarget(a.target);
  if (!tgt)
    return usageError("unknown target '" + a.target + "' (sm_80, sm_86, sm_89, sm_90, sm_90a)");
  std::string aliasText;
  if (!a.aliases.empty()) {
    auto t = readFile(a.aliases);
    if (!t.ok()) {
      std::cerr << "linlayout plan: " << t.message() << "\n";
      return 1;
    }
    aliasText = *t;
  }
  auto aliases = parseAttrAliases(aliasText);
  if (!aliases.ok()) {
    std::cerr << "linlayout plan: " << a.aliases << ": " << aliases.message() << "\n";
    return 1;
  }
  auto src = readSide(a.src, "src", shape, *aliases);
  auto dst = readSide(a.dst, "dst", shape, *aliases);
  for (const std::string *m :
       {src.ok() ? nullptr : &src.message(), dst.ok() ? nullptr : &dst.message()})
    if (m) {
      std::cerr << "linlayout plan: " << *m << "\n";
      return 1;
    }
  const std::string shapeText = shapeString(*shape);
  PlanOptions opt;
  opt.target = *tgt;
  opt.padding = a.paddingAlways ? ScratchPadding::Always
                : a.padding     ? ScratchPadding::WhereCheaper
                                : ScratchPadding::Never;
  if (!a.path.empty()) {
    opt.forcePath = parseConversionPath(a.path);
    if (!opt.forcePath)
      return usageError("unknown path '" + a.path +
                        "' (no-op, register-permute, warp-shuffle, shared-memory, "
                        "distributed-shared-memory)");
  }
  auto plan = src->spec && dst->spec ? planConversion(*src->spec, *dst->spec, *shape, *bits, opt)
                                     : planConversion(src->layout, dst->layout, *bits, opt);
  if (!plan.ok()) {
    std::cerr << "linlayout plan: " << plan.message() << "\n";
    return 1;
  }
  if (json) {
    std::cout << query::planToJson(*plan, detail).dump(2) << "\n";
    return 0;
  }
  if (summary) {
    std::cout << summaryLine(*plan) << "\n";
    return 0;
  }
  std::ostream &os = std::cout;
  os << "Converting a " << shapeText << " " << dtype << " tile on " << gpuTargetName(*tgt) << ", "
     << plan->cost.warps << (plan->cost.warps == 1 ? " warp" : " warps") << "\n";
  explainMoves(os, *plan);
  os << "\nPath: " << conversionPathName(plan->path);
  if (plan->alternatives.empty())
    os << " (the only feasible path)\n";
  else {
    os << ", the cheapest of:\n";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.0f", plan->cost.cycles);
    os << "  " << conversionPathName(plan->path) << ": ~" << buf << " cycles per CTA (chosen)\n";
    for (const auto &a : plan->alternatives) {
      std::snprintf(buf, sizeof buf, "%.0f", a.cost.cycles);
      os << "  " << conversionPathName(a.path) << ": ~" << buf << " cycles per CTA (" << a.note
         << ")\n";
    }
  }
  if (plan->path == ConversionPath::WarpShuffle) {
    const ShuffleStep &st = plan->shuffle;
    int moving = 0;
    for (const ShuffleRound &r : st.rounds)
      moving += r.mode != ShuffleMode::Move;
    os << "\nShuffles: " << st.rounds.size() << " rounds of 32-bit words (" << st.slotsPerWord
       << (st.slotsPerWord == 1 ? " element" : " elements") << " per word), " << moving
       << " with a shfl.sync"
       << (moving && st.rounds[0].mode == ShuffleMode::Idx ? ".idx" : ".bfly") << "\n";
    os << "Source lane of each thread:" << st.srcLaneOfThread.toString() << "\n";
  }
  if (plan->path == ConversionPath::RegisterPermute)
    os << "\nSource register of each dst register:" << plan->permute.srcRegister.toString() << "\n";
  if (plan->path == ConversionPath::SharedMemory ||
      plan->path == ConversionPath::DistributedSharedMemory)
    explainShared(os, *plan);
  costTable(os, *plan);
  return 0;
}

} // namespace

void addPlanCommand(CLI::App &app, int &status) {
  CLI::App *cmd = app.add_subcommand("plan", "Plan a layout conversion and explain it.");
  auto a = std::make_shared<PlanArgs>();
  cmd->add_option("--src", a->src,
                  "the layout converted from: a spec or linear layout in JSON, a TritonGPU "
                  "attribute (#ttg.blocked<{...}>, #alias with --aliases) or a tensor type "
                  "(tensor<64x64xf16, #blocked>, which gives the shape and dtype)")
      ->type_name("LAYOUT")
      ->required();
  cmd->add_option("--dst", a->dst, "the layout converted to, in the same forms")
      ->type_name("LAYOUT")
      ->required();
  cmd->add_option("--shape", a->shape, "the tensor shape, like 64x64 (default: a tensor type's)")
      ->type_name("AxB");
  cmd->add_option(
         "--dtype", a->dtype,
         "the element type: f8 (e4m3, e5m2, f8E4M3FN, f8E5M2), i8, f16, bf16, i16, f32, i32, "
         "f64, i64 (default: a tensor type's)")
      ->type_name("TYPE");
  cmd->add_option("--aliases", a->aliases,
                  "read #name = ... alias definitions (a compiler dump) from FILE, as show does")
      ->type_name("FILE");
  cmd->add_option("--target", a->target,
                  "the GPU whose costs decide: sm_80, sm_86, sm_89, sm_90, "
                  "sm_90a")
      ->type_name("SM")
      ->capture_default_str();
  cmd->add_option("--path", a->path,
                  "plan this path instead of the cheapest: no-op, register-permute, "
                  "warp-shuffle, shared-memory, distributed-shared-memory (an error where it is "
                  "not feasible; shared_memory is accepted too)")
      ->type_name("PATH");
  cmd->add_flag("--padding", a->padding,
                "let the shared-memory path use a padded scratch (#ttg.padded_shared's rows "
                "spread out by padding) instead of the swizzle where the cost model prices it "
                "lower");
  cmd->add_flag("--padding-always", a->paddingAlways,
                "take the padded scratch wherever one exists, whatever it costs (to compare it "
                "with the swizzle)");
  CLI::Option *json = cmd->add_flag("--json", a->json, "print the plan as the query's JSON");
  cmd->add_flag("--detail", a->detail, "with --json: every instruction and per-thread map")
      ->needs(json);
  cmd->add_flag("--summary", a->summary, "print one line: the path and its instruction counts")
      ->excludes(json);
  cmd->footer("Barriers are counted as planned, per CTA. In a kernel, the first round's barrier "
              "is left out where nothing may still touch the scratch: compile --report and the "
              "--annotate comments say how many were emitted and why.");
  cmd->callback([a, &status] { status = runPlan(*a); });
}

} // namespace linlayout::cli

#include "query/PlanJson.h"

#include "query/LayoutJson.h"

namespace linlayout::query {
namespace {

const char *const kWidths[5] = {"8", "16", "32", "64", "128"};

Json countsJson(const ConversionCost &c) {
  Json st = Json::object(), ld = Json::object();
  for (int i = 0; i < 5; ++i) {
    if (c.stores[i])
      st[kWidths[i]] = c.stores[i];
    if (c.loads[i])
      ld[kWidths[i]] = c.loads[i];
  }
  return Json{{"shfl", c.shuffles},      {"selp", c.selects},           {"prmt", c.prmts},
              {"index_ops", c.indexOps}, {"address_ops", c.addressOps}, {"st_shared", st},
              {"ld_shared", ld},         {"stmatrix", c.stmatrix},      {"ldmatrix", c.ldmatrix},
              {"bar", c.barriers},       {"bar_warp", c.warpSyncs}};
}

std::string_view modeName(ShuffleMode m) {
  switch (m) {
  case ShuffleMode::Move:
    return "move";
  case ShuffleMode::Bfly:
    return "bfly";
  case ShuffleMode::Idx:
    return "idx";
  }
  return "?";
}

Json accessJson(const SharedAccess &a) {
  Json j{{"round", a.round}, {"registers", a.registers}, {"offset", a.offsetConst}};
  if (a.blockConst)
    j["block"] = a.blockConst;
  return j;
}

Json sideJson(SharedOp op, int vec, int instructions, int waves, int minWaves, int bits) {
  return Json{{"op", std::string(sharedOpName(op))},
              {"vector_elements", vec},
              {"bits", vec * bits},
              {"instructions", instructions},
              {"wavefronts_per_instruction", waves},
              {"min_wavefronts_per_instruction", minWaves}};
}

} // namespace

Json planToJson(const ConversionPlan &plan, bool detail) {
  Json j = Json::object();
  j["path"] = std::string(conversionPathName(plan.path));
  j["target"] = std::string(gpuTargetName(plan.target));
  j["bitwidth"] = plan.elementBits;
  j["warps"] = plan.cost.warps;
  Json steps = Json::array();
  switch (plan.path) {
  case ConversionPath::NoOp:
    break;
  case ConversionPath::RegisterPermute: {
    Json s{{"step", "register_permute"}};
    if (detail)
      s["src_register"] = layoutToJson(plan.permute.srcRegister);
    steps.push_back(s);
    break;
  }
  case ConversionPath::WarpShuffle: {
    const ShuffleStep &st = plan.shuffle;
    int moving = 0;
    std::string mode = "move";
    for (const ShuffleRound &r : st.rounds)
      if (r.mode != ShuffleMode::Move) {
        ++moving;
        mode = std::string(modeName(r.mode));
      }
    Json s{
        {"step", "warp_shuffle"}, {"rounds", st.rounds.size()},        {"shuffling_rounds", moving},
        {"mode", mode},           {"slots_per_word", st.slotsPerWord}, {"halves", st.halves}};
    if (detail) {
      s["pack"] = layoutToJson(st.pack);
      s["unpack"] = layoutToJson(st.unpack);
      s["src_lane_of_thread"] = layoutToJson(st.srcLaneOfThread);
      s["send_word_of_thread"] = layoutToJson(st.sendWordOfThread);
      s["recv_word_of_thread"] = layoutToJson(st.recvWordOfThread);
      Json rounds = Json::array();
      for (const ShuffleRound &r : st.rounds)
        rounds.push_back(Json{{"mode", std::string(modeName(r.mode))},
                              {"lane", r.laneConst},
                              {"send_word", r.sendWordConst},
                              {"recv_word", r.recvWordConst}});
      s["round_list"] = rounds;
    }
    steps.push_back(s);
    break;
  }
  case ConversionPath::SharedMemory:
  case ConversionPath::DistributedSharedMemory: {
    const SharedStep &st = plan.shared;
    bool cluster = plan.path == ConversionPath::DistributedSharedMemory;
    Json s{{"step", cluster ? "distributed_shared_memory" : "shared_memory"},
           {"rounds", st.rounds},
           {"scratch_bytes", st.scratchBytes},
           {"barrier", cluster          ? "barrier.cluster"
                       : st.withinWarps ? "bar.warp.sync"
                                        : "bar.sync"},
           {"barriers", st.withinWarps ? plan.cost.warpSyncs : plan.cost.barriers},
           {"within_warps", st.withinWarps},
           {"storing_warps", st.storingWarps()},
           {"store", sideJson(st.storeOp, st.storeVectorElements, int(st.stores.size()),
                              st.storeWavefronts, st.storeMinWavefronts, plan.elementBits)},
           {"load", sideJson(st.loadOp, st.loadVectorElements, int(st.loads.size()),
                             st.loadWavefronts, st.loadMinWavefronts, plan.elementBits)},
           {"scratch", layoutToJson(st.scratch)}};
    if (!st.padding.empty()) {
      Json pairs = Json::array();
      for (const PadInterval &pi : st.padding)
        pairs.push_back(Json::array({pi.interval, pi.padding}));
      s["padding"] = pairs; // interval_padding_pairs, as padded_shared's
    }
    if (detail) {
      s["store_address"] = layoutToJson(st.storeAddress);
      s["load_address"] = layoutToJson(st.loadAddress);
      s["load_block"] = layoutToJson(st.loadBlock);
      s["store_predicate"] = layoutToJson(st.storePredicate);
      Json stores = Json::array(), loads = Json::array(), copies = Json::array();
      for (const SharedAccess &a : st.stores)
        stores.push_back(accessJson(a));
      for (const SharedAccess &a : st.loads)
        loads.push_back(accessJson(a));
      for (const auto &c : st.copies)
        copies.push_back(Json::array({c[0], c[1]}));
      s["stores"] = stores;
      s["loads"] = loads;
      s["copies"] = copies;
    }
    steps.push_back(s);
    break;
  }
  }
  j["steps"] = steps;
  j["counts"] = countsJson(plan.cost);
  j["wavefronts"] = Json{{"store", plan.cost.storeWavefronts},
                         {"load", plan.cost.loadWavefronts},
                         {"conflicts", plan.cost.conflictWavefronts}};
  j["scratch_bytes"] = plan.cost.scratchBytes;
  j["cycles"] = plan.cost.cycles;
  if (detail)
    j["source_of"] = layoutToJson(plan.sourceOf);
  Json alts = Json::array();
  for (const auto &a : plan.alternatives)
    alts.push_back(Json{{"path", std::string(conversionPathName(a.path))},
                        {"cycles", a.cost.cycles},
                        {"counts", countsJson(a.cost)},
                        {"note", a.note}});
  j["alternatives"] = alts;
  return j;
}

} // namespace linlayout::query

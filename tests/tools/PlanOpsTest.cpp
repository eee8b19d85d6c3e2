// The conversion query ops: bank_conflicts and plan (fields, answers and every error).
#include "query/Query.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using linlayout::query::answerLine;
using nlohmann::json;

namespace {

const char *kRow4 = R"({"kind": "blocked", "size_per_thread": [1, 4], "threads_per_warp": [4, 8],
  "warps_per_cta": [4, 1], "order": [1, 0]})";
const char *kCol4 = R"({"kind": "blocked", "size_per_thread": [4, 1], "threads_per_warp": [8, 4],
  "warps_per_cta": [1, 4], "order": [0, 1]})";
const char *kShared = R"({"kind": "swizzled_shared", "vec": 8, "per_phase": 1, "max_phase": 8,
  "order": [1, 0]})";

json ask(const std::string &line) { return json::parse(answerLine(line)); }

std::string planLine(const std::string &src, const std::string &dst, const std::string &extra) {
  json j = {{"id", 1}, {"op", "plan"}, {"shape", {128, 128}}, {"bitwidth", 16}};
  j["src"] = json::parse(src);
  j["dst"] = json::parse(dst);
  if (!extra.empty())
    j.update(json::parse(extra));
  return j.dump();
}

} // namespace

TEST(PlanOps, BankConflicts) {
  json j = {{"op", "bank_conflicts"}, {"shape", {64, 128}}, {"bitwidth", 16}};
  j["reg"] = json::parse(R"({"kind": "blocked", "size_per_thread": [1, 4],
    "threads_per_warp": [16, 2], "warps_per_cta": [4, 1], "order": [0, 1]})");
  j["shared"] = json::parse(R"({"kind": "swizzled_shared", "vec": 8, "per_phase": 1,
    "max_phase": 1, "order": [1, 0]})");
  EXPECT_EQ(ask(j.dump())["result"], 15);
  j["bitwidth"] = 24;
  EXPECT_EQ(ask(j.dump())["error"], "bitwidth 24 is not a power of two between 1 and 128");
  j["bitwidth"] = 16;
  j["shared"] = json::parse(kRow4);
  EXPECT_EQ(ask(j.dump())["error"],
            "field 'shared' is a blocked layout, expected a shared-memory layout");
}

TEST(PlanOps, PlanAnswersTheSummary) {
  json r = ask(planLine(kRow4, kCol4, R"({"target": "sm_80"})"))["result"];
  EXPECT_EQ(r["path"], "shared-memory");
  EXPECT_EQ(r["target"], "sm_80");
  EXPECT_EQ(r["bitwidth"], 16);
  EXPECT_EQ(r["counts"]["st_shared"]["128"], 16);
  EXPECT_EQ(r["counts"]["ld_shared"]["128"], 16);
  EXPECT_EQ(r["counts"]["bar"], 2);
  EXPECT_EQ(r["counts"]["bar_warp"], 0);
  EXPECT_EQ(r["steps"][0]["barrier"], "bar.sync");
  EXPECT_EQ(r["steps"][0]["within_warps"], false);
  EXPECT_EQ(r["steps"][0]["storing_warps"], 4);
  EXPECT_EQ(r["wavefronts"]["conflicts"], 0);
  EXPECT_EQ(r["scratch_bytes"], 32768);
  EXPECT_TRUE(r["cycles"].is_number());
  EXPECT_EQ(r["steps"][0]["step"], "shared_memory");
  EXPECT_FALSE(r["steps"][0].contains("stores"));
  json d = ask(planLine(kRow4, kCol4, R"({"detail": true})"))["result"];
  EXPECT_EQ(d["steps"][0]["stores"].size(), 16u);
  EXPECT_TRUE(d.contains("source_of"));
}

// "path" plans the path asked for, with the cheapest one among the alternatives; a path that
// cannot do the conversion (shuffles across warps) is an error, as is an unknown name.
TEST(PlanOps, PlanTakesTheAskedPath) {
  const char *regPerm = R"({"kind": "blocked", "size_per_thread": [2, 2], "threads_per_warp":
    [8, 4], "warps_per_cta": [4, 1], "order": [1, 0]})";
  const char *regPerm2 = R"({"kind": "blocked", "size_per_thread": [2, 2], "threads_per_warp":
    [8, 4], "warps_per_cta": [4, 1], "order": [0, 1]})";
  json best = ask(planLine(regPerm, regPerm2, ""))["result"];
  ASSERT_EQ(best["path"], "warp-shuffle");
  json shared = ask(planLine(regPerm, regPerm2, R"({"path": "shared-memory"})"))["result"];
  EXPECT_EQ(shared["path"], "shared-memory");
  EXPECT_GT(shared["cycles"].get<double>(), best["cycles"].get<double>());
  bool cheapestListed = false;
  for (const json &a : shared["alternatives"])
    cheapestListed |= a["path"] == "warp-shuffle" && a["cycles"] == best["cycles"];
  EXPECT_TRUE(cheapestListed) << shared["alternatives"].dump();
  EXPECT_EQ(ask(planLine(regPerm, regPerm2, R"({"path": "shared_memory"})"))["result"]["path"],
            "shared-memory");
  // The exchange keeps every element in its warp: its syncs are warp syncs.
  EXPECT_EQ(shared["counts"]["bar"], 0);
  EXPECT_EQ(shared["counts"]["bar_warp"], 2);
  EXPECT_EQ(shared["steps"][0]["barrier"], "bar.warp.sync");
  EXPECT_EQ(shared["steps"][0]["within_warps"], true);
  EXPECT_EQ(ask(planLine(kRow4, kCol4, R"({"path": "warp-shuffle"})"))["error"],
            "path 'warp-shuffle' is not feasible for this conversion");
  EXPECT_EQ(ask(planLine(kRow4, kCol4, R"({"path": "teleport"})"))["error"],
            "path 'teleport' is not one of no-op, register-permute, warp-shuffle, shared-memory, "
            "distributed-shared-memory");
  EXPECT_EQ(ask(planLine(kRow4, kCol4, R"({"path": 3})"))["error"].get<std::string>().find("path"),
            0u);
}

// With detail, a register permutation says, per register of dst, which register of src holds its
// element (checked here through the apply op on both layouts), and a shuffle plan lists its
// rounds: one per round, as many shuffles as rounds that are not moves.
TEST(PlanOps, PlanDetailSaysWhereEachRegisterComesFrom) {
  auto linear = [](const std::string &reg, const std::string &lane) {
    return R"({"kind": "linear", "reg_bases": )" + reg + R"(, "lane_bases": )" + lane +
           R"(, "warp_bases": [[4, 0], [8, 0]], "block_bases": [], "shape": [16, 32]})";
  };
  const std::string lanes = "[[0, 4], [0, 8], [0, 16], [1, 0], [2, 0]]";
  std::string src = linear("[[0, 1], [0, 2]]", lanes);
  std::string dst = linear("[[0, 2], [0, 1]]", lanes);
  json r = ask(planLine(src, dst, R"({"detail": true, "shape": [16, 32]})"))["result"];
  ASSERT_EQ(r["path"], "register-permute") << r.dump();
  EXPECT_EQ(r["counts"]["shfl"], 0);
  EXPECT_EQ(r["counts"]["bar"], 0);
  const json &step = r["steps"][0];
  ASSERT_EQ(step["step"], "register_permute");
  auto toLinear = [](const std::string &spec) {
    return ask(R"({"op": "to_linear", "shape": [16, 32], "layout": )" + spec + "}")["result"];
  };
  auto apply = [](const json &layout, const json &inputs) {
    json q = {{"op", "apply"}, {"a", layout}, {"inputs", inputs}};
    return ask(q.dump())["result"];
  };
  json srcL = toLinear(src), dstL = toLinear(dst);
  for (int reg = 0; reg < 4; ++reg) {
    json in = json::array({json::array({"register", reg}), json::array({"lane", 0}),
                           json::array({"warp", 0}), json::array({"block", 0})});
    json from = apply(step["src_register"], in);
    ASSERT_TRUE(from.is_array()) << from.dump();
    int srcReg = from[0][1].get<int>();
    json srcIn = in;
    srcIn[0][1] = srcReg;
    EXPECT_EQ(apply(srcL, srcIn), apply(dstL, in)) << "register " << reg;
  }
  // A register basis traded with a lane basis: shuffles.
  std::string traded = linear("[[0, 4], [0, 2]]", "[[0, 1], [0, 8], [0, 16], [1, 0], [2, 0]]");
  json sh = ask(planLine(
      src, traded, R"({"detail": true, "shape": [16, 32], "path": "warp-shuffle"})"))["result"];
  ASSERT_EQ(sh["path"], "warp-shuffle") << sh.dump();
  const json &st = sh["steps"][0];
  ASSERT_EQ(st["step"], "warp_shuffle");
  ASSERT_EQ(st["round_list"].size(), st["rounds"].get<size_t>());
  int shuffling = 0;
  for (const json &round : st["round_list"]) {
    std::string mode = round["mode"];
    EXPECT_TRUE(mode == "move" || mode == "idx" || mode == "bfly") << mode;
    shuffling += mode != "move";
  }
  EXPECT_EQ(st["shuffling_rounds"], shuffling);
  // Two f16 per 32-bit word: one shuffle moves both halves.
  EXPECT_EQ(st["slots_per_word"], 2);
  EXPECT_EQ(sh["counts"]["shfl"], shuffling);
}

// Where every warp holds the whole tile (seed2-194 of bench/gpu/conversion_paths.jsonl), one
// warp stores it for all four.
TEST(PlanOps, PlanSaysHowManyWarpsStore) {
  const char *src = R"({"kind": "blocked", "size_per_thread": [8, 2], "threads_per_warp": [4, 8],
    "warps_per_cta": [4, 1], "order": [0, 1]})";
  const char *dst = R"({"kind": "blocked", "size_per_thread": [4, 2], "threads_per_warp": [8, 4],
    "warps_per_cta": [4, 1], "order": [0, 1]})";
  json r = ask(planLine(src, dst, R"({"path": "shared-memory", "shape": [32, 64]})"))["result"];
  ASSERT_EQ(r["path"], "shared-memory") << r.dump();
  EXPECT_EQ(r["steps"][0]["storing_warps"], 1);
}

TEST(PlanOps, PlanErrors) {
  EXPECT_EQ(ask(planLine(kRow4, kCol4, R"({"target": "sm_70"})"))["error"],
            "target 'sm_70' is not one of sm_80, sm_90");
  EXPECT_EQ(ask(planLine(kRow4, kShared, ""))["error"],
            "field 'dst' is a swizzled_shared layout, expected a distributed (register) layout");
  EXPECT_EQ(ask(planLine(kRow4, kCol4, R"({"bitwidth": 12})"))["error"],
            "bitwidth 12 is not a power of two between 1 and 128");
  EXPECT_EQ(ask(planLine(kRow4, kCol4, R"({"bitwidth": 128})"))["error"],
            "element bitwidth 128 is not one of 8, 16, 32, 64");
  EXPECT_EQ(
      ask(planLine(kRow4, kCol4, R"({"detail": 3})"))["error"].get<std::string>().find("detail"),
      0u);
}

// A dot-operand destination over an mma gets the scratch whose loads fill each fragment's
// registers in order (ldmatrix here, where 16-byte ld.shared cost the same), as the compiler
// plans it.
TEST(PlanOps, MmaOperandDestinationsLoadFragmentsInOrder) {
  const std::string kt = R"({"kind": "blocked", "size_per_thread": [8, 1],
    "threads_per_warp": [8, 4], "warps_per_cta": [1, 4], "order": [0, 1]})";
  const std::string operand = R"({"kind": "dot_operand", "operand_index": 1, "k_width": 2,
    "parent": {"kind": "nvidia_mma", "version": [2, 0], "warps_per_cta": [4, 1],
    "instr_shape": [16, 8]}})";
  json r = ask(planLine(kt, operand, R"({"shape": [64, 64]})"))["result"];
  ASSERT_TRUE(r.is_object()) << r;
  EXPECT_EQ(r["counts"]["ldmatrix"], 16);
  EXPECT_TRUE(r["counts"]["ld_shared"].empty()) << r["counts"];
}

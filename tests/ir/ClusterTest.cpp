// Thread-block clusters in the tile IR: the cluster attributes and ops round-trip and verify, and
// the interpreter runs a cluster's CTAs together: multicast copies land in every CTA of the
// class, remote arrivals count on the peer's barrier, and the rules of cluster launches are
// errors (a barrier used by the peer before its init is visible, a multicast outside a cluster,
// a grid that is no multiple of the cluster).
#include "Examples.h"
#include "TextEdits.h"

#include "linlayout/ir/Printer.h"
#include "linlayout/ir/Verifier.h"

#include <gtest/gtest.h>

using namespace linlayout;
using namespace linlayout::ir;
using namespace linlayout::ir::testing;

namespace {

std::string multicastText() { return readFile(examplePath("tma_multicast.tir")); }

struct CopyRun {
  Status status = Status::success();
  std::vector<uint16_t> in, out;
};

// examples/tma_multicast.tir (or an edit of it) on `clusters` clusters of two programs.
CopyRun runMulticast(const std::string &text, int64_t programs = 4) {
  CopyRun r;
  auto m = parseModule(text, "tma_multicast.tir");
  if (!m.ok()) {
    r.status = Status(makeError(m.message()));
    return r;
  }
  const int64_t clusters = (programs + 1) / 2, rows = clusters * 64, cols = 128;
  r.in = halfBitsOf(randomFloats(size_t(rows * cols), 9));
  Memory mem;
  mem.buffers = {bytesOf(r.in), bytesOf(std::vector<uint16_t>(size_t(2 * rows * cols), 0xffff))};
  std::vector<ArgValue> args = {ArgValue::tensorDesc(0, {rows, cols}, {cols, 1}),
                                ArgValue::pointer(1)};
  r.status = interpret(*m, "tma_multicast", args, mem, Grid{programs, 1, 1});
  r.out = valuesOf<uint16_t>(mem.buffers[1]);
  return r;
}

} // namespace

TEST(Cluster, AttributesAndOpsRoundTrip) {
  auto m = parseModule(multicastText(), "tma_multicast.tir");
  ASSERT_TRUE(m.ok()) << m.message();
  EXPECT_EQ(m->clusterDims, (std::array<int, 3>{2, 1, 1}));
  ASSERT_TRUE(verify(*m).ok()) << verify(*m).message();
  std::string once = print(*m);
  for (const char *s : {"\"ttg.cluster-dim-x\" = 2 : i32", "ttng.cluster_cta_id : i32",
                        "ttng.fence_mbarrier_init_release_cluster", "ttng.cluster_arrive\n",
                        "ttng.cluster_wait\n", "%is0 {multicastCTA = 1 : i32} :"})
    EXPECT_NE(once.find(s), std::string::npos) << s << "\n" << once;
  auto again = parseModule(once);
  ASSERT_TRUE(again.ok()) << again.message();
  EXPECT_EQ(print(*again), once);
  // A module without a cluster prints no cluster attributes; relaxed arrives keep the flag.
  auto relaxed = parseModule(edit(multicastText(), "ttng.cluster_arrive\n    ttng.cluster_wait\n",
                                  "ttng.cluster_arrive {relaxed = true}\n    ttng.cluster_wait\n"));
  ASSERT_TRUE(relaxed.ok()) << relaxed.message();
  EXPECT_NE(print(*relaxed).find("ttng.cluster_arrive {relaxed = true}"), std::string::npos);
}

TEST(Cluster, VerifierRefusesBadClusters) {
  const std::string text = multicastText();
  struct Bad {
    std::string text, error;
  };
  const Bad cases[] = {
      {edit(text, "\"ttg.cluster-dim-x\" = 2", "\"ttg.cluster-dim-x\" = 1"),
       "multicastCTA = 1 in a module without a cluster"},
      {edit(text, "\"ttg.cluster-dim-x\" = 2", "\"ttg.cluster-dim-x\" = 3"),
       "multicast needs a power-of-two cluster"},
      {edit(text, "{multicastCTA = 1 : i32}", "{multicastCTA = 2 : i32}"),
       "multicastCTA = 2 is outside 1..1"},
      {edit(text, "\"ttg.cluster-dim-x\" = 2", "\"ttg.cluster-dim-x\" = 17"),
       "ttg.cluster-dim-x is 17, expected 1..16"},
      {edit(text, "\"ttg.num-ctas\" = 1", "\"ttg.num-ctas\" = 2"),
       "a module uses one or the other"},
      {edit(text, "%rank = ttng.cluster_cta_id : i32", "%rank = ttng.cluster_cta_id : i64"),
       "has type i64"},
  };
  for (const Bad &b : cases) {
    auto m = parseModule(b.text);
    std::string got = !m.ok() ? m.message() : verify(*m).message();
    EXPECT_NE(got.find(b.error), std::string::npos) << b.error << "\ngot: " << got;
  }
}

// Each CTA copies half of the block into both CTAs' tiles; each stores the whole block.
TEST(Cluster, MulticastLandsInEveryCtaOfTheCluster) {
  CopyRun r = runMulticast(multicastText());
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const size_t block = 64 * 128;
  for (size_t p = 0; p < 4; ++p)
    for (size_t e = 0; e < block; ++e)
      ASSERT_EQ(r.out[p * block + e], r.in[(p / 2) * block + e]) << "program " << p << ", " << e;
}

TEST(Cluster, InterpreterReportsBrokenClusterProtocols) {
  const std::string text = multicastText();
  struct Broken {
    const char *what;
    std::string text;
    int64_t programs;
    std::string error;
  };
  const Broken cases[] = {
      {"no cluster barrier between the barriers' init and the peer's copies",
       edit(text, "    ttng.cluster_arrive\n    ttng.cluster_wait\n    ttng.barrier_expect",
            "    ttng.barrier_expect"),
       4, "of the cluster"},
      {"a wait without an arrive",
       edit(text, "    ttng.cluster_arrive\n    ttng.cluster_wait\n    ttng.barrier_expect",
            "    ttng.cluster_wait\n    ttng.barrier_expect"),
       4, "without a cluster_arrive first"},
      {"a grid that is no multiple of the cluster", text, 3, "is not a multiple of the cluster"},
      {"a barrier expecting more bytes than the two halves",
       edit(text, "ttng.barrier_expect %bar, 16384", "ttng.barrier_expect %bar, 24576"), 4,
       "deadlock"},
  };
  for (const Broken &b : cases) {
    SCOPED_TRACE(b.what);
    CopyRun r = runMulticast(b.text, b.programs);
    ASSERT_FALSE(r.status.ok());
    EXPECT_NE(r.status.message().find(b.error), std::string::npos) << r.status.message();
  }
}

// Outside a cluster the cluster ops are a cluster of one: the rank is 0 and the barrier passes.
TEST(Cluster, ClusterOpsWithoutAClusterAreTrivial) {
  std::string text = edit(multicastText(),
                          "\"ttg.cluster-dim-x\" = 2 : i32, \"ttg.cluster-dim-y\" = 1 : i32, "
                          "\"ttg.cluster-dim-z\" = 1 : i32, ",
                          "");
  text = edit(edit(text, " {multicastCTA = 1 : i32}", ""), " {multicastCTA = 1 : i32}", "");
  text = edit(text, "%hi, %bar, %is1", "%hi, %bar, %is0");
  CopyRun r = runMulticast(text, 2);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const size_t block = 64 * 128;
  for (size_t e = 0; e < block; ++e)
    ASSERT_EQ(r.out[e], r.in[e]) << e;
}

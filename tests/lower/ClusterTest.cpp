// Thread-block clusters lowered (sm_90a): the cluster directives in the entry's header, the
// cluster ops, TMA multicast with its CTA mask and remote mbarrier arrivals, checked as PTX text
// and through ptxas (no spills), for examples/tma_multicast.tir and matmul_ws_cluster.tir, as
// written and after the pass pipeline.
#include "Examples.h"
#include "PtxCheck.h"

#include "linlayout/ir/Parser.h"
#include "linlayout/ir/Pipeline.h"
#include "linlayout/lower/Lower.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iostream>
#include <sstream>

using namespace linlayout;
using namespace linlayout::lower;
using namespace linlayout::lower::testing;

TEST(Cluster, MulticastCopyLowersAndAssembles) {
  auto m = ir::parseModule(exampleSource("tma_multicast.tir"), "tma_multicast.tir");
  ASSERT_TRUE(m.ok()) << m.message();
  auto k = lowerKernel(*m);
  ASSERT_TRUE(k.ok()) << k.message();
  EXPECT_EQ(k->kernel.clusterDims, (std::array<int, 3>{2, 1, 1}));
  EXPECT_EQ(k->kernel.ctasPerCluster, 1);
  const std::string &ptx = k->kernel.ptx;
  EXPECT_PATTERNS(ptx, R"(
    CHECK: .explicitcluster
    CHECK-NEXT: .reqnctapercluster 2, 1, 1
    CHECK-NEXT: {
    CHECK: mbarrier.init.shared::cta.b64
    CHECK: fence.mbarrier_init.release.cluster
    CHECK: barrier.cluster.arrive.aligned
    CHECK: barrier.cluster.wait.aligned
    CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster
    CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster
    CHECK: mbarrier.try_wait.parity.shared::cta.b64
    CHECK: barrier.cluster.arrive.aligned
    CHECK: barrier.cluster.wait.aligned
    CHECK: mbarrier.inval.shared::cta.b64
  )");
  EXPECT_EQ(countLines(ptx, "%cluster_ctarank"), 1);
  expectAssembles(k->kernel, /*requireNoSpills=*/true);
  // A relaxed arrive.
  std::string text = exampleSource("tma_multicast.tir");
  text.replace(text.find("ttng.cluster_arrive\n"), 20, "ttng.cluster_arrive {relaxed = true}\n");
  auto relaxed = ir::parseModule(text, "relaxed.tir");
  ASSERT_TRUE(relaxed.ok()) << relaxed.message();
  auto kr = lowerKernel(*relaxed);
  ASSERT_TRUE(kr.ok()) << kr.message();
  EXPECT_EQ(countLines(kr->kernel.ptx, "barrier.cluster.arrive.relaxed.aligned"), 1);
}

// Clusters need sm_90: an older target is an error naming it.
TEST(Cluster, NeedsSm90) {
  std::string text = exampleSource("tma_multicast.tir");
  text.replace(text.find("\"cuda:90\""), 9, "\"cuda:80\"");
  auto m = ir::parseModule(text, "old.tir");
  ASSERT_TRUE(m.ok()) << m.message();
  auto k = lowerKernel(*m);
  ASSERT_FALSE(k.ok());
  EXPECT_NE(k.message().find("clusters need sm_90"), std::string::npos) << k.message();
}

// The clustered matmul: per K step one expect, A's box, and this CTA's half of B as two
// multicast boxes (each predicated on the CTA's rank); the consumers' frees are two remote
// arrives each (one per CTA); no spills, as written and after the pass pipeline.
TEST(Cluster, ClusterMatmulLowersAndAssembles) {
  for (auto [name, passes] : {std::pair{"matmul_ws_cluster.tir", false},
                              {"matmul_ws_cluster.tir", true},
                              {"matmul_ws_cluster_mma.tir", false}}) {
    SCOPED_TRACE(std::string(name) + (passes ? " after the pipeline" : " as written"));
    auto m = ir::parseModule(exampleSource(name), name);
    ASSERT_TRUE(m.ok()) << m.message();
    if (passes)
      ASSERT_TRUE(ir::runPipeline(*m).ok());
    auto k = lowerKernel(*m);
    ASSERT_TRUE(k.ok()) << k.message();
    const std::string &ptx = k->kernel.ptx;
    EXPECT_EQ(k->kernel.params.at(1).box, (std::vector<uint32_t>{64, 64}));
    EXPECT_EQ(countLines(ptx, "multicast::cluster"), 4);
    EXPECT_EQ(countLines(ptx, "mbarrier.arrive.shared::cluster.b64"), 4);
    EXPECT_EQ(countLines(ptx, "mapa.shared::cluster.u32"), 4);
    EXPECT_EQ(countLines(ptx, "barrier.cluster.arrive.aligned"), 2);
    auto r = expectAssembles(k->kernel, /*requireNoSpills=*/true);
    if (r.accepted)
      std::cout << "[          ] " << name << ": " << r.registers << " registers, "
                << k->kernel.sharedBytes << " shared bytes\n";
  }
}

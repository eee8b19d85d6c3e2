// lower::occupancy: CTAs per SM from threads, registers and shared memory, against cases worked
// out by hand from the per-SM limits (and the occupancies measured in docs/performance.md).
#include "linlayout/lower/Occupancy.h"

#include <gtest/gtest.h>

using namespace linlayout::lower;

namespace {

PtxTarget sm(int v) { return PtxTarget{v, 80}; }

} // namespace

TEST(Occupancy, WorkedExamples) {
  // The 128x256 mma.sync GEMM: 256 threads x 255 registers (256 allocated) = 64 Ki registers:
  // one CTA, by registers; its 144 KiB of rings would allow one as well.
  Occupancy wide = occupancy(sm(90), 256, 255, 144 << 10);
  EXPECT_EQ(wide.ctasPerSm, 1);
  EXPECT_EQ(wide.warpsPerSm, 8);
  EXPECT_EQ(wide.limitedBy, "registers and shared memory");
  // The 128x128 GEMM: 128 threads x 217 registers (224) = 28 Ki: two CTAs by registers; its
  // 48 KiB of rings (+ 1 KiB reserved) allow four on sm_90, three on sm_80.
  Occupancy narrow = occupancy(sm(90), 128, 217, 48 << 10);
  EXPECT_EQ(narrow.ctasPerSm, 2);
  EXPECT_EQ(narrow.limitedBy, "registers");
  // A small conversion kernel: 128 threads, 24 registers, 4 KiB: 16 CTAs = 64 warps on sm_90 and
  // sm_80 (warps bind; registers would allow 21, shared memory 45), 12 on sm_86 / sm_89 (48
  // warps). With 32 registers, registers bind at 16 as well.
  Occupancy small = occupancy(sm(90), 128, 24, 4 << 10);
  EXPECT_EQ(small.ctasPerSm, 16);
  EXPECT_EQ(small.warpsPerSm, 64);
  EXPECT_EQ(small.limitedBy, "warps");
  EXPECT_EQ(occupancy(sm(90), 128, 32, 4 << 10).limitedBy, "registers and warps");
  EXPECT_EQ(occupancy(sm(86), 128, 24, 4 << 10).ctasPerSm, 12);
  EXPECT_EQ(occupancy(sm(89), 128, 24, 4 << 10).ctasPerSm, 12);
  // 8 KiB + 1 KiB reserved: 11 CTAs in sm_86's 100 KiB, shared memory binds.
  EXPECT_EQ(occupancy(sm(86), 128, 24, 8 << 10).ctasPerSm, 11);
  EXPECT_EQ(occupancy(sm(86), 128, 24, 8 << 10).limitedBy, "shared memory");
  // One warp with few registers: the CTA cap binds (32 on sm_80 and sm_90, 16 on sm_86, 24 on
  // sm_89).
  EXPECT_EQ(occupancy(sm(80), 32, 16, 0).ctasPerSm, 32);
  EXPECT_EQ(occupancy(sm(80), 32, 16, 0).limitedBy, "CTAs");
  EXPECT_EQ(occupancy(sm(86), 32, 16, 0).ctasPerSm, 16);
  EXPECT_EQ(occupancy(sm(89), 32, 16, 0).ctasPerSm, 24);
  // Shared memory: 100 KiB per CTA fits twice in sm_90's 228 KiB, once in sm_80's 164 KiB and not
  // at all in sm_86's 100 KiB (the 1 KiB reserved per CTA).
  EXPECT_EQ(occupancy(sm(90), 128, 32, 100 << 10).ctasPerSm, 2);
  EXPECT_EQ(occupancy(sm(80), 128, 32, 100 << 10).ctasPerSm, 1);
  Occupancy none = occupancy(sm(86), 128, 32, 100 << 10);
  EXPECT_EQ(none.ctasPerSm, 0);
  EXPECT_EQ(none.limitedBy, "shared memory");
}

// Registers are allocated per warp in units of 256: 1..8 registers per thread cost the same, 9
// costs 16; more registers never raise the occupancy.
TEST(Occupancy, RegistersRoundUpAndNeverHelp) {
  EXPECT_EQ(occupancy(sm(90), 1024, 1, 0).ctasPerSm, occupancy(sm(90), 1024, 8, 0).ctasPerSm);
  EXPECT_EQ(occupancy(sm(90), 1024, 64, 0).ctasPerSm, 1);
  EXPECT_EQ(occupancy(sm(90), 1024, 65, 0).ctasPerSm, 0);
  int last = 1 << 30;
  for (int r = 1; r <= 255; ++r) {
    int n = occupancy(sm(90), 256, r, 0).ctasPerSm;
    EXPECT_LE(n, last) << r;
    last = n;
  }
}

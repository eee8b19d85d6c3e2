// Pass: CTA planning, for kernels launched as clusters of several CTAs (module attribute
// "ttg.num-ctas" > 1). Every layout of such a kernel covers all the CTAs (its linear layout has
// a `block` input of num-ctas); a layout that does not say how (written for one CTA) is held
// whole by every CTA (broadcast). The pass then splits the work:
//  - dot: the M x N tile is cut into splitM x splitN chunks (planDotCtaSplit), one per CTA, but
//    no finer than one instruction tile per warp of an mma accumulator (CTAs left over hold
//    copies); the accumulator gets that CTA split, A and B the dot-operand layouts of it (A
//    broadcast over the CTAs of one row of chunks, B over one column);
//  - reduce and scan: the dimensions other than the reduced (scanned) one are cut over the CTAs,
//    slowest first, each taking as many CTAs as it has elements per thread-chunk (no reduction
//    or scan across CTAs; PropagateLayouts keeps it so);
//  - store, when there is no dot: the stored tile is cut the same way, slowest dimension first.
// Converts are inserted to and from the new layouts; propagation and cleanup then move them.
// Loads keep the split of their layout: one written for a single CTA is read whole by every CTA
// (correct, but each CTA loads the whole tile; splitting loads to match is not done yet).
//
// Runs after: verify. Runs before: Coalesce (which keeps the CTA split of an access's layout).
#pragma once

#include "linlayout/ir/Module.h"
#include "linlayout/layout/Expected.h"

#include <cstdint>

namespace linlayout::ir {

/// How a dot's tile is cut over the CTAs.
struct DotCtaSplit {
  int64_t splitM = 1;
  int64_t splitN = 1;
};

/// The CTA split of an M x N dot tile over numCtas CTAs (Triton's plan-cta rule): try chunks of
/// 128 rows, then 64; with chunk c, splitM = clamp(M / c, 1, numCtas) and splitN = numCtas /
/// splitM, accepted when N / splitN >= 64 (so no CTA gets fewer than 64 rows or columns). When no
/// chunk is accepted (a tile too small for the cluster), the 64-row attempt is the answer.
/// Requires: M, N, numCtas powers of two.
/// Ensures: splitM * splitN == numCtas; splitM <= max(1, M / 64) unless numCtas forces more.
/// Example: (M 256, N 128, 2 CTAs) -> 2 x 1; (128, 128, 2) -> 1 x 2; (256, 256, 4) -> 2 x 2.
DotCtaSplit planDotCtaSplit(int64_t m, int64_t n, int64_t numCtas);

/// Plans the CTA split of every function of m (nothing when m.numCtas == 1).
/// Requires: verify(m) is ok; num-ctas a power of two.
/// Ensures: verify(m) is ok; every tensor layout covers num-ctas CTAs; the interpreter computes
/// the same results as before.
Status planCtas(Module &m);

} // namespace linlayout::ir

// The tile IR: semantics note.
//
// A module holds kernels (functions) and the layouts their types use. Every value is an SSA value
// with an id; tensors are values too (a whole tile), with a shape, an element type and a layout
// that says which register of which lane of which warp of which CTA holds each element. The
// layout never changes what a program computes: the reference interpreter ignores it, and every
// pass must keep the interpreter's results. Layouts only decide how fast the program runs after
// lowering. A program runs once per program id (grid point); `tt.get_program_id` reads it.
//
// Module attributes say how the kernel is launched: warps per CTA, threads per warp, CTAs per
// program (num-ctas), the thread-block cluster of explicitly clustered kernels
// ("ttg.cluster-dim-x/y/z": each CTA is a program of its own, the grid is launched in clusters of
// that shape, and the ttng.cluster_* ops and multicast copies work across the cluster), and the
// target ("cuda:80", "cuda:90").
#pragma once

#include "linlayout/ir/Function.h"
#include "linlayout/ir/LayoutTable.h"

#include <array>
#include <string>
#include <vector>

namespace linlayout::ir {

/// Everything one text file or one builder session holds.
struct Module {
  std::vector<Function> functions;
  LayoutTable layouts;
  int numWarps = 4;
  int threadsPerWarp = 32;
  int numCtas = 1;
  /// The cluster shape in CTAs along x, y, z ("ttg.cluster-dim-x/y/z"; 1, 1, 1: no cluster).
  /// Each CTA of such a cluster is a program; the grid's sizes are multiples of these.
  std::array<int, 3> clusterDims{1, 1, 1};
  /// CTAs per cluster (the product of clusterDims).
  int clusterSize() const { return clusterDims[0] * clusterDims[1] * clusterDims[2]; }
  /// Software-pipelining depth the kernel asks for ("ttg.num-stages"; 0: not given, the
  /// pipeline pass then uses its option; 1: no pipelining).
  int numStages = 0;
  std::string target = "cuda:80";
  /// The file the module was parsed from, for messages ("" when built in C++).
  std::string fileName;

  /// The function named `name`, or nullptr.
  Function *function(std::string_view name) {
    for (Function &f : functions)
      if (f.name == name)
        return &f;
    return nullptr;
  }
  const Function *function(std::string_view name) const {
    for (const Function &f : functions)
      if (f.name == name)
        return &f;
    return nullptr;
  }
  /// The layout of a tensor or descriptor type. Requires: t has a layout in this table.
  const LayoutSpec &layoutOf(const Type &t) const { return layouts.get(t.layout()); }
};

} // namespace linlayout::ir

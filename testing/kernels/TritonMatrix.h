// The layout conversions Triton's own GPU tests make (python/test/gluon/test_lowerings.py in
// Triton: test_convert2d_layouts over its eleven 2-D layouts and four swizzled intermediates,
// test_convert_mma2mma_layouts, test_convert_warp_local_layouts, test_convert1d_layouts and the
// warp-shuffle regression), those that one CTA on sm_90 runs, as tile-IR kernels: our own list
// of those public layouts and kernels of the same form (load in the source layout, optionally
// through shared memory in the intermediate layout, convert, store from the destination layout).
//
// Element types: Triton's (f16; i32 and i1 for the 1-D cases; i16 for the shuffle regression)
// and f32, i8, i64. The swizzled intermediates go with f16 only (they exercise local_alloc /
// local_load, not the conversion), which keeps the matrix at a few thousand kernels.
// scripts/gpu/triton_matrix.py builds the same cases, by the same names, with Gluon.
#pragma once

#include "linlayout/ir/Module.h"
#include "linlayout/layout/LayoutSpec.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace linlayout::gpukernels {

/// One conversion of the matrix.
struct MatrixCase {
  /// "<suite>/<src>-<dst>/<intermediate>/<shape>/<type>", e.g. "convert2d/3-10/none/64x128/f16";
  /// layouts by their index in the suite's list.
  std::string name;
  std::string suite;
  LayoutSpec src, dst;
  /// The shared layout the tile goes through before the conversion (convert2d).
  std::optional<LayoutSpec> intermediate;
  std::vector<int64_t> shape; // rank 1 or 2
  ir::ScalarKind elem = ir::ScalarKind::F16;
  int warps = 4;
};

/// Every case, in a fixed order (the suites in the order above).
std::vector<MatrixCase> tritonMatrix();

/// Every `stride`-th case of tritonMatrix() starting at `first`, plus every case of the suites
/// that have few (warp_shuffle): a deterministic sample for the fast regression test.
std::vector<MatrixCase> tritonMatrixSample(size_t stride, size_t first = 0);

/// The case's kernel `convert(in, out)`: out holds `in` element for element (i1 cases read bytes
/// and write i32, as Triton's test stores its booleans into an int32 tensor).
Expected<ir::Module> matrixKernel(const MatrixCase &c);

/// The element type of the case's output buffer.
ir::ScalarKind matrixOutputType(const MatrixCase &c);

} // namespace linlayout::gpukernels

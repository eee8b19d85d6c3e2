// Tile-IR kernels for the GPU tests and the GPU benchmarks, made with ir::Builder: memcpy 1-D and
// 2-D, the 2-D copy between tensors of opposite strides (two layouts, one convert), layout
// conversion round trips, and the tiled matmul. Each returns a module that verifies, or an error.
#pragma once

#include "linlayout/ir/Module.h"
#include "linlayout/layout/LayoutSpec.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace linlayout::gpukernels {

/// blocked(spt, tpw, wpc, order), asserting the arguments are valid (test data, not user input).
LayoutSpec blocked(std::vector<int64_t> spt, std::vector<int64_t> tpw, std::vector<int64_t> wpc,
                   std::vector<int64_t> order);
/// nvidia_mma(version, warps, instr).
LayoutSpec mma(int version, std::vector<int64_t> warps, std::vector<int64_t> instr);

/// A layout-conversion pair with the name the benchmarks and Triton's side use.
struct NamedPair {
  std::string name;
  LayoutSpec src, dst;
};
/// The six reference conversion pairs of the 128x128, 4-warp benchmark (the golden pairs of
/// tests/layout/GoldenConversionsTest.cpp): transpose_blocked, lane_permute, register_only,
/// mma2_to_blocked, mma3_to_blocked, mma2_to_transposed.
std::vector<NamedPair> referencePairs();

/// memcpy_1d(src, dst, n): program p copies elements [p*block, (p+1)*block) below n.
/// Layout blocked([spt], [32], [warps], [0]).
Expected<ir::Module> memcpy1d(ir::ScalarKind elem, int64_t block, int64_t spt, int warps);

/// memcpy_2d(src, dst, stride): program (i, j) copies the rows x cols tile (i, j) of a row-major
/// matrix with row stride `stride` (elements), in `layout`.
Expected<ir::Module> memcpy2d(ir::ScalarKind elem, int64_t rows, int64_t cols,
                              const LayoutSpec &layout, int warps);

/// copy_2d_inout(in, out, xn, yn, xsi, ysi, xso, yso): program (i, j) copies the xb x yb tile
/// (i, j) of an xn x yn matrix from strides (xsi, ysi) to strides (xso, yso): loaded in `lin`,
/// converted to `lout`, stored (masked at the edges), as Gluon's layout tutorial does. Specialised
/// as Triton specialises that kernel's call: ysi and xso must be 1 (the kernel ignores them), xn,
/// yn, xsi and yso multiples of 16.
Expected<ir::Module> copy2dInOut(ir::ScalarKind elem, int64_t xb, int64_t yb, const LayoutSpec &lin,
                                 const LayoutSpec &lout, int warps);

/// convert_check(in, out_dst, out_src): program p reads tile p (rows x cols, row-major, tiles
/// stored one after another) in `src`, converts it to `dst` and stores it (out_dst == in), adds 1,
/// converts back to `src` and stores that (out_src == in + 1). Integer elements.
Expected<ir::Module> convertCheck(ir::ScalarKind elem, int64_t rows, int64_t cols,
                                  const LayoutSpec &src, const LayoutSpec &dst, int warps);

/// convert_loop(in, out, iters): program p loads tile p in `src`; `iters` times converts to `dst`,
/// adds 1, converts back; stores. The Triton reference benchmark's kernel.
///
/// With `storeDst`, the last dst tile is carried out of the loop and stored too (the same values,
/// to the same addresses), so that every thread that holds it uses it. Where warps hold copies of
/// the tile, the dst -> src conversion reads one copy, and without such a use ptxas drops the
/// other warps' src -> dst loads: work that a kernel using the tile in every warp pays for. It
/// keeps both tiles live across the loop, which large tiles cannot afford without spilling.
Expected<ir::Module> convertLoop(ir::ScalarKind elem, int64_t rows, int64_t cols,
                                 const LayoutSpec &src, const LayoutSpec &dst, int warps,
                                 bool storeDst = false);

/// shared_trip(in, out, out_ring, out_view): program p reads tile p (rows x cols, row-major,
/// tiles one after another) in `src` and moves it through shared tiles in layout `shared` (any
/// shared family, padded_shared included) to `dst`: a local_alloc of the tile, local_load
/// (out == in); x + 1 local_stored into tile 1 of a 2-tile ring and loaded (out_ring == in + 1);
/// the lower half of the first tile through a memdesc_subslice (out_view: rows / 2 x cols per
/// program == in's lower half). Integer elements; `dst` a blocked layout.
Expected<ir::Module> sharedTrip(ir::ScalarKind elem, int64_t rows, int64_t cols,
                                const LayoutSpec &src, const LayoutSpec &shared,
                                const LayoutSpec &dst, int warps);

/// The text of examples/`file` under `sourceDir`, or an error naming the file.
Expected<std::string> exampleText(const std::string &file, const std::string &sourceDir);

/// The names of examples/`prefix`*.tir under `sourceDir`, sorted (none where there is no such
/// folder): every variant of a family, so that the GPU tests and benchmarks take a new one as it
/// lands.
std::vector<std::string> exampleFilesStartingWith(const std::string &prefix,
                                                  const std::string &sourceDir);

/// The head dim of an attention kernel, by its file or function name: N where a part of the name
/// between '_' and '_' or '.' is d<N> (attention_ws_pp_persistent_d256_causal.tir: 256), else 0.
int attentionHeadDim(const std::string &name);

/// row_sum(x, out, stride): examples/row_reduce.tir's kernel (32 rows of 128 f32 per program).
/// softmax(x, y, stride, n_cols): examples/softmax.tir's kernel.
/// matmul(a, b, c, K, lda, ldb, ldc): examples/matmul.tir with `elem` (f16 or bf16) inputs.
/// These read the example files (LINLAYOUT_SOURCE_DIR/examples) so tests run what docs show.
Expected<ir::Module> exampleKernel(const std::string &file, const std::string &sourceDir);

/// The repository root to read examples/ from: $LINLAYOUT_SOURCE_DIR if set, else the working
/// directory if it holds examples/matmul.tir (the GPU machine runs from the checkout's root), else
/// `compiledIn` (the source directory of the build).
std::string sourceDir(const std::string &compiledIn);

/// examples/`file` (matmul.tir, matmul_wide.tir or matmul_wgmma.tir) with its f16 inputs replaced
/// by `elem` (bf16; f32, whose mma.sync dot operands take kWidth 1: tf32), block tile and K step
/// unchanged.
Expected<ir::Module> matmulKernel(ir::ScalarKind elem, const std::string &sourceDir,
                                  const std::string &file = "matmul.tir");

/// The warp-specialized attention kernels (examples/) that are also tested and timed on bf16
/// inputs, P and O, through matmulKernel's swap: the fastest of each head dim and mask on f16.
inline const std::vector<std::string> kBf16AttentionKernels = {
    "attention_ws_pp_persistent_wg3_d64.tir",
    "attention_ws_pp_persistent_paired_tma_d64_causal.tir",
    "attention_ws_pp_persistent_tma_d128.tir",
    "attention_ws_pp_persistent_chain_d128.tir",
    "attention_ws_pp_persistent_paired_tma_d128_causal.tir",
    "attention_ws_pp_persistent_d256.tir",
    "attention_ws_pp_persistent_d256_causal.tir",
};

/// One wgmma tile product, every operand form the lowering has: C (M x N f32, row-major) = A (M x
/// K)
/// * B (K x N), both `elem` (f16 or bf16) and row-major in global memory, stored to shared memory
/// in NVMMA layouts of `swizzle` bytes (A K-major; B N-major, or K-major when bTransposed) or A
/// converted to registers (aInRegs), multiplied by ttng.warp_group_dot with instruction width
/// instrN over `warps` warps (warpsPerCTA [warps, 1] or, with nWarps2, [warps / 2, 2]); the proxy
/// fence is the fence-insertion pass's. Kernel wgmma_tile(a, b, c), one program.
struct WgmmaTileCase {
  int64_t m = 64, n = 64, k = 64, instrN = 64;
  ir::ScalarKind elem = ir::ScalarKind::F16;
  bool aInRegs = false, bTransposed = false, nWarps2 = false, isAsync = true;
  /// Two warp_group_dots over the K halves, each reading views (ttg.memdesc_subslice) of the
  /// tiles (A's only when A is in shared memory).
  bool kViews = false;
  /// A useC flag of this value on the (first) warp_group_dot, and an accumulator that starts at
  /// 1 instead of 0, so that C = A B + (useC ? 1 : 0).
  std::optional<bool> useC;
  int swizzle = 128, warps = 4;
  std::string name() const;
};
Expected<ir::Module> wgmmaTileKernel(const WgmmaTileCase &c);
/// The cases the GPU test runs and the CPU test lowers.
std::vector<WgmmaTileCase> wgmmaTileCases();

/// A random pair of distributed linear layouts of one 2^rowBits x 2^colBits tile over 32 lanes
/// and 2^warpBits warps (at most 64 registers per thread), each a random invertible F2 map of the
/// tensor bits, sometimes with a broadcast lane or warp basis.
struct RandomPair {
  LayoutSpec src, dst;
  int rowBits = 0, colBits = 0, warpBits = 0;
};
RandomPair randomPair(std::mt19937_64 &rng);

} // namespace linlayout::gpukernels

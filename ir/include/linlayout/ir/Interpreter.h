// The CPU reference interpreter: runs a kernel with tensor semantics and ignores layouts, so a
// pass that changes only layouts (or moves conversions) must not change what it computes. Tests
// run every example before and after the pass pipeline and compare memory byte for byte.
//
// Semantics, fixed so that results are deterministic:
//  - integers wrap to their width (two's complement); i1 is 0 or 1; shifts by the width or more
//    give 0 (shl) or the sign fill (shrsi); division by zero is an error;
//  - floats are computed in double and rounded to the element kind after every op (f16 and bf16
//    round to nearest even); minimumf / maximumf propagate NaN; fptosi truncates and saturates;
//  - dot accumulates c + sum_k a[m,k] * b[k,n] in double in k order and rounds once; reduce
//    combines elements in index order, rounding after each step;
//  - a masked-off load gives `other` (or 0); loads and stores outside a buffer are errors;
//  - programs run one after another, x fastest, then y, then z.
//
// Hopper copies and barriers. A `!tt.tensordesc` argument is an ArgValue::tensorDesc: the
// tensor starts at the start of a buffer and has `dims` and element `strides` (outermost first).
// ttng.async_tma_copy_global_to_local copies the descriptor's block at the coordinates at once;
// elements whose coordinates fall outside the dims (negative ones too) read as zero. A copy whose
// innermost coordinate times the element size is no multiple of 16 bytes is an error (the GPU
// stops on it with an illegal instruction). mbarriers are
// tracked as the hardware counts them: init_barrier sets the arrival count, barrier_expect
// arrives once and adds its bytes to the transaction count, each copy takes its box's bytes
// (zero-filled ones included) off it, and a phase completes when both reach zero. Programs run
// sequentially, so the interpreter reports as errors: a wait on a phase that has not completed
// (it could never complete: no copy or arrival is pending), more bytes delivered than expected in
// a completed count, more arrivals than the count, and any use of a barrier that is not
// initialised (or was invalidated), or a second init without inval_barrier.
//
// Asynchronous accesses. Copies land at once here, so a kernel that reads a tile before waiting
// for its copy would compute the right numbers and race on the GPU. The interpreter follows, per
// element of shared memory, what the hardware may still be doing and reports the first access
// that would race with it, as an error of that op:
//  - a ttg.async_copy_global_to_local (cp.async) writes its tile until a ttg.async_wait retires
//    its group: async_commit_group closes a group of the copies issued since the last one, and
//    async_wait {num = N} retires every committed group but the N newest (a copy not committed
//    yet is in no group: no wait retires it);
//  - a ttng.async_tma_copy_global_to_local writes its tile until a ttng.wait_barrier sees the
//    barrier phase its bytes count in complete;
//  - an asynchronous ttng.warp_group_dot reads its shared operands until a
//    ttng.warp_group_dot_wait leaves no more than `pendings` newer dots in flight;
// reading or writing an element a copy may still be writing, writing one a dot may still be
// reading, and deallocating either, are errors. With InterpreterOptions::checkProxyFences, so is
// an async-proxy access (a wgmma's shared operand, a TMA copy's destination) of an element that a
// generic write (local_alloc with a value, local_store, cp.async) reached with no
// ttng.fence_async_shared since. The check is at the scope of the CTA: the barriers that make one
// thread's completed copies visible to the others are the lowering's.
#pragma once

#include "linlayout/ir/Module.h"
#include "linlayout/layout/Expected.h"

#include <cstdint>
#include <functional>
#include <span>
#include <string_view>
#include <vector>

namespace linlayout::ir {

/// Global memory: byte buffers that pointer arguments point to the start of.
struct Memory {
  std::vector<std::vector<uint8_t>> buffers;
};

/// The row-major strides of `shape`, in elements (the last dim's is 1): a TMA descriptor's
/// `strides` over a dense tensor.
std::vector<int64_t> rowMajorStrides(const std::vector<int64_t> &shape);

/// A kernel argument: a pointer to the start of a buffer, an integer, a float, or a TMA tensor
/// descriptor (a tensor of `dims` with element `strides`, outermost first, starting at the start
/// of `buffer`; its element type is the descriptor type's).
struct ArgValue {
  enum Kind { Pointer, Int, Float, TensorDesc } kind = Int;
  uint32_t buffer = 0;
  int64_t i = 0;
  double f = 0;
  std::vector<int64_t> dims;
  std::vector<int64_t> strides;
  static ArgValue pointer(uint32_t buffer) { return {Pointer, buffer, 0, 0, {}, {}}; }
  static ArgValue integer(int64_t v) { return {Int, 0, v, 0, {}, {}}; }
  static ArgValue floating(double v) { return {Float, 0, 0, v, {}, {}}; }
  static ArgValue tensorDesc(uint32_t buffer, std::vector<int64_t> dims,
                             std::vector<int64_t> strides) {
    return {TensorDesc, buffer, 0, 0, std::move(dims), std::move(strides)};
  }
};

/// The number of programs along x, y, z.
struct Grid {
  int64_t x = 1, y = 1, z = 1;
};

/// Limits that keep a hostile kernel from running forever, and a window on the values.
struct InterpreterOptions {
  /// Ops executed in total, counting each op once per execution (not per element).
  int64_t maxOps = int64_t(1) << 26;
  /// Elements touched in total (sum over executed ops of their result size; a dot counts its
  /// multiply-adds, the result size times K).
  int64_t maxElementOps = int64_t(1) << 32;
  /// Called with every integer or pointer result as it is computed: its id and its elements in
  /// row-major order (a pointer's element is its byte offset in its buffer).
  std::function<void(ValueId, std::span<const int64_t>)> observer;
  /// Also hold the kernel to the proxy fence rule (see the header comment): true for kernels
  /// after the pass pipeline, whose fence insertion puts the fences in; kernels as written leave
  /// them to it.
  bool checkProxyFences = false;
};

/// Runs `function` of `m` once per program of `grid`, reading and writing `memory`.
/// Requires: verify(m) is ok (checked; an error otherwise); args match the parameters (pointer
/// arguments name buffers of `memory`).
/// Ensures: on error, the message names the op and the program id; memory may be partly written.
Status interpret(const Module &m, std::string_view function, std::span<const ArgValue> args,
                 Memory &memory, Grid grid = {}, InterpreterOptions options = {});

/// Rounds a double to the values of a float kind (f16, bf16, f32; f64 is unchanged).
/// Ensures: roundToFloatKind(roundToFloatKind(x, k), k) == roundToFloatKind(x, k).
double roundToFloatKind(double x, ScalarKind k);

/// The bits memory holds for `x` stored as float kind `k` (f16, bf16, f32, f64), in the low bits:
/// rounded as roundToFloatKind rounds; a NaN is the kind's quiet NaN for f16 and bf16 and keeps
/// its bits (as a float) for f32 and f64. tt.store writes these bits.
uint64_t floatBits(double x, ScalarKind k);

} // namespace linlayout::ir

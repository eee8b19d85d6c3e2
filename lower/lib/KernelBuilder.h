// A kernel under construction: an LLVM module holding one `.entry` function, its parameters, the
// hardware ids (thread, lane, warp, block), dynamic shared memory, and the way out to PTX.
#pragma once

#include "NvptxBackend.h"
#include "linlayout/lower/KernelPtx.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <memory>
#include <string>
#include <vector>

namespace linlayout::lower {

/// What the kernel looks like from outside.
struct KernelSpec {
  std::string name = "kernel";
  std::vector<KernelParam> params;
  /// Threads per block along x, a multiple of 32 in [32, 1024].
  int threadsPerBlock = 128;
  /// true: `.reqntid` (the kernel assumes exactly this many threads); false: `.maxntid`.
  bool exactThreads = false;
  /// `.maxnreg`: the registers per thread at entry (0: the backend's choice), where setmaxnreg
  /// moves registers between warp groups.
  int maxRegisters = 0;
  /// `.minnctapersm`: the CTAs an SM must hold at once (0: no directive). 1 lets ptxas use the
  /// whole register budget of the block (65536 / threads, at most 255 per thread).
  int minCtasPerSm = 0;
};

/// How `finish` turns the module into PTX.
struct FinishOptions {
  /// Run LLVM's O3 pipeline before code generation.
  bool optimize = true;
};

/// Builds one kernel. The IR builder is positioned in the entry block after the hardware ids.
class KernelBuilder {
public:
  /// Requires: a valid PTX identifier as name; threadsPerBlock a multiple of 32 in [32, 1024];
  /// pointer params 64 bits wide, int params 1/8/16/32/64 bits, float params 16/32/64 bits.
  static Expected<std::unique_ptr<KernelBuilder>> create(const KernelSpec &spec);
  ~KernelBuilder();

  llvm::LLVMContext &context() { return *ctx_; }
  llvm::Module &module() { return *module_; }
  llvm::Function &function() { return *fn_; }
  llvm::IRBuilder<> &b() { return builder_; }
  const KernelSpec &spec() const { return spec_; }

  /// The i-th parameter. Requires: i < params.size() (asserts).
  llvm::Value *param(int i);

  /// %tid.x (known to lie in [0, threadsPerBlock)), the lane (tid & 31) and the warp (tid >> 5).
  llvm::Value *threadId() const { return tid_; }
  llvm::Value *laneId() const { return lane_; }
  llvm::Value *warpId() const { return warp_; }
  /// The thread ids the lowering indexes by; a warp_specialize region sees its own (counted
  /// from its first warp) while it is lowered.
  struct ThreadIds {
    llvm::Value *tid, *lane, *warp, *uniformWarp;
  };
  ThreadIds threadIds() { return {tid_, lane_, warp_, uniformWarpId()}; }
  void setThreadIds(const ThreadIds &ids) {
    tid_ = ids.tid;
    lane_ = ids.lane;
    warp_ = ids.warp;
    uniformWarp_ = ids.uniformWarp;
  }
  /// warpId() as a warp-uniform value (shfl.sync.idx from lane 0, computed once on entry), for
  /// conditions ptxas should branch on rather than predicate.
  llvm::Value *uniformWarpId();
  /// %ctaid.x|y|z. Requires: axis in 0..2 (asserts).
  llvm::Value *blockId(int axis) const { return ctaid_[axis]; }
  /// %nctaid.x|y|z. Requires: axis in 0..2 (asserts).
  llvm::Value *numBlocks(int axis) const { return nctaid_[axis]; }

  /// The start of dynamic shared memory (an `addrspace(3)` pointer, 16-byte aligned).
  llvm::Value *sharedBase();
  /// Aligns the start of dynamic shared memory to `bytes` (a power of two; wgmma's swizzled
  /// operands need 1024).
  void alignShared(uint64_t bytes);
  /// Records that the kernel uses `bytes` of shared memory (the reported size is the maximum).
  void useSharedBytes(uint64_t bytes) { sharedBytes_ = std::max(sharedBytes_, bytes); }
  uint64_t sharedBytes() const { return sharedBytes_; }

  /// The module as LLVM IR text (as it is now).
  std::string llvmText() const;

  /// Ends the kernel (a `ret` where the builder stands when the block has no terminator),
  /// verifies, optimises when asked, and writes PTX for the backend's target. After this the
  /// module holds the optimised IR.
  Expected<KernelPtx> finish(const NvptxBackend &backend, const FinishOptions &options = {});

private:
  KernelBuilder(const KernelSpec &spec, std::unique_ptr<llvm::LLVMContext> ctx);
  void createFunction();

  KernelSpec spec_;
  std::unique_ptr<llvm::LLVMContext> ctx_;
  std::unique_ptr<llvm::Module> module_;
  llvm::IRBuilder<> builder_;
  llvm::Function *fn_ = nullptr;
  llvm::Value *tid_ = nullptr;
  llvm::Value *lane_ = nullptr;
  llvm::Value *warp_ = nullptr;
  llvm::Value *uniformWarp_ = nullptr;
  llvm::Value *ctaid_[3] = {};
  llvm::Value *nctaid_[3] = {};
  llvm::GlobalVariable *smem_ = nullptr;
  uint64_t sharedBytes_ = 0;
};

} // namespace linlayout::lower

// Every LLVM API that changed between LLVM releases and that lower/ touches, behind one interface:
// porting lower/ to another LLVM means editing LlvmShim.cpp alone.
//  - target machine creation (the triple became a `Triple` in LLVM 21);
//  - intrinsic declarations (`getDeclaration` became `getOrInsertDeclaration` in LLVM 20);
//  - kernel marking (nvvm.annotations metadata up to LLVM 19; the ptx_kernel calling convention
//    and `nvvm.maxntid` attributes later);
//  - `or disjoint` (IRBuilder takes the flag from LLVM 20 on);
//  - the names of the ldmatrix and mma intrinsics.
#pragma once

#include <vector>

#include "linlayout/lower/PtxTarget.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>

#include <memory>
#include <string>

namespace llvm {
class Function;
class Module;
class TargetMachine;
class Value;
} // namespace llvm

namespace linlayout::lower::shim {

/// The highest PTX ISA version (times ten) this LLVM writes.
int maxPtxVersion();

/// The NVPTX target machine for `target`, or an error naming what LLVM refused.
/// Requires: the NVPTX target is initialised (see NvptxBackend).
Expected<std::unique_ptr<llvm::TargetMachine>> createTargetMachine(const PtxTarget &target);

/// The declaration of an intrinsic in `m`, created on first use.
llvm::Function *intrinsic(llvm::Module &m, llvm::Intrinsic::ID id,
                          llvm::ArrayRef<llvm::Type *> overloads = {});

/// a | b where the caller knows a & b == 0 (an addition LLVM may fold into addresses).
llvm::Value *createDisjointOr(llvm::IRBuilder<> &b, llvm::Value *lhs, llvm::Value *rhs);

/// Marks `f` as a kernel entry launched with at most (or, when `exact`, exactly) `threads`
/// threads along x; `maxRegisters` > 0 writes `.maxnreg`, `minCtasPerSm` > 0 `.minnctapersm`.
void markKernel(llvm::Function &f, int threads, bool exact, int maxRegisters = 0,
                int minCtasPerSm = 0);

/// Marks byval parameters `indices` (from 0) of kernel `f` as grid constants (one nvvm
/// `grid_constant` annotation listing them all: LLVM 19 reads only one per kernel): the kernel
/// reads them in parameter space and may take their address (cvta.param) instead of copying them
/// to local memory.
void markGridConstant(llvm::Function &f, const std::vector<int> &indices);

/// The ldmatrix intrinsic loading `count` (1, 2 or 4) 8x8 b16 matrices, transposed or not.
/// Requires: count is 1, 2 or 4 (asserts).
llvm::Intrinsic::ID ldmatrixIntrinsic(int count, bool trans);

/// The mma.sync intrinsics lower/ uses.
enum class MmaKind { M16N8K16_F16_F32, M16N8K16_BF16_F32, M16N8K8_TF32_F32, M16N8K32_S8_S32 };
llvm::Intrinsic::ID mmaIntrinsic(MmaKind kind);

} // namespace linlayout::lower::shim

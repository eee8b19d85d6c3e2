// Vectorised global-memory loads and stores: up to 128 bits per thread per instruction
// (ld.global.v4.b32), masks as predicates, fall-back values for masked-off loads.
#pragma once

#include <llvm/IR/IRBuilder.h>

#include <cstdint>
#include <vector>

namespace linlayout::lower {

/// L1/L2 caching hint of a global access.
enum class CacheModifier {
  None,   ///< the default (.ca for loads, .wb for stores)
  Global, ///< .cg: cache in L2 only
  Stream, ///< .cs: evict first
};

/// One vectorised global load.
struct GlobalLoad {
  /// Base address (an addrspace(1) pointer) and a constant byte offset added to it.
  llvm::Value *base = nullptr;
  int64_t byteOffset = 0;
  /// Element type (i8, i16, i32, i64, f16, bf16, f32, f64) and count: count * bits is 8, 16,
  /// 32, 64 or 128 and the address is aligned to it.
  llvm::Type *elementType = nullptr;
  int count = 1;
  /// An i1: the load happens only where it is true. Null: always.
  llvm::Value *mask = nullptr;
  /// Where masked off, the elements take these values (count of them); empty: undefined.
  std::vector<llvm::Value *> other;
  CacheModifier cache = CacheModifier::None;
};

/// Whether `count` elements of `bits` bits can move in one global access (8..128 bits in
/// total, a power of two).
bool isVectorAccessWidth(int count, int bits);

/// Emits the load; returns its `count` elements.
/// Requires: isVectorAccessWidth(count, bits of elementType); other empty or count values of
/// the element type (asserts: these are lower/'s own invariants).
std::vector<llvm::Value *> emitGlobalLoad(llvm::IRBuilder<> &b, const GlobalLoad &load);

/// Emits a vectorised store of `values` (all one type) at base + byteOffset, where `mask` (an
/// i1, or null for always) is true. Requires: isVectorAccessWidth(values.size(), bits).
void emitGlobalStore(llvm::IRBuilder<> &b, llvm::Value *base, int64_t byteOffset,
                     const std::vector<llvm::Value *> &values, llvm::Value *mask = nullptr,
                     CacheModifier cache = CacheModifier::None);

} // namespace linlayout::lower

// Byte permutes (prmt) for packing and unpacking 8- and 16-bit elements in 32-bit registers, so a
// shuffle or a shared-memory access moves whole words.
#pragma once

#include <llvm/IR/IRBuilder.h>

#include <array>
#include <cstdint>
#include <vector>

namespace linlayout::lower {

/// prmt.b32 d, a, b, selector: byte i of d is byte selector[4i..4i+3] of the 8 bytes {b, a}
/// (bytes 0-3 from a, 4-7 from b). `selector` may be a runtime i32.
llvm::Value *bytePermute(llvm::IRBuilder<> &b, llvm::Value *lo, llvm::Value *hi,
                         llvm::Value *selector);
/// The same with a constant selector built from four byte sources (each 0..7).
llvm::Value *bytePermute(llvm::IRBuilder<> &b, llvm::Value *lo, llvm::Value *hi,
                         std::array<int, 4> sources);
/// The selector for four byte sources. Requires: each source in 0..7 (asserts).
uint32_t prmtSelector(std::array<int, 4> sources);

/// Packs elements of 8 or 16 bits (any such type) into 32-bit words, first element in the low
/// bits; the last word is padded with zero bytes. 32-bit elements are returned as i32 words.
std::vector<llvm::Value *> packWords(llvm::IRBuilder<> &b, const std::vector<llvm::Value *> &v);

/// Unpacks `count` elements of type `elemTy` (8, 16 or 32 bits) from words made by packWords.
std::vector<llvm::Value *> unpackWords(llvm::IRBuilder<> &b,
                                       const std::vector<llvm::Value *> &words, llvm::Type *elemTy,
                                       int count);

/// `whenSet` where bit `bit` of `laneId` is 1, else `whenClear` (a select on a lane bit).
llvm::Value *selectByLaneBit(llvm::IRBuilder<> &b, llvm::Value *laneId, int bit,
                             llvm::Value *whenSet, llvm::Value *whenClear);

} // namespace linlayout::lower

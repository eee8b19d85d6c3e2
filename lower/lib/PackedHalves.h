// Sub-word registers in 32-bit words: two halves (f16, bf16, i16) or four bytes (i8 and the
// 8-bit floats) as one word and back. Halves split with one `mov.b32` each way: LLVM would split a
// word by a truncation and a shift (cvt.u16.u32 and a second mov), which ptxas turns into byte
// permutes that move the halves into separate registers; one mov lets ptxas keep both halves in
// the word's register. Bytes split as the elements of a <4 x i8> bitcast of the word. Either way
// joining the parts of one split word gives that word back with no instruction. Used where these
// tensors cross a loop's back edge or leave an scf.if, where shuffled words are packed and
// unpacked, where they are stored to shared memory, and where mma and wgmma operands are joined.
#pragma once

#include <llvm/IR/IRBuilder.h>

#include <utility>
#include <vector>

namespace linlayout::lower {

/// Both halves of a 32-bit word (low, high) as i16, with one `mov.b32 {lo, hi}, word`.
/// Requires: word is an i32. Ensures: word == zext(lo) | zext(hi) << 16.
std::pair<llvm::Value *, llvm::Value *> splitHalves(llvm::IRBuilder<> &b, llvm::Value *word);

/// lo and hi (16-bit values of one type) as one 32-bit word, lo in the low half. When they are
/// the two halves of one splitHalves call, that call's word itself: no instruction, so a pair
/// that crossed a loop's back edge reaches an mma operand in the register it arrived in.
/// Ensures: splitHalves(b, result) gives lo and hi back (as i16).
llvm::Value *joinHalves(llvm::IRBuilder<> &b, llvm::Value *lo, llvm::Value *hi);

/// One 32-bit word of `elems` (1 of 32 bits, 2 of 16 or 4 of 8, the lowest first), as mma and
/// wgmma fragments take them; two halves go through joinHalves, four bytes that are one word's,
/// split by unpackSubwords, are that word (no instruction), and four that are two 16-bit
/// registers' bytes (a cvt's to two 8-bit floats, say) are those two registers (one mov).
/// Requires: elems' bits add up to 32, all of one type.
llvm::Value *joinWord(llvm::IRBuilder<> &b, const std::vector<llvm::Value *> &elems);

/// regs packed into words: registers 2i and 2i + 1 into word i (low, high) where regs are an
/// even number of one 16-bit type, registers 4i .. 4i + 3 (the lowest first) where they are a
/// multiple of 4 bytes (i8); else regs unchanged.
/// Ensures: unpackSubwords(b, packSubwords(b, regs), regs) holds the values of regs, in order.
std::vector<llvm::Value *> packSubwords(llvm::IRBuilder<> &b,
                                        const std::vector<llvm::Value *> &regs);

/// The registers packSubwords packed into `words`, with the types of `like` (the registers that
/// were packed, or any registers of the same types and count).
/// Requires: words came from packSubwords of registers typed like `like`.
std::vector<llvm::Value *> unpackSubwords(llvm::IRBuilder<> &b,
                                          const std::vector<llvm::Value *> &words,
                                          const std::vector<llvm::Value *> &like);

} // namespace linlayout::lower

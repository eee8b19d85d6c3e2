// Hopper warp-group mma (wgmma.mma_async): how an NVMMA shared tile becomes the 64-bit matrix
// descriptors the instruction reads, and where the accumulator and register-A fragments live.
//
// Facts from the PTX ISA ("Asynchronous Warpgroup Level Matrix Multiply-Accumulate",
// sections "Matrix Descriptor Format", "Shared Memory Matrix Layout", "Register Fragments"):
//  - descriptor bits 0-13: (start address & 0x3FFFF) >> 4; 16-29: leading dimension byte offset
//    >> 4; 32-45: stride dimension byte offset >> 4; 49-51: base offset (0: the buffer is aligned
//    to the swizzle pattern's repeat); 62-63: swizzle mode, 1 = 128 B, 2 = 64 B, 3 = 32 B.
//  - a swizzled operand is made of atoms of 8 rows of one swizzle width (S bytes). K-major (the
//    K dim contiguous): row r of the tile sits at (r / 8) * SBO + (r % 8) * S; LBO is unused.
//    MN-major: K row k sits at (k / 8) * SBO + (k % 8) * S and each further S bytes of the MN dim
//    at + LBO. Then the 16-byte chunk bits 4.. of the address are XORed with bits 7.. (as many
//    bits as S / 16 has).
//  - accumulator m64nNk16 f32: register i of lane l of warp w (of the warp group) holds row
//    16 w + l / 4 + 8 ((i >> 1) & 1), column 2 (l % 4) + (i & 1) + 8 (i >> 2).
//  - register A m64k16 (16-bit): word j of lane l of warp w holds row 16 w + l / 4 + 8 (j & 1),
//    columns 2 (l % 4) + 8 (j >> 1) and the next one (low half first).
// Everything here is checked by brute force over the tiles' elements, on the CPU.
#pragma once

#include "linlayout/layout/Expected.h"
#include "linlayout/layout/LinearLayout.h"

#include <cstdint>
#include <vector>

namespace linlayout::lower {

/// How wgmma reads one operand from shared memory.
struct WgmmaSmemOperand {
  int swizzleBytes = 0; ///< 32, 64 or 128; 16 for no swizzle (core matrices of 8 x 16 bytes)
  bool mnMajor = false; ///< the M (A) or N (B) dim is the contiguous one (imm-trans = 1)
  int64_t leadingByteOffset = 0;
  int64_t strideByteOffset = 0;
  int elemBytes = 2;

  /// The descriptor's bits 16..63 (the start address is added per instruction).
  uint64_t descriptorHighBits() const;
};

/// The byte address a wgmma reading `op` from `start` takes element (mn, k) of its tile from
/// (start must be aligned as the swizzle repeat is: a multiple of 1024 plus an offset the
/// pattern allows).
uint64_t wgmmaElementAddress(const WgmmaSmemOperand &op, uint64_t start, uint64_t mn, uint64_t k);

/// The K of one wgmma instruction for elements of `elemBytes`: 32 bytes (16 for f16 / bf16, 8 for
/// tf32).
inline int64_t wgmmaK(int elemBytes) { return 32 / elemBytes; }

/// A shared layout's element -> offset table for a rank-2 buffer (offset in elements).
/// Requires: `shared` maps (offset[, block]) onto (dim0, dim1), bijective per CTA.
struct SharedOffsets {
  int64_t rows = 0, cols = 0;
  std::vector<int64_t> offset; ///< [row * cols + col]
  int64_t at(int64_t r, int64_t c) const { return offset[size_t(r * cols + c)]; }
  static Expected<SharedOffsets> of(const LinearLayout &shared);
  /// The table of a view (ttg.memdesc_subslice) of `rows` x `cols` whose element (r, c) is this
  /// tile's element at the view's origin + (r, c), at offset at(r, c) XOR `viewXor` (the lowering's
  /// Lowered::viewXor: the origin's offset).
  /// Requires: rows <= this->rows, cols <= this->cols.
  SharedOffsets view(uint64_t viewXor, int64_t rows, int64_t cols) const;
};

/// The descriptor fields for a wgmma operand in `shared` (A: [M, K], kDim 1; B: [K, N], kDim 0),
/// each instruction reading a tile of `tileMn` x wgmmaK(elemBytes) elements (MN x K: 32 bytes of
/// K) of `offsets`, or of `view` when given (SharedOffsets::view of `offsets`: the fields, the
/// swizzle among them, are the whole tile's; a view may be narrower than a swizzled row).
/// 4-byte (tf32) operands must be K-major.
/// Requires: elemBytes 1, 2 or 4.
/// Ensures: when it succeeds, for every tile of what is read at a multiple of (tileMn, K) and
/// every element of it, wgmmaElementAddress(d, read(tile origin) * elemBytes, mn, k) equals
/// read(element) * elemBytes (checked here; an error names the layout when it does not hold).
Expected<WgmmaSmemOperand> deriveWgmmaOperand(const SharedOffsets &offsets, int kDim, int elemBytes,
                                              int64_t tileMn, const SharedOffsets *view = nullptr);

/// Where (row, col) register i of lane `lane` of warp `warp` of a warp group sits in the
/// m64nN f32 accumulator fragment (the PTX ISA's formula).
std::pair<int64_t, int64_t> wgmmaAccumulatorElement(int i, int lane, int warp);

/// For each register of an accumulator in layout `acc` (an nvidia_mma v3 layout over [M, N]):
/// the instruction tile (origin row, column) of warp 0's warp group and the fragment slot.
struct WgmmaAccumulatorMap {
  struct Reg {
    int64_t row0 = 0, col0 = 0; ///< the instruction tile of warp group 0
    int slot = 0;               ///< index into the instruction's N/2 registers
  };
  std::vector<Reg> regs; ///< one per register of the layout
  /// Row and column the warp-group bits (warp bits 2..) add to every tile, one per bit.
  std::vector<std::pair<int64_t, int64_t>> warpGroupSteps;
};

/// Matches `acc` against the fragment of m64nNk16 (N = instrN): every (register, lane, warp)
/// must hold the element the instruction writes there. Errors name the first mismatch.
Expected<WgmmaAccumulatorMap> mapWgmmaAccumulator(const LinearLayout &acc, int64_t instrN);

/// For each register of a register-A operand in layout `a` (dot_op of an nvidia_mma v3 parent,
/// over [M, K], of elements of `elemBytes`, 1, 2 or 4): its instruction tile (rows row0.., columns
/// k0..k0+wgmmaK-1) and its place in the m64k16 (m64k8 for tf32) A fragment (word 0..3; half 0
/// low / 1 high of a word of two 16-bit elements, 0 for tf32).
struct WgmmaOperandAMap {
  struct Reg {
    int64_t row0 = 0, k0 = 0;
    int word = 0, half = 0;
  };
  std::vector<Reg> regs;
};

/// Matches `a` against the register-A fragment (lanes, the 4 warps of a warp group); errors name
/// the first mismatch.
Expected<WgmmaOperandAMap> mapWgmmaOperandA(const LinearLayout &a, int elemBytes = 2);

} // namespace linlayout::lower

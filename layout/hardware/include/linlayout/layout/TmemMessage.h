// The register layouts of Blackwell's tensor-memory loads and stores (tcgen05.ld / tcgen05.st),
// as Triton 3.6 chooses them (Gluon's get_tmem_reg_layout): the distributed layout in which
// each thread holds exactly the elements its warp's messages move.
//
// A message shape (the "atom") fixes which TMEM rows and columns each lane of a warp touches in
// one message: 32x32b (lane i: row i, one column), 16x64b, 16x128b and 16x256b (16 rows, lanes
// spread over 2, 4 or 8 columns). A warp reaches only its quarter of the 128 rows: warps 1 and 2
// (the low warp bits) are TMEM rows 32 and 64. Triton widens the atom with registers along the
// columns, puts the warps past the first four on row 16 (when the layout uses it) or on further
// columns (broadcasting any that are left), and composes that (register, lane, warp) -> (row,
// col) map with the tensor-memory layout. Elements narrower than 32 bits are first packed along
// the columns (several per 32-bit column), unpacked (16-bit, col_stride 2) or padded. 16x32bx2
// is never asked for: Triton uses it inside 32x32b when a 64-row block leaves lanes 16-31 idle.
#pragma once

#include "linlayout/layout/CgaLayout.h"
#include "linlayout/layout/Expected.h"
#include "linlayout/layout/LayoutSpec.h"
#include "linlayout/layout/LinearLayout.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace linlayout {

/// The tcgen05.ld/st message shapes.
enum class TmemAtom { I32x32b, I16x64b, I16x128b, I16x256b, I16x32bx2 };

/// The PTX name of an atom ("32x32b", ...).
std::string_view tmemAtomName(TmemAtom atom);
/// The atom named `name`, or an error listing the names.
Expected<TmemAtom> tmemAtomFromName(std::string_view name);

/// The register layout of `atom` messages between registers and `memory` over a tensor of
/// `shape`, for `numWarps` warps and elements of `elementBitwidth` bits, split over CTAs as
/// `cga` (Gluon's cga_layout, in CTA tiles); nullopt where Triton has none (the atom is wider
/// than the layout's columns, or its lanes would hold one element twice).
/// Requires: memory.isTensorMemory(); shape of rank 2 that memory accepts; numWarps a power of
/// two from 4 to 2^10; elementBitwidth 8, 16 or 32; a descriptor Triton accepts
/// (checkTmemDescriptor: the element fits a column, a block per CTA, the columns fit tensor
/// memory; 8-bit scales); atom not I16x32bx2; cga of rank 2 whose split is the memory layout's
/// last column bits (errors otherwise).
/// Ensures: in dims register, lane (32), warp (numWarps), block (cga.numCtas()); out dims dim0,
/// dim1 of sizes `shape`; warp bits 0 and 1 reach the elements of TMEM rows 32 and 64 (each
/// thread holds only elements its warp's quarter of the rows holds).
/// Example: tensor_memory{block [128, 128], col_stride 1} over 128x128, 4 warps, 32x32b, 32-bit:
/// register bases (0,1) .. (0,64), lane bases (1,0) .. (16,0), warp bases (32,0), (64,0).
Expected<std::optional<LinearLayout>> tmemMessageLayout(const LayoutSpec &memory,
                                                        std::span<const int64_t> shape,
                                                        int64_t numWarps, TmemAtom atom,
                                                        int elementBitwidth, const CgaLayout &cga);

} // namespace linlayout

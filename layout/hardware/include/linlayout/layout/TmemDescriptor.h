// The checks Triton 3.6 makes when a tensor-memory descriptor is formed (a !ttg.memdesc in
// #ttng.tensor_memory: a shape, an element type and a tensor-memory layout). Gluon's
// get_tmem_reg_layout forms one before it chooses a register layout, so it refuses what these
// refuse, whatever the message shape.
//
// For tensor_memory: an element takes at most one 32-bit column (element bits x colStride <=
// 32); the tensor covers at least one block per CTA (blockM x CTASplitM rows, blockN x
// CTASplitN columns); and each CTA's columns fit tensor memory: the layout's `col` dim, divided
// by the CTA split, counts element slots (colStride columns each, packed several to a 32-bit
// column) and tensor memory holds 512 x 32 / bits of them. For tensor_memory_scales: the
// elements are 8-bit scales.
#pragma once

#include "linlayout/layout/Expected.h"

#include <cstdint>
#include <span>

namespace linlayout {

class LayoutSpec;

/// Whether Triton 3.6 accepts a descriptor of `shape` with `elementBitwidth`-bit elements in
/// the tensor-memory layout `memory`, with Triton's rule in the error where it does not.
/// Requires: memory.isTensorMemory().
/// Ensures: ok exactly when shape has rank 2 and the rules of this file's note hold.
/// Example: tensor_memory{block [128, 16], col_stride 1} over 256x512 with 32-bit elements ->
/// "tmem descriptor: each CTA's part of [256, 512] takes 1024 columns of 32-bit elements, more
/// than the 512 tensor memory holds (512 x 32 / 32)".
Status checkTmemDescriptor(const LayoutSpec &memory, std::span<const int64_t> shape,
                           int elementBitwidth);

} // namespace linlayout

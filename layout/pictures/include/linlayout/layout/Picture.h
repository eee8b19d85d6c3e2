// Pictures of layouts as text: the tensor map (who holds each element), the inverse view (what
// each thread holds), and for shared layouts the offset and bank of every element (for a padded
// layout also its address: the offset spread out by the layout's padding).
//
// A matrix is drawn with rows along the first of its two innermost tensor dims and columns along
// the last; a rank-1 tensor is one row; a tensor of rank 3 or more is a sequence of matrices, one
// per index of its outer dims. Two cell styles reproduce the two published ways of drawing:
//  - Owners (Gluon's layout tutorial): `T<thread>:<register>`, thread = lane + lanes * warp;
//    `|`-joined when the element is held several times; `C<block>:` in front when there are
//    several CTAs; `T:<register>` for a layout of one anonymous thread (register dim only) and
//    `T<thread>` for one with no register dim.
//        [[ T0:0,  T0:1, ..., T15:3],
//         [T16:4, T16:5, ..., T31:7]]
//  - ThreadIds (the TritonGPU attribute docs): thread ids only, `;` where the warp changes along
//    a row, an extra space where the layout's tile repeats, and one bracketed block per CTA with
//    a `CTA [r,c]` heading when CTAs split the tensor.
//        [ 0  0  1  1  2  2  3  3  ; 32 32 33 33 34 34 35 35 ]
// Large tensors are elided: past maxRows rows (maxCols columns) only the first and last few rows
// (columns) of each group are shown, a group being a repetition of the layout's tile or a CTA's
// part; `...` stands for what is hidden.
#pragma once

#include "linlayout/layout/Expected.h"
#include "linlayout/layout/OwnerMap.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace linlayout {

/// How the cells of a distributed tensor map are written (see the note above).
enum class CellStyle { Owners, ThreadIds };

/// What a picture shows and how much of it.
struct PictureOptions {
  CellStyle style = CellStyle::Owners;
  /// Rows / columns / outer slices shown whole up to these counts; elided past them.
  int64_t maxRows = 32;
  int64_t maxCols = 32;
  int64_t maxSlices = 4;
  /// When eliding, the rows (columns) kept at the start and at the end of each group.
  int64_t rowHead = 4, rowTail = 2;
  int64_t colHead = 4, colTail = 2;
  /// When eliding and there are more groups than groupHead + groupTail + 1, the groups kept
  /// (and then each kept group shows only its share of rowHead/rowTail, colHead/colTail).
  int64_t groupHead = 1, groupTail = 1;
  /// A padded shared layout's {interval, padding} pairs (PaddedShared.h, powers of two): offset
  /// o is stored at address o + sum over pairs of (o / interval) * padding, and its bank is that
  /// address's. Empty: addresses are the offsets.
  std::vector<std::array<int64_t, 2>> padding;
};

/// In a list of shown indices, one entry standing for a run of hidden indices.
constexpr int64_t kElided = -1;

/// The indices along tensor dim `dim` that a picture shows, ascending, with kElided where a run
/// is hidden (never two kElided in a row).
/// Requires: 0 <= dim < map.rank(); head, tail, groupHead, groupTail >= 0; max >= 1.
/// Ensures: every index is shown when map.shape()[dim] <= max; otherwise each kElided hides at
/// least one index, and the first and last indices are shown when head, tail >= 1.
std::vector<int64_t> shownIndices(const OwnerMap &map, int dim, int64_t max, int64_t head,
                                  int64_t tail, int64_t groupHead, int64_t groupTail);

/// How many columns of the tensor map fit in `width` characters: `width` divided by the widest
/// cell (with its separator), at least 4. For choosing PictureOptions::maxCols.
/// Requires: width >= 1.
int64_t columnsThatFit(const OwnerMap &map, CellStyle style, int64_t width);

/// The text of one cell of the tensor map: for a distributed layout its holders in `style`, for
/// a shared layout its offsets (`C<block>:` in front when there are several CTAs), `|`-joined;
/// "-" when nothing holds the element.
/// Requires: 0 <= element < map.numElements().
std::string cellText(const OwnerMap &map, int64_t element, CellStyle style);

/// The tensor map: every shown element with its holders (distributed, in options.style) or its
/// offset (shared).
/// Ensures: for a rank-2 map shown whole in the Owners style, cell (r, c) of line r reads
/// cellText(map, r * cols + c, Owners).
std::string renderTensorMap(const OwnerMap &map, const PictureOptions &options = {});

/// The inverse view. Distributed: one line per thread, its registers in order, each the
/// coordinates of the element it holds. Shared: one line per 128 bytes of a block's memory (one
/// pass over the 32 banks), the elements at its offsets.
/// Requires: for a shared map, bitwidth is 8, 16, 32 or 64 (an error otherwise).
Expected<std::string> renderInverse(const OwnerMap &map, const PictureOptions &options = {},
                                    int bitwidth = 16);

/// The bank (of 32 banks of 4 bytes) of a shared-memory offset for elements of `bitwidth` bits:
/// (offset * bitwidth / 32) mod 32, the bank of its first byte.
/// Requires: bitwidth in {8, 16, 32, 64}.
int bankOf(uint64_t offset, int bitwidth);

/// The element address of `offset` under options.padding (the offset itself without pairs).
/// Ensures: strictly increasing in offset.
uint64_t paddedAddress(uint64_t offset, const PictureOptions &options);

/// The element address (paddedAddress of its offset) of every shown element of a shared layout,
/// drawn like its offsets.
/// Requires: map.isShared() (an error otherwise).
Expected<std::string> renderAddresses(const OwnerMap &map, const PictureOptions &options = {});

/// The bank of every shown element of a shared layout (of its padded address), drawn like its
/// offsets.
/// Requires: map.isShared(); bitwidth in {8, 16, 32, 64} (errors otherwise).
Expected<std::string> renderBanks(const OwnerMap &map, int bitwidth,
                                  const PictureOptions &options = {});

} // namespace linlayout

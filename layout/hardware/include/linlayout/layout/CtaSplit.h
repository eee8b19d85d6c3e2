// The CTA split of a layout spec of any family, read and replaced. Families carry it in
// different places (a CgaLayout in blocked, mma and shared layouts; the parent's in slice and
// dot-operand layouts; block bases in linear layouts); this is the one view of it.
// A layout written for one CTA in a kernel of several is held whole by every CTA (broadcast).
//
// Each family answers for itself: a family with `const CgaLayout &cga() const` needs only
// `withCga(cga)`; the others (slice, dot operand, the linear families) also give `numCtas()`,
// `cgaSplit()` and `ctaBases()`. A family that answers none of these does not compile here.
#pragma once

#include "linlayout/layout/CgaLayout.h"
#include "linlayout/layout/Expected.h"
#include "linlayout/layout/LayoutSpec.h"

#include <cstdint>
#include <optional>

namespace linlayout {

/// How many CTAs a layout covers (2^block bits).
/// Ensures: numCtasOf(withCga(s, c).value()) == c.numCtas().
int64_t numCtasOf(const LayoutSpec &spec);

/// The CTA split of a layout in its own rank, when the family says it as a CgaLayout (blocked,
/// nvidia_mma, shared, and slices / dot operands of those); nullopt for linear layouts.
std::optional<CgaLayout> cgaOf(const LayoutSpec &spec);

/// Whether the layout gives different CTAs different parts of the tensor (some block basis is
/// not zero), rather than one CTA or a broadcast to all; with `dim`, different parts along that
/// dimension (some block basis has a non-zero component there).
bool splitsOverCtas(const LayoutSpec &spec, std::optional<int> dim = std::nullopt);

/// The split in which each of numCtas CTAs holds the whole tensor (all block bases zero).
/// Requires: numCtas a power of two; 1 <= rank <= CgaLayout::kMaxRank.
CgaLayout broadcastCga(int rank, int64_t numCtas);

/// The same layout with CTA split `cga` (of the layout's rank; a slice's parent gets it with a
/// zero component inserted at the sliced dimension, a dot operand's parent gets it as is).
/// Requires: cga.rank() == spec.rank().
Expected<LayoutSpec> withCga(const LayoutSpec &spec, const CgaLayout &cga);

} // namespace linlayout

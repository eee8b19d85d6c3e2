// LayoutSpec: any hardware layout family, as a value, and its conversion to a linear layout.
//
// Families (one header each): blocked, slice, nvidia_mma, dot_operand, linear, amd_mfma,
// amd_wmma (distributed: in dims register, lane, warp, block), swizzled_shared,
// nvmma_shared, shared_linear, padded_shared (shared: in dims offset, block; padded_shared's
// element addresses are its offsets with padding, see sharedPadding) and tensor_memory,
// tensor_memory_scales (Blackwell's tensor memory: in dims row, col). Out dims are always
// dim0..dim{rank-1}, dim0 the outermost tensor dimension (the row of a matrix). The conversions
// follow Triton 3.6's toLinearLayout, so a layout copied from a Triton or Gluon program means the
// same thing here.
//
// A LayoutSpec is an immutable value: copy it freely (slice and dot_operand share their immutable
// parent), compare with ==.
#pragma once

#include "linlayout/layout/AmdMfma.h"
#include "linlayout/layout/AmdWmma.h"
#include "linlayout/layout/Blocked.h"
#include "linlayout/layout/CgaLayout.h"
#include "linlayout/layout/DotOperand.h"
#include "linlayout/layout/Expected.h"
#include "linlayout/layout/LinearLayout.h"
#include "linlayout/layout/LinearSpec.h"
#include "linlayout/layout/NvidiaMma.h"
#include "linlayout/layout/NvmmaShared.h"
#include "linlayout/layout/PaddedShared.h"
#include "linlayout/layout/Slice.h"
#include "linlayout/layout/SwizzledShared.h"
#include "linlayout/layout/TensorMemory.h"
#include "linlayout/layout/TensorMemoryScales.h"

#include <cstdint>
#include <span>
#include <string_view>
#include <variant>

namespace linlayout {

/// The family of a layout spec, in the order of LayoutSpec::Variant; the names are the `kind`
/// strings of the query format (each family's kKind). Adding a family (CONTRIBUTING.md): its
/// header and source (kKind, kDistributed, rank, toLinearLayout, the CTA-split queries of
/// CtaSplit.h, and its attribute syntax: kAttr, parseAttr, attrText of AttrFields.h), a line
/// here and in the variant, and its JSON form (JsonForm in tools/query/SpecJson.cpp).
enum class LayoutKind {
  Blocked,            // "blocked"
  Slice,              // "slice"
  NvidiaMma,          // "nvidia_mma"
  DotOperand,         // "dot_operand"
  Linear,             // "linear"
  SwizzledShared,     // "swizzled_shared"
  NvmmaShared,        // "nvmma_shared"
  SharedLinear,       // "shared_linear"
  AmdMfma,            // "amd_mfma"
  AmdWmma,            // "amd_wmma"
  PaddedShared,       // "padded_shared"
  TensorMemory,       // "tensor_memory"
  TensorMemoryScales, // "tensor_memory_scales"
};

/// The `kind` string of a family.
std::string_view kindName(LayoutKind kind);

/// A layout of any family.
/// Ensures: kind() names the held family; exactly one of isDistributed(), isShared(),
/// isTensorMemory() holds.
class LayoutSpec {
public:
  using Variant =
      std::variant<BlockedSpec, SliceSpec, NvidiaMmaSpec, DotOperandSpec, LinearSpec,
                   SwizzledSharedSpec, NvmmaSharedSpec, SharedLinearSpec, AmdMfmaSpec, AmdWmmaSpec,
                   PaddedSharedSpec, TensorMemorySpec, TensorMemoryScalesSpec>;

  // Implicit from each (already checked) family value.
  LayoutSpec(BlockedSpec s) : v_(std::move(s)) {}
  LayoutSpec(SliceSpec s) : v_(std::move(s)) {}
  LayoutSpec(NvidiaMmaSpec s) : v_(std::move(s)) {}
  LayoutSpec(DotOperandSpec s) : v_(std::move(s)) {}
  LayoutSpec(LinearSpec s) : v_(std::move(s)) {}
  LayoutSpec(SwizzledSharedSpec s) : v_(std::move(s)) {}
  LayoutSpec(NvmmaSharedSpec s) : v_(std::move(s)) {}
  LayoutSpec(SharedLinearSpec s) : v_(std::move(s)) {}
  LayoutSpec(AmdMfmaSpec s) : v_(std::move(s)) {}
  LayoutSpec(AmdWmmaSpec s) : v_(std::move(s)) {}
  LayoutSpec(PaddedSharedSpec s) : v_(std::move(s)) {}
  LayoutSpec(TensorMemorySpec s) : v_(std::move(s)) {}
  LayoutSpec(TensorMemoryScalesSpec s) : v_(std::move(s)) {}

  LayoutKind kind() const { return LayoutKind(v_.index()); }
  /// Register layouts: in dims register, lane, warp, block.
  bool isDistributed() const;
  /// Shared-memory layouts: in dims offset, block.
  bool isShared() const { return !isDistributed() && !isTensorMemory(); }
  /// Tensor-memory layouts (Blackwell): in dims row, col.
  bool isTensorMemory() const;
  /// The tensor rank the layout is for.
  int rank() const;

  /// The family value, or nullptr when another family is held.
  template <typename T> const T *as() const { return std::get_if<T>(&v_); }
  const Variant &variant() const { return v_; }

  friend bool operator==(const LayoutSpec &a, const LayoutSpec &b) { return a.v_ == b.v_; }
  friend bool operator!=(const LayoutSpec &a, const LayoutSpec &b) { return !(a == b); }

private:
  Variant v_;
};

/// The padding a shared layout puts between its offsets and its element addresses (see
/// PaddedShared.h); empty for every layout whose addresses are its offsets.
inline std::span<const PadInterval> sharedPadding(const LayoutSpec &spec) {
  return std::visit(
      [](const auto &s) -> std::span<const PadInterval> {
        if constexpr (requires { s.padding(); })
          return s.padding();
        else
          return {};
      },
      spec.variant());
}

/// Whether `spec` is an operand of mma.sync / wgmma: a dot_operand whose parent is nvidia_mma.
bool isMmaOperand(const LayoutSpec &spec);

/// The linear layout of `spec` over a tensor of `shape`, as Triton 3.6 defines it.
/// Requires: shape.size() == spec.rank(); every entry a power of two >= 1; the result fits the
/// LinearLayout limits (64 in-bits, 64 out-bits); family-specific limits (e.g. nvmma_shared needs
/// at least one swizzle tile: 8 rows and swizzle_byte_width * 8 / element_bitwidth columns).
/// Ensures: out dims dim0..dim{rank-1} with sizes `shape`; in dims register, lane, warp, block
/// (distributed), offset, block (shared) or row, col (tensor memory); distributed layouts are
/// surjective; shared layouts
/// are bijective from (offset, block) when the CGA layout has no broadcast.
/// Example: toLinearLayout(blocked{[1],[32],[4],[0]}, {128}) has lane bases 1..16, warp 32, 64.
Expected<LinearLayout> toLinearLayout(const LayoutSpec &spec, std::span<const int64_t> shape);

} // namespace linlayout

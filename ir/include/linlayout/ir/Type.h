// Types of the tile IR: scalars, pointers to global memory, tensors that carry a distributed
// layout, and shared-memory descriptors that carry a shared layout.
//
// A type is a small value. Its layout is a `LayoutId`, an index into the module's `LayoutTable`
// (layouts are interned there, so two types are equal exactly when shape, element and layout id
// are). Tensor shapes are powers of two with at most kMaxNumElements elements, as in Triton.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace linlayout::ir {

/// The scalar element kinds. F8E4M3FN and F8E5M2 are the 8-bit floats (Triton's f8E4M3FN:
/// 4 exponent bits, 3 mantissa bits, no infinities, NaN 0x7F / 0xFF, largest 448; f8E5M2: 5 and
/// 2, with infinities, largest 57344): values to load, store, move, convert (tt.fp_to_fp) and
/// multiply (ttng.warp_group_dot), not to compute with.
enum class ScalarKind : uint8_t { I1, I8, I16, I32, I64, F16, BF16, F32, F64, F8E4M3FN, F8E5M2 };

/// Bits of a scalar kind. Ensures: bitWidth(I1) == 1, bitWidth(F16) == 16, bitWidth(I64) == 64.
int bitWidth(ScalarKind k);
/// Bytes a scalar occupies in memory (i1 takes one byte).
int byteWidth(ScalarKind k);
bool isFloat(ScalarKind k);
inline bool isInt(ScalarKind k) { return !isFloat(k); }
/// Whether k is one of the 8-bit floats.
inline bool isFp8(ScalarKind k) { return k == ScalarKind::F8E4M3FN || k == ScalarKind::F8E5M2; }
/// The text of a kind ("i32", "bf16"). Ensures: scalarKindFromName(name(k)) == k.
std::string_view name(ScalarKind k);
/// The kind a text names, or nullopt.
std::optional<ScalarKind> scalarKindFromName(std::string_view text);

/// An interned layout: an index into the module's LayoutTable.
using LayoutId = uint32_t;
constexpr LayoutId kNoLayout = ~LayoutId(0);

enum class TypeKind : uint8_t { Scalar, Pointer, Tensor, MemDesc, TensorDesc };

/// The element of a tensor: a scalar, or a pointer (global memory) to a scalar.
struct ElemType {
  ScalarKind scalar = ScalarKind::I32;
  bool pointer = false;
  friend bool operator==(const ElemType &, const ElemType &) = default;
};

/// A tile-IR type. Scalar: `i32`; pointer: `!tt.ptr<f16>`; tensor: `tensor<128x64xf16, #l>`
/// (its elements may be pointers); shared-memory descriptor: `!ttg.memdesc<64x64xf16, #s>`;
/// TMA tensor descriptor: `!tt.tensordesc<tensor<128x64xf16, #s>>` (a kernel parameter naming a
/// tensor in global memory; its shape is the block one copy moves, its layout the shared layout
/// the block lands in).
class Type {
public:
  static constexpr int kMaxRank = 8;
  static constexpr int64_t kMaxNumElements = int64_t(1) << 20;

  /// Ensures: scalar(k).kind() == TypeKind::Scalar && scalar(k).elem().scalar == k.
  static Type scalar(ScalarKind k);
  /// A pointer to global memory holding `pointee` values.
  static Type pointer(ScalarKind pointee);
  /// A tensor. The factory does not check the shape (the verifier does).
  static Type tensor(std::vector<int64_t> shape, ElemType elem, LayoutId layout);
  /// A shared-memory descriptor. `allocShape` is the shape of the tile the descriptor views
  /// (Triton's alloc shape: a ttg.memdesc_subslice views part of a larger tile); empty, or equal
  /// to `shape`, means the descriptor is the whole tile (stored as empty, so that equal views
  /// compare equal).
  static Type memDesc(std::vector<int64_t> shape, ScalarKind elem, LayoutId layout,
                      bool isMutable = true, std::vector<int64_t> allocShape = {});

  /// A TMA tensor descriptor whose block is `shape` of `elem` in shared layout `layout`.
  static Type tensorDesc(std::vector<int64_t> shape, ScalarKind elem, LayoutId layout);

  Type() = default;

  TypeKind kind() const { return kind_; }
  bool isScalar() const { return kind_ == TypeKind::Scalar; }
  bool isPointer() const { return kind_ == TypeKind::Pointer; }
  bool isTensor() const { return kind_ == TypeKind::Tensor; }
  bool isMemDesc() const { return kind_ == TypeKind::MemDesc; }
  bool isTensorDesc() const { return kind_ == TypeKind::TensorDesc; }
  /// The element: the scalar itself, the pointer itself, or a tensor's / descriptor's element.
  ElemType elem() const { return elem_; }
  const std::vector<int64_t> &shape() const { return shape_; }
  int rank() const { return int(shape_.size()); }
  LayoutId layout() const { return layout_; }
  bool isMutable() const { return mutable_; }
  /// A memdesc's alloc shape when it views part of a larger tile; empty otherwise.
  const std::vector<int64_t> &allocShape() const { return allocShape_; }
  /// The shape of the tile a memdesc views: allocShape() when set, else shape().
  const std::vector<int64_t> &viewedTileShape() const {
    return allocShape_.empty() ? shape_ : allocShape_;
  }
  /// Elements of a tensor or descriptor; 1 for a scalar or pointer.
  int64_t numElements() const;

  /// The element as a stand-alone type: `tensor<4xi32>` -> `i32`; `tensor<4x!tt.ptr<f32>>` ->
  /// `!tt.ptr<f32>`.
  Type elementType() const;
  /// Whether the (element) type is an integer / a float / a pointer.
  bool isIntLike() const { return !elem_.pointer && isInt(elem_.scalar) && !isTensorDesc(); }
  bool isFloatLike() const { return !elem_.pointer && isFloat(elem_.scalar) && !isTensorDesc(); }
  bool isPointerLike() const { return elem_.pointer; }

  /// The same type with another element (for tensors: same shape and layout).
  Type withElem(ElemType e) const;
  /// A tensor with this type's element and the given shape and layout.
  Type withShapeAndLayout(std::vector<int64_t> shape, LayoutId layout) const;
  Type withLayout(LayoutId layout) const;

  friend bool operator==(const Type &, const Type &) = default;

private:
  TypeKind kind_ = TypeKind::Scalar;
  ElemType elem_;
  bool mutable_ = false;
  LayoutId layout_ = kNoLayout;
  std::vector<int64_t> shape_;
  std::vector<int64_t> allocShape_;
};

} // namespace linlayout::ir

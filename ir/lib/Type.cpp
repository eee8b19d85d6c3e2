#include "linlayout/ir/Type.h"

#include <array>

namespace linlayout::ir {

namespace {
struct KindInfo {
  ScalarKind kind;
  std::string_view name;
  int bits;
  bool isFloat;
};
constexpr std::array<KindInfo, 11> kKinds = {{
    {ScalarKind::I1, "i1", 1, false},
    {ScalarKind::I8, "i8", 8, false},
    {ScalarKind::I16, "i16", 16, false},
    {ScalarKind::I32, "i32", 32, false},
    {ScalarKind::I64, "i64", 64, false},
    {ScalarKind::F16, "f16", 16, true},
    {ScalarKind::BF16, "bf16", 16, true},
    {ScalarKind::F32, "f32", 32, true},
    {ScalarKind::F64, "f64", 64, true},
    {ScalarKind::F8E4M3FN, "f8E4M3FN", 8, true},
    {ScalarKind::F8E5M2, "f8E5M2", 8, true},
}};
const KindInfo &info(ScalarKind k) { return kKinds[size_t(k)]; }
} // namespace

int bitWidth(ScalarKind k) { return info(k).bits; }
int byteWidth(ScalarKind k) { return k == ScalarKind::I1 ? 1 : info(k).bits / 8; }
bool isFloat(ScalarKind k) { return info(k).isFloat; }
std::string_view name(ScalarKind k) { return info(k).name; }

std::optional<ScalarKind> scalarKindFromName(std::string_view text) {
  for (const KindInfo &i : kKinds)
    if (i.name == text)
      return i.kind;
  return std::nullopt;
}

Type Type::scalar(ScalarKind k) {
  Type t;
  t.kind_ = TypeKind::Scalar;
  t.elem_ = ElemType{k, false};
  return t;
}

Type Type::pointer(ScalarKind pointee) {
  Type t;
  t.kind_ = TypeKind::Pointer;
  t.elem_ = ElemType{pointee, true};
  return t;
}

Type Type::tensor(std::vector<int64_t> shape, ElemType elem, LayoutId layout) {
  Type t;
  t.kind_ = TypeKind::Tensor;
  t.elem_ = elem;
  t.shape_ = std::move(shape);
  t.layout_ = layout;
  return t;
}

Type Type::memDesc(std::vector<int64_t> shape, ScalarKind elem, LayoutId layout, bool isMutable,
                   std::vector<int64_t> allocShape) {
  Type t;
  if (allocShape != shape)
    t.allocShape_ = std::move(allocShape);
  t.kind_ = TypeKind::MemDesc;
  t.elem_ = ElemType{elem, false};
  t.shape_ = std::move(shape);
  t.layout_ = layout;
  t.mutable_ = isMutable;
  return t;
}

Type Type::tensorDesc(std::vector<int64_t> shape, ScalarKind elem, LayoutId layout) {
  Type t;
  t.kind_ = TypeKind::TensorDesc;
  t.elem_ = ElemType{elem, false};
  t.shape_ = std::move(shape);
  t.layout_ = layout;
  return t;
}

int64_t Type::numElements() const {
  int64_t n = 1;
  // Saturates just past the limit so that hostile shapes cannot overflow.
  for (int64_t d : shape_) {
    if (d <= 0)
      return 0;
    if (d > kMaxNumElements || n * d > kMaxNumElements)
      return kMaxNumElements + 1;
    n *= d;
  }
  return n;
}

Type Type::elementType() const {
  return elem_.pointer ? pointer(elem_.scalar) : scalar(elem_.scalar);
}

Type Type::withElem(ElemType e) const {
  if (kind_ == TypeKind::Tensor)
    return tensor(shape_, e, layout_);
  if (kind_ == TypeKind::MemDesc)
    return memDesc(shape_, e.scalar, layout_, mutable_, allocShape_);
  if (kind_ == TypeKind::TensorDesc)
    return tensorDesc(shape_, e.scalar, layout_);
  return e.pointer ? pointer(e.scalar) : scalar(e.scalar);
}

Type Type::withShapeAndLayout(std::vector<int64_t> shape, LayoutId layout) const {
  return tensor(std::move(shape), elem_, layout);
}

Type Type::withLayout(LayoutId layout) const {
  Type t = *this;
  t.layout_ = layout;
  return t;
}

} // namespace linlayout::ir

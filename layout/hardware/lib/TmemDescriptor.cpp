#include "linlayout/layout/TmemDescriptor.h"

#include "linlayout/layout/LayoutSpec.h"

#include "SpecCheck.h"

#include <cassert>
#include <string>

namespace linlayout {

Status checkTmemDescriptor(const LayoutSpec &memory, std::span<const int64_t> shape,
                           int elementBitwidth) {
  assert(memory.isTensorMemory() && "a tensor-memory descriptor needs a tensor-memory layout");
  const std::string bits = std::to_string(elementBitwidth);
  if (shape.size() != 2)
    return makeError("tmem descriptor: shape " + spec::listText(shape) + " has rank " +
                     std::to_string(shape.size()) + ", expected 2");
  if (memory.as<TensorMemoryScalesSpec>()) {
    if (elementBitwidth != 8)
      return makeError("tmem descriptor: tensor_memory_scales holds 8-bit scales, "
                       "element_bitwidth is " +
                       bits);
    return Status::success();
  }
  const auto *t = memory.as<TensorMemorySpec>();
  assert(t && "tensor memory is tensor_memory or tensor_memory_scales");
  if (elementBitwidth * t->colStride() > 32)
    return makeError("tmem descriptor: " + bits + "-bit elements with colStride " +
                     std::to_string(t->colStride()) + " take " +
                     std::to_string(elementBitwidth * t->colStride()) +
                     " bits, more than one 32-bit column (bitwidth x colStride <= 32)");
  const int64_t least[2] = {t->blockM() * t->ctaSplitM(), t->blockN() * t->ctaSplitN()};
  if (shape[0] < least[0] || shape[1] < least[1])
    return makeError("tmem descriptor: shape " + spec::listText(shape) +
                     " is smaller than a block per CTA, [blockM x CTASplitM, blockN x "
                     "CTASplitN] = " +
                     spec::listText(least));
  LL_ASSIGN_OR_RETURN(LinearLayout ll, toLinearLayout(memory, shape));
  // Triton counts the columns of the layout over the whole CTA split, then divides the split
  // off: the CTAs' columns lie side by side in the layout, each CTA has its own tensor memory.
  int64_t perCta = int64_t(ll.inDimSize(tmemColDim())) / t->numCtas();
  int64_t capacity = 512 * 32 / elementBitwidth;
  if (perCta > capacity)
    return makeError("tmem descriptor: each CTA's part of " + spec::listText(shape) + " takes " +
                     std::to_string(perCta) + " columns of " + bits +
                     "-bit elements, more than the " + std::to_string(capacity) +
                     " tensor memory holds (512 x 32 / " + bits + ")");
  return Status::success();
}

} // namespace linlayout

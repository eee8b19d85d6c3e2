#include "SharedAccess.h"

#include "InlinePtx.h"
#include "LlvmShim.h"
#include "PackedHalves.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IntrinsicsNVPTX.h>

#include <cassert>
#include <string>

namespace linlayout::lower {

namespace {

// Shared accesses move 32-bit words from 32 bits up (so ld.shared.v4.b32 carries 8 halves),
// one narrow word below.
llvm::Type *accessType(llvm::IRBuilder<> &b, int totalBits) {
  if (totalBits >= 32)
    return llvm::FixedVectorType::get(b.getInt32Ty(), totalBits / 32);
  return b.getIntNTy(totalBits);
}

[[maybe_unused]] bool validWidth(int totalBits) {
  return totalBits >= 8 && totalBits <= 128 && (totalBits & (totalBits - 1)) == 0;
}

// `count` elements of `elemTy` from one access that `load(totalBits)` makes, returning a value of
// accessType(b, totalBits); booleans are bytes in memory.
template <typename Load>
std::vector<llvm::Value *> loadElements(llvm::IRBuilder<> &b, llvm::Type *elemTy, int count,
                                        Load &&load) {
  if (elemTy->isIntegerTy(1)) {
    std::vector<llvm::Value *> out = loadElements(b, b.getInt8Ty(), count, load);
    for (llvm::Value *&v : out)
      v = b.CreateTrunc(v, b.getInt1Ty());
    return out;
  }
  int total = count * static_cast<int>(elemTy->getPrimitiveSizeInBits());
  assert(validWidth(total) && "shared load width");
  llvm::Value *vec = b.CreateBitCast(load(total), llvm::FixedVectorType::get(elemTy, count));
  std::vector<llvm::Value *> out;
  for (int i = 0; i < count; ++i)
    out.push_back(b.CreateExtractElement(vec, b.getInt32(i)));
  return out;
}

// ld.shared::cluster of `total` bits at the 32-bit shared address `addr32` of another CTA, as a
// value of accessType(b, total). LLVM 19 has no address space for another CTA's shared memory:
// the load is inline PTX.
llvm::Value *clusterLoad(llvm::IRBuilder<> &b, llvm::Value *addr32, int total) {
  if (total <= 32) {
    llvm::Type *word = b.getIntNTy(total);
    // An 8-bit value travels in a 16-bit register.
    llvm::Type *reg = total == 8 ? b.getInt16Ty() : word;
    llvm::Value *v = emitInlinePtx(b, "ld.shared::cluster.b" + std::to_string(total) + " $0, [$1];",
                                   {reg}, {}, {addr32})[0];
    return b.CreateTrunc(v, word);
  }
  int words = total / 32;
  std::string text = "ld.shared::cluster.v" + std::to_string(words) + ".b32 {";
  for (int i = 0; i < words; ++i)
    text += (i ? ", $" : "$") + std::to_string(i);
  text += "}, [$" + std::to_string(words) + "];";
  std::vector<llvm::Value *> parts = emitInlinePtx(
      b, text, std::vector<llvm::Type *>(size_t(words), b.getInt32Ty()), {}, {addr32});
  llvm::Value *packed = llvm::PoisonValue::get(llvm::FixedVectorType::get(b.getInt32Ty(), words));
  for (int i = 0; i < words; ++i)
    packed = b.CreateInsertElement(packed, parts[size_t(i)], b.getInt32(i));
  return packed;
}

} // namespace

llvm::Value *sharedAddress(llvm::IRBuilder<> &b, llvm::Value *base, llvm::Value *byteOffset,
                           int64_t constantBytes) {
  llvm::Value *addr = base;
  if (byteOffset)
    addr = b.CreateGEP(b.getInt8Ty(), addr, byteOffset);
  if (constantBytes)
    addr = b.CreateConstGEP1_64(b.getInt8Ty(), addr, static_cast<uint64_t>(constantBytes));
  return addr;
}

void emitSharedStore(llvm::IRBuilder<> &b, llvm::Value *address,
                     const std::vector<llvm::Value *> &values, llvm::Value *predicate) {
  assert(!values.empty() && "a store of nothing");
  if (values[0]->getType()->isIntegerTy(1)) { // booleans are bytes in memory
    std::vector<llvm::Value *> bytes;
    for (llvm::Value *v : values)
      bytes.push_back(b.CreateZExt(v, b.getInt8Ty()));
    emitSharedStore(b, address, bytes, predicate);
    return;
  }
  // Halves in pairs and bytes in fours go as words: parts that are one split word's (a
  // loop-carried word, say) store that word, with no repacking.
  const std::vector<llvm::Value *> elems = packSubwords(b, values);
  llvm::Type *elemTy = elems[0]->getType();
  int n = static_cast<int>(elems.size());
  int total = n * static_cast<int>(elemTy->getPrimitiveSizeInBits());
  assert(validWidth(total) && "shared store width");
  llvm::Value *vec = llvm::PoisonValue::get(llvm::FixedVectorType::get(elemTy, n));
  for (int i = 0; i < n; ++i)
    vec = b.CreateInsertElement(vec, elems[i], b.getInt32(i));
  llvm::Value *packed = b.CreateBitCast(vec, accessType(b, total));
  if (!predicate) {
    b.CreateAlignedStore(packed, address, llvm::Align(static_cast<uint64_t>(total / 8)));
    return;
  }
  // `@p st.shared`: words from 32 bits up, one narrow word below.
  std::vector<llvm::Value *> inputs = {address, predicate};
  std::string text;
  if (total < 32) {
    // A narrow word is built by shifts: LLVM 19's NVPTX backend bitcasts a <2 x i8> to an i16
    // through the stack.
    const int bits = total / n;
    llvm::Type *wordTy = b.getIntNTy(total);
    llvm::Value *word = nullptr;
    for (int i = 0; i < n; ++i) {
      llvm::Value *part = b.CreateZExt(b.CreateBitCast(elems[i], b.getIntNTy(bits)), wordTy);
      if (i > 0)
        part = b.CreateShl(part, uint64_t(i * bits));
      word = word ? b.CreateOr(word, part) : part;
    }
    text = "@$1 st.shared.b" + std::to_string(total) + " [$0], $2;";
    inputs.push_back(word);
  } else {
    const int words = total / 32;
    text = std::string("@$1 st.shared") +
           (words == 4   ? ".v4"
            : words == 2 ? ".v2"
                         : "") +
           ".b32 [$0], " + (words > 1 ? "{" : "");
    for (int w = 0; w < words; ++w) {
      text += (w ? ", $" : "$") + std::to_string(w + 2);
      inputs.push_back(b.CreateExtractElement(packed, b.getInt32(w)));
    }
    text += words > 1 ? "};" : ";";
  }
  emitInlinePtx(b, text, {}, {}, inputs);
}

std::vector<llvm::Value *> emitSharedLoad(llvm::IRBuilder<> &b, llvm::Value *address,
                                          llvm::Type *elemTy, int count) {
  return loadElements(b, elemTy, count, [&](int total) -> llvm::Value * {
    return b.CreateAlignedLoad(accessType(b, total), address,
                               llvm::Align(static_cast<uint64_t>(total / 8)));
  });
}

std::vector<llvm::Value *> emitClusterSharedLoad(llvm::IRBuilder<> &b, llvm::Value *address,
                                                 llvm::Value *rank, llvm::Type *elemTy, int count) {
  llvm::Module &m = *b.GetInsertBlock()->getModule();
  llvm::Value *remote =
      b.CreateCall(shim::intrinsic(m, llvm::Intrinsic::nvvm_mapa_shared_cluster), {address, rank});
  llvm::Value *addr32 = b.CreatePtrToInt(remote, b.getInt32Ty());
  return loadElements(b, elemTy, count, [&](int total) { return clusterLoad(b, addr32, total); });
}

namespace {
// The scope lives on the function so that every emitter's barrier sees it without a context.
constexpr const char *kBarrierScope = "linlayout-barrier-scope";
} // namespace

void setBarrierScope(llvm::Function &fn, int id, int threads) {
  fn.removeFnAttr(kBarrierScope);
  if (threads > 0)
    fn.addFnAttr(kBarrierScope, std::to_string(id) + "," + std::to_string(threads));
}

void emitCtaBarrier(llvm::IRBuilder<> &b) {
  llvm::Module &m = *b.GetInsertBlock()->getModule();
  b.CreateCall(shim::intrinsic(m, llvm::Intrinsic::nvvm_barrier0));
}

void emitBarrier(llvm::IRBuilder<> &b) {
  llvm::Function &fn = *b.GetInsertBlock()->getParent();
  llvm::Attribute scope = fn.getFnAttribute(kBarrierScope);
  if (!scope.isValid()) {
    emitCtaBarrier(b);
    return;
  }
  std::string v = scope.getValueAsString().str();
  size_t comma = v.find(',');
  llvm::Module &m = *fn.getParent();
  b.CreateCall(shim::intrinsic(m, llvm::Intrinsic::nvvm_barrier_sync_cnt),
               {b.getInt32(uint32_t(std::stoi(v.substr(0, comma)))),
                b.getInt32(uint32_t(std::stoi(v.substr(comma + 1))))});
}

void emitClusterBarrier(llvm::IRBuilder<> &b) {
  llvm::Module &m = *b.GetInsertBlock()->getModule();
  b.CreateCall(shim::intrinsic(m, llvm::Intrinsic::nvvm_barrier_cluster_arrive_aligned));
  b.CreateCall(shim::intrinsic(m, llvm::Intrinsic::nvvm_barrier_cluster_wait_aligned));
}

void emitWarpSync(llvm::IRBuilder<> &b) {
  llvm::Module &m = *b.GetInsertBlock()->getModule();
  b.CreateCall(shim::intrinsic(m, llvm::Intrinsic::nvvm_bar_warp_sync), {b.getInt32(-1)});
}

} // namespace linlayout::lower

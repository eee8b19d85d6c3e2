#include "SinkToUse.h"

#include "RegisterBudget.h"
#include "SharedBytesTag.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <vector>

namespace linlayout::lower {

namespace {

// Instructions that touch neither memory nor control flow and whose operands are few: moving
// them shortens their result's live range and lengthens at most that of an input another use
// often keeps alive anyway (the word an element is unpacked from, the value a shuffle sends).
bool movable(const llvm::Instruction &i) {
  if (llvm::isa<llvm::CastInst>(i) || llvm::isa<llvm::ExtractElementInst>(i) ||
      llvm::isa<llvm::InsertElementInst>(i) || llvm::isa<llvm::ExtractValueInst>(i) ||
      llvm::isa<llvm::SelectInst>(i))
    return true;
  if (const auto *bin = llvm::dyn_cast<llvm::BinaryOperator>(&i))
    return llvm::isa<llvm::Constant>(bin->getOperand(1));
  if (const auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(&i))
    return gep->hasAllConstantIndices();
  const auto *call = llvm::dyn_cast<llvm::CallInst>(&i);
  if (!call)
    return false;
  if (const auto *asmFn = llvm::dyn_cast<llvm::InlineAsm>(call->getCalledOperand()))
    return !asmFn->hasSideEffects() && call->arg_size() == 1;
  // A shuffle in straight-line code may move within its block: every thread of the warp runs
  // the block, and the shuffle reads no memory.
  const llvm::Intrinsic::ID id = call->getIntrinsicID();
  return id == llvm::Intrinsic::nvvm_shfl_sync_idx_i32 ||
         id == llvm::Intrinsic::nvvm_shfl_sync_bfly_i32 ||
         id == llvm::Intrinsic::nvvm_shfl_sync_up_i32 ||
         id == llvm::Intrinsic::nvvm_shfl_sync_down_i32 || id == llvm::Intrinsic::nvvm_prmt;
}

// A global load may move down past shared-memory stores (another state space) and past what
// `movable` accepts, but past nothing else that writes memory, synchronizes or may not return.
bool movableLoad(const llvm::Instruction &i) {
  const auto *ld = llvm::dyn_cast<llvm::LoadInst>(&i);
  return ld && ld->isSimple() && ld->getPointerAddressSpace() == 1;
}

// Inline PTX whose text starts with `prefix` (the predicated accesses lower/ emits).
bool inlinePtxStartingWith(const llvm::Instruction &i, llvm::StringRef prefix) {
  const auto *call = llvm::dyn_cast<llvm::CallInst>(&i);
  const auto *asmFn = call ? llvm::dyn_cast<llvm::InlineAsm>(call->getCalledOperand()) : nullptr;
  return asmFn && llvm::StringRef(asmFn->getAsmString()).starts_with(prefix);
}

bool loadMayPass(const llvm::Instruction &i) {
  if (const auto *st = llvm::dyn_cast<llvm::StoreInst>(&i))
    return st->isSimple() && st->getPointerAddressSpace() == 3;
  // The predicated shared stores of a conversion whose threads hold copies (SharedAccess.h).
  if (inlinePtxStartingWith(i, "@$1 st.shared"))
    return true;
  return !i.mayWriteToMemory() && !i.mayThrow() && i.willReturn() &&
         (!llvm::isa<llvm::CallInst>(i) || movable(i));
}

// A store to global memory: a plain one, or the predicated inline PTX GlobalAccess.cpp emits.
bool globalStore(const llvm::Instruction &i) {
  if (const auto *st = llvm::dyn_cast<llvm::StoreInst>(&i))
    return st->isSimple() && st->getPointerAddressSpace() == 1;
  return inlinePtxStartingWith(i, "@$1 st.global");
}

// A shared-memory load after a conversion's barrier may move down past global stores (another
// state space) and past what neither writes memory nor synchronizes.
bool movableSharedLoad(const llvm::Instruction &i) {
  const auto *ld = llvm::dyn_cast<llvm::LoadInst>(&i);
  return ld && ld->isSimple() && ld->getPointerAddressSpace() == 3;
}

bool sharedLoadMayPass(const llvm::Instruction &i) {
  if (globalStore(i))
    return true;
  return !i.mayWriteToMemory() && !i.mayThrow() && i.willReturn() &&
         (!llvm::isa<llvm::CallInst>(i) || movable(i));
}

// A store into shared memory (a plain one, stmatrix or a conversion's predicated store) tagged
// with bytes that `load`'s tagged bytes do not overlap: the load may move down past it.
bool disjointSharedStore(const llvm::Instruction &i, const llvm::Instruction &load) {
  std::optional<ByteRange> loaded = taggedSharedBytes(load), stored = taggedSharedBytes(i);
  if (!loaded || !stored || (loaded->begin < stored->end && stored->begin < loaded->end))
    return false;
  if (const auto *st = llvm::dyn_cast<llvm::StoreInst>(&i))
    return st->isSimple() && st->getPointerAddressSpace() == 3;
  return inlinePtxStartingWith(i, "stmatrix") || inlinePtxStartingWith(i, "st.shared") ||
         inlinePtxStartingWith(i, "@$1 st.shared");
}

// The 32-bit words that shared loads of `bb` bring in ahead of its last global store: about what
// a conversion (all its rounds) holds when its loads stay ahead of its stores.
int64_t wordsLoadedAheadOfStores(const llvm::BasicBlock &bb) {
  const llvm::DataLayout &dl = bb.getModule()->getDataLayout();
  int64_t pending = 0, most = 0;
  for (const llvm::Instruction &i : bb) {
    if (movableSharedLoad(i))
      pending += int64_t(dl.getTypeSizeInBits(i.getType()).getFixedValue() + 31) / 32;
    else if (globalStore(i))
      most = std::max(most, pending);
  }
  return most;
}

// The first user of `i` in its block, or null when a user is a phi or in another block.
llvm::Instruction *firstUser(llvm::Instruction &i) {
  llvm::Instruction *first = nullptr;
  for (llvm::User *u : i.users()) {
    auto *ui = llvm::dyn_cast<llvm::Instruction>(u);
    if (!ui || ui->getParent() != i.getParent() || llvm::isa<llvm::PHINode>(ui))
      return nullptr;
    if (!first || ui->comesBefore(first))
      first = ui;
  }
  return first;
}

// Where an insertelement or a shufflevector whose inputs (those that are not constants) have no
// other use may go up to: just after the later input, when both are in one block; null
// otherwise. Building a pair as soon as both halves exist frees one register per pair: a tile of
// halves read element by element and re-paired after a barrier otherwise holds every half across
// it (convert2d/6-0/swizzled3 f16 64x128: 256 halves, 16 bytes of spills at 255 registers).
llvm::Instruction *buildPoint(llvm::Instruction &i) {
  if (auto *ins = llvm::dyn_cast<llvm::InsertElementInst>(&i)) {
    if (!llvm::isa<llvm::Constant>(ins->getOperand(2)))
      return nullptr;
  } else if (!llvm::isa<llvm::ShuffleVectorInst>(i) && !llvm::isa<llvm::BitCastInst>(i)) {
    return nullptr;
  }
  // A pair crosses blocks as one word: the backend holds a vector of two halves as two registers
  // between blocks, so the bitcast of a pair to a word goes up with the pair.
  if (llvm::isa<llvm::BitCastInst>(i) && !i.getOperand(0)->getType()->isVectorTy())
    return nullptr;
  llvm::Instruction *latest = nullptr;
  for (unsigned k = 0; k < std::min(2u, i.getNumOperands()); ++k) {
    llvm::Value *op = i.getOperand(k);
    if (llvm::isa<llvm::Constant>(op))
      continue;
    auto *d = llvm::dyn_cast<llvm::Instruction>(op);
    if (!d || !d->hasOneUse() || llvm::isa<llvm::PHINode>(d))
      return nullptr;
    if (latest && d->getParent() != latest->getParent())
      return nullptr;
    if (!latest || latest->comesBefore(d))
      latest = d;
  }
  return latest;
}

// Where a select of two computed inputs that have no other use may go up to, with them: just after
// the later of the instructions they come from (an input that is a constant-index extract comes
// from its vector), when that is in its block, after the condition and before the select; null
// otherwise. Two values die where one is made, so the select belongs where its inputs are made:
// a register permutation of a tile just loaded picks one of two loaded words per result, and
// sunk to its store it held both (warp_local/13-12/none/32x32/i64: 128 i64 loaded, 64 kept;
// 16 bytes of spills at 254 registers where Triton's kernel has none).
llvm::Instruction *selectPoint(llvm::SelectInst &sel, std::vector<llvm::Instruction *> &extracts) {
  extracts.clear();
  llvm::Instruction *latest = nullptr;
  auto later = [&](llvm::Instruction *d) {
    if (!latest || latest->comesBefore(d))
      latest = d;
  };
  for (unsigned k = 1; k < 3; ++k) {
    auto *d = llvm::dyn_cast<llvm::Instruction>(sel.getOperand(k));
    if (!d || !d->hasOneUse() || d->getParent() != sel.getParent() || llvm::isa<llvm::PHINode>(d))
      return nullptr;
    auto *ex = llvm::dyn_cast<llvm::ExtractElementInst>(d);
    if (ex && llvm::isa<llvm::Constant>(ex->getIndexOperand())) {
      auto *vec = llvm::dyn_cast<llvm::Instruction>(ex->getVectorOperand());
      if (!vec || vec->getParent() != sel.getParent() || llvm::isa<llvm::PHINode>(vec))
        return nullptr;
      extracts.push_back(ex);
      later(vec);
    } else {
      later(d);
    }
  }
  auto *cond = llvm::dyn_cast<llvm::Instruction>(sel.getCondition());
  if (cond && cond->getParent() == sel.getParent() && !llvm::isa<llvm::PHINode>(cond))
    later(cond);
  return latest && latest->comesBefore(&sel) ? latest : nullptr;
}

} // namespace

void sinkToUses(llvm::Module &m) {
  for (llvm::Function &f : m)
    for (llvm::BasicBlock &bb : f) {
      // Shared loads move only where they bring in at least half the registers ahead of the
      // stores and less than four times them. A small tile is best left in the order given
      // (convert2d/1-6/none/64x1/i64, 32 words: 44 registers as given; interleaved, ptxas 13
      // takes 30 and spills 24 bytes); a huge one lives in local memory either way, and
      // interleaved it took more (mma2mma/0-1/none/256x256/i64, 1024 words: 11936 bytes ->
      // 12696; convert2d/0-9/none/64x128/i64: 1768 -> 2648).
      const int64_t words = wordsLoadedAheadOfStores(bb), budget = registerBudget(f);
      const bool sinkSharedLoads = 2 * words >= budget && words < 4 * budget;
      // Only in one-warp blocks: in larger ones (mma2mma/8-9/none/256x256, 4 warps) ptxas 13
      // spilled more with the loads in order (f32: 1064 -> 1200 bytes, i64: 3104 -> 3584).
      const bool keepLoadOrder = blockThreads(f) == 32;
      // From the end, so that an instruction's users have moved before it does.
      std::vector<llvm::Instruction *> order;
      for (llvm::Instruction &i : bb)
        order.push_back(&i);
      for (auto it = order.rbegin(); it != order.rend(); ++it) {
        llvm::Instruction *i = *it;
        const bool load = movableLoad(*i), sharedLoad = sinkSharedLoads && movableSharedLoad(*i);
        if ((!load && !sharedLoad && !movable(*i)) || i->use_empty())
          continue;
        llvm::Instruction *to = firstUser(*i);
        if (!to || i->getNextNode() == to)
          continue;
        if (load) {
          llvm::Instruction *passed = i->getNextNode();
          while (passed != to && loadMayPass(*passed))
            passed = passed->getNextNode();
          // Stopped short of its user by a global store, it goes before the loads already stopped
          // there, so that they keep their order: each passing all the others reversed them, and
          // a tile stored in the order it was loaded spills less (warp_local/0-8/none/64x64/i64:
          // 40 bytes at 255 registers reversed, 24 in order; Triton's kernel 32).
          if (keepLoadOrder && passed != to && globalStore(*passed))
            while (passed->getPrevNode() != i && movableLoad(*passed->getPrevNode()))
              passed = passed->getPrevNode();
          to = passed;
        }
        if (sharedLoad) {
          // Only where it passes a global store, or a shared store into bytes it does not read
          // (a conversion's scratch apart from the buffer it loads from): a conversion that
          // loads its whole tile before storing any of it holds the tile at once
          // (convert2d/0-6/none/64x64/i64: 128 i64 into the B operand every warp holds, 48
          // bytes of spills at 254 registers; Triton's kernel interleaves). Loads feeding
          // computation keep the order they were given.
          bool crossesStore = false;
          llvm::Instruction *passed = i->getNextNode();
          for (; passed != to; passed = passed->getNextNode()) {
            const bool past = disjointSharedStore(*passed, *i);
            if (!past && !sharedLoadMayPass(*passed))
              break;
            crossesStore |= globalStore(*passed) || past;
          }
          if (!crossesStore)
            continue;
          to = passed;
        }
        if (i->getNextNode() != to)
          i->moveBefore(to);
      }
    }
  // Then selects go up to where their inputs are made (see selectPoint), in program order.
  for (llvm::Function &f : m) {
    std::vector<llvm::SelectInst *> selects;
    for (llvm::BasicBlock &bb : f)
      for (llvm::Instruction &i : bb)
        if (auto *sel = llvm::dyn_cast<llvm::SelectInst>(&i))
          selects.push_back(sel);
    std::vector<llvm::Instruction *> extracts;
    for (llvm::SelectInst *sel : selects)
      if (llvm::Instruction *after = selectPoint(*sel, extracts)) {
        llvm::Instruction *at = after;
        for (llvm::Instruction *ex : extracts)
          if (at->comesBefore(ex)) {
            ex->moveAfter(at);
            at = ex;
          }
        sel->moveAfter(at);
      }
  }
  // Then pairs are built where their parts are made (see buildPoint), in program order so that
  // a chain of inserts follows its first one up.
  for (llvm::Function &f : m) {
    std::vector<llvm::Instruction *> builds;
    for (llvm::BasicBlock &bb : f)
      for (llvm::Instruction &i : bb)
        if (llvm::isa<llvm::InsertElementInst>(i) || llvm::isa<llvm::ShuffleVectorInst>(i) ||
            llvm::isa<llvm::BitCastInst>(i))
          builds.push_back(&i);
    for (llvm::Instruction *i : builds)
      if (llvm::Instruction *after = buildPoint(*i); after && after->getNextNode() != i)
        i->moveAfter(after);
  }
}

} // namespace linlayout::lower

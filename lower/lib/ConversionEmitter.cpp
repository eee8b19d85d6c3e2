#include "ConversionEmitter.h"

#include "BytePermute.h"
#include "LayoutIndex.h"
#include "MatrixAccess.h"
#include "PackedHalves.h"
#include "SharedAccess.h"
#include "SharedPadding.h"
#include "Shuffle.h"

#include "linlayout/layout/F2Subspace.h"
#include "linlayout/layout/LayoutColumns.h"

#include <llvm/IR/Constants.h>

#include <map>

namespace linlayout::lower {

namespace {

// The image of a (lane, warp, block) -> (x) map in reduced row echelon form: every basis vector
// has a pivot bit no other one has, so the coefficient of basis j in a value v is bit pivot[j].
using ImageBasis = F2ReducedBasis;

ImageBasis imageBasis(const LinearLayout &threadMap) {
  return f2ReducedBasis(allColumns(threadMap));
}

// Picks candidate(coeffs) where coeffs are the basis coefficients of the runtime value `key`:
// 2^k - 1 selects.
llvm::Value *selectTree(llvm::IRBuilder<> &b, llvm::Value *key, const ImageBasis &basis,
                        const std::function<llvm::Value *(uint64_t)> &candidate) {
  int k = basis.rank();
  std::vector<llvm::Value *> level;
  for (uint64_t c = 0; c < (uint64_t(1) << k); ++c)
    level.push_back(candidate(c));
  for (int j = 0; j < k; ++j) {
    llvm::Value *bit = b.CreateICmpNE(
        b.CreateAnd(key, b.getInt32(static_cast<uint32_t>(uint64_t(1) << basis.pivots[j]))),
        b.getInt32(0));
    std::vector<llvm::Value *> next;
    for (size_t i = 0; i < level.size(); i += 2)
      next.push_back(b.CreateSelect(bit, level[i + 1], level[i]));
    level = std::move(next);
  }
  return level[0];
}

// words[i ^ v] for each i in `live`, where v is the combination of basis vectors the runtime
// value `key` picks (as in selectTree): one layer of selects per basis vector, each XOR-ing the
// index by its vector where the key has its pivot bit. Only what the live outputs need is built,
// f2XorNetworkSelects(basis.vectors, live) selects (live is a subspace); other entries are null.
std::vector<llvm::Value *> xorPermute(llvm::IRBuilder<> &b, llvm::Value *key,
                                      const ImageBasis &basis, std::vector<llvm::Value *> words,
                                      const std::vector<uint64_t> &live) {
  const int k = basis.rank();
  const size_t n = words.size();
  // needed[j + 1]: the entries layer j must produce; needed[k]: live.
  std::vector<std::vector<char>> needed(k + 1, std::vector<char>(n, 0));
  for (uint64_t i : live)
    needed[k][i] = 1;
  for (int j = k; j-- > 0;)
    for (size_t i = 0; i < n; ++i)
      if (needed[j + 1][i])
        needed[j][i] = needed[j][i ^ basis.vectors[j]] = 1;
  for (int j = 0; j < k; ++j) {
    llvm::Value *bit = b.CreateICmpNE(
        b.CreateAnd(key, b.getInt32(static_cast<uint32_t>(uint64_t(1) << basis.pivots[j]))),
        b.getInt32(0));
    std::vector<llvm::Value *> next(n, nullptr);
    for (size_t i = 0; i < n; ++i)
      if (needed[j + 1][i])
        next[i] = b.CreateSelect(bit, words[i ^ basis.vectors[j]], words[i]);
    words = std::move(next);
  }
  return words;
}

// A layout with its thread part and register part separated.
struct ThreadMap {
  LayoutIndexer ix;
  ImageBasis basis;
};

Expected<ThreadMap> threadMap(const LinearLayout &l) {
  LL_ASSIGN_OR_RETURN(LayoutIndexer ix, LayoutIndexer::create(l));
  std::vector<DimName> hw;
  for (DimName d : {DimName::lane(), DimName::warp(), DimName::block()})
    if (l.hasInDim(d))
      hw.push_back(d);
  std::vector<DimName> outs = l.outDimNames();
  LL_ASSIGN_OR_RETURN(LinearLayout threadPart, l.sublayout(hw, outs));
  return ThreadMap{std::move(ix), imageBasis(threadPart)};
}

// An element as an integer of its width (pointers, which have no primitive size, as i64) and
// back.
llvm::Value *asInt(llvm::IRBuilder<> &b, llvm::Value *v) {
  if (v->getType()->isPointerTy())
    return b.CreatePtrToInt(v, b.getInt64Ty());
  unsigned bits = v->getType()->getPrimitiveSizeInBits();
  llvm::Type *t = b.getIntNTy(bits);
  return v->getType() == t ? v : b.CreateBitCast(v, t);
}

llvm::Value *fromInt(llvm::IRBuilder<> &b, llvm::Value *v, llvm::Type *t) {
  if (t->isPointerTy())
    return b.CreateIntToPtr(v, t);
  return v->getType() == t ? v : b.CreateBitCast(v, t);
}

// ---------------------------------------------------------------------------------------------
// Register permutation
// ---------------------------------------------------------------------------------------------

Expected<std::vector<llvm::Value *>> emitPermute(llvm::IRBuilder<> &b, const ConversionEnv &env,
                                                 const ConversionPlan &plan,
                                                 const std::vector<llvm::Value *> &src) {
  LL_ASSIGN_OR_RETURN(ThreadMap m, threadMap(plan.permute.srcRegister));
  IndexEmitter em(m.ix, b, env.thread, env.block);
  llvm::Value *key = m.basis.rank() ? em.hardwarePart(0) : nullptr;
  std::vector<llvm::Value *> out;
  for (uint64_t r = 0; r < m.ix.numRegisters(); ++r) {
    uint64_t base = m.ix.registerPart(r, 0);
    if (!key)
      out.push_back(src[base]);
    else
      out.push_back(
          selectTree(b, key, m.basis, [&](uint64_t c) { return src[base ^ m.basis.combine(c)]; }));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Warp shuffles
// ---------------------------------------------------------------------------------------------

// Packs `slots` elements of `bits` bits into an i32: 16-bit pairs by a vector bitcast (a mov),
// bytes by prmt (slots - 1 of them).
llvm::Value *packWord(llvm::IRBuilder<> &b, const std::vector<llvm::Value *> &elems, int bits) {
  if (bits == 32)
    return asInt(b, elems[0]);
  if (bits == 16) {
    if (elems.size() == 1)
      return b.CreateZExt(asInt(b, elems[0]), b.getInt32Ty());
    // The word both halves came from where they are one split word's (a loop-carried pair, or
    // a pair a shuffle delivered): no instruction. With the planner's preference for packing
    // consecutive registers this takes the pack and unpack out of a loop that converts back and
    // forth (bench/gpu/conversion_paths.jsonl, H100: seed2-194 f16 0.86 -> 0.53 ns, seed2-74
    // 3.55 -> 2.22, register_only 0.85 -> 0.73).
    return joinHalves(b, elems[0], elems[1]);
  }
  std::vector<llvm::Value *> parts;
  for (llvm::Value *e : elems)
    parts.push_back(b.CreateZExt(asInt(b, e), b.getInt32Ty()));
  // Bytes: merge neighbours, doubling the bytes per value each level.
  int width = 1;
  while (parts.size() > 1) {
    std::vector<llvm::Value *> next;
    for (size_t i = 0; i < parts.size(); i += 2) {
      std::array<int, 4> sel = {0, 1, 2, 3};
      for (int k = 0; k < width; ++k)
        sel[width + k] = 4 + k;
      next.push_back(bytePermute(b, parts[i], parts[i + 1], sel));
    }
    parts = std::move(next);
    width *= 2;
  }
  return parts[0];
}

// Element `slot` of a word packed by packWord, as type `t`.
llvm::Value *unpackSlot(llvm::IRBuilder<> &b, llvm::Value *word, int slot, int slots, int bits,
                        llvm::Type *t) {
  if (bits == 32)
    return fromInt(b, word, t);
  if (bits == 16) {
    llvm::Value *h;
    if (slots == 1)
      h = b.CreateTrunc(word, b.getInt16Ty());
    else
      h = b.CreateExtractElement(
          b.CreateBitCast(word, llvm::FixedVectorType::get(b.getInt16Ty(), 2)), b.getInt32(slot));
    return fromInt(b, h, t);
  }
  // A byte: one prmt moves it to the low byte.
  llvm::Value *w = bytePermute(b, word, b.getInt32(0), {slot, 4, 4, 4});
  return fromInt(b, b.CreateTrunc(w, b.getInt8Ty()), t);
}

Expected<std::vector<llvm::Value *>> emitShuffles(llvm::IRBuilder<> &b, const ConversionEnv &env,
                                                  const ConversionPlan &plan,
                                                  const std::vector<llvm::Value *> &src) {
  const ShuffleStep &st = plan.shuffle;
  const DimName kSlot = DimName::get("slot"), kWord = DimName::get("word");
  const int kk = st.pack.inDimBits(kSlot), ws = st.pack.inDimBits(kWord);
  const int nd = st.unpack.outDimBits(kWord);
  const int slots = 1 << kk;
  const int e = plan.elementBits;
  llvm::Type *elemTy = src.at(0)->getType();

  LL_ASSIGN_OR_RETURN(ThreadMap sendMap, threadMap(st.sendWordOfThread));
  LL_ASSIGN_OR_RETURN(ThreadMap recvMap, threadMap(st.recvWordOfThread));
  LL_ASSIGN_OR_RETURN(ThreadMap laneMap, threadMap(st.srcLaneOfThread));
  LL_ASSIGN_OR_RETURN(ThreadMap unpackMap, threadMap(st.unpack));
  IndexEmitter sendEm(sendMap.ix, b, env.thread, env.block);
  IndexEmitter recvEm(recvMap.ix, b, env.thread, env.block);
  IndexEmitter laneEm(laneMap.ix, b, env.thread, env.block);
  IndexEmitter unpackEm(unpackMap.ix, b, env.thread, env.block);
  llvm::Value *sendKey = sendMap.basis.rank() ? sendEm.hardwarePart(0) : nullptr;
  llvm::Value *recvKey = recvMap.basis.rank() ? recvEm.hardwarePart(0) : nullptr;

  // Which round fills received word w ^ g(t): rounds by their receive constant.
  std::map<uint32_t, size_t> roundOfRecv;
  for (size_t k = 0; k < st.rounds.size(); ++k)
    roundOfRecv[st.rounds[k].recvWordConst] = k;

  // Packed words: 32-bit words of 8- to 32-bit elements; a 64-bit element is two words, its low
  // and its high half, each permuted, shuffled and selected as a word of its own and joined again
  // only in the destination register. Selecting and rebuilding whole 64-bit values needs aligned
  // register pairs and the shifts and ors of a rebuild after every shuffle: warp_local/5-13 i64
  // 32x32 spilled 64 bytes at 255 registers that way (ptxas 13.0, sm_90).
  const int parts = e == 64 ? 2 : 1;
  llvm::Type *wordTy = b.getInt32Ty();
  llvm::Type *pairTy = llvm::FixedVectorType::get(wordTy, 2);
  std::vector<std::vector<llvm::Value *>> packed(parts);
  for (uint64_t w = 0; w < (uint64_t(1) << ws); ++w) {
    std::vector<llvm::Value *> elems;
    for (int s = 0; s < slots; ++s)
      elems.push_back(src[st.pack.apply(uint64_t(s) | (w << kk))]);
    if (e != 64) {
      packed[0].push_back(packWord(b, elems, e));
      continue;
    }
    llvm::Value *pair = b.CreateBitCast(asInt(b, elems[0]), pairTy);
    for (int p = 0; p < parts; ++p)
      packed[p].push_back(b.CreateExtractElement(pair, b.getInt32(uint32_t(p))));
  }
  // Round k sends word sendWordConst ^ sendWord(t): the words permuted by the thread's part.
  if (sendKey) {
    std::vector<uint64_t> live;
    for (const ShuffleRound &round : st.rounds)
      live.push_back(round.sendWordConst);
    for (auto &words : packed)
      words = xorPermute(b, sendKey, sendMap.basis, std::move(words), live);
  }
  std::vector<std::vector<llvm::Value *>> byRound(parts);
  for (const ShuffleRound &round : st.rounds)
    for (int p = 0; p < parts; ++p) {
      llvm::Value *send = packed[p][round.sendWordConst];
      llvm::Value *got = send;
      if (round.mode == ShuffleMode::Bfly)
        got = shuffleXor(b, send, round.laneConst);
      else if (round.mode == ShuffleMode::Idx)
        got = shuffleIdx(b, send, laneEm.withConstant(0, round.laneConst));
      byRound[p].push_back(got);
    }
  // Word w of the thread arrives in the round whose receive constant is w ^ recvWord(t).
  std::vector<std::vector<llvm::Value *>> receivedParts(parts);
  for (int p = 0; p < parts; ++p)
    for (uint32_t w = 0; w < (uint32_t(1) << nd); ++w) {
      auto it = roundOfRecv.find(w);
      receivedParts[p].push_back(it == roundOfRecv.end() ? llvm::PoisonValue::get(wordTy)
                                                         : byRound[p][it->second]);
    }
  if (recvKey) {
    std::vector<uint64_t> live; // the words the registers unpack
    for (uint64_t r = 0; r < unpackMap.ix.numRegisters(); ++r)
      live.push_back(unpackMap.ix.registerPart(r, 1));
    for (auto &words : receivedParts)
      words = xorPermute(b, recvKey, recvMap.basis, std::move(words), live);
  }
  const std::vector<llvm::Value *> &received = receivedParts[0];

  // Unpack: dst register r is (slot, word) = unpack(r, t). Words of two halves are split once,
  // with one mov (PackedHalves.h).
  std::map<llvm::Value *, std::pair<llvm::Value *, llvm::Value *>> halvesOf;
  auto element = [&](uint64_t sw) -> llvm::Value * {
    int slot = static_cast<int>(sw & (slots - 1));
    uint64_t word = sw >> kk;
    if (e == 16 && slots == 2 && !llvm::isa<llvm::Constant>(received[word])) {
      llvm::Value *w = received[word];
      auto it = halvesOf.find(w);
      if (it == halvesOf.end())
        it = halvesOf.emplace(w, splitHalves(b, w)).first;
      return fromInt(b, slot ? it->second.second : it->second.first, elemTy);
    }
    if (e == 64) {
      llvm::Value *pair = llvm::PoisonValue::get(pairTy);
      for (int p = 0; p < parts; ++p)
        pair = b.CreateInsertElement(pair, receivedParts[p][word], b.getInt32(uint32_t(p)));
      return fromInt(b, b.CreateBitCast(pair, b.getInt64Ty()), elemTy);
    }
    return unpackSlot(b, received[word], slot, slots, e, elemTy);
  };
  // Whether a register's slot depends on the thread (its word never does: the planner takes the
  // thread's words from the rounds).
  const bool unpackKey = unpackMap.basis.rank() != 0;
  std::vector<llvm::Value *> out;
  for (uint64_t r = 0; r < unpackMap.ix.numRegisters(); ++r) {
    // unpack's out dims are (slot, word): the packed value is slot | word << kk.
    uint64_t base = unpackMap.ix.registerPart(r, 0) | (unpackMap.ix.registerPart(r, 1) << kk);
    if (!unpackKey) {
      out.push_back(element(base));
      continue;
    }
    // The slot depends on the thread (only packed 8- and 16-bit elements have slots): one prmt
    // with a runtime selector moves it to the low bytes (bytes {s, 4, 4, 4} or {2s, 2s+1, 4, 4}).
    llvm::Value *slot = b.CreateXor(unpackEm.hardwarePart(0), b.getInt32(base & (slots - 1)));
    llvm::Value *sel = e == 8
                           ? b.CreateOr(slot, b.getInt32(0x4440))
                           : b.CreateAdd(b.CreateMul(slot, b.getInt32(0x22)), b.getInt32(0x4410));
    llvm::Value *w = bytePermute(b, received[base >> kk], b.getInt32(0), sel);
    out.push_back(fromInt(b, b.CreateTrunc(w, b.getIntNTy(e)), elemTy));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Shared memory
// ---------------------------------------------------------------------------------------------

int elementsPerMatrixWord(SharedOp op, int e) {
  return (op == SharedOp::StMatrixTrans || op == SharedOp::LdMatrixTrans) ? 2 : 32 / e;
}

// The sync before round `round`'s stores or its loads. The plan counts a barrier before each:
// the scratch may still be read (by an earlier round, or, unless env says better, by an earlier
// op) and the loads read what other threads stored. Warp syncs do where the scratch stays in
// warps.
SyncNeeded syncBefore(const ConversionEnv &env, int round, bool stores) {
  if (stores && round == 0)
    return env.leadingSync;
  return env.warpSyncs ? SyncNeeded::Warp : SyncNeeded::Cta;
}

// Whether that sync is a cluster barrier: in an exchange between CTAs, every one but the first
// round's leading sync (which orders only this CTA's own earlier accesses to its scratch).
bool clusterSyncBefore(const ConversionEnv &env, bool cluster, int round, bool stores) {
  return cluster && !(stores && round == 0) && syncBefore(env, round, stores) != SyncNeeded::None;
}

void emitSync(llvm::IRBuilder<> &b, SyncNeeded s) {
  if (s == SyncNeeded::Cta)
    emitBarrier(b);
  else if (s == SyncNeeded::Warp)
    emitWarpSync(b);
}

Expected<std::vector<llvm::Value *>> emitShared(llvm::IRBuilder<> &b, const ConversionEnv &env,
                                                const ConversionPlan &plan,
                                                const std::vector<llvm::Value *> &src) {
  const SharedStep &st = plan.shared;
  // Through distributed shared memory: each CTA stores into its own scratch and loads from the
  // scratch of the CTA loadBlock names (mapa + ld.shared::cluster); the syncs between the
  // phases are cluster barriers, and one more after the loads keeps every CTA's scratch (and the
  // CTA) alive until the others have read it.
  const bool cluster = plan.path == ConversionPath::DistributedSharedMemory;
  if (cluster && !env.target.hasSm90Features())
    return makeError("a conversion between CTAs needs sm_90 (thread-block clusters); target is " +
                     env.target.name());
  auto sync = [&](int round, bool stores) {
    if (clusterSyncBefore(env, cluster, round, stores))
      emitClusterBarrier(b);
    else
      emitSync(b, syncBefore(env, round, stores));
  };
  if (!env.scratch)
    return makeError("a shared-memory conversion needs a scratch buffer");
  const int e = plan.elementBits;
  const int bytes = e / 8;
  llvm::Type *elemTy = src.at(0)->getType();
  LL_ASSIGN_OR_RETURN(LayoutIndexer storeIx, LayoutIndexer::create(st.storeAddress));
  LL_ASSIGN_OR_RETURN(LayoutIndexer loadIx, LayoutIndexer::create(st.loadAddress));
  IndexEmitter storeEm(storeIx, b, env.thread, env.block);
  IndexEmitter loadEm(loadIx, b, env.thread, env.block);
  llvm::Value *loadRank = nullptr;
  if (cluster) {
    LL_ASSIGN_OR_RETURN(LayoutIndexer rankIx, LayoutIndexer::create(st.loadBlock));
    IndexEmitter rankEm(rankIx, b, env.thread, env.block);
    loadRank = rankEm.hardwarePart(0);
  }
  llvm::Value *storeOk = nullptr;
  if (st.storePredicate.totalOutBits() > 0) {
    LL_ASSIGN_OR_RETURN(LayoutIndexer predIx, LayoutIndexer::create(st.storePredicate));
    // A predicate of warp (and block) bits only reads the uniform warp id.
    const DimName lane[] = {DimName::lane()};
    const std::vector<DimName> outs = st.storePredicate.outDimNames();
    llvm::Value *thread = env.thread;
    if (env.uniformWarp && st.storePredicate.sublayoutIsZero(lane, outs))
      thread = b.CreateShl(env.uniformWarp(), 5);
    IndexEmitter predEm(predIx, b, thread, env.block);
    storeOk = b.CreateICmpEQ(predEm.hardwarePart(0), b.getInt32(0));
  }
  size_t nDst = plan.dst.inDimSize(DimName::reg());
  std::vector<llvm::Value *> dst(nDst, nullptr);
  auto address = [&](IndexEmitter &em, const LayoutIndexer &ix, uint64_t offsetConst) {
    SplitOffset so = st.padding.empty()
                         ? em.scaledWithConstant(0, offsetConst, bytes)
                         : paddedByteOffset(b, em, ix, offsetConst, st.padding, bytes);
    return sharedAddress(b, env.scratch, so.variable, so.constant);
  };
  // Where only some threads store (the others hold copies), the stores sit in a block those
  // threads enter, except after a leading barrier: there every stored value is held across the
  // barrier, and across the branch too, and ptxas spilled (convert2d/6-1/swizzled2/64x64/f16, the
  // B operand every warp holds: 16 bytes at 80 registers), so each store is predicated instead
  // (none, at 96). Elsewhere the branch costs fewer registers, and predicated big tiles spilled
  // more (convert2d/6-1/none/64x128/i64: 592 -> 2888 bytes).
  const bool predicated = storeOk && env.leadingSync == SyncNeeded::Cta;
  // Stores in a block of their own each round: what a round's emitter creates there does not
  // dominate the next round's block, so each round's emitter starts from the thread's part of
  // the address, made here.
  storeEm.hardwarePart(0);
  llvm::Function *fn = b.GetInsertBlock()->getParent();
  for (int round = 0; round < st.rounds; ++round) {
    sync(round, /*stores=*/true);
    IndexEmitter roundStoreEm = storeEm;
    llvm::BasicBlock *after = nullptr;
    if (storeOk && !predicated) {
      llvm::BasicBlock *stores = llvm::BasicBlock::Create(b.getContext(), "cvt.store", fn);
      after = llvm::BasicBlock::Create(b.getContext(), "cvt.stored", fn);
      b.CreateCondBr(storeOk, stores, after);
      b.SetInsertPoint(stores);
    }
    llvm::Value *storePredicate = predicated ? storeOk : nullptr;
    for (const SharedAccess &a : st.stores) {
      if (a.round != round)
        continue;
      llvm::Value *addr = address(roundStoreEm, storeIx, a.offsetConst);
      std::vector<llvm::Value *> vals;
      for (int r : a.registers)
        vals.push_back(src.at(r));
      if (a.op == SharedOp::Store) {
        emitSharedStore(b, addr, vals, storePredicate);
        continue;
      }
      int per = elementsPerMatrixWord(a.op, e);
      std::vector<llvm::Value *> words;
      for (size_t i = 0; i < vals.size(); i += per)
        words.push_back(packWord(b, {vals.begin() + i, vals.begin() + i + per}, e));
      LL_TRY_STATUS(emitStmatrix(b, env.target, addr, words, a.op == SharedOp::StMatrixTrans,
                                 storePredicate));
    }
    if (after) {
      b.CreateBr(after);
      b.SetInsertPoint(after);
    }
    sync(round, /*stores=*/false);
    for (const SharedAccess &a : st.loads) {
      if (a.round != round)
        continue;
      llvm::Value *addr = address(loadEm, loadIx, a.offsetConst);
      if (a.op == SharedOp::Load) {
        const int n = static_cast<int>(a.registers.size());
        std::vector<llvm::Value *> vals;
        if (cluster) {
          // The CTA read: the thread's (loadBlock) XOR the access's own.
          llvm::Value *rank =
              a.blockConst ? b.CreateXor(loadRank, b.getInt32(a.blockConst)) : loadRank;
          vals = emitClusterSharedLoad(b, addr, rank, elemTy, n);
        } else {
          vals = emitSharedLoad(b, addr, elemTy, n);
        }
        for (size_t k = 0; k < vals.size(); ++k)
          dst.at(a.registers[k]) = vals[k];
        continue;
      }
      int per = elementsPerMatrixWord(a.op, e);
      int count = static_cast<int>(a.registers.size()) / per;
      std::vector<llvm::Value *> words =
          emitLdmatrix(b, addr, count, a.op == SharedOp::LdMatrixTrans);
      for (int mu = 0; mu < count; ++mu)
        for (int h = 0; h < per; ++h)
          dst.at(a.registers[mu * per + h]) = unpackSlot(b, words[mu], h, per, e, elemTy);
    }
  }
  if (cluster)
    emitClusterBarrier(b);
  for (const auto &c : st.copies)
    dst.at(c[0]) = dst.at(c[1]);
  for (llvm::Value *v : dst)
    if (!v)
      return makeError("the shared-memory plan leaves a destination register unset");
  return dst;
}

} // namespace

SharedSyncs sharedSyncs(const ConversionEnv &env, const ConversionPlan &plan) {
  const bool cluster = plan.path == ConversionPath::DistributedSharedMemory;
  SharedSyncs n;
  for (int round = 0; round < plan.shared.rounds; ++round)
    for (bool stores : {true, false}) {
      SyncNeeded s = syncBefore(env, round, stores);
      bool clusterSync = clusterSyncBefore(env, cluster, round, stores);
      n.clusterBarriers += clusterSync;
      n.barriers += !clusterSync && s == SyncNeeded::Cta;
      n.warpSyncs += !clusterSync && s == SyncNeeded::Warp;
    }
  n.clusterBarriers += cluster; // after the loads
  return n;
}

Expected<std::vector<llvm::Value *>> emitConversion(llvm::IRBuilder<> &b, const ConversionEnv &env,
                                                    const ConversionPlan &plan,
                                                    const std::vector<llvm::Value *> &src) {
  if (src.size() != plan.src.inDimSize(DimName::reg()))
    return makeError("conversion of " + std::to_string(src.size()) +
                     " registers, the plan's source layout has " +
                     std::to_string(plan.src.inDimSize(DimName::reg())));
  // Pointers move as 64-bit integers (shuffles and shared memory need a width), booleans as
  // bytes (the plan's 8-bit elements: a vector of i1 has no byte size).
  llvm::Type *elemTy = src.empty() ? nullptr : src[0]->getType();
  if (elemTy && (elemTy->isPointerTy() || elemTy->isIntegerTy(1))) {
    const bool isBool = elemTy->isIntegerTy(1);
    std::vector<llvm::Value *> ints;
    for (llvm::Value *v : src)
      ints.push_back(isBool ? b.CreateZExt(v, b.getInt8Ty()) : asInt(b, v));
    LL_ASSIGN_OR_RETURN(std::vector<llvm::Value *> moved, emitConversion(b, env, plan, ints));
    for (llvm::Value *&v : moved)
      v = isBool ? b.CreateTrunc(v, elemTy) : fromInt(b, v, elemTy);
    return moved;
  }
  switch (plan.path) {
  case ConversionPath::NoOp:
    return src;
  case ConversionPath::RegisterPermute:
    return emitPermute(b, env, plan, src);
  case ConversionPath::WarpShuffle:
    return emitShuffles(b, env, plan, src);
  case ConversionPath::SharedMemory:
  case ConversionPath::DistributedSharedMemory:
    return emitShared(b, env, plan, src);
  }
  return makeError("unknown conversion path");
}

} // namespace linlayout::lower

#include "Mbarrier.h"

#include "InlinePtx.h"

namespace linlayout::lower {

namespace {

// `text` with operands $0..; a predicate, when given, becomes the last operand and guards it.
void emitGuarded(llvm::IRBuilder<> &b, const std::string &text, std::vector<llvm::Value *> ins,
                 llvm::Value *pred) {
  if (!pred) {
    emitInlinePtx(b, text, {}, {}, ins);
    return;
  }
  std::string p = "$" + std::to_string(ins.size());
  ins.push_back(pred);
  emitInlinePtx(b, "@" + p + " " + text, {}, {}, ins);
}

} // namespace

void emitMbarrierInit(llvm::IRBuilder<> &b, llvm::Value *bar, uint32_t count, llvm::Value *pred) {
  emitGuarded(b, "mbarrier.init.shared::cta.b64 [$0], $1;", {bar, b.getInt32(count)}, pred);
}

void emitMbarrierInitFence(llvm::IRBuilder<> &b, llvm::Value *pred) {
  emitGuarded(b, "fence.mbarrier_init.release.cluster;", {}, pred);
}

void emitMbarrierInval(llvm::IRBuilder<> &b, llvm::Value *bar, llvm::Value *pred) {
  emitGuarded(b, "mbarrier.inval.shared::cta.b64 [$0];", {bar}, pred);
}

void emitMbarrierArriveExpectTx(llvm::IRBuilder<> &b, llvm::Value *bar, llvm::Value *bytes,
                                llvm::Value *pred) {
  emitGuarded(b, "mbarrier.arrive.expect_tx.shared::cta.b64 _, [$0], $1;", {bar, bytes}, pred);
}

void emitMbarrierArrive(llvm::IRBuilder<> &b, llvm::Value *bar, uint32_t count, llvm::Value *pred) {
  emitGuarded(b, "mbarrier.arrive.shared::cta.b64 _, [$0], $1;", {bar, b.getInt32(count)}, pred);
}

void emitMbarrierWaitParity(llvm::IRBuilder<> &b, llvm::Value *bar, llvm::Value *phase,
                            llvm::Value *pred) {
  // ${:uid} makes the labels unique per inline-asm instance.
  std::string skip = pred ? "@!$2 bra skip_${:uid};\n" : "";
  std::string text = "{\n.reg .pred done;\n" + skip +
                     "wait_${:uid}:\n"
                     "mbarrier.try_wait.parity.shared::cta.b64 done, [$0], $1;\n"
                     "@!done bra wait_${:uid};\n" +
                     (pred ? "skip_${:uid}:\n" : "") + "}";
  std::vector<llvm::Value *> ins{bar, phase};
  if (pred)
    ins.push_back(pred);
  emitInlinePtx(b, text, {}, {}, ins);
}

void emitTmaLoad2d(llvm::IRBuilder<> &b, llvm::Value *dst, llvm::Value *tensorMap, llvm::Value *bar,
                   llvm::Value *c0, llvm::Value *c1, llvm::Value *pred) {
  emitGuarded(b,
              "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes "
              "[$0], [$1, {$2, $3}], [$4];",
              {dst, tensorMap, c0, c1, bar}, pred);
}

void emitTmaLoad2dMulticast(llvm::IRBuilder<> &b, llvm::Value *dst, llvm::Value *tensorMap,
                            llvm::Value *bar, llvm::Value *c0, llvm::Value *c1,
                            llvm::Value *ctaMask, llvm::Value *pred) {
  emitGuarded(b,
              "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
              ".multicast::cluster [$0], [$1, {$2, $3}], [$4], $5;",
              {dst, tensorMap, c0, c1, bar, ctaMask}, pred);
}

void emitMbarrierArriveCluster(llvm::IRBuilder<> &b, llvm::Value *bar, llvm::Value *rank,
                               uint32_t count, llvm::Value *pred) {
  // A block of two instructions: the guard goes on each.
  std::vector<llvm::Value *> ins{bar, rank, b.getInt32(count)};
  std::string guard;
  if (pred) {
    guard = "@$3 ";
    ins.push_back(pred);
  }
  emitInlinePtx(b,
                "{\n.reg .b32 remote;\n" + guard + "mapa.shared::cluster.u32 remote, $0, $1;\n" +
                    guard + "mbarrier.arrive.shared::cluster.b64 _, [remote], $2;\n}",
                {}, {}, ins);
}

void emitTmaStore2d(llvm::IRBuilder<> &b, llvm::Value *src, llvm::Value *tensorMap, llvm::Value *c0,
                    llvm::Value *c1, llvm::Value *pred) {
  emitGuarded(b, "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [$0, {$1, $2}], [$3];",
              {tensorMap, c0, c1, src}, pred);
}

void emitBulkCommitGroup(llvm::IRBuilder<> &b, llvm::Value *pred) {
  emitGuarded(b, "cp.async.bulk.commit_group;", {}, pred);
}

void emitBulkWaitGroupRead(llvm::IRBuilder<> &b, int pendings) {
  emitGuarded(b, "cp.async.bulk.wait_group.read " + std::to_string(pendings) + ";", {}, nullptr);
}

} // namespace linlayout::lower

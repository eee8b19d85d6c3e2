#include "Mbarrier.h"

#include "InlinePtx.h"

namespace linlayout::lower {

void emitMbarrierInit(llvm::IRBuilder<> &b, llvm::Value *bar, uint32_t count) {
  emitInlinePtx(b, "mbarrier.init.shared::cta.b64 [$0], $1;", {}, {},
                {bar, b.getInt32(count)});
}

void emitMbarrierArriveExpectTx(llvm::IRBuilder<> &b, llvm::Value *bar, llvm::Value *bytes) {
  emitInlinePtx(b, "mbarrier.arrive.expect_tx.shared::cta.b64 _, [$0], $1;", {}, {},
                {bar, bytes});
}

void emitMbarrierWaitParity(llvm::IRBuilder<> &b, llvm::Value *bar, llvm::Value *phase) {
  // ${:uid} makes the labels unique per inline-asm instance.
  emitInlinePtx(b,
                "{\n.reg .pred done;\nwait_${:uid}:\n"
                "mbarrier.try_wait.parity.shared::cta.b64 done, [$0], $1;\n"
                "@!done bra wait_${:uid};\n}",
                {}, {}, {bar, phase});
}

void emitTmaLoad2d(llvm::IRBuilder<> &b, llvm::Value *dst, llvm::Value *tensorMap,
                   llvm::Value *bar, llvm::Value *c0, llvm::Value *c1) {
  emitInlinePtx(b,
                "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes "
                "[$0], [$1, {$2, $3}], [$4];",
                {}, {}, {dst, tensorMap, c0, c1, bar});
}

} // namespace linlayout::lower

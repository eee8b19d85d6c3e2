// The shared-memory bytes an emitted instruction touches, carried as metadata from where the
// lowering knows them (a local_alloc's buffer, a conversion's scratch) to SinkToUse, which may
// then move a shared load past a shared store that provably writes other bytes. Without it a
// load of a tile just read from one buffer waits for every store a conversion makes into its
// scratch, and the whole tile is held in registers at once.
#pragma once

#include "SharedHazards.h"

#include <llvm/IR/IRBuilder.h>

#include <optional>

namespace llvm {
class Instruction;
} // namespace llvm

namespace linlayout::lower {

/// While alive, notes where `b` inserts; at its end tags every instruction inserted meanwhile
/// with `bytes` (nothing where bytes is ByteRange::everything(), an access whose place is not
/// known, or where the insertion moved to another block).
/// Ensures: taggedSharedBytes(i) == bytes for each instruction i inserted in the scope, in the
/// block where it began.
class SharedBytesTag {
public:
  SharedBytesTag(llvm::IRBuilder<> &b, ByteRange bytes);
  ~SharedBytesTag();
  SharedBytesTag(const SharedBytesTag &) = delete;
  SharedBytesTag &operator=(const SharedBytesTag &) = delete;

private:
  llvm::IRBuilder<> &b_;
  ByteRange bytes_;
  llvm::BasicBlock *block_ = nullptr;
  llvm::Instruction *before_ = nullptr; // the instruction before the insertion point; null: none
};

/// The bytes `i` was tagged with by a SharedBytesTag; nullopt where it was not.
std::optional<ByteRange> taggedSharedBytes(const llvm::Instruction &i);

} // namespace linlayout::lower

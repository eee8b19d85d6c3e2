// libFuzzer target for the tile IR: any bytes as a module. Nothing may crash, hang or leak, and
// - whatever verifies prints to text that parses, verifies and prints the same;
// - the pass pipeline either reports an error or leaves a module that verifies;
// - every public function runs in the interpreter (two programs, small buffers, small limits) to
//   completion or to an error.
// Seeds: the examples (see CMakeLists.txt).
#include "linlayout/ir/Interpreter.h"
#include "linlayout/ir/Parser.h"
#include "linlayout/ir/Pipeline.h"
#include "linlayout/ir/Printer.h"
#include "linlayout/ir/Verifier.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

using namespace linlayout::ir;

namespace {

// Runs each public function with arguments of its parameter types: pointers into 4 KiB buffers
// of their own, integers 64, floats 1.5; functions with TMA descriptors are skipped.
void interpretAll(const Module &m) {
  for (const Function &f : m.functions) {
    if (!f.isPublic)
      continue;
    Memory memory;
    std::vector<ArgValue> args;
    bool runnable = true;
    for (ValueId a : f.body.args) {
      const Type &t = f.type(a);
      if (t.isTensorDesc() || !t.isScalar() && !t.isPointer()) {
        runnable = false;
        break;
      }
      if (t.isPointerLike()) {
        memory.buffers.emplace_back(4096, uint8_t(0x3c));
        args.push_back(ArgValue::pointer(uint32_t(memory.buffers.size() - 1)));
      } else if (t.isFloatLike()) {
        args.push_back(ArgValue::floating(1.5));
      } else {
        args.push_back(ArgValue::integer(64));
      }
    }
    if (!runnable)
      continue;
    InterpreterOptions o;
    o.maxOps = 1 << 14;
    o.maxElementOps = int64_t(1) << 22;
    (void)interpret(m, f.name, args, memory, Grid{2, 1, 1}, o);
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  auto m = parseModule(text, "fuzz");
  if (!m.ok() || !verify(*m).ok())
    return 0;
  std::string printed = print(*m);
  auto again = parseModule(printed, "printed");
  if (!again.ok() || !verify(*again).ok() || print(*again) != printed)
    __builtin_trap(); // print and parse disagree
  interpretAll(*m);
  Module piped = *m;
  if (runPipeline(piped).ok() && !verify(piped).ok())
    __builtin_trap(); // a pass broke a module that verified
  return 0;
}

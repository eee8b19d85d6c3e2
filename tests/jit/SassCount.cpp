#include "SassCount.h"

#include "linlayout/lower/Ptxas.h"

#include <algorithm>
#include <cstring>

namespace linlayout::sasstest {

namespace {

template <typename T> T readAt(const std::string &d, size_t off) {
  T v{};
  if (off + sizeof(T) <= d.size())
    std::memcpy(&v, d.data() + off, sizeof(T));
  return v;
}

} // namespace

std::optional<SassCounts> assembleAndCount(const std::string &ptx, std::string *why,
                                           const std::string &arch) {
  std::optional<std::string> as = lower::findPtxas();
  if (!as) {
    *why = "no ptxas (set LINLAYOUT_PTXAS)";
    return std::nullopt;
  }
  Expected<lower::PtxasReport> run = lower::runPtxas(*as, ptx, arch);
  if (!run.ok()) {
    *why = run.message();
    return std::nullopt;
  }
  const std::string &d = run->cubin;
  if (!run->accepted || d.size() < 64 || d.compare(0, 4, "\177ELF") != 0) {
    *why = "ptxas: " + run->log;
    return std::nullopt;
  }
  // ELF64 section headers: find the .text.<kernel> section.
  uint64_t shoff = readAt<uint64_t>(d, 0x28);
  uint16_t shentsize = readAt<uint16_t>(d, 0x3a), shnum = readAt<uint16_t>(d, 0x3c),
           shstrndx = readAt<uint16_t>(d, 0x3e);
  auto section = [&](int i, size_t field) { return shoff + size_t(i) * shentsize + field; };
  uint64_t strOff = readAt<uint64_t>(d, section(shstrndx, 0x18));
  SassCounts c;
  int texts = 0;
  for (int i = 0; i < shnum; ++i) {
    uint32_t nameAt = readAt<uint32_t>(d, section(i, 0));
    std::string name(d.data() + std::min<size_t>(d.size() - 1, strOff + nameAt));
    if (name.rfind(".text.", 0) != 0)
      continue;
    ++texts;
    uint64_t off = readAt<uint64_t>(d, section(i, 0x18)),
             size = readAt<uint64_t>(d, section(i, 0x20));
    for (uint64_t k = 0; k + 16 <= size; k += 16) {
      Instruction ins{readAt<uint64_t>(d, off + k), readAt<uint64_t>(d, off + k + 8)};
      uint32_t op = uint32_t(ins[0] & 0x1ff);
      if (op == kNop)
        continue;
      ++c.byOp[op];
      ++c.total;
      c.code.push_back(ins);
    }
  }
  if (texts != 1) {
    *why = "expected one kernel in the cubin, found " + std::to_string(texts);
    return std::nullopt;
  }
  return c;
}

} // namespace linlayout::sasstest

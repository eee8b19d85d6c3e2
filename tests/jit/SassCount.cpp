#include "SassCount.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <unistd.h>
#include <vector>

namespace linlayout::sasstest {

namespace {

template <typename T> T readAt(const std::vector<char> &d, size_t off) {
  T v{};
  if (off + sizeof(T) <= d.size())
    std::memcpy(&v, d.data() + off, sizeof(T));
  return v;
}

} // namespace

std::optional<SassCounts> assembleAndCount(const std::string &ptx, std::string *why) {
  const char *env = std::getenv("LINLAYOUT_PTXAS");
  std::string as = env ? env : "/usr/local/cuda/bin/ptxas";
  if (access(as.c_str(), X_OK) != 0) {
    *why = "no ptxas at " + as;
    return std::nullopt;
  }
  char in[] = "/tmp/ll-sass-XXXXXX";
  int fd = mkstemp(in);
  if (fd < 0) {
    *why = "mkstemp failed";
    return std::nullopt;
  }
  close(fd);
  std::string out = std::string(in) + ".cubin";
  std::ofstream(in) << ptx;
  std::string cmd = as + " -arch=sm_90 -o " + out + " " + in + " 2>&1";
  std::string log;
  FILE *p = popen(cmd.c_str(), "r");
  char buf[512];
  while (p && fgets(buf, sizeof buf, p))
    log += buf;
  int rc = p ? pclose(p) : -1;
  std::remove(in);
  std::ifstream f(out, std::ios::binary);
  std::vector<char> d((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  std::remove(out.c_str());
  if (rc != 0 || d.size() < 64 || std::memcmp(d.data(), "\x7f" "ELF", 4) != 0) {
    *why = "ptxas: " + log;
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
    uint64_t off = readAt<uint64_t>(d, section(i, 0x18)), size = readAt<uint64_t>(d, section(i, 0x20));
    for (uint64_t k = 0; k + 16 <= size; k += 16) {
      uint32_t op = uint32_t(readAt<uint64_t>(d, off + k) & 0x1ff);
      if (op == kNop)
        continue;
      ++c.byOp[op];
      ++c.total;
    }
  }
  if (texts != 1) {
    *why = "expected one kernel in the cubin, found " + std::to_string(texts);
    return std::nullopt;
  }
  return c;
}

} // namespace linlayout::sasstest

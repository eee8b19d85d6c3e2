#include "ElfSymbols.h"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <cstring>

namespace linlayout::bench::triton {

namespace {

std::string realPath(const std::string &p) {
  char buf[PATH_MAX];
  return ::realpath(p.c_str(), buf) ? std::string(buf) : p;
}

std::string_view baseName(std::string_view p) {
  size_t s = p.rfind('/');
  return s == std::string_view::npos ? p : p.substr(s + 1);
}

// A read-only mapping of a whole file, unmapped on scope exit.
struct Mapping {
  const unsigned char *data = nullptr;
  size_t size = 0;
  ~Mapping() {
    if (data)
      ::munmap(const_cast<unsigned char *>(data), size);
  }
  bool open(const std::string &path) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
      return false;
    struct stat st{};
    if (::fstat(fd, &st) == 0 && st.st_size > 0) {
      void *p = ::mmap(nullptr, size_t(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
      if (p != MAP_FAILED) {
        data = static_cast<const unsigned char *>(p);
        size = size_t(st.st_size);
      }
    }
    ::close(fd);
    return data != nullptr;
  }
};

// The bytes at file address `vaddr` (through the PT_LOAD headers), or nullptr.
const unsigned char *fileBytesAt(const Mapping &m, uint64_t vaddr, size_t n) {
  auto *eh = reinterpret_cast<const Elf64_Ehdr *>(m.data);
  for (int i = 0; i < eh->e_phnum; ++i) {
    auto *ph = reinterpret_cast<const Elf64_Phdr *>(m.data + eh->e_phoff + i * eh->e_phentsize);
    if (ph->p_type == PT_LOAD && vaddr >= ph->p_vaddr && vaddr + n <= ph->p_vaddr + ph->p_filesz &&
        ph->p_offset + (vaddr - ph->p_vaddr) + n <= m.size)
      return m.data + ph->p_offset + (vaddr - ph->p_vaddr);
  }
  return nullptr;
}

} // namespace

std::optional<std::pair<uintptr_t, std::string>> loadedObject(const std::string &fileName) {
  struct Search {
    std::string want, wantBase;
    std::optional<std::pair<uintptr_t, std::string>> found;
  } s{realPath(fileName), std::string(baseName(fileName)), std::nullopt};
  ::dl_iterate_phdr(
      [](struct dl_phdr_info *info, size_t, void *arg) {
        auto *s = static_cast<Search *>(arg);
        if (!info->dlpi_name || !*info->dlpi_name)
          return 0;
        std::string name = info->dlpi_name;
        if (realPath(name) == s->want || baseName(name) == s->wantBase) {
          s->found = std::make_pair(uintptr_t(info->dlpi_addr), name);
          return 1;
        }
        return 0;
      },
      &s);
  return s.found;
}

std::optional<ElfSymbols> ElfSymbols::load(const std::string &path, std::string &error) {
  auto loaded = loadedObject(path);
  if (!loaded) {
    error = "no loaded object is '" + path + "' (import it first)";
    return std::nullopt;
  }
  Mapping m;
  if (!m.open(path)) {
    error = "cannot map '" + path + "'";
    return std::nullopt;
  }
  auto *eh = reinterpret_cast<const Elf64_Ehdr *>(m.data);
  if (m.size < sizeof(Elf64_Ehdr) || std::memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
      eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_machine != EM_X86_64) {
    error = "'" + path + "' is not an ELF64 x86-64 object";
    return std::nullopt;
  }
  if (eh->e_shoff == 0 || eh->e_shoff + uint64_t(eh->e_shnum) * eh->e_shentsize > m.size) {
    error = "'" + path + "' has no section headers";
    return std::nullopt;
  }
  auto section = [&](int i) {
    return reinterpret_cast<const Elf64_Shdr *>(m.data + eh->e_shoff + i * eh->e_shentsize);
  };
  ElfSymbols out;
  out.path_ = path;
  out.bias_ = loaded->first;
  out.loaded_ = loaded->second;
  for (int i = 0; i < eh->e_shnum; ++i) {
    const Elf64_Shdr *sh = section(i);
    if (sh->sh_type != SHT_SYMTAB || sh->sh_link >= eh->e_shnum)
      continue;
    const Elf64_Shdr *strSh = section(int(sh->sh_link));
    if (sh->sh_offset + sh->sh_size > m.size || strSh->sh_offset + strSh->sh_size > m.size)
      break;
    const char *strs = reinterpret_cast<const char *>(m.data + strSh->sh_offset);
    size_t n = sh->sh_size / sizeof(Elf64_Sym);
    out.values_.reserve(n);
    for (size_t k = 0; k < n; ++k) {
      auto *sym = reinterpret_cast<const Elf64_Sym *>(m.data + sh->sh_offset) + k;
      if (sym->st_shndx == SHN_UNDEF || sym->st_value == 0 || sym->st_name >= strSh->sh_size)
        continue;
      const char *name = strs + sym->st_name;
      // Only C++ and the Python entry points: the table also names every local label.
      if ((name[0] == '_' && name[1] == 'Z') || std::strncmp(name, "PyInit_", 7) == 0)
        out.values_.emplace(name, sym->st_value);
    }
  }
  if (out.values_.empty()) {
    error = "'" + path + "' has no .symtab (stripped)";
    return std::nullopt;
  }
  return out;
}

uintptr_t ElfSymbols::address(std::string_view name) const {
  auto it = values_.find(std::string(name));
  return it == values_.end() ? 0 : bias_ + it->second;
}

std::vector<std::string> ElfSymbols::namesStartingWith(std::string_view prefix, size_t max) const {
  std::vector<std::string> r;
  for (const auto &[name, value] : values_)
    if (std::string_view(name).substr(0, prefix.size()) == prefix && r.size() < max)
      r.push_back(name);
  return r;
}

bool ElfSymbols::codeMatchesFile(std::string_view name, size_t n) const {
  auto it = values_.find(std::string(name));
  if (it == values_.end())
    return false;
  Mapping m;
  if (!m.open(path_))
    return false;
  const unsigned char *file = fileBytesAt(m, it->second, n);
  return file && std::memcmp(file, reinterpret_cast<const void *>(bias_ + it->second), n) == 0;
}

} // namespace linlayout::bench::triton

// Finds functions of a loaded shared object by their mangled names, hidden ones included.
//
// libtriton.so exports only its Python entry points; its C++ (mlir::triton::LinearLayout and the
// MLIR it needs) is hidden, but the file keeps a full .symtab. This reads that table from the
// file (ELF64, x86-64) and adds the object's load bias found with dl_iterate_phdr, so the
// side-by-side benchmark can call Triton's own compiled code in-process.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace linlayout::bench::triton {

class ElfSymbols {
public:
  /// Reads the symbol table of `path`, a shared object this process has loaded.
  /// Returns nullopt (and says why in `error`) when the file is not an ELF64 object with a
  /// .symtab, or when no loaded object has that file name.
  static std::optional<ElfSymbols> load(const std::string &path, std::string &error);

  /// The run-time address of the defined symbol `name`, or 0 when there is none.
  uintptr_t address(std::string_view name) const;
  /// Up to `max` defined symbol names that start with `prefix` (for diagnostics).
  std::vector<std::string> namesStartingWith(std::string_view prefix, size_t max) const;
  /// Whether the bytes of `name`'s code in memory equal those in the file (`n` bytes): checks
  /// the load bias.
  bool codeMatchesFile(std::string_view name, size_t n) const;

  uintptr_t loadBias() const { return bias_; }
  size_t symbolCount() const { return values_.size(); }
  const std::string &loadedPath() const { return loaded_; }

private:
  std::unordered_map<std::string, uint64_t> values_; // name -> st_value (file address)
  std::string path_, loaded_;
  uintptr_t bias_ = 0;
};

/// The load bias of the loaded object whose path ends with `fileName` (its realpath or name),
/// and that path; nullopt when no loaded object matches.
std::optional<std::pair<uintptr_t, std::string>> loadedObject(const std::string &fileName);

} // namespace linlayout::bench::triton

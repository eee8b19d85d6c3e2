// AttrSyntax: layouts written the way Triton compiler dumps print them (TritonGPU attribute
// syntax), read into LayoutSpec values and written back.
//
// Accepted (prefix `#ttg.` or the older `#triton_gpu.`; spaces and newlines anywhere between
// tokens):
//   #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1],
//                 order = [1, 0]}>                      + CTA split, either form:
//       CTAsPerCGA = [..], CTASplitNum = [..], CTAOrder = [..]     (Triton 3.0 - 3.4 dumps)
//       CGALayout = [[0, 1], [1, 0]]                                (one basis per block bit)
//   #ttg.slice<{dim = 1, parent = #blocked}>
//   #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1],
//                    instrShape = [16, 8]}>             (+ CTA split; older mnemonic `mma`, and
//                                                        the 2022 `{version = 2, ...}` form)
//   #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}> (kWidth defaults to 2 for an mma
//                                                        parent, 0 for a blocked one)
//   #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
//                                                       (older `shared`; `hasLeadingOffset =
//                                                        true` there reads as nvmma_shared)
//   #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
//   #ttg.linear<{register = [[0, 1]], lane = [[0, 2], ...], warp = [...], block = []}>
//   #ttg.shared_linear<{offset = [[0, 1], ...], block = [...]}, alignment = 16>
//   #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8],
//                  isTransposed = true}>               (+ CTA split, tilesPerWarp,
//                                                        elementBitWidth = 64)
//   #ttg.amd_wmma<{version = 2, isTranspose = false, warpsPerCTA = [2, 2]}>
//                                                       (+ CTA split, tilesPerWarp, instrShape)
//   #ttg.padded_shared<[32:+4, 64:+8] {offset = [[0, 1], ...], block = []}>
//                                                       (or {order = [1, 0], shape = [64, 64]})
//   #name                                               (an alias defined earlier in a dump)
// Each family reads and prints its own fields (AttrFields.h); this file's parser knows only
// the shared grammar: values, lists (with `a:+b` items), attributes and aliases.
// A dump's alias block (`#blocked = #ttg.blocked<...>` lines) reads into an AttrAliases table;
// definitions that are not layouts (`#loc = loc(...)`, `#smem = #ttg.shared_memory`) are kept
// as names that are not layouts. Errors say where (`line:column`, 1-based, in the text given)
// and what was expected. Nesting (parents, lists) deeper than kMaxAttrDepth is an error, so
// hostile input cannot exhaust the stack; nothing in the input makes the parser crash or hang.
#pragma once

#include "linlayout/layout/Expected.h"
#include "linlayout/layout/LayoutSpec.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace linlayout {

/// The deepest nesting of attributes and lists the parser accepts.
constexpr int kMaxAttrDepth = 32;

/// The alias definitions of a compiler dump: `#name = ...` for every name, either a layout or
/// the reason it is not one.
class AttrAliases {
public:
  /// Defines (or redefines) `name` (without '#') as a layout.
  void define(std::string name, LayoutSpec spec);
  /// Defines (or redefines) `name` as something that is not a layout, with what it is.
  void defineOther(std::string name, std::string what);

  /// The layout `name` stands for.
  /// Requires: name is defined as a layout (errors name the alias otherwise).
  Expected<LayoutSpec> lookup(std::string_view name) const;
  bool contains(std::string_view name) const { return entries_.count(name) != 0; }
  /// The defined names, sorted.
  std::vector<std::string> names() const;
  size_t size() const { return entries_.size(); }

private:
  struct Entry {
    std::optional<LayoutSpec> spec;
    std::string other; // what the name is when it is not a layout
  };
  std::map<std::string, Entry, std::less<>> entries_;
};

/// Options of parseLayoutAttr.
struct AttrParseOptions {
  /// The tensor rank, for layouts whose text does not say it (nvmma_shared without a CTA split
  /// is rank 2 unless told).
  std::optional<int> rank;
};

/// Reads the alias definitions of a dump: every line that starts (after spaces) with
/// `#name = `. Layout definitions may use names defined above them; a name defined twice keeps
/// the later definition (as in files of several `// -----` cases).
/// Requires: each definition whose value is a TritonGPU layout attribute is well-formed and
/// valid (an error with its line:column otherwise); other definitions are not checked.
Expected<AttrAliases> parseAttrAliases(std::string_view dump);

/// Reads one layout attribute (surrounding spaces allowed), resolving `#name` through `aliases`.
/// Requires: the text is exactly one attribute of the forms above, its parameters valid for its
/// family (errors start with `line:column: `).
/// Ensures: parseLayoutAttr(printLayoutAttr(s), {}, {s.rank()}) == s for every spec s.
/// Example: parseLayoutAttr("#ttg.slice<{dim = 0, parent = #b}>", aliases) with #b a rank-2
/// blocked layout gives a rank-1 slice.
Expected<LayoutSpec> parseLayoutAttr(std::string_view text, const AttrAliases &aliases = {},
                                     const AttrParseOptions &options = {});

/// Writes a spec as Triton 3.6 prints it (`#ttg.` prefix, parents inline, the CTA split in the
/// form it was read in: CTAsPerCGA/CTASplitNum/CTAOrder or CGALayout, omitted for one CTA).
std::string printLayoutAttr(const LayoutSpec &spec);

/// The stem Triton gives a layout's alias in a dump (`#blocked`, `#mma`, `#shared`, ...).
std::string_view attrAliasStem(const LayoutSpec &spec);

} // namespace linlayout

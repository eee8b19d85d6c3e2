// AttrFields: a layout family's view of its TritonGPU attribute (`#ttg.blocked<{...}>`).
//
// Each family reads and writes its own attribute, beside its definition: a family class holds
//   static constexpr AttrNames kAttr;                    its mnemonic(s) and alias stem
//   static Expected<LayoutSpec> parseAttr(AttrFields &); its fields, read through AttrFields
//   std::string attrText() const;                        the attribute as Triton 3.6 prints it
// and AttrSyntax.cpp (the lexer, aliases, positions) and AttrPrinter.cpp dispatch over the
// LayoutSpec variant, so adding a family changes neither.
#pragma once

#include "linlayout/layout/CgaLayout.h"
#include "linlayout/layout/Expected.h"

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace linlayout {

class LayoutSpec;

/// The names of a family's attribute: its mnemonic (`#ttg.<name>`), an older mnemonic Triton
/// also printed ("" if none), the stem Triton gives its aliases in a dump (`#mma`), and its
/// dialect's short name (`ttg`, or `ttng` for the tensor-memory layouts).
struct AttrNames {
  std::string_view name, oldName, aliasStem;
  std::string_view dialect = "ttg";
};

/// The fields of one attribute being read. Each field may be read at most once; done() reports
/// the first one not read. Errors carry the `line:column: ` of the text being read.
class AttrFields {
public:
  virtual ~AttrFields() = default;

  /// `#ttg.<mnemonic>` as written, for messages.
  virtual std::string full() const = 0;
  /// Whether `key` is written (does not read it).
  virtual bool has(std::string_view key) const = 0;

  /// A required integer, list of integers, list of bases or boolean (with its default).
  virtual Expected<int64_t> integer(std::string_view key) = 0;
  virtual Expected<std::vector<int64_t>> ints(std::string_view key) = 0;
  virtual Expected<bool> boolean(std::string_view key, bool dflt) = 0;
  /// An optional list of bases (empty when absent).
  virtual Expected<std::vector<std::vector<int64_t>>> bases(std::string_view key) = 0;
  /// Optional forms: nullopt when absent.
  virtual Expected<std::optional<int64_t>> optInteger(std::string_view key) = 0;
  virtual Expected<std::optional<std::vector<int64_t>>> optInts(std::string_view key) = 0;

  /// The list written before the fields, as in `#ttg.padded_shared<[32:+4, 64:+8] {...}>`:
  /// its `a:+b` items. Requires: the attribute has one (an error naming the attribute otherwise).
  virtual Expected<std::vector<std::pair<int64_t, int64_t>>> leadingPairs() = 0;

  /// Marks a required field as read (an error when absent), for a parent read after done().
  virtual Status require(std::string_view key) = 0;
  /// The layout attribute or alias in field `key`. Requires: require(key) succeeded.
  virtual Expected<LayoutSpec> spec(std::string_view key) = 0;

  /// The CTA split, written as CGALayout or as CTAsPerCGA/CTASplitNum/CTAOrder; nullopt when
  /// neither is written.
  virtual Expected<std::optional<CgaLayout>> cga(int rank) = 0;
  /// The rank the CTA split fields imply, when written (does not read them).
  virtual std::optional<int> cgaRank() const = 0;
  /// The rank the caller said the tensor has (AttrParseOptions::rank).
  virtual std::optional<int> rankHint() const = 0;

  /// Every field read; the first unread one is an error listing `accepted`.
  virtual Status done(std::initializer_list<const char *> accepted) = 0;

  /// An error at the attribute, or at the value of field `key`.
  virtual Error error(const std::string &message) const = 0;
  virtual Error errorAt(std::string_view key, const std::string &message) const = 0;
  /// A family's own error (from its make()), placed at the attribute, its Gluon parameter
  /// names spelled as the attribute spells them.
  virtual Error familyError(const std::string &message) const = 0;

  /// The value of `made`, or its error as familyError.
  template <typename T> Expected<T> checked(Expected<T> made) const {
    if (!made.ok())
      return familyError(made.message());
    return made;
  }
  /// `v` as an int, when 0 <= v <= 2^20 (an error naming `key` otherwise).
  Expected<int> smallInt(int64_t v, std::string_view key) const {
    if (v < 0 || v > (int64_t(1) << 20))
      return error(std::string(key) + " is " + std::to_string(v) + ", out of range");
    return int(v);
  }
};

/// Pieces of printed attributes: `[1, 2]`, `[[0, 1], [1, 0]]`, `true`, and a CTA split as
/// `, CGALayout = [...]` (or the three older lists it was read from; "" for one CTA).
std::string attrIntList(const std::vector<int64_t> &v);
std::string attrBasisList(const std::vector<std::vector<int64_t>> &b);
const char *attrBool(bool b);
std::string attrCgaText(const CgaLayout &c);

} // namespace linlayout

// Names of layout dimensions ("register", "lane", "warp", "block", "offset", "dim0", ...).
// A name is a small interned id: comparing, hashing and copying it costs one integer, so the
// hot paths of LinearLayout never touch strings. The text is kept only for printing and I/O.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace linlayout {

/// An interned dimension name.
/// Ensures: `DimName::get(s).str() == s`; two names are equal exactly when their texts are.
class DimName {
public:
  /// The most distinct names a process interns; past it `tryGet` answers nullopt, so hostile
  /// input cannot grow the table without bound.
  static constexpr int kMaxNames = 1 << 14;
  /// The longest name accepted.
  static constexpr int kMaxLength = 128;

  /// A placeholder name ("<unnamed>") that no user can intern.
  DimName() = default;

  /// Interns a name given by a user. Returns nullopt when the name is empty, longer than
  /// kMaxLength, or the table is full.
  static std::optional<DimName> tryGet(std::string_view text);
  /// Interns a name our own code spells. Requires: the name is valid (asserts).
  static DimName get(std::string_view text);

  /// The well-known names, interned once.
  static DimName reg();
  static DimName lane();
  static DimName warp();
  static DimName block();
  static DimName offset();
  /// `dim<i>`, the output dimension names of tensor layouts. Requires: 0 <= i < 64.
  static DimName dim(int i);

  std::string_view str() const;
  uint16_t id() const { return id_; }

  friend bool operator==(DimName a, DimName b) { return a.id_ == b.id_; }
  friend bool operator!=(DimName a, DimName b) { return a.id_ != b.id_; }

private:
  explicit DimName(uint16_t id) : id_(id) {}
  uint16_t id_ = 0;
};

} // namespace linlayout

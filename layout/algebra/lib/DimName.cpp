#include "linlayout/layout/DimName.h"

#include <array>
#include <cassert>
#include <deque>
#include <mutex>
#include <string>
#include <unordered_map>

namespace linlayout {
namespace {

// The process-wide intern table. Names are only interned while building layouts from user input or
// code; the hot paths compare ids.
struct NameTable {
  std::mutex mutex;
  std::deque<std::string> texts; // deque: references stay valid as it grows
  std::unordered_map<std::string_view, uint16_t> ids;

  NameTable() {
    // Id 0 is the default-constructed DimName; give it a text that no user can intern.
    texts.emplace_back("<unnamed>");
  }
};

NameTable &table() {
  static NameTable t;
  return t;
}

} // namespace

std::optional<DimName> DimName::tryGet(std::string_view text) {
  if (text.empty() || text.size() > kMaxLength)
    return std::nullopt;
  NameTable &t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  auto it = t.ids.find(text);
  if (it != t.ids.end())
    return DimName(it->second);
  if (t.texts.size() >= size_t(kMaxNames))
    return std::nullopt;
  auto id = uint16_t(t.texts.size());
  t.texts.emplace_back(text);
  t.ids.emplace(t.texts.back(), id);
  return DimName(id);
}

DimName DimName::get(std::string_view text) {
  std::optional<DimName> name = tryGet(text);
  assert(name && "invalid built-in dimension name");
  return *name;
}

std::string_view DimName::str() const {
  NameTable &t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  return t.texts[id_];
}

DimName DimName::reg() {
  static const DimName n = get("register");
  return n;
}
DimName DimName::lane() {
  static const DimName n = get("lane");
  return n;
}
DimName DimName::warp() {
  static const DimName n = get("warp");
  return n;
}
DimName DimName::block() {
  static const DimName n = get("block");
  return n;
}
DimName DimName::offset() {
  static const DimName n = get("offset");
  return n;
}
DimName DimName::dim(int i) {
  assert(i >= 0 && i < 64 && "dim index out of range");
  static const auto names = [] {
    std::array<DimName, 64> a{};
    for (int k = 0; k < 64; ++k)
      a[k] = get("dim" + std::to_string(k));
    return a;
  }();
  return names[i];
}

} // namespace linlayout

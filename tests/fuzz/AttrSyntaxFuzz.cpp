// libFuzzer target: the TritonGPU attribute parser on arbitrary bytes, both as one attribute and
// as a dump's alias block. Nothing may crash, hang or leak; whatever parses must print back to
// text that parses to the same layout.
#include "linlayout/layout/AttrSyntax.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  auto aliases = linlayout::parseAttrAliases(text);
  const linlayout::AttrAliases table = aliases.ok() ? *aliases : linlayout::AttrAliases();
  const linlayout::AttrAliases none;
  for (const linlayout::AttrAliases *t : {&table, &none}) {
    auto spec = linlayout::parseLayoutAttr(text, *t);
    if (!spec.ok())
      continue;
    linlayout::AttrParseOptions o;
    o.rank = spec->rank();
    auto back = linlayout::parseLayoutAttr(linlayout::printLayoutAttr(*spec), {}, o);
    if (!back.ok() || !(*back == *spec))
      __builtin_trap(); // print and parse disagree
  }
  return 0;
}

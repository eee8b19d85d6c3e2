// Placeholder until the attribute-syntax parser lands (it replaces this file).
#include "query/SpecJson.h"

namespace linlayout::query {

Expected<LayoutSpec> specFromText(std::string_view) {
  return makeError("attribute syntax is not supported yet");
}

} // namespace linlayout::query

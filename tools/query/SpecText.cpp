// specFromText: specs in TritonGPU's attribute syntax, read by the layout library's parser.
#include "linlayout/layout/AttrSyntax.h"
#include "query/SpecJson.h"

namespace linlayout::query {

Expected<LayoutSpec> specFromText(std::string_view text) { return parseLayoutAttr(text); }

} // namespace linlayout::query

// The CTA split of a layout spec, as the passes read it: the queries live with the layout
// families in layout/ (linlayout/layout/CtaSplit.h); this header names them in linlayout::ir.
#pragma once

#include "linlayout/layout/CtaSplit.h"

namespace linlayout::ir {

using linlayout::broadcastCga;
using linlayout::cgaOf;
using linlayout::numCtasOf;
using linlayout::splitsOverCtas;
using linlayout::withCga;

} // namespace linlayout::ir

#include "WarpGroups.h"

#include "linlayout/ir/Walk.h"

#include <algorithm>
#include <string>

namespace linlayout::lower {

Expected<WarpGroupPlan> planWarpGroups(const ir::Module &m, const ir::Op &op) {
  WarpGroupPlan p;
  p.start.push_back(0);
  p.warps.push_back(int(m.numWarps));
  int next = int(m.numWarps);
  for (int64_t w : op.attrs.partitionWarps) {
    int align = std::min<int>(int(w), 4);
    next = (next + align - 1) / align * align;
    p.start.push_back(next);
    p.warps.push_back(int(w));
    next += int(w);
  }
  const std::vector<int64_t> &regs = op.attrs.actualRegisters;
  p.totalWarps = regs.empty() ? next : (next + 3) / 4 * 4;
  if (p.totalWarps > 32)
    return makeError("ttg.warp_specialize needs " + std::to_string(p.totalWarps) +
                     " warps, more than the 32 of a CTA");
  if (regs.empty())
    return p;
  if (m.numWarps % 4 != 0)
    return makeError("register budgets need the default region in whole warp groups, it has " +
                     std::to_string(m.numWarps) + " warps");
  p.groupRegisters.assign(size_t(p.totalWarps / 4), 0);
  for (size_t r = 0; r < p.start.size(); ++r)
    for (int w = p.start[r]; w < p.start[r] + p.warps[r]; ++w) {
      int &g = p.groupRegisters[size_t(w / 4)];
      if (g != 0 && g != int(regs[r]))
        return makeError("warp group " + std::to_string(w / 4) + " holds regions with " +
                         std::to_string(g) + " and " + std::to_string(regs[r]) +
                         " registers; setmaxnreg sets one budget per warp group");
      g = int(regs[r]);
    }
  int64_t total = 0;
  for (int &g : p.groupRegisters) {
    if (g == 0)
      g = 24; // a group of padding warps only
    total += 128 * int64_t(g);
  }
  if (total > 65536)
    return makeError("the register budgets take " + std::to_string(total) +
                     " registers, more than the 65536 of an SM");
  return p;
}

Expected<KernelWarps> kernelWarps(const ir::Module &m, const ir::Function &f) {
  KernelWarps k{int(m.numWarps), 0};
  Status bad = Status::success();
  ir::walkOps(f.body, [&](const ir::Op &op) {
    if (op.kind != ir::OpKind::WarpSpecialize || !bad.ok())
      return;
    Expected<WarpGroupPlan> p = planWarpGroups(m, op);
    if (!p.ok()) {
      bad = Status(makeError(p.message()));
      return;
    }
    k.warps = std::max(k.warps, p->totalWarps);
    if (p->groupRegisters.empty())
      return;
    // Every thread starts with as many registers as fit the file; setmaxnreg then raises a
    // warp group's budget above that (inc) or lowers it (dec).
    k.maxRegisters = std::max(k.maxRegisters, std::min(248, 65536 / (p->totalWarps * 32)) / 8 * 8);
  });
  if (!bad.ok())
    return makeError(bad.message());
  return k;
}

} // namespace linlayout::lower

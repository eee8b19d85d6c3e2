// The warp family: ttg.warp_specialize, which runs its regions at once on disjoint warps (the
// default region on the module's warps, each partition on warps of its own), and the regions'
// terminators ttg.warp_yield and ttg.warp_return. The interpreter runs the regions as tasks
// scheduled cooperatively (PartitionScheduler.h) and checks their shared-memory protocols
// (PartitionRaces.h).
#include "FamilyTable.h"
#include "OpInterpreter.h"
#include "OpParser.h"
#include "OpPrinter.h"
#include "OpVerifier.h"
#include "linlayout/ir/Parser.h"

#include <array>
#include <string>
#include <unordered_set>
#include <vector>

namespace linlayout::ir {

namespace {

// The register counts setmaxnreg can set: 24..256 in steps of 8.
bool isRegisterBudget(int64_t r) { return r >= 24 && r <= 256 && r % 8 == 0; }

std::string joinInts(const std::vector<int64_t> &v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + std::to_string(v[i]);
  return s;
}

// ---- printing -----------------------------------------------------------------------------------

// `(%a, %b) attributes {...}` and the regions, then `: (A, B) -> R`, as Triton prints it.
void printWarpSpecialize(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  const std::string ind(size_t(depth) * 2, ' ');
  const OpAttrs &a = op.attrs;
  os << "(" << p.list(op.operands) << ")";
  std::vector<std::string> attrs;
  if (!a.actualRegisters.empty())
    attrs.push_back("actualRegisters = array<i32: " + joinInts(a.actualRegisters) + ">");
  if (!a.requestedRegisters.empty())
    attrs.push_back("requestedRegisters = array<i32: " + joinInts(a.requestedRegisters) + ">");
  if (!attrs.empty()) {
    os << " attributes {";
    for (size_t i = 0; i < attrs.size(); ++i)
      os << (i ? ", " : "") << attrs[i];
    os << "}";
  }
  os << "\n" << ind << "default {\n";
  if (!op.regions.empty())
    p.printBlockOps(os, op.regions[0], depth + 1);
  os << ind << "}";
  for (size_t r = 1; r < op.regions.size(); ++r) {
    const Block &b = op.regions[r];
    os << "\n" << ind << "partition" << (r - 1) << "(";
    for (size_t i = 0; i < b.args.size(); ++i)
      os << (i ? ", " : "") << p.v(b.args[i]) << ": " << p.t(b.args[i]);
    os << ") num_warps(" << (r - 1 < a.partitionWarps.size() ? a.partitionWarps[r - 1] : 0)
       << ") {\n";
    p.printBlockOps(os, b, depth + 1);
    os << ind << "}";
  }
  os << " : (";
  for (size_t i = 0; i < op.operands.size(); ++i)
    os << (i ? ", " : "") << p.t(op.operands[i]);
  os << ") -> ";
  if (op.results.size() == 1) {
    os << p.t(op.results[0]);
  } else {
    os << "(";
    for (size_t i = 0; i < op.results.size(); ++i)
      os << (i ? ", " : "") << p.t(op.results[i]);
    os << ")";
  }
}

// WarpYield
void printWarpYield(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  if (op.operands.empty())
    return;
  os << " " << p.list(op.operands) << " : ";
  for (size_t i = 0; i < op.operands.size(); ++i)
    os << (i ? ", " : "") << p.t(op.operands[i]);
}

// WarpReturn
void printWarpReturn(OpPrinter &p, std::ostream &os, const Op &op, int depth) {}

constexpr auto kPrint = familyTable<OpFamily::Warp, PrintOpFn>({
    {OpKind::WarpSpecialize, printWarpSpecialize},
    {OpKind::WarpYield, printWarpYield},
    {OpKind::WarpReturn, printWarpReturn},
});

// ---- verification -------------------------------------------------------------------------------

// The values a block defines (its args, its ops' results, recursively), and whether it holds a
// warp_specialize.
void definedIn(const Block &b, std::unordered_set<ValueId> &out, bool &nested, int depth) {
  out.insert(b.args.begin(), b.args.end());
  for (const Op &op : b.ops) {
    out.insert(op.results.begin(), op.results.end());
    nested |= op.kind == OpKind::WarpSpecialize;
    if (depth < kMaxNesting)
      for (const Block &r : op.regions)
        definedIn(r, out, nested, depth + 1);
  }
}

// The first operand of an op in `b` (recursively) that `inside` does not hold, or kNoValue.
const Op *usesOutside(const Block &b, const std::unordered_set<ValueId> &inside, ValueId &v,
                      int depth) {
  for (const Op &op : b.ops) {
    for (ValueId x : op.operands)
      if (!inside.count(x)) {
        v = x;
        return &op;
      }
    if (depth < kMaxNesting)
      for (const Block &r : op.regions)
        if (const Op *o = usesOutside(r, inside, v, depth + 1))
          return o;
  }
  return nullptr;
}

Status checkWarpSpecialize(OpVerifier &v, const Op &op) {
  const OpAttrs &a = op.attrs;
  if (op.regions.size() < 2)
    return v.err(&op, "needs a default region and at least one partition");
  const size_t parts = op.regions.size() - 1;
  if (a.partitionWarps.size() != parts)
    return v.err(&op, "has " + std::to_string(parts) + " partitions but " +
                          std::to_string(a.partitionWarps.size()) + " warp counts");
  int64_t total = v.module().numWarps;
  for (size_t i = 0; i < parts; ++i) {
    int64_t w = a.partitionWarps[i];
    if (w < 1 || w > 32 || (w & (w - 1)) != 0)
      return v.err(&op, "partition " + std::to_string(i) + " has num_warps(" + std::to_string(w) +
                            "), expected a power of two in 1..32");
    total += w;
  }
  if (total > 32)
    return v.err(&op, "the default region's " + std::to_string(v.module().numWarps) +
                          " warps and the partitions' make " + std::to_string(total) +
                          " warps, more than the 32 (1024 threads) of a CTA");
  if (!a.requestedRegisters.empty() && a.requestedRegisters.size() != parts)
    return v.err(&op, "requestedRegisters has " + std::to_string(a.requestedRegisters.size()) +
                          " entries, expected one per partition (" + std::to_string(parts) + ")");
  if (!a.actualRegisters.empty() && a.actualRegisters.size() != parts + 1)
    return v.err(&op, "actualRegisters has " + std::to_string(a.actualRegisters.size()) +
                          " entries, expected the default region's and one per partition (" +
                          std::to_string(parts + 1) + ")");
  for (const std::vector<int64_t> *regs : {&a.requestedRegisters, &a.actualRegisters})
    for (int64_t r : *regs)
      if (!isRegisterBudget(r))
        return v.err(&op, "register count " + std::to_string(r) +
                              " is not one setmaxnreg can set (24..256, a multiple of 8)");
  for (size_t i = 0; i < op.operands.size(); ++i) {
    const Type &t = v.type(op.operands[i]);
    if (t.isTensor())
      return v.err(&op, "capture " + std::to_string(i) + " is a tensor " + v.ty(t) +
                            "; partitions take scalars, pointers, descriptors and memdescs (pass "
                            "a tensor through shared memory)");
  }
  // The default region: no arguments, yields the results.
  const Block &def = op.regions[0];
  if (!def.args.empty())
    return v.err(&op, "the default region takes no arguments");
  if (def.ops.empty() || def.ops.back().kind != OpKind::WarpYield)
    return v.err(&op, "the default region must end with ttg.warp_yield");
  const Op &yield = def.ops.back();
  if (yield.operands.size() != op.results.size())
    return v.err(&yield, "yields " + std::to_string(yield.operands.size()) + " value(s) for the " +
                             std::to_string(op.results.size()) +
                             " result(s) of ttg.warp_specialize");
  for (size_t i = 0; i < op.results.size(); ++i) {
    if (v.type(yield.operands[i]) != v.type(op.results[i]))
      return v.err(&yield, "yields " + v.ty(yield.operands[i]) + " for result " +
                               std::to_string(i) + " of type " + v.ty(op.results[i]));
    if (v.type(op.results[i]).isMemDesc())
      return v.err(&op, "results are tensors or scalars, not shared-memory descriptors");
  }
  // Each partition: one argument per capture, of its type; it sees only them.
  for (size_t r = 1; r < op.regions.size(); ++r) {
    const Block &b = op.regions[r];
    const std::string name = "partition " + std::to_string(r - 1);
    if (b.args.size() != op.operands.size())
      return v.err(&op, name + " takes " + std::to_string(b.args.size()) +
                            " argument(s), expected one per capture (" +
                            std::to_string(op.operands.size()) + ")");
    for (size_t i = 0; i < b.args.size(); ++i)
      if (v.type(b.args[i]) != v.type(op.operands[i]))
        return v.err(&op, name + ": argument " + std::to_string(i) + " has type " +
                              v.ty(b.args[i]) + ", its capture " + v.ty(op.operands[i]));
    if (b.ops.empty() || b.ops.back().kind != OpKind::WarpReturn)
      return v.err(&op, name + " must end with ttg.warp_return");
    std::unordered_set<ValueId> inside;
    bool nested = false;
    definedIn(b, inside, nested, 0);
    if (nested)
      return v.err(&op, name + " holds a ttg.warp_specialize; they do not nest");
    ValueId outside = kNoValue;
    if (const Op *user = usesOutside(b, inside, outside, 0)) {
      const std::string &n = v.function().values[outside].name;
      return v.err(user, "uses " + (n.empty() ? "a value" : "%" + n) + " from outside " + name +
                             ", which sees only its arguments (pass the value as a capture)");
    }
  }
  std::unordered_set<ValueId> inside;
  bool nested = false;
  definedIn(def, inside, nested, 0);
  if (nested)
    return v.err(&op, "the default region holds a ttg.warp_specialize; they do not nest");
  return Status::success();
}

// WarpYield, WarpReturn: checked with their warp_specialize.
Status checkTerminator(OpVerifier &v, const Op &op) {
  if (op.kind == OpKind::WarpReturn)
    return v.counts(op, 0, 0, 0);
  return Status::success();
}

constexpr auto kChecks = familyTable<OpFamily::Warp, VerifyOpFn>({
    {OpKind::WarpSpecialize, checkWarpSpecialize},
    {OpKind::WarpYield, checkTerminator},
    {OpKind::WarpReturn, checkTerminator},
});

} // namespace

void printWarpOp(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  kPrint[size_t(op.kind)](p, os, op, depth);
}

Status verifyWarpOp(OpVerifier &v, const Op &op) { return kChecks[size_t(op.kind)](v, op); }

// ---- interpretation -----------------------------------------------------------------------------

namespace {

// The regions run as tasks (the default region first), each until it ends or waits for a
// barrier phase no one has completed yet. A nested warp_specialize is refused by the verifier.
Status interpretWarpSpecialize(OpInterpreter &in, const Op &op) {
  RunningPartitions parts;
  parts.regions = op.regions.size();
  std::vector<RtValue> yielded;
  std::vector<PartitionScheduler::Task> tasks;
  std::vector<std::string> names;
  ClusterRun *cluster = in.cluster();
  const std::string prefix =
      cluster ? "CTA " + std::to_string(in.clusterRank()) + " of the cluster: " : "";
  for (size_t r = cluster ? 1 : 0; r < op.regions.size(); ++r) {
    names.push_back(prefix + PartitionRaces::taskName(r));
    tasks.push_back([&in, &op, &yielded, r]() -> Status {
      const Block &b = op.regions[r];
      if (r == 0)
        return in.runBlock(b, &yielded);
      for (size_t i = 0; i < b.args.size(); ++i)
        in.setValue(b.args[i], in.val(op.operands[i]));
      return in.runBlock(b, nullptr);
    });
  }
  if (!cluster) {
    parts.ownScheduler = std::make_unique<PartitionScheduler>();
    parts.ownRaces = std::make_unique<PartitionRaces>(op.regions.size());
    parts.scheduler = parts.ownScheduler.get();
    parts.races = parts.ownRaces.get();
    in.partitions() = &parts;
    Status s = parts.scheduler->run(std::move(tasks), std::move(names));
    in.partitions() = nullptr;
    LL_TRY_STATUS(s);
  } else {
    // In a cluster the CTA's own task runs the default region; the partitions join the cluster's
    // scheduler, and the CTAs' regions share one protocol check.
    std::unique_ptr<PartitionRaces> &races = cluster->races[&op];
    if (!races)
      races = std::make_unique<PartitionRaces>(op.regions.size() * cluster->ctas.size());
    parts.scheduler = &cluster->scheduler;
    parts.races = races.get();
    parts.rank = size_t(in.clusterRank());
    parts.ctas = cluster->ctas.size();
    parts.taskIds.push_back(cluster->scheduler.current());
    in.partitions() = &parts;
    std::vector<size_t> ids = cluster->scheduler.spawn(std::move(tasks), std::move(names));
    parts.taskIds.insert(parts.taskIds.end(), ids.begin(), ids.end());
    Status s = in.runBlock(op.regions[0], &yielded);
    if (s.ok())
      s = cluster->scheduler.waitUntil(
          [&] {
            for (size_t id : ids)
              if (!cluster->scheduler.done(id))
                return false;
            return true;
          },
          "for its partitions to end");
    in.partitions() = nullptr;
    LL_TRY_STATUS(s);
  }
  for (size_t i = 0; i < op.results.size() && i < yielded.size(); ++i)
    in.setValue(op.results[i], std::move(yielded[i]));
  return Status::success();
}

// The driver's runBlock stops at a region's terminator and takes what it yields.
Status interpretTerminator(OpInterpreter &, const Op &) { return Status::success(); }

constexpr auto kInterpret = familyTable<OpFamily::Warp, InterpretOpFn>({
    {OpKind::WarpSpecialize, interpretWarpSpecialize},
    {OpKind::WarpYield, interpretTerminator},
    {OpKind::WarpReturn, interpretTerminator},
});

} // namespace

Status interpretWarpOp(OpInterpreter &in, const Op &op) {
  return kInterpret[size_t(op.kind)](in, op);
}

// ---- parsing ------------------------------------------------------------------------------------

namespace {

// `{...}` up to its '}', one region's ops.
bool parseRegionBody(OpParser &p, Block &b, int depth) {
  if (!p.parseBlockOps(b, depth + 1))
    return false;
  p.advance(); // '}'
  p.closeRegion();
  return true;
}

bool parseWarpSpecialize(OpParser &p, Op &op, std::vector<Type> &results, int depth) {
  if (depth + 1 > kMaxNesting)
    return p.fail("regions nested more than " + std::to_string(kMaxNesting) + " deep");
  if (!p.expectPunct("(", "before the captures"))
    return false;
  if (!p.isPunct(")") && !p.parseOperands(op.operands, 256))
    return false;
  if (!p.expectPunct(")", "after the captures"))
    return false;
  if (p.isIdent("attributes")) {
    p.advance();
    Dict d;
    if (!p.parseDict(d))
      return false;
    for (auto &[key, field] : {std::pair{"requestedRegisters", &op.attrs.requestedRegisters},
                               std::pair{"actualRegisters", &op.attrs.actualRegisters}}) {
      auto it = d.find(key);
      if (it == d.end())
        continue;
      if (it->second.kind != DictValue::Array)
        return p.failAt(it->second.loc, std::string(key) + " must be an array<i32: ...>");
      *field = it->second.array;
    }
  }
  if (!p.expectIdent("default", "to open the default region") ||
      !p.expectPunct("{", "to open the default region"))
    return false;
  Block def;
  p.openRegion();
  if (!parseRegionBody(p, def, depth))
    return false;
  op.regions.push_back(std::move(def));
  while (p.peekIdent() && p.peekIdent()->starts_with("partition")) {
    const std::string expected = "partition" + std::to_string(op.regions.size() - 1);
    if (*p.peekIdent() != expected)
      return p.fail("expected " + expected + ", got " + p.describeToken());
    if (op.regions.size() > 32)
      return p.fail("more than 32 partitions");
    p.advance();
    if (!p.expectPunct("(", "before the partition's arguments"))
      return false;
    Block b;
    p.openRegion();
    while (!p.isPunct(")")) {
      if (!b.args.empty() && !p.expectPunct(",", "between the partition's arguments"))
        return false;
      if (p.token().kind != Tok::Value)
        return p.fail("expected a partition argument, got " + p.describeToken());
      std::string_view name = p.token().text;
      Loc loc = p.token().loc;
      p.advance();
      Type t;
      if (!p.expectPunct(":", "after a partition argument") || !p.parseType(t))
        return false;
      ValueId a = p.addValue(t, std::string(name));
      if (!p.define(name, loc, {a}))
        return false;
      b.args.push_back(a);
      if (b.args.size() > 256)
        return p.fail("too many partition arguments");
    }
    p.advance();
    int64_t warps = 0;
    if (!p.expectIdent("num_warps", "after the partition's arguments") ||
        !p.expectPunct("(", "after num_warps") || !p.parseInt(warps, "a warp count") ||
        !p.expectPunct(")", "after the warp count") || !p.expectPunct("{", "to open the partition"))
      return false;
    op.attrs.partitionWarps.push_back(warps);
    if (!parseRegionBody(p, b, depth))
      return false;
    op.regions.push_back(std::move(b));
  }
  if (!p.expectPunct(":", "before the types") || !p.expectPunct("(", "before the capture types"))
    return false;
  Type t;
  for (size_t i = 0; i < op.operands.size(); ++i) {
    if (i && !p.expectPunct(",", "between capture types"))
      return false;
    if (!p.parseTypeOf(op.operands[i], t))
      return false;
  }
  if (!p.expectPunct(")", "after the capture types") ||
      !p.expectPunct("->", "before the result types"))
    return false;
  if (!p.isPunct("("))
    return p.parseType(t) && (results.push_back(t), true);
  p.advance();
  while (!p.isPunct(")")) {
    if (!results.empty() && !p.expectPunct(",", "between result types"))
      return false;
    if (!p.parseType(t))
      return false;
    results.push_back(t);
    if (results.size() > 256)
      return p.fail("too many results");
  }
  p.advance();
  return true;
}

bool parseWarpYield(OpParser &p, Op &op, std::vector<Type> &results, int depth) {
  if (!p.parseOperands(op.operands, 256))
    return false;
  return op.operands.empty() ||
         (p.expectPunct(":", "before the yielded types") && p.operandTypes(op, "yielded types"));
}

bool parseWarpReturn(OpParser &p, Op &op, std::vector<Type> &results, int depth) { return true; }

constexpr auto kParse = familyTable<OpFamily::Warp, ParseOpFn>({
    {OpKind::WarpSpecialize, parseWarpSpecialize},
    {OpKind::WarpYield, parseWarpYield},
    {OpKind::WarpReturn, parseWarpReturn},
});

} // namespace

bool parseWarpOp(OpParser &p, Op &op, std::vector<Type> &results, int depth) {
  return kParse[size_t(op.kind)](p, op, results, depth);
}

} // namespace linlayout::ir

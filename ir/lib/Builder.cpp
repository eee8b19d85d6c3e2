#include "linlayout/ir/Builder.h"

#include <string>

namespace linlayout::ir {

namespace {
const Type &dummyType() {
  static const Type t = Type::scalar(ScalarKind::I32);
  return t;
}
} // namespace

void Builder::fail(std::string message) {
  if (status_.ok())
    status_ = Status(makeError(std::move(message)));
}

bool Builder::building() const { return fn_.has_value() && !blocks_.empty(); }

Block &Builder::current() { return *blocks_.back(); }

const Type &Builder::type(ValueId v) const {
  if (!fn_ || !fn_->isValid(v))
    return dummyType();
  return fn_->type(v);
}

ValueId Builder::valueOrPoison(ValueId v) {
  if (!fn_ || !fn_->isValid(v)) {
    fail("builder: value " + (v == kNoValue ? std::string("<none>") : std::to_string(v)) +
         " is not a value of the function being built");
    return kNoValue;
  }
  return v;
}

void Builder::beginFunction(std::string name, std::span<const Type> argTypes,
                            std::span<const ArgHints> hints) {
  if (fn_) {
    fail("builder: beginFunction('" + name + "') while '" + fn_->name + "' is open");
    return;
  }
  if (!hints.empty() && hints.size() != argTypes.size())
    fail("builder: " + std::to_string(hints.size()) + " hints for " +
         std::to_string(argTypes.size()) + " arguments");
  fn_.emplace();
  fn_->name = std::move(name);
  for (size_t i = 0; i < argTypes.size(); ++i) {
    fn_->body.args.push_back(fn_->addValue(argTypes[i], "arg" + std::to_string(i)));
    fn_->argHints.push_back(i < hints.size() ? hints[i] : ArgHints{});
  }
  blocks_ = {&fn_->body};
}

Status Builder::endFunction() {
  if (!fn_) {
    fail("builder: endFunction without beginFunction");
    return status_;
  }
  if (blocks_.size() != 1)
    fail("builder: function '" + fn_->name + "' ends with " + std::to_string(blocks_.size() - 1) +
         " open loop(s) or if(s)");
  if (status_.ok())
    module_.functions.push_back(std::move(*fn_));
  fn_.reset();
  blocks_.clear();
  return status_;
}

ValueId Builder::arg(size_t i) {
  if (!fn_ || i >= fn_->body.args.size()) {
    fail("builder: no argument " + std::to_string(i));
    return kNoValue;
  }
  return fn_->body.args[i];
}

void Builder::name(ValueId v, std::string nameHint) {
  if (fn_ && fn_->isValid(v))
    fn_->values[v].name = std::move(nameHint);
}

std::vector<ValueId> Builder::append(OpKind kind, std::vector<ValueId> operands,
                                     std::span<const Type> resultTypes, OpAttrs attrs) {
  if (!building()) {
    fail(std::string("builder: ") + std::string(mnemonic(kind)) + " outside a function");
    return std::vector<ValueId>(resultTypes.size(), kNoValue);
  }
  for (ValueId &v : operands)
    if (valueOrPoison(v) == kNoValue)
      return std::vector<ValueId>(resultTypes.size(), kNoValue);
  Op op;
  op.kind = kind;
  op.operands = std::move(operands);
  op.attrs = std::move(attrs);
  for (const Type &t : resultTypes)
    op.results.push_back(fn_->addValue(t));
  std::vector<ValueId> results = op.results;
  current().ops.push_back(std::move(op));
  return results;
}

ValueId Builder::one(OpKind kind, std::vector<ValueId> operands, const Type &result,
                     OpAttrs attrs) {
  return append(kind, std::move(operands), std::span<const Type>(&result, 1), std::move(attrs))[0];
}

ValueId Builder::constantInt(int64_t value, const Type &t) {
  OpAttrs a;
  a.intValue = value;
  return one(OpKind::Constant, {}, t, a);
}

ValueId Builder::constantFloat(double value, const Type &t) {
  OpAttrs a;
  a.floatValue = value;
  return one(OpKind::Constant, {}, t, a);
}

ValueId Builder::programId(int axis) {
  OpAttrs a;
  a.axis = axis;
  return one(OpKind::ProgramId, {}, Type::scalar(ScalarKind::I32), a);
}

ValueId Builder::numPrograms(int axis) {
  OpAttrs a;
  a.axis = axis;
  return one(OpKind::NumPrograms, {}, Type::scalar(ScalarKind::I32), a);
}

ValueId Builder::makeRange(int64_t start, int64_t end, LayoutId layout) {
  OpAttrs a;
  a.start = start;
  a.end = end;
  return one(OpKind::MakeRange, {},
             Type::tensor({end - start}, ElemType{ScalarKind::I32, false}, layout), a);
}

ValueId Builder::splat(ValueId scalar, std::vector<int64_t> shape, LayoutId layout) {
  Type t = type(scalar).withShapeAndLayout(std::move(shape), layout);
  return one(OpKind::Splat, {scalar}, t);
}

ValueId Builder::broadcast(ValueId v, std::vector<int64_t> shape) {
  const Type &src = type(v);
  return one(OpKind::Broadcast, {v}, src.withShapeAndLayout(std::move(shape), src.layout()));
}

ValueId Builder::expandDims(ValueId v, int axis, std::optional<LayoutId> layout) {
  const Type &src = type(v);
  std::vector<int64_t> shape = src.shape();
  if (axis < 0 || axis > int(shape.size())) {
    fail("builder: expand_dims axis " + std::to_string(axis) + " is out of range for rank " +
         std::to_string(shape.size()));
    return kNoValue;
  }
  shape.insert(shape.begin() + axis, 1);
  LayoutId l = kNoLayout;
  if (layout) {
    l = *layout;
  } else if (src.isTensor() && src.layout() < module_.layouts.size()) {
    const SliceSpec *s = module_.layouts.get(src.layout()).as<SliceSpec>();
    if (!s || s->dim() != axis) {
      fail("builder: expand_dims along " + std::to_string(axis) +
           " needs an explicit layout unless the operand is a slice along that axis");
      return kNoValue;
    }
    l = module_.layouts.intern(s->parent());
  }
  OpAttrs a;
  a.axis = axis;
  return one(OpKind::ExpandDims, {v}, src.withShapeAndLayout(std::move(shape), l), a);
}

ValueId Builder::reshape(ValueId v, std::vector<int64_t> shape, LayoutId layout) {
  return one(OpKind::Reshape, {v}, type(v).withShapeAndLayout(std::move(shape), layout));
}

ValueId Builder::join(ValueId a, ValueId b, LayoutId layout) {
  std::vector<int64_t> shape = type(a).shape();
  shape.push_back(2);
  return one(OpKind::Join, {a, b}, type(a).withShapeAndLayout(std::move(shape), layout));
}

std::pair<ValueId, ValueId> Builder::split(ValueId v, LayoutId layout) {
  std::vector<int64_t> shape = type(v).shape();
  if (!shape.empty())
    shape.pop_back();
  Type half = type(v).withShapeAndLayout(std::move(shape), layout);
  std::vector<Type> types = {half, half};
  std::vector<ValueId> r = append(OpKind::Split, {v}, types, {});
  return {r[0], r[1]};
}

ValueId Builder::trans(ValueId v, std::vector<int32_t> order, LayoutId layout) {
  const Type &src = type(v);
  std::vector<int64_t> shape;
  for (int32_t d : order) {
    if (d < 0 || d >= src.rank()) {
      fail("builder: trans order entry " + std::to_string(d) + " is out of range for rank " +
           std::to_string(src.rank()));
      return kNoValue;
    }
    shape.push_back(src.shape()[size_t(d)]);
  }
  OpAttrs a;
  a.order = std::move(order);
  return one(OpKind::Trans, {v}, src.withShapeAndLayout(std::move(shape), layout), a);
}

ValueId Builder::binary(OpKind kind, ValueId a, ValueId b) {
  if (category(kind) != OpCategory::BinaryInt && category(kind) != OpCategory::BinaryFloat) {
    fail("builder: " + std::string(mnemonic(kind)) + " is not a binary op");
    return kNoValue;
  }
  return one(kind, {a, b}, type(a));
}

ValueId Builder::unary(OpKind kind, ValueId a) {
  if (category(kind) != OpCategory::UnaryFloat) {
    fail("builder: " + std::string(mnemonic(kind)) + " is not a unary op");
    return kNoValue;
  }
  return one(kind, {a}, type(a));
}

ValueId Builder::cmp(CmpPredicate p, ValueId a, ValueId b) {
  OpAttrs attrs;
  attrs.predicate = p;
  OpKind kind = isFloatPredicate(p) ? OpKind::CmpF : OpKind::CmpI;
  return one(kind, {a, b}, type(a).withElem(ElemType{ScalarKind::I1, false}), attrs);
}

ValueId Builder::select(ValueId cond, ValueId a, ValueId b) {
  return one(OpKind::Select, {cond, a, b}, type(a));
}

ValueId Builder::cast(OpKind kind, ValueId v, ScalarKind to) {
  if (category(kind) != OpCategory::Cast) {
    fail("builder: " + std::string(mnemonic(kind)) + " is not a cast");
    return kNoValue;
  }
  return one(kind, {v}, type(v).withElem(ElemType{to, false}));
}

ValueId Builder::addPtr(ValueId ptr, ValueId offset) {
  return one(OpKind::AddPtr, {ptr, offset}, type(ptr));
}

ValueId Builder::load(ValueId ptr, std::optional<ValueId> mask, std::optional<ValueId> other) {
  std::vector<ValueId> ops = {ptr};
  if (mask)
    ops.push_back(*mask);
  if (other) {
    if (!mask) {
      fail("builder: load with `other` needs a mask");
      return kNoValue;
    }
    ops.push_back(*other);
  }
  Type t = type(ptr).withElem(ElemType{type(ptr).elem().scalar, false});
  return one(OpKind::Load, std::move(ops), t);
}

void Builder::store(ValueId ptr, ValueId value, std::optional<ValueId> mask) {
  std::vector<ValueId> ops = {ptr, value};
  if (mask)
    ops.push_back(*mask);
  append(OpKind::Store, std::move(ops), {});
}

// An atomic on `operands` (the pointer and the values; the result has the last one's type).
ValueId Builder::atomic(OpKind kind, std::vector<ValueId> operands, std::optional<ValueId> mask,
                        OpAttrs attrs) {
  Type result = type(operands.back());
  if (mask)
    operands.push_back(*mask);
  return one(kind, std::move(operands), result, std::move(attrs));
}

ValueId Builder::atomicRmw(AtomicKind kind, ValueId ptr, ValueId value, std::optional<ValueId> mask,
                           MemSemantic order, MemScope scope) {
  OpAttrs a;
  a.atomicKind = kind;
  a.semantic = order;
  a.scope = scope;
  return atomic(OpKind::AtomicRMW, {ptr, value}, mask, std::move(a));
}

ValueId Builder::atomicCas(ValueId ptr, ValueId compare, ValueId value, std::optional<ValueId> mask,
                           MemSemantic order, MemScope scope) {
  OpAttrs a;
  a.semantic = order;
  a.scope = scope;
  return atomic(OpKind::AtomicCAS, {ptr, compare, value}, mask, std::move(a));
}

ValueId Builder::convertLayout(ValueId v, LayoutId layout) {
  return one(OpKind::ConvertLayout, {v}, type(v).withLayout(layout));
}

ValueId Builder::localAlloc(const Type &t, std::optional<ValueId> init) {
  std::vector<ValueId> ops;
  if (init)
    ops.push_back(*init);
  return one(OpKind::LocalAlloc, std::move(ops), t);
}

void Builder::localStore(ValueId value, ValueId memDesc) {
  append(OpKind::LocalStore, {value, memDesc}, {});
}

ValueId Builder::localLoad(ValueId memDesc, LayoutId layout) {
  const Type &m = type(memDesc);
  return one(OpKind::LocalLoad, {memDesc}, Type::tensor(m.shape(), m.elem(), layout));
}

void Builder::localDealloc(ValueId memDesc) { append(OpKind::LocalDealloc, {memDesc}, {}); }

ValueId Builder::memDescIndex(ValueId ring, ValueId index) {
  const Type &m = type(ring);
  std::vector<int64_t> tile(m.shape().begin() + (m.rank() > 0 ? 1 : 0), m.shape().end());
  return one(OpKind::MemDescIndex, {ring, index},
             Type::memDesc(std::move(tile), m.elem().scalar, m.layout(), m.isMutable()));
}

ValueId Builder::memDescSubslice(ValueId tile, std::vector<int64_t> offsets,
                                 std::vector<int64_t> shape) {
  const Type &m = type(tile);
  std::vector<int64_t> viewed = m.viewedTileShape();
  OpAttrs a;
  a.offsets = std::move(offsets);
  return one(OpKind::MemDescSubslice, {tile},
             Type::memDesc(std::move(shape), m.elem().scalar, m.layout(), m.isMutable(),
                           std::move(viewed)),
             a);
}

ValueId Builder::memDescTrans(ValueId tile, std::vector<int32_t> order, LayoutId layout) {
  const Type &m = type(tile);
  std::vector<int64_t> shape, viewed;
  for (int32_t d : order) {
    if (d < 0 || d >= m.rank()) {
      fail("builder: memdesc_trans order entry " + std::to_string(d) +
           " is out of range for rank " + std::to_string(m.rank()));
      return kNoValue;
    }
    shape.push_back(m.shape()[size_t(d)]);
    if (!m.allocShape().empty())
      viewed.push_back(m.allocShape()[size_t(d)]);
  }
  OpAttrs a;
  a.order = std::move(order);
  return one(
      OpKind::MemDescTrans, {tile},
      Type::memDesc(std::move(shape), m.elem().scalar, layout, m.isMutable(), std::move(viewed)),
      a);
}

void Builder::asyncCopy(ValueId ptrs, ValueId memDesc, std::optional<ValueId> mask,
                        std::optional<ValueId> other) {
  std::vector<ValueId> ops{ptrs, memDesc};
  if (mask)
    ops.push_back(*mask);
  if (mask && other)
    ops.push_back(*other);
  append(OpKind::AsyncCopyGlobalToLocal, std::move(ops), {});
}

void Builder::asyncCommitGroup() { append(OpKind::AsyncCommitGroup, {}, {}); }

void Builder::asyncWait(int64_t num) {
  OpAttrs a;
  a.num = num;
  append(OpKind::AsyncWait, {}, {}, a);
}

ValueId Builder::dot(ValueId a, ValueId b, ValueId c) {
  return one(OpKind::Dot, {a, b, c}, type(c));
}

// The type of v reduced along axis: its element type for rank 1, else the slice.
std::optional<Type> Builder::reducedType(ValueId v, int axis) {
  const Type &src = type(v);
  if (axis < 0 || axis >= src.rank()) {
    fail("builder: reduce axis " + std::to_string(axis) + " is out of range for rank " +
         std::to_string(src.rank()));
    return std::nullopt;
  }
  if (src.rank() == 1)
    return src.elementType();
  std::vector<int64_t> shape = src.shape();
  shape.erase(shape.begin() + axis);
  LayoutId l = kNoLayout;
  if (src.layout() < module_.layouts.size()) {
    Expected<SliceSpec> s = SliceSpec::make(axis, module_.layouts.get(src.layout()));
    if (!s) {
      fail("builder: reduce: " + s.message());
      return std::nullopt;
    }
    l = module_.layouts.intern(*s);
  }
  return src.withShapeAndLayout(std::move(shape), l);
}

ValueId Builder::reduce(ReduceKind kind, ValueId v, int axis) {
  OpAttrs attrs;
  attrs.axis = axis;
  attrs.reduceKind = kind;
  std::optional<Type> t = reducedType(v, axis);
  return t ? one(OpKind::Reduce, {v}, *t, attrs) : kNoValue;
}

ValueId Builder::scan(ReduceKind kind, ValueId v, int axis, bool reverse) {
  OpAttrs attrs;
  attrs.axis = axis;
  attrs.reduceKind = kind;
  attrs.reverse = reverse;
  return one(OpKind::Scan, {v}, type(v), attrs);
}

CombineScope Builder::beginReduce(std::span<const ValueId> vs, int axis) {
  std::vector<Type> results;
  for (ValueId v : vs) {
    std::optional<Type> t = reducedType(v, axis);
    if (!t)
      return {};
    results.push_back(*t);
  }
  OpAttrs attrs;
  attrs.axis = axis;
  return beginCombine(OpKind::Reduce, vs, std::move(results), attrs);
}

CombineScope Builder::beginScan(std::span<const ValueId> vs, int axis, bool reverse) {
  std::vector<Type> results;
  for (ValueId v : vs)
    results.push_back(type(v));
  OpAttrs attrs;
  attrs.axis = axis;
  attrs.reverse = reverse;
  return beginCombine(OpKind::Scan, vs, std::move(results), attrs);
}

CombineScope Builder::beginCombine(OpKind kind, std::span<const ValueId> vs,
                                   std::vector<Type> results, OpAttrs attrs) {
  append(kind, std::vector<ValueId>(vs.begin(), vs.end()), results, std::move(attrs));
  if (!status_.ok() || !building())
    return {};
  Op &op = current().ops.back();
  Block &body = op.regions.emplace_back();
  CombineScope scope;
  for (auto *side : {&scope.lhs, &scope.rhs})
    for (ValueId v : vs)
      side->push_back(fn_->addValue(type(v).elementType()));
  body.args = scope.lhs;
  body.args.insert(body.args.end(), scope.rhs.begin(), scope.rhs.end());
  blocks_.push_back(&body);
  return scope;
}

// The reduce or scan whose combining body is the innermost open block, or nullptr.
static const Op *openCombine(const std::vector<Block *> &blocks) {
  if (blocks.size() < 2 || blocks[blocks.size() - 2]->ops.empty())
    return nullptr;
  const Op &op = blocks[blocks.size() - 2]->ops.back();
  return (op.kind == OpKind::Reduce || op.kind == OpKind::Scan) && !op.regions.empty() ? &op
                                                                                       : nullptr;
}

std::vector<ValueId> Builder::endCombine(std::span<const ValueId> values) {
  const Op *op = openCombine(blocks_);
  if (!op) {
    fail("builder: endCombine without an open combining body");
    return {};
  }
  append(OpKind::CombineReturn, std::vector<ValueId>(values.begin(), values.end()), {});
  blocks_.pop_back();
  return op->results;
}

ForScope Builder::beginFor(ValueId lb, ValueId ub, ValueId step, std::span<const ValueId> inits) {
  std::vector<ValueId> operands = {lb, ub, step};
  operands.insert(operands.end(), inits.begin(), inits.end());
  std::vector<Type> types;
  for (ValueId v : inits)
    types.push_back(type(v));
  std::vector<ValueId> results = append(OpKind::For, std::move(operands), types);
  if (!status_.ok() || !building())
    return {};
  Op &op = current().ops.back();
  op.regions.emplace_back();
  Block &body = op.regions.back();
  ForScope scope;
  scope.inductionVar = fn_->addValue(type(lb));
  body.args.push_back(scope.inductionVar);
  for (ValueId v : inits) {
    ValueId a = fn_->addValue(type(v));
    body.args.push_back(a);
    scope.iterArgs.push_back(a);
  }
  blocks_.push_back(&body);
  return scope;
}

std::vector<ValueId> Builder::endFor(std::span<const ValueId> yields) {
  if (blocks_.size() < 2) {
    fail("builder: endFor without an open loop");
    return {};
  }
  append(OpKind::Yield, std::vector<ValueId>(yields.begin(), yields.end()), {});
  blocks_.pop_back();
  if (current().ops.empty() || current().ops.back().kind != OpKind::For)
    return {};
  return current().ops.back().results;
}

void Builder::beginIf(ValueId cond, std::span<const Type> resultTypes) {
  append(OpKind::If, {cond}, resultTypes);
  if (!status_.ok() || !building())
    return;
  Op &op = current().ops.back();
  op.regions.resize(2); // both now: the pointer to the then block must stay valid
  blocks_.push_back(&op.regions[0]);
}

// The if whose branch is the innermost open block, or nullptr.
static Op *openIf(const std::vector<Block *> &blocks) {
  if (blocks.size() < 2 || blocks[blocks.size() - 2]->ops.empty())
    return nullptr;
  Op &op = blocks[blocks.size() - 2]->ops.back();
  return op.kind == OpKind::If && op.regions.size() == 2 ? &op : nullptr;
}

void Builder::beginElse(std::span<const ValueId> yields) {
  Op *op = openIf(blocks_);
  if (!op || blocks_.back() != &op->regions[0]) {
    fail("builder: beginElse without an open then block");
    return;
  }
  append(OpKind::Yield, std::vector<ValueId>(yields.begin(), yields.end()), {});
  blocks_.back() = &op->regions[1];
}

std::vector<ValueId> Builder::endIf(std::span<const ValueId> yields) {
  Op *op = openIf(blocks_);
  if (!op) {
    fail("builder: endIf without an open if");
    return {};
  }
  append(OpKind::Yield, std::vector<ValueId>(yields.begin(), yields.end()), {});
  if (blocks_.back() == &op->regions[0]) {
    Op y;
    y.kind = OpKind::Yield;
    op->regions[1].ops.push_back(std::move(y));
  }
  blocks_.pop_back();
  return op->results;
}

void Builder::ret() { append(OpKind::Return, {}, {}); }

} // namespace linlayout::ir

// The interpreter's driver: runs a program's ops in order, each by its family's interpretation
// (ops/OpInterpreter.h), and holds the program's values, memories and budgets.
#include "linlayout/ir/Interpreter.h"

#include "AsyncHazards.h"
#include "IntArith.h"
#include "linlayout/ir/AxisInfo.h"
#include "linlayout/ir/Verifier.h"
#include "ops/OpInterpreter.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>

namespace linlayout::ir {

namespace {

// Unaligned little-endian reads and writes of buffer bytes.
template <typename T> T readAs(const uint8_t *p) {
  T x;
  std::memcpy(&x, p, sizeof x);
  return x;
}
template <typename T> void writeAs(uint8_t *p, T x) { std::memcpy(p, &x, sizeof x); }

double roundGeneric(double x, int mantBits, int minExp, int maxExp) {
  if (!std::isfinite(x) || x == 0)
    return x;
  int e;
  std::frexp(x, &e);
  int lead = std::max(e - 1, minExp);
  double q = std::ldexp(1.0, lead - mantBits);
  double r = std::nearbyint(x / q) * q;
  double maxv = std::ldexp(2.0 - std::ldexp(1.0, -mantBits), maxExp);
  if (std::fabs(r) > maxv)
    return std::copysign(INFINITY, x);
  return r;
}

// An 8-bit float's mantissa bits, exponent bias, largest exponent and largest finite value (its
// least normal exponent is 1 - bias).
struct Fp8Format {
  int mantBits, bias, maxExp;
  double maxFinite;
  int minExp() const { return 1 - bias; }
};
Fp8Format fp8Format(ScalarKind k) {
  return k == ScalarKind::F8E4M3FN ? Fp8Format{3, 7, 8, 448.0} : Fp8Format{2, 15, 15, 57344.0};
}

double fp8Value(uint8_t b, ScalarKind k) {
  const Fp8Format f = fp8Format(k);
  const int exp = (b & 0x7F) >> f.mantBits, mant = b & ((1 << f.mantBits) - 1);
  double v;
  if (k == ScalarKind::F8E4M3FN && exp == 15 && mant == 7)
    v = NAN;
  else if (k == ScalarKind::F8E5M2 && exp == 31)
    v = mant ? NAN : INFINITY;
  else if (exp == 0)
    v = std::ldexp(double(mant), f.minExp() - f.mantBits);
  else
    v = std::ldexp(double(mant | (1 << f.mantBits)), exp - f.bias - f.mantBits);
  return (b & 0x80) ? -v : v;
}

double halfToDouble(uint16_t h) {
  uint32_t sign = (h >> 15) & 1, exp = (h >> 10) & 0x1F, mant = h & 0x3FF;
  double v;
  if (exp == 0x1F)
    v = mant ? NAN : INFINITY;
  else if (exp == 0)
    v = std::ldexp(double(mant), -24);
  else
    v = std::ldexp(double(mant | 0x400), int(exp) - 25);
  return sign ? -v : v;
}

class Program final : public OpInterpreter {
public:
  Program(const Module &m, const Function &f, Memory &mem, InterpreterOptions &limits,
          int64_t pid[3], const Grid &grid)
      : m_(m), f_(f), mem_(mem), limits_(limits), grid_(grid), hazards_(limits.checkProxyFences) {
    for (int i = 0; i < 3; ++i)
      pid_[i] = pid[i];
    vals_.resize(f.values.size());
  }

  Status run(std::span<const ArgValue> args) {
    for (size_t a = 0; a < args.size(); ++a) {
      ValueId v = f_.body.args[a];
      const Type &t = f_.type(v);
      RtValue r;
      if (t.isPointer()) {
        r.buf = {args[a].buffer};
        r.i = {0};
      } else if (t.isTensorDesc()) {
        // (dims..., strides...) of the described tensor.
        r.buf = {args[a].buffer};
        r.i = args[a].dims;
        r.i.insert(r.i.end(), args[a].strides.begin(), args[a].strides.end());
      } else if (t.isFloatLike()) {
        r.f = {roundToFloatKind(args[a].f, t.elem().scalar)};
      } else {
        r.i = {wrapInt(args[a].i, t.elem().scalar)};
      }
      vals_[v] = std::move(r);
    }
    return runBlock(f_.body, nullptr);
  }

  void joinCluster(ClusterRun *c, int64_t rank) {
    cluster_ = c;
    rank_ = rank;
  }

private:
  Status err(const Op &op, const std::string &msg) const override {
    std::string where;
    if (op.loc.line > 0)
      where = (m_.fileName.empty() ? std::string("<input>") : m_.fileName) + ":" +
              std::to_string(op.loc.line) + ":" + std::to_string(op.loc.col) + ": ";
    return Status(makeError(where + "'" + std::string(mnemonic(op.kind)) + "' in program (" +
                            std::to_string(pid_[0]) + ", " + std::to_string(pid_[1]) + ", " +
                            std::to_string(pid_[2]) + "): " + msg));
  }

  const Function &function() const override { return f_; }
  const RtValue &val(ValueId v) const override { return vals_[v]; }
  void setValue(ValueId v, RtValue r) override { vals_[v] = std::move(r); }
  void observe(ValueId v, const std::vector<int64_t> &ints) override {
    if (limits_.observer)
      limits_.observer(v, ints);
  }
  int64_t programId(int axis) const override { return pid_[axis]; }
  const Grid &grid() const override { return grid_; }
  Memory &memory() override { return mem_; }
  std::vector<SharedAlloc> &shared() override { return shared_; }
  std::map<std::pair<int64_t, int64_t>, MBarrier> &barriers() override { return barriers_; }
  AsyncHazards &hazards() override { return hazards_; }
  RunningPartitions *&partitions() override { return partitions_; }
  ClusterRun *cluster() override { return cluster_; }
  int64_t clusterRank() const override { return rank_; }

  Status runBlock(const Block &b, std::vector<RtValue> *yielded) override {
    for (const Op &op : b.ops) {
      if (--limits_.maxOps < 0)
        return err(op, "the interpreter's op budget is exhausted");
      if (!op.results.empty()) {
        // A dot's work is its multiply-adds: the result's elements times K.
        int64_t per = 1;
        if ((op.kind == OpKind::Dot || op.kind == OpKind::WarpGroupDot) &&
            !type(op.operands[0]).shape().empty())
          per = std::max<int64_t>(1, type(op.operands[0]).shape().back());
        int64_t n = type(op.results[0]).numElements();
        if (n > limits_.maxElementOps / per)
          return err(op, "the interpreter's element budget is exhausted");
        limits_.maxElementOps -= n * per;
      }
      if (op.kind == OpKind::Return || op.kind == OpKind::WarpReturn)
        return Status::success();
      if (op.kind == OpKind::Yield || op.kind == OpKind::CombineReturn ||
          op.kind == OpKind::WarpYield) {
        if (yielded)
          for (ValueId v : op.operands)
            yielded->push_back(val(v));
        return Status::success();
      }
      LL_TRY_STATUS(kInterpretOp[size_t(op.kind)](*this, op));
    }
    return Status::success();
  }

  Status setResult(const Op &op, RtValue r) override {
    const Type &rt = type(op.results[0]);
    // Value hints are facts the kernel vouches for (the lowering vectorises by them): hold it
    // to them.
    if (op.attrs.hasValueHints()) {
      std::string why = AxisInfo::fromHints(op.attrs, rt).violation(rt, r.i);
      if (!why.empty())
        return err(op, "its value hints (tt.divisibility, tt.contiguity, tt.constancy) do not "
                       "hold: " +
                           why);
    }
    if (limits_.observer && (rt.isIntLike() || rt.isPointerLike()) && !rt.isMemDesc())
      limits_.observer(op.results[0], r.i);
    vals_[op.results[0]] = std::move(r);
    return Status::success();
  }

  const Module &m_;
  const Function &f_;
  Memory &mem_;
  InterpreterOptions &limits_;
  Grid grid_;
  int64_t pid_[3];
  std::vector<RtValue> vals_;
  std::vector<SharedAlloc> shared_;
  AsyncHazards hazards_;
  std::map<std::pair<int64_t, int64_t>, MBarrier> barriers_;
  RunningPartitions *partitions_ = nullptr;
  ClusterRun *cluster_ = nullptr;
  int64_t rank_ = 0;
};

// The CTAs of one cluster, starting at program `origin`, run together (ClusterRun).
Status runCluster(const Module &m, const Function &f, std::span<const ArgValue> args,
                  Memory &memory, const Grid &grid, InterpreterOptions &limits,
                  const int64_t origin[3]) {
  const auto &dims = m.clusterDims;
  const size_t n = size_t(m.clusterSize());
  ClusterRun cluster;
  cluster.arrivedIn.assign(n, -1);
  cluster.waited.assign(n, 0);
  cluster.exited.assign(n, false);
  std::vector<std::unique_ptr<Program>> ctas;
  std::vector<PartitionScheduler::Task> tasks;
  std::vector<std::string> names;
  // %cluster_ctarank: x fastest within the cluster.
  for (int64_t z = 0; z < dims[2]; ++z)
    for (int64_t y = 0; y < dims[1]; ++y)
      for (int64_t x = 0; x < dims[0]; ++x) {
        int64_t pid[3] = {origin[0] + x, origin[1] + y, origin[2] + z};
        const int64_t rank = x + dims[0] * (y + dims[1] * z);
        ctas.push_back(std::make_unique<Program>(m, f, memory, limits, pid, grid));
        ctas.back()->joinCluster(&cluster, rank);
        cluster.ctas.push_back(ctas.back().get());
        Program *p = ctas.back().get();
        tasks.push_back([p, args, &cluster, rank]() -> Status {
          Status s = p->run(args);
          cluster.exited[size_t(rank)] = true;
          return s;
        });
        names.push_back("CTA " + std::to_string(rank) + " of the cluster");
      }
  return cluster.scheduler.run(std::move(tasks), std::move(names));
}

} // namespace

void encodeElement(uint8_t *p, ScalarKind k, int64_t iv, double fv) {
  switch (k) {
  case ScalarKind::I1:
  case ScalarKind::I8:
    writeAs(p, int8_t(iv));
    break;
  case ScalarKind::I16:
    writeAs(p, int16_t(iv));
    break;
  case ScalarKind::I32:
    writeAs(p, int32_t(iv));
    break;
  case ScalarKind::I64:
    writeAs(p, iv);
    break;
  case ScalarKind::F16:
  case ScalarKind::BF16:
    writeAs(p, uint16_t(floatBits(fv, k)));
    break;
  case ScalarKind::F32:
    writeAs(p, float(fv));
    break;
  case ScalarKind::F64:
    writeAs(p, fv);
    break;
  case ScalarKind::F8E4M3FN:
  case ScalarKind::F8E5M2:
    writeAs(p, uint8_t(floatBits(fv, k)));
    break;
  }
}
void decodeElement(const uint8_t *p, ScalarKind k, RtValue &out) {
  switch (k) {
  case ScalarKind::I1:
    out.i.push_back(p[0] & 1);
    break;
  case ScalarKind::I8:
    out.i.push_back(int8_t(p[0]));
    break;
  case ScalarKind::I16:
    out.i.push_back(readAs<int16_t>(p));
    break;
  case ScalarKind::I32:
    out.i.push_back(readAs<int32_t>(p));
    break;
  case ScalarKind::I64:
    out.i.push_back(readAs<int64_t>(p));
    break;
  case ScalarKind::F16:
    out.f.push_back(halfToDouble(readAs<uint16_t>(p)));
    break;
  case ScalarKind::BF16:
    out.f.push_back(std::bit_cast<float>(uint32_t(readAs<uint16_t>(p)) << 16));
    break;
  case ScalarKind::F32:
    out.f.push_back(readAs<float>(p));
    break;
  case ScalarKind::F64:
    out.f.push_back(readAs<double>(p));
    break;
  case ScalarKind::F8E4M3FN:
  case ScalarKind::F8E5M2:
    out.f.push_back(fp8Value(p[0], k));
    break;
  }
}

std::vector<int64_t> rowMajorStrides(const std::vector<int64_t> &shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;)
    s[d - 1] = s[d] * shape[d];
  return s;
}

double roundToFloatKind(double x, ScalarKind k) {
  switch (k) {
  case ScalarKind::F8E4M3FN:
  case ScalarKind::F8E5M2: {
    // Round to nearest even, then saturate (as PTX's cvt.rn.satfinite): past the largest finite
    // value, infinities included, to it; a NaN stays a NaN.
    if (std::isnan(x))
      return x;
    const Fp8Format f = fp8Format(k);
    double r = roundGeneric(x, f.mantBits, f.minExp(), f.maxExp);
    return std::fabs(r) > f.maxFinite ? std::copysign(f.maxFinite, x) : r;
  }
  case ScalarKind::F16:
    return roundGeneric(x, 10, -14, 15);
  case ScalarKind::BF16:
    return roundGeneric(x, 7, -126, 127);
  case ScalarKind::F32:
    return double(float(x));
  case ScalarKind::F64: // exact; integers are not rounded
  case ScalarKind::I1:
  case ScalarKind::I8:
  case ScalarKind::I16:
  case ScalarKind::I32:
  case ScalarKind::I64:
    break;
  }
  return x;
}

uint64_t floatBits(double x, ScalarKind k) {
  switch (k) {
  case ScalarKind::F8E4M3FN:
  case ScalarKind::F8E5M2: {
    if (std::isnan(x))
      return 0x7F;
    const Fp8Format f = fp8Format(k);
    double r = roundToFloatKind(x, k);
    uint8_t sign = std::signbit(r) ? 0x80 : 0;
    r = std::fabs(r);
    if (r == 0)
      return sign;
    int e;
    std::frexp(r, &e); // r = m * 2^e, m in [0.5, 1)
    int lead = e - 1;
    if (lead < f.minExp()) // subnormal: r = mant * 2^(minExp - mantBits)
      return uint8_t(sign | uint8_t(std::ldexp(r, f.mantBits - f.minExp())));
    uint8_t mant = uint8_t(std::ldexp(r, f.mantBits - lead)) & ((1 << f.mantBits) - 1);
    return uint8_t(sign | uint8_t((lead + f.bias) << f.mantBits) | mant);
  }
  case ScalarKind::F16: {
    if (std::isnan(x))
      return 0x7E00;
    double r = roundToFloatKind(x, ScalarKind::F16);
    uint16_t sign = std::signbit(r) ? 0x8000 : 0;
    r = std::fabs(r);
    if (std::isinf(r))
      return sign | 0x7C00;
    if (r == 0)
      return sign;
    int e;
    double m = std::frexp(r, &e); // r = m * 2^e, m in [0.5, 1)
    int lead = e - 1;
    if (lead < -14) // subnormal: r = mant * 2^-24
      return uint16_t(sign | uint16_t(std::ldexp(r, 24)));
    uint16_t mant = uint16_t(std::ldexp(m, 11)) & 0x3FF;
    return uint16_t(sign | uint16_t((lead + 15) << 10) | mant);
  }
  case ScalarKind::BF16: {
    if (std::isnan(x))
      return 0x7FC0;
    float r = float(roundToFloatKind(x, ScalarKind::BF16));
    return std::bit_cast<uint32_t>(r) >> 16;
  }
  case ScalarKind::F32:
    return std::bit_cast<uint32_t>(float(x));
  case ScalarKind::F64:
  case ScalarKind::I1:
  case ScalarKind::I8:
  case ScalarKind::I16:
  case ScalarKind::I32:
  case ScalarKind::I64:
    break;
  }
  return std::bit_cast<uint64_t>(x);
}

Status interpret(const Module &m, std::string_view function, std::span<const ArgValue> args,
                 Memory &memory, Grid grid, InterpreterOptions limits) {
  LL_TRY_STATUS(verify(m));
  const Function *f = m.function(function);
  if (!f)
    return Status(makeError("interpret: no function '@" + std::string(function) + "'"));
  if (args.size() != f->body.args.size())
    return Status(makeError("interpret: @" + f->name + " takes " +
                            std::to_string(f->body.args.size()) + " arguments, got " +
                            std::to_string(args.size())));
  for (size_t i = 0; i < args.size(); ++i) {
    const Type &t = f->type(f->body.args[i]);
    ArgValue::Kind want = t.isPointer()      ? ArgValue::Pointer
                          : t.isTensorDesc() ? ArgValue::TensorDesc
                          : t.isFloatLike()  ? ArgValue::Float
                          : t.isScalar()     ? ArgValue::Int
                                             : ArgValue::Kind(-1);
    if (int(want) < 0)
      return Status(makeError("interpret: argument " + std::to_string(i) +
                              " is a tensor; kernels take scalars and pointers"));
    if (args[i].kind != want)
      return Status(makeError("interpret: argument " + std::to_string(i) + " has the wrong kind"));
    if (want == ArgValue::TensorDesc &&
        (args[i].dims.size() != size_t(t.rank()) || args[i].strides.size() != args[i].dims.size()))
      return Status(makeError("interpret: argument " + std::to_string(i) + " describes a " +
                              std::to_string(args[i].dims.size()) + "-d tensor with " +
                              std::to_string(args[i].strides.size()) + " strides; its type " +
                              "has rank " + std::to_string(t.rank())));
    if ((want == ArgValue::Pointer || want == ArgValue::TensorDesc) &&
        args[i].buffer >= memory.buffers.size())
      return Status(makeError("interpret: argument " + std::to_string(i) + " names buffer " +
                              std::to_string(args[i].buffer) + " of " +
                              std::to_string(memory.buffers.size())));
  }
  if (grid.x < 1 || grid.y < 1 || grid.z < 1 || grid.x > (1 << 20) || grid.y > (1 << 16) ||
      grid.z > (1 << 16))
    return Status(makeError("interpret: grid sizes must be in 1..2^20 (x), 1..2^16 (y, z)"));
  if (m.clusterSize() > 1) {
    const auto &d = m.clusterDims;
    if (grid.x % d[0] || grid.y % d[1] || grid.z % d[2])
      return Status(makeError("interpret: grid (" + std::to_string(grid.x) + ", " +
                              std::to_string(grid.y) + ", " + std::to_string(grid.z) +
                              ") is not a multiple of the cluster (" + std::to_string(d[0]) + ", " +
                              std::to_string(d[1]) + ", " + std::to_string(d[2]) + ")"));
    for (int64_t z = 0; z < grid.z; z += d[2])
      for (int64_t y = 0; y < grid.y; y += d[1])
        for (int64_t x = 0; x < grid.x; x += d[0]) {
          int64_t origin[3] = {x, y, z};
          LL_TRY_STATUS(runCluster(m, *f, args, memory, grid, limits, origin));
        }
    return Status::success();
  }
  for (int64_t z = 0; z < grid.z; ++z)
    for (int64_t y = 0; y < grid.y; ++y)
      for (int64_t x = 0; x < grid.x; ++x) {
        int64_t pid[3] = {x, y, z};
        Program p(m, *f, memory, limits, pid, grid);
        LL_TRY_STATUS(p.run(args));
      }
  return Status::success();
}

} // namespace linlayout::ir

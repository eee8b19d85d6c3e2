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

// The integer binary op an atomic applies (nullopt for fadd and exch).
std::optional<OpKind> integerOpOf(AtomicKind k) {
  switch (k) {
  case AtomicKind::And:
    return OpKind::AndI;
  case AtomicKind::Or:
    return OpKind::OrI;
  case AtomicKind::Xor:
    return OpKind::XOrI;
  case AtomicKind::Add:
    return OpKind::AddI;
  case AtomicKind::Max:
    return OpKind::MaxSI;
  case AtomicKind::Min:
    return OpKind::MinSI;
  case AtomicKind::UMax:
    return OpKind::MaxUI;
  case AtomicKind::UMin:
    return OpKind::MinUI;
  case AtomicKind::FAdd:
  case AtomicKind::Exch:
    break;
  }
  return std::nullopt;
}

// Whether two floats of kind k (held as doubles) have the same bits in memory, as an atomic
// compare-and-swap compares them (0.0 and -0.0 differ, a NaN equals itself; the interpreter
// keeps NaN payloads of f32 and f64 only).
bool sameBits(double a, double b, ScalarKind k) {
  if (k == ScalarKind::F32)
    return std::bit_cast<uint32_t>(float(a)) == std::bit_cast<uint32_t>(float(b));
  if (k == ScalarKind::F64)
    return std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b);
  if (std::isnan(a) || std::isnan(b))
    return std::isnan(a) && std::isnan(b);
  return a == b && std::signbit(a) == std::signbit(b);
}

struct SharedAlloc {
  RtValue data;
  bool live = true;
};

std::vector<int64_t> stridesOf(const std::vector<int64_t> &shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;)
    s[d - 1] = s[d] * shape[d];
  return s;
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
    return block(f_.body, nullptr);
  }

private:
  // `op`'s error for the hazard the async check found (AsyncHazards.h), or success.
  Status hazard(const Op &op, const std::string &found) const {
    return found.empty() ? Status::success() : err(op, found);
  }

  Status err(const Op &op, const std::string &msg) const {
    std::string where;
    if (op.loc.line > 0)
      where = (m_.fileName.empty() ? std::string("<input>") : m_.fileName) + ":" +
              std::to_string(op.loc.line) + ":" + std::to_string(op.loc.col) + ": ";
    return Status(makeError(where + "'" + std::string(mnemonic(op.kind)) + "' in program (" +
                            std::to_string(pid_[0]) + ", " + std::to_string(pid_[1]) + ", " +
                            std::to_string(pid_[2]) + "): " + msg));
  }

  const Function &function() const { return f_; }
  const RtValue &val(ValueId v) const { return vals_[v]; }

  // Runs a block; for a loop body, `yielded` receives the yielded values.
  Status block(const Block &b, std::vector<RtValue> *yielded) {
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
      if (op.kind == OpKind::Return)
        return Status::success();
      if (op.kind == OpKind::Yield || op.kind == OpKind::CombineReturn) {
        if (yielded)
          for (ValueId v : op.operands)
            yielded->push_back(val(v));
        return Status::success();
      }
      LL_TRY_STATUS(kInterpretOp[size_t(op.kind)](*this, op));
    }
    return Status::success();
  }

  Status runFor(const Op &op) {
    const Type &it = type(op.operands[0]);
    ScalarKind k = it.elem().scalar;
    int64_t lb = val(op.operands[0]).i[0], ub = val(op.operands[1]).i[0],
            step = val(op.operands[2]).i[0];
    if (step <= 0)
      return err(op, "step " + std::to_string(step) + " must be positive");
    const Block &body = op.regions[0];
    std::vector<RtValue> carried;
    for (size_t i = 3; i < op.operands.size(); ++i)
      carried.push_back(val(op.operands[i]));
    for (int64_t iv = lb; iv < ub;) {
      vals_[body.args[0]].i = {wrapInt(iv, k)};
      for (size_t i = 0; i < carried.size(); ++i)
        vals_[body.args[1 + i]] = std::move(carried[i]);
      std::vector<RtValue> next;
      LL_TRY_STATUS(block(body, &next));
      carried = std::move(next);
      if (iv > std::numeric_limits<int64_t>::max() - step)
        break;
      iv = wrapInt(iv + step, k) > iv ? wrapInt(iv + step, k) : ub;
    }
    for (size_t i = 0; i < op.results.size(); ++i)
      vals_[op.results[i]] = std::move(carried[i]);
    return Status::success();
  }

public:
  // An element's bytes in memory (as tt.store writes them) and back (as tt.load reads them).
  static void encodeElem(uint8_t *p, ScalarKind k, int64_t iv, double fv) {
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
  static void decodeElem(const uint8_t *p, ScalarKind k, RtValue &out) {
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

private:
  // Reads the element at byte `offset` of `buffer` as kind `k`, checking the bounds.
  Status loadElem(const Op &op, uint32_t buffer, int64_t offset, ScalarKind k, RtValue &out) {
    if (buffer >= mem_.buffers.size())
      return err(op, "pointer into buffer " + std::to_string(buffer) + ", which does not exist");
    const auto &bytes = mem_.buffers[buffer];
    int64_t n = byteWidth(k);
    if (offset < 0 || offset + n > int64_t(bytes.size()))
      return err(op, "reads bytes [" + std::to_string(offset) + ", " + std::to_string(offset + n) +
                         ") of buffer " + std::to_string(buffer) + " of " +
                         std::to_string(bytes.size()) + " bytes");
    decodeElem(bytes.data() + offset, k, out);
    return Status::success();
  }

  Status storeElem(const Op &op, uint32_t buffer, int64_t offset, ScalarKind k, int64_t iv,
                   double fv) {
    if (buffer >= mem_.buffers.size())
      return err(op, "pointer into buffer " + std::to_string(buffer) + ", which does not exist");
    auto &bytes = mem_.buffers[buffer];
    int64_t n = byteWidth(k);
    if (offset < 0 || offset + n > int64_t(bytes.size()))
      return err(op, "writes bytes [" + std::to_string(offset) + ", " + std::to_string(offset + n) +
                         ") of buffer " + std::to_string(buffer) + " of " +
                         std::to_string(bytes.size()) + " bytes");
    encodeElem(bytes.data() + offset, k, iv, fv);
    return Status::success();
  }

  static double halfToDouble(uint16_t h) {
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

public:
  // The ops of the families not yet moved to ir/lib/ops/.
  Status exec(const Op &op) {
    const OpAttrs &a = op.attrs;
    const Type *rt = op.results.empty() ? nullptr : &type(op.results[0]);
    RtValue r;
    auto n = [&]() { return size_t(rt->numElements()); };
    ScalarKind rk = rt ? rt->elem().scalar : ScalarKind::I32;
    switch (op.kind) {
    case OpKind::Return:
    case OpKind::Yield:
    case OpKind::CombineReturn:
      return Status::success();
    case OpKind::For:
      return runFor(op);
    case OpKind::If: {
      std::vector<RtValue> yielded;
      LL_TRY_STATUS(block(op.regions[val(op.operands[0]).i[0] ? 0 : 1], &yielded));
      for (size_t i = 0; i < op.results.size() && i < yielded.size(); ++i)
        vals_[op.results[i]] = std::move(yielded[i]);
      return Status::success();
    }
    case OpKind::Constant:
      if (isFloat(rk))
        r.f.assign(n(), roundToFloatKind(a.floatValue, rk));
      else
        r.i.assign(n(), wrapInt(a.intValue, rk));
      break;
    case OpKind::ProgramId:
      r.i = {pid_[a.axis]};
      break;
    case OpKind::NumPrograms:
      r.i = {a.axis == 0 ? grid_.x : a.axis == 1 ? grid_.y : grid_.z};
      break;
    case OpKind::MakeRange:
      for (int64_t x = a.start; x < a.end; ++x)
        r.i.push_back(x);
      break;
    case OpKind::Splat: {
      const RtValue &s = val(op.operands[0]);
      r.i.assign(s.i.empty() ? 0 : n(), s.i.empty() ? 0 : s.i[0]);
      r.f.assign(s.f.empty() ? 0 : n(), s.f.empty() ? 0 : s.f[0]);
      r.buf.assign(s.buf.empty() ? 0 : n(), s.buf.empty() ? 0 : s.buf[0]);
      break;
    }
    case OpKind::Broadcast: {
      const Type &st = type(op.operands[0]);
      const RtValue &s = val(op.operands[0]);
      auto srcStrides = stridesOf(st.shape());
      auto dstStrides = stridesOf(rt->shape());
      for (size_t e = 0; e < n(); ++e) {
        size_t src = 0;
        for (size_t d = 0; d < dstStrides.size(); ++d) {
          int64_t coord = (int64_t(e) / dstStrides[d]) % rt->shape()[d];
          if (st.shape()[d] != 1)
            src += size_t(coord * srcStrides[d]);
        }
        if (!s.i.empty())
          r.i.push_back(s.i[src]);
        if (!s.f.empty())
          r.f.push_back(s.f[src]);
        if (!s.buf.empty())
          r.buf.push_back(s.buf[src]);
      }
      break;
    }
    case OpKind::ExpandDims:
    case OpKind::Reshape:
    case OpKind::ConvertLayout:
      r = val(op.operands[0]);
      break;
    case OpKind::Join: { // element 2e + k is operand k's element e
      const RtValue &x = val(op.operands[0]), &y = val(op.operands[1]);
      for (size_t e = 0; e < n() / 2; ++e)
        for (const RtValue *s : {&x, &y}) {
          if (!s->i.empty())
            r.i.push_back(s->i[e]);
          if (!s->f.empty())
            r.f.push_back(s->f[e]);
        }
      break;
    }
    case OpKind::Split: { // result k's element e is element 2e + k
      const RtValue &s = val(op.operands[0]);
      for (size_t k = 0; k < 2; ++k) {
        RtValue half;
        for (size_t e = k; e < s.i.size(); e += 2)
          half.i.push_back(s.i[e]);
        for (size_t e = k; e < s.f.size(); e += 2)
          half.f.push_back(s.f[e]);
        vals_[op.results[k]] = std::move(half);
      }
      return Status::success();
    }
    case OpKind::Trans: {
      const Type &st = type(op.operands[0]);
      const RtValue &s = val(op.operands[0]);
      auto srcStrides = stridesOf(st.shape());
      auto dstStrides = stridesOf(rt->shape());
      for (size_t e = 0; e < n(); ++e) {
        size_t src = 0;
        for (size_t d = 0; d < dstStrides.size(); ++d) {
          int64_t coord = (int64_t(e) / dstStrides[d]) % rt->shape()[d];
          src += size_t(coord * srcStrides[size_t(a.order[d])]);
        }
        if (!s.i.empty())
          r.i.push_back(s.i[src]);
        if (!s.f.empty())
          r.f.push_back(s.f[src]);
        if (!s.buf.empty())
          r.buf.push_back(s.buf[src]);
      }
      break;
    }
    case OpKind::AddPtr: {
      const RtValue &p = val(op.operands[0]);
      const auto &o = val(op.operands[1]).i;
      int64_t width = byteWidth(rt->elem().scalar);
      for (size_t e = 0; e < n(); ++e) {
        r.buf.push_back(p.buf[e]);
        r.i.push_back(int64_t(uint64_t(p.i[e]) + uint64_t(at(o, e)) * uint64_t(width)));
      }
      break;
    }
    case OpKind::Load: {
      const RtValue &p = val(op.operands[0]);
      const RtValue *mask = op.operands.size() > 1 ? &val(op.operands[1]) : nullptr;
      const RtValue *other = op.operands.size() > 2 ? &val(op.operands[2]) : nullptr;
      for (size_t e = 0; e < n(); ++e) {
        if (mask && !mask->i[e]) {
          if (isFloat(rk))
            r.f.push_back(other ? other->f[e] : 0.0);
          else
            r.i.push_back(other ? other->i[e] : 0);
          continue;
        }
        LL_TRY_STATUS(loadElem(op, p.buf[e], p.i[e], rk, r));
      }
      break;
    }
    case OpKind::Store: {
      const RtValue &p = val(op.operands[0]);
      const RtValue &v = val(op.operands[1]);
      const RtValue *mask = op.operands.size() > 2 ? &val(op.operands[2]) : nullptr;
      ScalarKind k = type(op.operands[1]).elem().scalar;
      size_t count = size_t(type(op.operands[1]).numElements());
      for (size_t e = 0; e < count; ++e) {
        if (mask && !mask->i[e])
          continue;
        LL_TRY_STATUS(
            storeElem(op, p.buf[e], p.i[e], k, v.i.empty() ? 0 : v.i[e], v.f.empty() ? 0 : v.f[e]));
      }
      return Status::success();
    }
    case OpKind::AtomicRMW:
    case OpKind::AtomicCAS: {
      // Element by element, in index order (the GPU applies them in some order: only the
      // values each element gets back may differ).
      const bool cas = op.kind == OpKind::AtomicCAS;
      const size_t maskAt = 1 + atomicValueOperands(op.kind);
      const RtValue &p = val(op.operands[0]);
      const RtValue &v = val(op.operands[maskAt - 1]); // the (new) value
      const RtValue *mask = op.operands.size() > maskAt ? &val(op.operands[maskAt]) : nullptr;
      bool isF = isFloat(rk);
      for (size_t e = 0; e < n(); ++e) {
        if (mask && !at(mask->i, e)) { // masked off: nothing happens, the result is 0
          if (isF)
            r.f.push_back(0.0);
          else
            r.i.push_back(0);
          continue;
        }
        RtValue old;
        LL_TRY_STATUS(loadElem(op, p.buf[e], p.i[e], rk, old));
        if (cas) {
          // The new value goes in where memory holds the compare value's bits.
          const RtValue &c = val(op.operands[1]);
          bool same = isF ? sameBits(old.f[0], atf(c.f, e), rk) : old.i[0] == at(c.i, e);
          if (same)
            LL_TRY_STATUS(
                storeElem(op, p.buf[e], p.i[e], rk, isF ? 0 : at(v.i, e), isF ? atf(v.f, e) : 0));
          if (isF)
            r.f.push_back(old.f[0]);
          else
            r.i.push_back(old.i[0]);
          continue;
        }
        if (isF) {
          double o = old.f[0], x = atf(v.f, e);
          double next = op.attrs.atomicKind == AtomicKind::FAdd ? roundToFloatKind(o + x, rk) : x;
          LL_TRY_STATUS(storeElem(op, p.buf[e], p.i[e], rk, 0, next));
          r.f.push_back(o);
          continue;
        }
        // The integer operations are the binary ops of their names; exch stores the value.
        int64_t o = old.i[0], x = at(v.i, e), next = x;
        if (std::optional<OpKind> k = integerOpOf(op.attrs.atomicKind))
          next = *evalIntBinary(*k, o, x, rk);
        LL_TRY_STATUS(storeElem(op, p.buf[e], p.i[e], rk, next, 0));
        r.i.push_back(o);
      }
      break;
    }
    case OpKind::LocalAlloc: {
      SharedAlloc s;
      if (!op.operands.empty()) {
        s.data = val(op.operands[0]);
      } else if (isFloat(rk)) {
        s.data.f.assign(n(), 0.0);
      } else {
        s.data.i.assign(n(), 0);
      }
      size_t elements = std::max(s.data.f.size(), s.data.i.size());
      shared_.push_back(std::move(s));
      r.i = {int64_t(shared_.size() - 1), 0};
      for (int64_t st : stridesOf(rt->shape()))
        r.i.push_back(st);
      hazards_.allocate(shared_.size() - 1, elements, op.operands.empty() ? nullptr : &op);
      break;
    }
    case OpKind::LocalStore: {
      auto v = viewOf(op, op.operands[1]);
      if (!v)
        return err(op, "store to a deallocated memdesc");
      LL_TRY_STATUS(hazard(op, hazards_.store(op, v->alloc, v->at)));
      writeShared(*v->s, v->at, val(op.operands[0]));
      return Status::success();
    }
    case OpKind::LocalLoad: {
      auto v = viewOf(op, op.operands[0]);
      if (!v)
        return err(op, "load from a deallocated memdesc");
      LL_TRY_STATUS(hazard(op, hazards_.load(op, v->alloc, v->at)));
      r = readShared(*v->s, v->at);
      break;
    }
    case OpKind::MemDescIndex: {
      const RtValue &d = val(op.operands[0]);
      int64_t index = val(op.operands[1]).i[0];
      int64_t tiles = type(op.operands[0]).shape()[0];
      if (index < 0 || index >= tiles)
        return err(op, "tile index " + std::to_string(index) + " is outside 0.." +
                           std::to_string(tiles - 1));
      r.i = {d.i[0], d.i[1] + index * d.i[2]};
      r.i.insert(r.i.end(), d.i.begin() + 3, d.i.end());
      break;
    }
    case OpKind::MemDescSubslice: {
      // The verifier keeps the view inside the operand.
      const RtValue &d = val(op.operands[0]);
      r.i = d.i;
      for (size_t k = 0; k < op.attrs.offsets.size(); ++k)
        r.i[1] += op.attrs.offsets[k] * d.i[2 + k];
      break;
    }
    case OpKind::MemDescTrans: {
      // The same elements, the strides permuted with the dims.
      const RtValue &d = val(op.operands[0]);
      r.i = {d.i[0], d.i[1]};
      for (int32_t k : op.attrs.order)
        r.i.push_back(d.i[2 + size_t(k)]);
      break;
    }
    case OpKind::AsyncCopyGlobalToLocal: {
      // The copy completes at once: commit groups and waits only order the hardware's copies.
      const RtValue &p = val(op.operands[0]);
      const RtValue *mask = op.operands.size() > 2 ? &val(op.operands[2]) : nullptr;
      const RtValue *other = op.operands.size() > 3 ? &val(op.operands[3]) : nullptr;
      ScalarKind k = type(op.operands[1]).elem().scalar;
      size_t count = size_t(type(op.operands[1]).numElements());
      RtValue loaded;
      for (size_t e = 0; e < count; ++e) {
        if (mask && !mask->i[e]) {
          if (isFloat(k))
            loaded.f.push_back(other ? other->f[e] : 0.0);
          else
            loaded.i.push_back(other ? other->i[e] : 0);
          continue;
        }
        LL_TRY_STATUS(loadElem(op, p.buf[e], p.i[e], k, loaded));
      }
      auto v = viewOf(op, op.operands[1]);
      if (!v)
        return err(op, "copy to a deallocated memdesc");
      LL_TRY_STATUS(hazard(op, hazards_.asyncCopy(op, v->alloc, v->at)));
      writeShared(*v->s, v->at, loaded);
      return Status::success();
    }
    case OpKind::AsyncCommitGroup:
      hazards_.commitGroup();
      return Status::success();
    case OpKind::AsyncWait: // lowered with a bar.sync after the wait
      hazards_.waitGroups(op.attrs.num);
      hazards_.ctaBarrier();
      return Status::success();
    case OpKind::LocalDealloc: {
      SharedAlloc *s = alloc(op, val(op.operands[0]));
      if (!s)
        return err(op, "memdesc deallocated twice");
      LL_TRY_STATUS(hazard(op, hazards_.dealloc(size_t(val(op.operands[0]).i[0]))));
      s->live = false;
      return Status::success();
    }
    case OpKind::Dot:
      dot(op, r);
      break;
    case OpKind::Reduce:
    case OpKind::Scan: {
      std::vector<RtValue> results;
      LL_TRY_STATUS(op.kind == OpKind::Reduce ? reduce(op, results) : scan(op, results));
      for (size_t i = 0; i < op.results.size(); ++i) {
        const Type &t = type(op.results[i]);
        if (limits_.observer && t.isIntLike())
          limits_.observer(op.results[i], results[i].i);
        vals_[op.results[i]] = std::move(results[i]);
      }
      return Status::success();
    }
    case OpKind::WarpGroupDot: {
      // The wgmma reads its shared operands when it runs (here at once; an asynchronous one
      // until a warp_group_dot_wait retires it). A memdesc operand may be a tile of a ring or a
      // view: its strides step through it.
      uint32_t dotRecord = hazards_.beginDot(op, op.attrs.isAsync);
      RtValue tiles[2];
      for (size_t i = 0; i < 2; ++i) {
        if (!type(op.operands[i]).isMemDesc()) {
          tiles[i] = val(op.operands[i]);
          continue;
        }
        auto v = viewOf(op, op.operands[i]);
        if (!v)
          return err(op, std::string("operand ") + (i ? "B" : "A") + " is deallocated");
        LL_TRY_STATUS(hazard(op, hazards_.wgmmaRead(dotRecord, v->alloc, v->at)));
        tiles[i] = readShared(*v->s, v->at);
      }
      dotOf(op, tiles[0], tiles[1], r);
      break;
    }
    case OpKind::WarpGroupDotWait:
      hazards_.waitDots(op.attrs.pendings);
      for (size_t i = 0; i < op.operands.size(); ++i)
        vals_[op.results[i]] = val(op.operands[i]);
      return Status::success();
    case OpKind::FenceAsyncShared:
      hazards_.fence();
      return Status::success();
    case OpKind::Barrier:
      hazards_.ctaBarrier();
      return Status::success();
    case OpKind::InitBarrier: {
      LL_ASSIGN_OR_RETURN(Barrier * bar, barrier(op, 0, false));
      if (bar->live)
        return err(op, "initialises a barrier that is already initialised (inval_barrier it "
                       "first)");
      *bar = Barrier{true, a.count, a.count, 0, 0};
      return Status::success();
    }
    case OpKind::InvalBarrier: {
      LL_ASSIGN_OR_RETURN(Barrier * bar, barrier(op, 0, true));
      bar->live = false;
      return Status::success();
    }
    case OpKind::BarrierExpect: {
      if (!val(op.operands[1]).i[0])
        return Status::success();
      LL_ASSIGN_OR_RETURN(Barrier * bar, barrier(op, 0, true));
      bar->bytes += a.count;
      if (--bar->arrivals < 0)
        return err(op, "arrives on a barrier whose " + std::to_string(bar->count) +
                           " arrival(s) of this phase were all made");
      return completePhase(op, *bar);
    }
    case OpKind::WaitBarrier: {
      if (op.operands.size() > 2 && !val(op.operands[2]).i[0])
        return Status::success();
      LL_ASSIGN_OR_RETURN(Barrier * bar, barrier(op, 0, true));
      int64_t parity = val(op.operands[1]).i[0] & 1;
      // The phase of this parity completed when the current phase has the other parity.
      if ((bar->phase & 1) == parity)
        return err(op, "waits for phase parity " + std::to_string(parity) +
                           " of a barrier whose current phase (number " +
                           std::to_string(bar->phase) +
                           ") has not completed: " + std::to_string(bar->arrivals) +
                           " arrival(s) and " + std::to_string(bar->bytes) +
                           " byte(s) outstanding, and nothing in flight could complete it");
      const RtValue &d = val(op.operands[0]);
      hazards_.phaseSeen({d.i[0], d.i[1]}, bar->phase - 1);
      return Status::success();
    }
    case OpKind::AsyncTmaCopyGlobalToLocal:
      return tmaCopy(op);
    case OpKind::AsyncTmaCopyLocalToGlobal:
      return tmaStore(op);
    case OpKind::AsyncTmaStoreWait:
      hazards_.waitStores(op.attrs.pendings);
      return Status::success();
    default: // interim: the families of ir/lib/ops/ interpret their own ops
      break;
    }
    return rt ? setResult(op, std::move(r)) : Status::success();
  }

private:
  Status setResult(const Op &op, RtValue r) {
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

  // An mbarrier's counts: `arrivals` and `bytes` still outstanding in the current phase, which
  // is number `phase` (phases completed so far).
  struct Barrier {
    bool live = false;
    int64_t count = 0;
    int64_t arrivals = 0;
    int64_t bytes = 0;
    int64_t phase = 0;
  };

  Expected<Barrier *> barrier(const Op &op, size_t operand, bool mustBeLive) {
    const RtValue &d = val(op.operands[operand]);
    if (!alloc(op, d))
      return makeError(err(op, "the barrier's memory is deallocated").message());
    Barrier &b = barriers_[{d.i[0], d.i[1]}];
    if (mustBeLive && !b.live)
      return makeError(
          err(op, "uses a barrier that is not initialised (or was invalidated)").message());
    return &b;
  }

  Status completePhase(const Op &op, Barrier &b) {
    if (b.arrivals == 0 && b.bytes < 0)
      return err(op, "the barrier received " + std::to_string(-b.bytes) +
                         " byte(s) more than its phase expected");
    if (b.arrivals == 0 && b.bytes == 0) {
      ++b.phase;
      b.arrivals = b.count;
    }
    return Status::success();
  }

  // The global element offset of each element of a TMA copy's box (row-major), or -1 for one
  // outside the tensor; the descriptor is operand 0, the coordinates follow it.
  Expected<std::vector<int64_t>> tmaBoxOffsets(const Op &op) {
    const Type &dt = type(op.operands[0]);
    const RtValue &desc = val(op.operands[0]);
    size_t rank = size_t(dt.rank());
    ScalarKind k = dt.elem().scalar;
    if (desc.i.size() != 2 * rank)
      return makeError(err(op, "the descriptor argument has " + std::to_string(desc.i.size() / 2) +
                                   " dims, its type " + std::to_string(rank))
                           .message());
    std::vector<int64_t> origin(rank);
    for (size_t d = 0; d < rank; ++d)
      origin[d] = val(op.operands[1 + d]).i[0];
    // The copy engine moves 16-byte pieces of a row: a box whose row starts elsewhere stops the
    // GPU (an illegal instruction).
    if (origin[rank - 1] * byteWidth(k) % 16 != 0)
      return makeError(err(op, "the box starts at element " + std::to_string(origin[rank - 1]) +
                                   " of the tensor's contiguous dim, byte " +
                                   std::to_string(origin[rank - 1] * byteWidth(k)) +
                                   " of a row: TMA needs a multiple of 16 bytes")
                           .message());
    const std::vector<int64_t> &box = dt.shape();
    std::vector<int64_t> offsets(size_t(dt.numElements()));
    std::vector<int64_t> idx(rank, 0);
    for (size_t e = 0; e < offsets.size(); ++e) {
      int64_t rem = int64_t(e);
      for (size_t d = rank; d-- > 0;) {
        idx[d] = rem % box[d];
        rem /= box[d];
      }
      bool inside = true;
      int64_t offset = 0;
      for (size_t d = 0; d < rank; ++d) {
        int64_t c = origin[d] + idx[d];
        inside &= c >= 0 && c < desc.i[d];
        offset += c * desc.i[rank + d];
      }
      offsets[e] = inside ? offset : -1;
    }
    return offsets;
  }

  // The copy completes at once; its bytes (the whole box, zero-filled elements included) land on
  // the barrier.
  Status tmaCopy(const Op &op) {
    size_t n = op.operands.size();
    if (!val(op.operands[n - 1]).i[0])
      return Status::success();
    const Type &dt = type(op.operands[0]);
    ScalarKind k = dt.elem().scalar;
    int64_t count = dt.numElements();
    LL_ASSIGN_OR_RETURN(std::vector<int64_t> offsets, tmaBoxOffsets(op));
    RtValue loaded;
    for (int64_t offset : offsets) {
      if (offset < 0) {
        if (isFloat(k))
          loaded.f.push_back(0.0);
        else
          loaded.i.push_back(0);
        continue;
      }
      LL_TRY_STATUS(loadElem(op, val(op.operands[0]).buf[0], offset * byteWidth(k), k, loaded));
    }
    auto v = viewOf(op, op.operands[n - 3]);
    if (!v)
      return err(op, "copy to a deallocated memdesc");
    LL_ASSIGN_OR_RETURN(Barrier * bar, barrier(op, n - 2, true));
    const RtValue &b = val(op.operands[n - 2]);
    LL_TRY_STATUS(hazard(op, hazards_.tmaCopy(op, v->alloc, v->at, {b.i[0], b.i[1]}, bar->phase)));
    writeShared(*v->s, v->at, loaded);
    bar->bytes -= count * byteWidth(k);
    return completePhase(op, *bar);
  }

  // A TMA store reads its tile at once and writes the box's elements that lie inside the tensor
  // (the copy engine drops the others); the tile counts as read until a store wait retires it.
  Status tmaStore(const Op &op) {
    const Type &dt = type(op.operands[0]);
    ScalarKind k = dt.elem().scalar;
    LL_ASSIGN_OR_RETURN(std::vector<int64_t> offsets, tmaBoxOffsets(op));
    auto v = viewOf(op, op.operands.back());
    if (!v)
      return err(op, "copy from a deallocated memdesc");
    LL_TRY_STATUS(hazard(op, hazards_.tmaStore(op, v->alloc, v->at)));
    RtValue tile = readShared(*v->s, v->at);
    for (size_t e = 0; e < offsets.size(); ++e)
      if (offsets[e] >= 0)
        LL_TRY_STATUS(storeElem(op, val(op.operands[0]).buf[0], offsets[e] * byteWidth(k), k,
                                tile.i.empty() ? 0 : tile.i[e], tile.f.empty() ? 0 : tile.f[e]));
    return Status::success();
  }

  // The allocation's element index of each element of the memdesc `desc` of `shape`, in
  // row-major order of the shape.
  static std::vector<size_t> elementsOf(const RtValue &desc, const std::vector<int64_t> &shape) {
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    std::vector<size_t> out;
    out.reserve(size_t(n));
    std::vector<int64_t> x(shape.size(), 0);
    for (int64_t e = 0; e < n; ++e) {
      int64_t at = desc.i[1];
      for (size_t k = 0; k < shape.size(); ++k)
        at += x[k] * desc.i[2 + k];
      out.push_back(size_t(at));
      for (size_t k = shape.size(); k-- > 0;) {
        if (++x[k] < shape[k])
          break;
        x[k] = 0;
      }
    }
    return out;
  }

  // Writes a tile's elements (row-major) into the elements `at` of an allocation (elementsOf).
  static void writeShared(SharedAlloc &s, const std::vector<size_t> &at, const RtValue &v) {
    for (size_t e = 0; e < at.size(); ++e) {
      if (!v.f.empty())
        s.data.f[at[e]] = v.f[e];
      if (!v.i.empty())
        s.data.i[at[e]] = v.i[e];
    }
  }

  // The elements `at` of an allocation (elementsOf), in order.
  static RtValue readShared(const SharedAlloc &s, const std::vector<size_t> &at) {
    RtValue r;
    for (size_t e : at) {
      if (!s.data.f.empty())
        r.f.push_back(s.data.f[e]);
      else
        r.i.push_back(s.data.i[e]);
    }
    return r;
  }

  // What a memdesc value views: its allocation (index and storage) and the allocation's elements
  // it views, row-major; nullopt where the allocation is deallocated.
  struct View {
    SharedAlloc *s;
    size_t alloc;
    std::vector<size_t> at;
  };
  std::optional<View> viewOf(const Op &op, ValueId memDesc) {
    const RtValue &d = val(memDesc);
    SharedAlloc *s = alloc(op, d);
    if (!s)
      return std::nullopt;
    return View{s, size_t(d.i[0]), elementsOf(d, type(memDesc).shape())};
  }

  SharedAlloc *alloc(const Op &, const RtValue &desc) {
    size_t idx = size_t(desc.i[0]);
    if (idx >= shared_.size() || !shared_[idx].live)
      return nullptr;
    return &shared_[idx];
  }

  void dot(const Op &op, RtValue &r) { dotOf(op, val(op.operands[0]), val(op.operands[1]), r); }

  // c + a * b with the types of op's operands and `A`, `B` the operands' values.
  void dotOf(const Op &op, const RtValue &A, const RtValue &B, RtValue &r) {
    const Type &at = type(op.operands[0]);
    const Type &ct = type(op.operands[2]);
    const RtValue &C = val(op.operands[2]);
    int rk = ct.rank();
    int64_t batch = rk == 3 ? ct.shape()[0] : 1;
    int64_t M = ct.shape()[size_t(rk - 2)], N = ct.shape()[size_t(rk - 1)];
    int64_t K = at.shape()[size_t(rk - 1)];
    ScalarKind ck = ct.elem().scalar;
    bool isF = isFloat(ck);
    if (isF)
      r.f.resize(size_t(batch * M * N));
    else
      r.i.resize(size_t(batch * M * N));
    for (int64_t bi = 0; bi < batch; ++bi)
      for (int64_t m = 0; m < M; ++m)
        for (int64_t nn = 0; nn < N; ++nn) {
          size_t ci = size_t((bi * M + m) * N + nn);
          if (isF) {
            double acc = C.f[ci];
            for (int64_t k = 0; k < K; ++k)
              acc += A.f[size_t((bi * M + m) * K + k)] * B.f[size_t((bi * K + k) * N + nn)];
            r.f[ci] = roundToFloatKind(acc, ck);
          } else {
            int64_t acc = C.i[ci];
            for (int64_t k = 0; k < K; ++k)
              acc += A.i[size_t((bi * M + m) * K + k)] * B.i[size_t((bi * K + k) * N + nn)];
            r.i[ci] = wrapInt(acc, ck);
          }
        }
  }

  // The lines of a reduce's or scan's operands along its axis: `len` elements, `inner` apart;
  // the first elements of the lines are those whose index along the axis is 0.
  struct AxisLines {
    int64_t len, inner, outer;
  };
  AxisLines axisLines(const Op &op) {
    const Type &st = type(op.operands[0]);
    AxisLines a;
    size_t axis = size_t(op.attrs.axis);
    a.len = st.shape()[axis];
    a.inner = stridesOf(st.shape())[axis];
    a.outer = 1;
    for (size_t d = 0; d < axis; ++d)
      a.outer *= st.shape()[d];
    return a;
  }

  // Element x of each operand of a reduce or scan, as scalars; and back into `to`'s x-th.
  static std::vector<RtValue> elementsAt(std::span<const RtValue *const> from, size_t x) {
    std::vector<RtValue> e(from.size());
    for (size_t k = 0; k < from.size(); ++k)
      if (from[k]->f.empty())
        e[k].i = {from[k]->i[x]};
      else
        e[k].f = {from[k]->f[x]};
    return e;
  }
  static void setElementsAt(std::vector<RtValue> &to, size_t x, const std::vector<RtValue> &e) {
    for (size_t k = 0; k < to.size(); ++k)
      if (to[k].f.empty())
        to[k].i[x] = e[k].i[0];
      else
        to[k].f[x] = e[k].f[0];
  }

  // lhs (+) rhs, one scalar per operand of `op`, lhs the earlier in scan order: its ReduceKind's
  // op rounded to the element type, or its combining body run on them.
  Status combine(const Op &op, const std::vector<RtValue> &lhs, const std::vector<RtValue> &rhs,
                 std::vector<RtValue> &out) {
    out.clear();
    if (op.regions.empty()) {
      const ScalarKind k = type(op.operands[0]).elem().scalar;
      const OpKind combiner = *combinerOf(op.attrs.reduceKind, isFloat(k));
      out.resize(1);
      if (isFloat(k))
        out[0].f = {roundToFloatKind(evalFloatBinary(combiner, lhs[0].f[0], rhs[0].f[0]), k)};
      else
        out[0].i = {*evalIntBinary(combiner, lhs[0].i[0], rhs[0].i[0], k)};
      return Status::success();
    }
    const Block &body = op.regions[0];
    const size_t n = op.operands.size();
    for (size_t k = 0; k < n; ++k) {
      vals_[body.args[k]] = lhs[k];
      vals_[body.args[n + k]] = rhs[k];
    }
    return block(body, &out);
  }

  // Each line combined in index order (lhs the combination of the elements before).
  Status reduce(const Op &op, std::vector<RtValue> &results) {
    std::vector<const RtValue *> in;
    for (ValueId v : op.operands)
      in.push_back(&val(v));
    const auto [len, inner, outer] = axisLines(op);
    results.assign(in.size(), RtValue{});
    std::vector<RtValue> acc, next;
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) {
        size_t base = size_t(o * len * inner + i);
        acc = elementsAt(in, base);
        for (int64_t j = 1; j < len; ++j) {
          LL_TRY_STATUS(combine(op, acc, elementsAt(in, base + size_t(j * inner)), next));
          std::swap(acc, next);
        }
        for (size_t k = 0; k < in.size(); ++k) {
          results[k].i.insert(results[k].i.end(), acc[k].i.begin(), acc[k].i.end());
          results[k].f.insert(results[k].f.end(), acc[k].f.begin(), acc[k].f.end());
        }
      }
    return Status::success();
  }

  // Inclusive, in index order along the axis (from its end when reversed): each element is the
  // combination of the one before it in that order (lhs) with itself (rhs).
  Status scan(const Op &op, std::vector<RtValue> &results) {
    for (ValueId v : op.operands)
      results.push_back(val(v));
    std::vector<const RtValue *> view;
    for (const RtValue &r : results)
      view.push_back(&r);
    const auto [len, inner, outer] = axisLines(op);
    std::vector<RtValue> next;
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) {
        size_t base = size_t(o * len * inner + i);
        for (int64_t j = 1; j < len; ++j) {
          int64_t at = op.attrs.reverse ? len - 1 - j : j;
          int64_t prev = op.attrs.reverse ? at + 1 : at - 1;
          size_t x = base + size_t(at * inner), p = base + size_t(prev * inner);
          LL_TRY_STATUS(combine(op, elementsAt(view, p), elementsAt(view, x), next));
          setElementsAt(results, x, next);
        }
      }
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
  std::map<std::pair<int64_t, int64_t>, Barrier> barriers_;
};

} // namespace

void encodeElement(uint8_t *p, ScalarKind k, int64_t iv, double fv) {
  Program::encodeElem(p, k, iv, fv);
}
void decodeElement(const uint8_t *p, ScalarKind k, RtValue &out) { Program::decodeElem(p, k, out); }

#define LINLAYOUT_LEGACY(F)                                                                        \
  Status interpret##F##Op(OpInterpreter &in, const Op &op) {                                       \
    return static_cast<Program &>(in).exec(op);                                                    \
  }
LINLAYOUT_LEGACY(Structure)
LINLAYOUT_LEGACY(Source)
LINLAYOUT_LEGACY(Shape)
LINLAYOUT_LEGACY(Memory)
LINLAYOUT_LEGACY(Shared)
LINLAYOUT_LEGACY(Compute)
LINLAYOUT_LEGACY(Hopper)
#undef LINLAYOUT_LEGACY

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

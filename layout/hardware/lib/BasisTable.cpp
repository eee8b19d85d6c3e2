#include "BasisTable.h"

#include "SpecCheck.h"

#include <algorithm>
#include <cassert>

namespace linlayout::spec {

const std::vector<BasisTable::Basis> &BasisTable::bases(DimName in) const {
  static const std::vector<Basis> none;
  for (const auto &[name, b] : ins_)
    if (name == in)
      return b;
  return none;
}

std::vector<BasisTable::Basis> &BasisTable::mutableBases(DimName in) {
  for (auto &[name, b] : ins_)
    if (name == in)
      return b;
  ins_.emplace_back(in, std::vector<Basis>{});
  return ins_.back().second;
}

void BasisTable::touch(int d) {
  assert(d >= 0 && d < rank_ && "tensor dim out of range");
  if (std::find(outOrder_.begin(), outOrder_.end(), d) == outOrder_.end())
    outOrder_.push_back(d);
}

void BasisTable::identity(DimName in, int64_t size, int d) {
  assert(size >= 1 && isPow2(size) && "identity of a non-power-of-two size");
  touch(d);
  auto &b = mutableBases(in);
  for (int64_t s = 1; s < size; s *= 2) {
    assert(outBits_[size_t(d)] < 62 && "tensor dim grows past 2^62");
    Basis v(size_t(rank_), 0);
    v[size_t(d)] = int64_t(1) << outBits_[size_t(d)];
    b.push_back(std::move(v));
    ++outBits_[size_t(d)];
  }
}

void BasisTable::zeros(DimName in, int64_t size, int d) {
  assert(size >= 1 && isPow2(size) && "zeros of a non-power-of-two size");
  touch(d);
  auto &b = mutableBases(in);
  for (int64_t s = 1; s < size; s *= 2)
    b.emplace_back(size_t(rank_), 0);
}

void BasisTable::multiply(const BasisTable &outer) {
  assert(outer.rank_ == rank_ && "product of tables of different rank");
  for (int d : outer.outOrder_)
    touch(d);
  for (const auto &[name, obases] : outer.ins_) {
    auto &b = mutableBases(name);
    for (const Basis &ob : obases) {
      Basis v(size_t(rank_), 0);
      for (int d = 0; d < rank_; ++d)
        v[size_t(d)] = ob[size_t(d)] << outBits_[size_t(d)];
      b.push_back(std::move(v));
    }
  }
  for (int d = 0; d < rank_; ++d)
    outBits_[size_t(d)] += outer.outBits_[size_t(d)];
}

void BasisTable::ensureNotSmaller(std::span<const int64_t> shape) {
  assert(shape.size() == size_t(rank_) && !ins_.empty() && "shape/rank mismatch");
  DimName first = ins_.front().first;
  std::vector<int> order = outOrder_;
  for (int d : order) {
    int want = log2i(shape[size_t(d)]);
    if (want > outBits_[size_t(d)])
      identity(first, int64_t(1) << (want - outBits_[size_t(d)]), d);
  }
}

Status BasisTable::ensureNotLarger(std::span<const int64_t> shape, bool removeRegisters) {
  assert(shape.size() == size_t(rank_) && "shape/rank mismatch");
  auto where = [&](const std::pair<DimName, std::vector<Basis>> &in, size_t k, int d) {
    return std::string(in.first.str()) + " basis " + std::to_string(k) + " (component " +
           std::to_string(in.second[k][size_t(d)]) + " along dim " + std::to_string(d) + ")";
  };
  std::vector<bool> dropReg;
  for (int d = 0; d < rank_; ++d) {
    int have = outBits_[size_t(d)], want = log2i(shape[size_t(d)]);
    if (have <= want)
      continue;
    struct Ref {
      size_t in, idx;
      int64_t value;
    };
    std::vector<Ref> refs;
    for (size_t i = 0; i < ins_.size(); ++i)
      for (size_t k = 0; k < ins_[i].second.size(); ++k)
        if (int64_t v = ins_[i].second[k][size_t(d)]; v != 0)
          refs.push_back({i, k, v});
    std::stable_sort(refs.begin(), refs.end(),
                     [](const Ref &a, const Ref &b) { return a.value > b.value; });
    // As Triton: each cut basis halves the dim, largest first, until it fits.
    for (const Ref &r : refs) {
      if (have <= want)
        break;
      if ((r.value & (r.value - 1)) != 0)
        return makeError("cannot cut the layout to size " + std::to_string(shape[size_t(d)]) +
                         " along dim " + std::to_string(d) + ": " + where(ins_[r.in], r.idx, d) +
                         " is not a power of two");
      if (removeRegisters && ins_[r.in].first == DimName::reg()) {
        dropReg.resize(std::max(dropReg.size(), r.idx + 1), false);
        dropReg[r.idx] = true;
      } else {
        ins_[r.in].second[r.idx][size_t(d)] = 0;
      }
      --have;
    }
    // Bases that repeat one another (a CGA layout whose blocks share a tile, say) can still
    // point past the shape: Triton refuses those layouts, and so do we.
    for (const Ref &r : refs) {
      bool dropped = removeRegisters && ins_[r.in].first == DimName::reg() &&
                     r.idx < dropReg.size() && dropReg[r.idx];
      if (!dropped && ins_[r.in].second[r.idx][size_t(d)] >= (int64_t(1) << want))
        return makeError("the layout does not fit size " + std::to_string(shape[size_t(d)]) +
                         " along dim " + std::to_string(d) + ": after its largest bases are cut, " +
                         where(ins_[r.in], r.idx, d) + " still points past it");
    }
  }
  if (!dropReg.empty()) {
    auto &regs = mutableBases(DimName::reg());
    std::vector<Basis> kept;
    for (size_t k = 0; k < regs.size(); ++k)
      if (k >= dropReg.size() || !dropReg[k])
        kept.push_back(std::move(regs[k]));
    regs = std::move(kept);
  }
  inferSizes();
  return Status::success();
}

void BasisTable::inferSizes() {
  for (int d = 0; d < rank_; ++d) {
    int bits = 0;
    for (const auto &in : ins_)
      for (const Basis &b : in.second)
        while (bits < 62 && (int64_t(1) << bits) <= b[size_t(d)])
          ++bits;
    outBits_[size_t(d)] = bits;
  }
}

Expected<LinearLayout> BasisTable::toLayout(std::span<const DimName> inNames) const {
  std::vector<InDimBases> ins;
  auto convert = [&](DimName name, const std::vector<Basis> &bs) {
    InDimBases in{name, {}};
    for (const Basis &b : bs)
      in.bases.emplace_back(b.begin(), b.end());
    ins.push_back(std::move(in));
  };
  for (DimName n : inNames)
    convert(n, bases(n));
  for (const auto &[name, bs] : ins_)
    if (std::find(inNames.begin(), inNames.end(), name) == inNames.end())
      convert(name, bs);
  std::vector<DimSize> outs;
  for (int d = 0; d < rank_; ++d)
    outs.push_back({DimName::dim(d), uint64_t(1) << outBits_[size_t(d)]});
  return LinearLayout::fromBases(ins, outs);
}

BasisTable BasisTable::fromCga(const CgaLayout &cga) {
  BasisTable t(cga.rank());
  for (int d = 0; d < cga.rank(); ++d)
    t.touch(d);
  auto &b = t.mutableBases(DimName::block());
  for (const auto &v : cga.bases())
    b.push_back(v);
  t.inferSizes();
  return t;
}

Expected<LinearLayout> combineCtaCga(BasisTable cta, const CgaLayout &cga,
                                     std::span<const int64_t> shape,
                                     std::span<const DimName> inNames) {
  int rank = cta.rank();
  assert(cga.rank() == rank && size_t(rank) == shape.size() && "rank mismatch");
  BasisTable cgaTable = BasisTable::fromCga(cga);
  if (Status fits = cgaTable.ensureNotLarger(shape); !fits.ok())
    return makeError("cga_layout: " + fits.message());
  std::vector<int64_t> ctaShape(static_cast<size_t>(rank), 1);
  for (int d = 0; d < rank; ++d)
    ctaShape[size_t(d)] = std::max<int64_t>(1, shape[size_t(d)] >> cgaTable.outBits(d));
  cta.ensureNotSmaller(ctaShape);
  LL_TRY_STATUS(cta.ensureNotLarger(ctaShape));
  // The CGA table's dims follow the CTA table's order (Triton transposes it so).
  cgaTable.setOutOrder(cta.outOrder());
  cta.multiply(cgaTable);
  return cta.toLayout(inNames);
}

void identityND(BasisTable &t, DimName in, std::span<const int64_t> sizes,
                std::span<const int64_t> order) {
  for (int64_t d : order)
    t.identity(in, sizes[size_t(d)], int(d));
}

std::vector<int64_t> shapePerCta(const CgaLayout &cga, std::span<const int64_t> shape) {
  std::vector<int64_t> r(shape.begin(), shape.end());
  for (int d = 0; d < cga.rank(); ++d)
    r[size_t(d)] = shape[size_t(d)] / std::min(shape[size_t(d)], cga.ctaSplitNum(d));
  return r;
}

void broadcastAlongK(BasisTable &t, DimName in, std::span<const int64_t> counts,
                     std::span<const int64_t> order, int kDim) {
  for (int64_t d : order) {
    if (d == kDim)
      t.zeros(in, counts[size_t(d)], int(d));
    else
      t.identity(in, counts[size_t(d)], int(d));
  }
}

std::vector<int64_t> matrixOrder(int rank, bool rowMajor) {
  std::vector<int64_t> order;
  for (int d = rank - 1; d >= 0; --d)
    order.push_back(d);
  if (!rowMajor && rank >= 2)
    std::swap(order[0], order[1]);
  return order;
}

} // namespace linlayout::spec

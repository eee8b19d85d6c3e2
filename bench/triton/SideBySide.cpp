// The layout algebra beside Triton's own C++ LinearLayout, in one process: the same layouts
// (bench/RealisticLayouts.h, the cases of bench/LayoutBench.cpp) built in both libraries, each
// op checked to give the same answer in both, then timed alternately (ours, Triton's, ours, ...)
// in batches; the figure is the median time per call. Triton's side pays for freeing its
// results (its destructor), as its users do. side_by_side.py loads this after importing Triton.
#include "ElfSymbols.h"
#include "TritonAbi.h"

#include "RealisticLayouts.h"

#include <dlfcn.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

using namespace linlayout;
using namespace linlayout::bench;
namespace tb = linlayout::bench::triton;

namespace {

// What the harness is doing, for the crash handler: a wrong guess about Triton's ABI crashes.
char gStepText[160] = "start";
void step(const std::string &what) {
  std::snprintf(gStepText, sizeof gStepText, "%s", what.c_str());
}

void onCrash(int sig) {
  const char *what = sig == SIGSEGV ? "SIGSEGV" : sig == SIGABRT ? "SIGABRT" : "signal";
  char buf[512];
  int n = std::snprintf(buf, sizeof buf, "\nside-by-side: %s during: %s\n", what, gStepText);
  if (write(2, buf, size_t(n)) < 0) {
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

template <typename T> inline void keep(T &v) { asm volatile("" : : "r"(&v) : "memory"); }

void say(const std::string &s) {
  std::fputs(s.c_str(), stdout);
  std::fflush(stdout);
}

// ---------------------------------------------------------------------------------------------
// Timing: batches of calls, the two sides alternating.
// ---------------------------------------------------------------------------------------------

struct Timer {
  virtual ~Timer() = default;
  virtual void run(long n) = 0;
};
template <typename F> struct TimerOf final : Timer {
  F f;
  explicit TimerOf(F fn) : f(std::move(fn)) {}
  void run(long n) override {
    for (long i = 0; i < n; ++i)
      f();
  }
};
template <typename F> std::unique_ptr<Timer> timer(F f) {
  return std::make_unique<TimerOf<F>>(std::move(f));
}

double nsPerCall(Timer &t, long n) {
  auto t0 = std::chrono::steady_clock::now();
  t.run(n);
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::nano>(t1 - t0).count() / double(n);
}

// Calls per batch so that one batch takes about `targetNs`.
long calibrate(Timer &t, double targetNs) {
  t.run(3);
  for (long n = 1;; n *= 4) {
    double total = nsPerCall(t, n) * double(n);
    if (total > targetNs / 16 || n > (1L << 26))
      return std::max(1L, long(double(n) * targetNs / std::max(total, 1.0)));
  }
}

double median(std::vector<double> v) {
  if (v.empty())
    return 0;
  std::sort(v.begin(), v.end());
  size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

struct Case {
  std::string bench, op, check, note;
  std::unique_ptr<Timer> ours, triton;
  long nOurs = 0, nTriton = 0;
  std::vector<double> oursPass, tritonPass; // one median per pass
};

// ---------------------------------------------------------------------------------------------
// The two libraries' layouts.
// ---------------------------------------------------------------------------------------------

tb::View viewOf(const LinearLayout &l) {
  tb::View v;
  for (const InDimBases &d : l.bases()) {
    v.inNames.emplace_back(d.name.str());
    auto &dst = v.bases.emplace_back();
    for (const auto &b : d.bases)
      dst.emplace_back(b.begin(), b.end());
  }
  for (const DimSize &d : l.outDims()) {
    v.outNames.emplace_back(d.name.str());
    v.outSizes.push_back(int64_t(d.size));
  }
  return v;
}

std::optional<LinearLayout> fromView(const tb::View &v) {
  std::vector<InDimBases> ins;
  std::vector<DimSize> outs;
  for (size_t i = 0; i < v.inNames.size(); ++i) {
    InDimBases &d = ins.emplace_back(InDimBases{DimName::get(v.inNames[i]), {}});
    for (const auto &b : v.bases[i])
      d.bases.emplace_back(b.begin(), b.end());
  }
  for (size_t o = 0; o < v.outNames.size(); ++o)
    outs.push_back({DimName::get(v.outNames[o]), uint64_t(v.outSizes[o])});
  auto l = LinearLayout::fromBases(ins, outs);
  return l.ok() ? std::optional<LinearLayout>(*l) : std::nullopt;
}

// Runs `f` in a child process first: a call that crashes or exits there (a wrong ABI guess, a
// Triton assert) costs that op only, not the whole run.
template <typename F> bool survives(F f) {
  std::fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    f();
    _exit(0);
  }
  int status = 0;
  return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
         WEXITSTATUS(status) == 0;
}

std::string verdict(const std::string &diff) {
  if (diff.empty())
    return "same";
  if (diff.rfind("order: ", 0) == 0)
    return "same bases, dims in another order";
  return "DIFFERENT: " + diff;
}

class SideBySide {
public:
  explicit SideBySide(tb::Api &api) : api_(api) {}

  std::vector<Case> cases;
  int differences = 0;

  // A Triton copy of one of our layouts (kept alive for the whole run).
  const void *T(const LinearLayout &l) {
    auto bases = tritonBases(l);
    auto outs = tritonOuts(l);
    auto t = std::make_unique<tb::Layout>(api_);
    step("Triton LinearLayout(bases, outDims, false)");
    api_.ctorFromBases(t->get(), {bases.data(), bases.size()}, {outs.data(), outs.size()}, false);
    t->built();
    kept_.push_back(std::move(t));
    return kept_.back()->get();
  }

  std::vector<tb::BasesEntry> tritonBases(const LinearLayout &l) {
    std::vector<tb::BasesEntry> r;
    for (const InDimBases &d : l.bases()) {
      auto &e =
          r.emplace_back(api_.attr(std::string(d.name.str())), std::vector<std::vector<int>>{});
      for (const auto &b : d.bases)
        e.second.emplace_back(b.begin(), b.end());
    }
    return r;
  }
  std::vector<tb::DimEntry> tritonOuts(const LinearLayout &l) {
    std::vector<tb::DimEntry> r;
    for (const DimSize &d : l.outDims())
      r.emplace_back(api_.attr(std::string(d.name.str())), int(d.size));
    return r;
  }
  std::vector<tb::Attr> attrs(std::initializer_list<DimName> names) {
    std::vector<tb::Attr> r;
    for (DimName n : names)
      r.push_back(api_.attr(std::string(n.str())));
    return r;
  }
  std::vector<tb::DimEntry> dims(std::span<const DimSize> ds) {
    std::vector<tb::DimEntry> r;
    for (const DimSize &d : ds)
      r.emplace_back(api_.attr(std::string(d.name.str())), int(d.size));
    return r;
  }

  // Compares our layout (or no answer) with a Triton result object (or none).
  std::string compare(const LinearLayout *ours, const void *theirs) {
    if (!ours || !theirs)
      return ours == nullptr && theirs == nullptr
                 ? "same (no answer on both sides)"
                 : std::string("DIFFERENT: ") + (ours ? "only ours" : "only Triton") +
                       " has an answer";
    tb::View tv;
    std::string error;
    if (!tb::readView(api_, theirs, tv, error))
      return "DIFFERENT: Triton's result is unreadable: " + error;
    return verdict(tb::compareViews(viewOf(*ours), tv));
  }

  void skip(const std::string &bench, const std::string &op, const std::string &why) {
    Case c;
    c.bench = bench;
    c.op = op;
    c.check = "skipped: " + why;
    cases.push_back(std::move(c));
  }

  template <typename O, typename Tr>
  void add(const std::string &bench, const std::string &op, std::string check, O ours, Tr triton,
           const std::string &note = "") {
    if (check.rfind("DIFFERENT", 0) == 0)
      ++differences;
    Case c;
    c.bench = bench;
    c.op = op;
    c.check = std::move(check);
    c.note = note;
    c.ours = timer(std::move(ours));
    c.triton = timer(std::move(triton));
    say("  " + c.bench + " (" + c.op + "): " + c.check + "\n");
    cases.push_back(std::move(c));
  }

  // An op answering a layout in both libraries: ours() -> Expected<LinearLayout>,
  // theirs(void *sret) builds Triton's.
  // `valid`, when given, says whether Triton's answer is a right one where the two differ
  // ("" when it is): some ops have several right answers.
  template <typename O, typename Tr>
  void layoutOp(const std::string &bench, const std::string &op, bool available, O ours, Tr theirs,
                const std::string &note = "",
                std::function<std::string(const LinearLayout &)> valid = {}) {
    if (!available)
      return skip(bench, op, "Triton's symbol is not in libtriton.so");
    step(bench + ": " + op);
    if (!survives([&] {
          tb::Raw r;
          theirs(&r);
          api_.dtor(&r);
        }))
      return skip(bench, op, "Triton's call failed in a child process (see above)");
    auto mine = ours();
    tb::Raw r;
    theirs(&r);
    std::string check =
        mine.ok() ? compare(&*mine, &r) : "DIFFERENT: ours failed: " + mine.message();
    if (check.rfind("DIFFERENT: basis", 0) == 0 && valid) {
      tb::View tv;
      std::string error;
      std::optional<LinearLayout> theirsAsOurs;
      if (tb::readView(api_, &r, tv, error))
        theirsAsOurs = fromView(tv);
      std::string why = theirsAsOurs ? valid(*theirsAsOurs) : "unreadable";
      std::string whyOurs = mine.ok() ? valid(*mine) : "failed";
      // Both right: the op leaves a choice (free variables) and the two chose differently.
      check = why.empty() && whyOurs.empty()
                  ? "both right, another choice: " + check.substr(11)
                  : check + " (Triton's answer: " + (why.empty() ? "right" : why) +
                        "; ours: " + (whyOurs.empty() ? "right" : whyOurs) + ")";
    }
    if (check != "same" || !printedOne_) {
      printedOne_ = true;
      printBoth(mine.ok() ? &*mine : nullptr, &r);
    }
    api_.dtor(&r);
    const tb::Api *api = &api_;
    add(
        bench, op, check,
        [ours] {
          auto v = ours();
          keep(v);
        },
        [theirs, api] {
          tb::Raw raw;
          theirs(&raw);
          api->dtor(&raw);
        },
        note);
  }

  // An op answering std::optional<LinearLayout> in both libraries.
  template <typename O, typename Tr>
  void optionalOp(const std::string &bench, const std::string &op, bool available, O ours,
                  Tr theirs) {
    if (!available)
      return skip(bench, op, "Triton's symbol is not in libtriton.so");
    step(bench + ": " + op);
    if (!survives([&] {
          tb::Raw r;
          theirs(&r);
          if (r.bytes[tb::kOptionalFlag] == 1)
            api_.dtor(&r);
        }))
      return skip(bench, op, "Triton's call failed in a child process (see above)");
    auto mine = ours();
    tb::Raw r;
    std::memset(&r, 0xcd, sizeof r);
    theirs(&r);
    unsigned char flag = r.bytes[tb::kOptionalFlag];
    std::string check;
    if (flag > 1) {
      check = "DIFFERENT: Triton's optional flag reads " + std::to_string(flag) +
              " (layout size guess wrong?)" + tb::hexDump(&r, 0x70);
    } else {
      check = compare(mine ? &*mine : nullptr, flag ? &r : nullptr);
      if (flag)
        api_.dtor(&r);
    }
    const tb::Api *api = &api_;
    add(
        bench, op, check,
        [ours] {
          auto v = ours();
          keep(v);
        },
        [theirs, api] {
          tb::Raw raw;
          theirs(&raw);
          if (raw.bytes[tb::kOptionalFlag])
            api->dtor(&raw);
        });
  }

  void printBoth(const LinearLayout *ours, const void *theirs) {
    say("    ours:   " + (ours ? ours->toString() : std::string("(none)")) + "\n");
    if (api_.toString) {
      std::string s = tritonString(theirs);
      say("    Triton: " + s + "\n");
      if (ours)
        say(std::string("    the two texts are ") +
            (s == ours->toString() ? "equal" : "different") + "\n");
    }
  }

  std::string tritonString(const void *layout) {
    if (!api_.toString)
      return "(no toString)";
    alignas(std::string) unsigned char buf[sizeof(std::string)];
    step("Triton toString");
    api_.toString(reinterpret_cast<std::string *>(buf), layout);
    auto *s = std::launder(reinterpret_cast<std::string *>(buf));
    std::string copy = *s;
    s->~basic_string();
    return copy;
  }

private:
  tb::Api &api_;
  std::deque<std::unique_ptr<tb::Layout>> kept_;
  bool printedOne_ = false;
};

LinearLayout must(Expected<LinearLayout> l, const char *what) {
  if (!l.ok()) {
    say(std::string("side-by-side: building ") + what + " failed: " + l.message() + "\n");
    std::abort();
  }
  return *l;
}

std::vector<DimSize> sizes16(std::initializer_list<const char *> names, int bits) {
  std::vector<DimSize> r;
  for (const char *n : names)
    r.push_back({DimName::get(n), uint64_t(1) << bits});
  return r;
}

// Triton sizes dims with int32: the 64-bit cases keep their packed matrices but split each
// 32-bit out (or in) dim into two of 16 bits.
LinearLayout dense64Split(uint64_t seed) {
  return must(dense64(seed).reshapeOuts(sizes16({"dim0", "dim1", "dim2", "dim3"}, 16)),
              "dense64 split");
}
LinearLayout dense64SharedSplit(uint64_t seed) {
  LinearLayout l =
      must(dense64Shared(seed).reshapeIns(sizes16({"dim0", "dim1", "dim2", "dim3"}, 16)),
           "dense64Shared split ins");
  return must(l.reshapeOuts(sizes16({"x", "y", "z", "w"}, 16)), "dense64Shared split outs");
}

// p is a right pseudo-inverse of l when l(p(y)) == y for every y.
std::function<std::string(const LinearLayout &)> rightInverseOf(const LinearLayout &l) {
  return [l](const LinearLayout &p) -> std::string {
    auto c = p.then(l);
    if (!c.ok())
      return "p.then(L) fails: " + c.message();
    bool identity = c->totalInBits() == c->totalOutBits() && c->numInDims() == c->numOutDims();
    for (int i = 0; identity && i < c->numInDims(); ++i)
      identity = c->inDimName(i) == c->outDimName(i);
    for (int k = 0; identity && k < c->totalInBits(); ++k)
      identity = c->column(k) == uint64_t(1) << k;
    return identity ? "" : "L(p(y)) != y";
  };
}

// c answers a.invertAndCompose(b) when b(c(x)) == a(x) for every x.
std::function<std::string(const LinearLayout &)> factorOf(const LinearLayout &a,
                                                          const LinearLayout &b) {
  return [a, b](const LinearLayout &c) -> std::string {
    auto x = c.then(b);
    if (!x.ok())
      return "c.then(b) fails: " + x.message();
    std::string d = tb::compareViews(viewOf(*x), viewOf(a));
    return d.empty() || d.rfind("order: ", 0) == 0 ? "" : "b(c(x)) != a(x): " + d;
  };
}

void buildCases(SideBySide &s, tb::Api &api) {
  const tb::Api *A = &api;
  LinearLayout blocked = blocked128(), mma = mma128(), bcast = broadcast128(),
               shared = swizzledShared128();
  const void *tBlocked = s.T(blocked), *tMma = s.T(mma), *tBcast = s.T(bcast),
             *tShared = s.T(shared);

  s.layoutOp(
      "BM_Then_14bit", "compose (then)", A->compose,
      [blocked, shared] { return blocked.then(shared); },
      [A, tBlocked, tShared](void *r) { A->compose(r, tBlocked, tShared); });
  {
    LinearLayout a = dense64Split(1), b = dense64SharedSplit(2);
    const void *ta = s.T(a), *tb2 = s.T(b);
    s.layoutOp(
        "BM_Then_64bit", "compose (then)", A->compose, [a, b] { return a.then(b); },
        [A, ta, tb2](void *r) { A->compose(r, ta, tb2); }, "out dims split to 16 bits");
  }
  s.layoutOp(
      "BM_Invert_14bit", "invert", A->invert, [mma] { return mma.invert(); },
      [A, tMma](void *r) { A->invert(r, tMma); });
  {
    LinearLayout l = dense64Split(3);
    const void *t = s.T(l);
    s.layoutOp(
        "BM_Invert_64bit", "invert", A->invert, [l] { return l.invert(); },
        [A, t](void *r) { A->invert(r, t); }, "out dims split to 16 bits");
  }
  {
    // Triton solves on one 64-bit word per row holding both matrices, so 32 bits is its widest
    // inverse (at 64 bits it asserts: "duplicate pivot").
    LinearLayout l = dense32(3);
    const void *t = s.T(l);
    s.layoutOp(
        "BM_Invert_32bit", "invert", A->invert, [l] { return l.invert(); },
        [A, t](void *r) { A->invert(r, t); }, "Triton's widest inverse");
  }
  s.layoutOp(
      "BM_PseudoInvert_16to14bit", "pseudoinvert", A->pseudoinvert,
      [bcast] { return bcast.pseudoInvert(); },
      [A, tBcast](void *r) { A->pseudoinvert(r, tBcast); }, "", rightInverseOf(bcast));
  s.layoutOp(
      "BM_InvertAndCompose_14bit", "invertAndCompose", A->invertAndCompose,
      [blocked, mma] { return blocked.invertAndCompose(mma); },
      [A, tBlocked, tMma](void *r) { A->invertAndCompose(r, tBlocked, tMma); }, "",
      factorOf(blocked, mma));
  {
    LinearLayout b = must(mma.resizeInDim(DimName::warp(), 8), "mma warp 8");
    b = must(b.resizeInDim(DimName::block(), 2), "mma block 2");
    const void *tb2 = s.T(b);
    s.layoutOp(
        "BM_InvertAndCompose_Broadcast16bit", "invertAndCompose", A->invertAndCompose,
        [bcast, b] { return bcast.invertAndCompose(b); },
        [A, tBcast, tb2](void *r) { A->invertAndCompose(r, tBcast, tb2); }, "", factorOf(bcast, b));
  }
  {
    LinearLayout a = dense32(4), b = dense32(5);
    const void *ta = s.T(a), *tb2 = s.T(b);
    s.layoutOp(
        "BM_InvertAndCompose_32bit", "invertAndCompose", A->invertAndCompose,
        [a, b] { return a.invertAndCompose(b); },
        [A, ta, tb2](void *r) { A->invertAndCompose(r, ta, tb2); }, "Triton's widest inverse",
        factorOf(a, b));
  }
  {
    LinearLayout a = dense64Split(4), b = dense64Split(5);
    const void *ta = s.T(a), *tb2 = s.T(b);
    s.layoutOp(
        "BM_InvertAndCompose_64bit", "invertAndCompose", A->invertAndCompose,
        [a, b] { return a.invertAndCompose(b); },
        [A, ta, tb2](void *r) { A->invertAndCompose(r, ta, tb2); }, "out dims split to 16 bits",
        factorOf(a, b));
  }

  // Products: Triton's operator* takes both layouts by value, so a caller with two named
  // layouts pays two copies; the harness makes them with Triton's copy constructor.
  LinearLayout inner = mustBuild({{DimName::reg(), {{0, 1}, {0, 2}}},
                                  {DimName::lane(), {{0, 4}, {0, 8}, {0, 16}, {1, 0}, {2, 0}}}},
                                 {{DimName::dim(0), 4}, {DimName::dim(1), 32}});
  LinearLayout outer = mustBuild({{DimName::reg(), {{0, 1}, {0, 2}, {1, 0}, {2, 0}, {4, 0}}},
                                  {DimName::warp(), {{8, 0}, {16, 0}}}},
                                 {{DimName::dim(0), 32}, {DimName::dim(1), 4}});
  auto productOp = [&](const std::string &bench, const LinearLayout &in, const LinearLayout &out,
                       const std::string &note) {
    const void *ti = s.T(in), *to = s.T(out);
    s.layoutOp(
        bench, "product (operator*)", A->product && A->copyCtor,
        [in, out] { return LinearLayout::product(in, out); },
        [A, ti, to](void *r) {
          tb::Raw a, b;
          A->copyCtor(&a, ti);
          A->copyCtor(&b, to);
          A->product(r, &a, &b);
          A->dtor(&a);
          A->dtor(&b);
        },
        note);
  };
  productOp("BM_Product_14bit", inner, outer, "");
  {
    LinearLayout a = dense64(6), b = dense64(7);
    std::vector<InDimBases> ib = a.bases(), ob = b.bases();
    std::vector<InDimBases> innerBases = {ib[0], ib[1]}, outerBases = {ob[2], ob[3]};
    for (auto *v : {&innerBases, &outerBases})
      for (auto &d : *v)
        for (auto &basis : d.bases)
          basis = {basis[0] & 0xffff, basis[1] & 0xffff};
    auto quarters = sizes16({"dim0", "dim1", "dim2", "dim3"}, 8);
    LinearLayout in =
        must(mustBuild(innerBases, {{DimName::dim(0), 1 << 16}, {DimName::dim(1), 1 << 16}})
                 .reshapeOuts(quarters),
             "product inner");
    LinearLayout out =
        must(mustBuild(outerBases, {{DimName::dim(0), 1 << 16}, {DimName::dim(1), 1 << 16}})
                 .reshapeOuts(quarters),
             "product outer");
    productOp("BM_Product_64bit", in, out, "4 out dims of 8+8 bits (Triton: int32 sizes)");
  }

  // Free-variable masks: per in dim, compared by name.
  auto masksOp = [&](const std::string &bench, const LinearLayout &l, const std::string &note) {
    if (!A->freeVariableMasks)
      return s.skip(bench, "freeVariableMasks", "Triton's symbol is not in libtriton.so");
    const void *t = s.T(l);
    step(bench + ": getFreeVariableMasks");
    if (!survives([&] {
          tb::Raw r;
          A->freeVariableMasks(&r, t);
          A->freeMasksResult(r);
        }))
      return s.skip(bench, "freeVariableMasks", "Triton's call failed in a child process");
    tb::Raw r;
    A->freeVariableMasks(&r, t);
    std::string check = "same";
    auto mine = l.freeVariableMasks();
    const unsigned char *begin;
    uint32_t n;
    std::memcpy(&begin, r.bytes + 0x20, 8);
    std::memcpy(&n, r.bytes + 0x28, 4);
    if (n != mine.size())
      check = "DIFFERENT: " + std::to_string(n) + " masks from Triton, " +
              std::to_string(mine.size()) + " from ours" + tb::hexDump(&r, 0x30);
    for (uint32_t i = 0; i < n && check == "same"; ++i) {
      tb::Attr a;
      int32_t mask;
      std::memcpy(&a, begin + 16 * i, 8);
      std::memcpy(&mask, begin + 16 * i + 8, 4);
      std::string name = A->name(a);
      bool found = false;
      for (const DimMask &m : mine)
        if (m.name.str() == name) {
          found = true;
          if (uint64_t(uint32_t(mask)) != m.mask)
            check = "DIFFERENT: mask of " + name + " " + std::to_string(mask) + " vs ours " +
                    std::to_string(m.mask);
        }
      if (!found)
        check = "DIFFERENT: Triton has a mask for " + name + ", ours not";
    }
    A->freeMasksResult(r);
    s.add(
        bench, "freeVariableMasks", check,
        [l] {
          auto v = l.freeVariableMasks();
          keep(v);
        },
        [A, t] {
          tb::Raw raw;
          A->freeVariableMasks(&raw, t);
          A->freeMasksResult(raw);
        },
        note);
  };
  masksOp("BM_FreeVariableMasks_16bit", bcast, "");
  masksOp("BM_FreeVariableMasks_64bit", dense64Split(8), "out dims split to 16 bits");

  // fromBases: ours from InDimBases, Triton's constructor from its own argument types, both
  // prepared outside the timing.
  auto fromBasesOp = [&](const std::string &bench, const LinearLayout &l, const std::string &note) {
    std::vector<InDimBases> bases = l.bases();
    std::vector<DimSize> outs = l.outDims();
    auto tBases = std::make_shared<std::vector<tb::BasesEntry>>(s.tritonBases(l));
    auto tOuts = std::make_shared<std::vector<tb::DimEntry>>(s.tritonOuts(l));
    s.layoutOp(
        bench, "fromBases (constructor)", true,
        [bases, outs] { return LinearLayout::fromBases(bases, outs); },
        [A, tBases, tOuts](void *r) {
          A->ctorFromBases(r, {tBases->data(), tBases->size()}, {tOuts->data(), tOuts->size()},
                           false);
        },
        note);
  };
  fromBasesOp("BM_FromBases_14bit", blocked, "");
  fromBasesOp("BM_FromBases_64bit", dense64Split(9), "out dims split to 16 bits");

  {
    LinearLayout prod = must(LinearLayout::product(inner, outer), "product");
    const void *tProd = s.T(prod), *tInner = s.T(inner);
    s.optionalOp(
        "BM_DivideLeft_14bit", "divideLeft", A->divideLeft,
        [prod, inner] { return prod.divideLeft(inner); },
        [A, tProd, tInner](void *r) { A->divideLeft(r, tProd, tInner); });
  }
  {
    std::vector<DimName> ins{DimName::reg(), DimName::lane()}, outs{DimName::dim(1)};
    auto tIns = std::make_shared<std::vector<tb::Attr>>(s.attrs({DimName::reg(), DimName::lane()}));
    auto tOuts = std::make_shared<std::vector<tb::Attr>>(s.attrs({DimName::dim(1)}));
    s.layoutOp(
        "BM_Sublayout_14bit", "sublayout", A->sublayout,
        [blocked, ins, outs] { return blocked.sublayout(ins, outs); },
        [A, tBlocked, tIns, tOuts](void *r) {
          A->sublayout(r, tBlocked, {tIns->data(), tIns->size()}, {tOuts->data(), tOuts->size()});
        });
  }

  // apply by names: Triton wants every in dim named, so both get the same four values.
  if (!A->apply) {
    s.skip("BM_ApplyNamed_14bit", "apply by names", "Triton's symbol is not in libtriton.so");
  } else {
    std::vector<DimValue> in{
        {DimName::reg(), 3}, {DimName::lane(), 17}, {DimName::warp(), 2}, {DimName::block(), 0}};
    auto tIn = std::make_shared<std::vector<tb::DimEntry>>();
    for (const DimValue &v : in)
      tIn->emplace_back(api.attr(std::string(v.name.str())), int(v.value));
    step("BM_ApplyNamed_14bit: apply");
    bool ok = survives([&] {
      tb::Raw r;
      A->apply(&r, tBlocked, {tIn->data(), tIn->size()});
      tb::Api::freeApplyResult(r);
    });
    if (!ok)
      return s.skip("BM_ApplyNamed_14bit", "apply by names", "Triton's call failed in a child");
    tb::Raw r;
    A->apply(&r, tBlocked, {tIn->data(), tIn->size()});
    auto mine = blocked.apply(in);
    const unsigned char *begin;
    uint32_t n;
    std::memcpy(&begin, r.bytes, 8);
    std::memcpy(&n, r.bytes + 8, 4);
    std::string check = "same";
    if (!mine.ok() || n != mine->size()) {
      check = "DIFFERENT: " + std::to_string(n) + " values from Triton" + tb::hexDump(&r, 64);
    } else {
      for (uint32_t i = 0; i < n; ++i) {
        tb::Attr a;
        int32_t value;
        std::memcpy(&a, begin + 16 * i, 8);
        std::memcpy(&value, begin + 16 * i + 8, 4);
        std::string name = A->name(a);
        bool ok = false;
        for (const DimValue &v : *mine)
          ok |= v.name.str() == name && v.value == uint64_t(value);
        if (!ok)
          check = "DIFFERENT: " + name + "=" + std::to_string(value) + " not in ours";
      }
    }
    tb::Api::freeApplyResult(r);
    s.add(
        "BM_ApplyNamed_14bit", "apply by names", check,
        [blocked, in] {
          auto v = blocked.apply(in);
          keep(v);
        },
        [A, tBlocked, tIn] {
          tb::Raw raw;
          A->apply(&raw, tBlocked, {tIn->data(), tIn->size()});
          tb::Api::freeApplyResult(raw);
        },
        "all four in dims named");
  }

  // The structural ops issue 43 names: reshapes, transposes, quotient.
  {
    auto ins = std::make_shared<std::vector<DimSize>>(std::vector<DimSize>{
        {DimName::reg(), 1 << 4}, {DimName::lane(), 1 << 5}, {DimName::warp(), 1 << 5}});
    auto tIns = std::make_shared<std::vector<tb::DimEntry>>(s.dims(*ins));
    s.layoutOp(
        "BM_ReshapeIns_14bit", "reshapeIns", A->reshapeIns,
        [blocked, ins] { return blocked.reshapeIns(*ins); },
        [A, tBlocked, tIns](void *r) { A->reshapeIns(r, tBlocked, {tIns->data(), tIns->size()}); },
        "register 7, lane 5, warp 2 bits -> 4, 5, 5");
    auto outs = std::make_shared<std::vector<DimSize>>(
        std::vector<DimSize>{{DimName::dim(0), 1 << 4}, {DimName::dim(1), 1 << 10}});
    auto tOuts = std::make_shared<std::vector<tb::DimEntry>>(s.dims(*outs));
    s.layoutOp(
        "BM_ReshapeOuts_14bit", "reshapeOuts", A->reshapeOuts,
        [blocked, outs] { return blocked.reshapeOuts(*outs); },
        [A, tBlocked, tOuts](void *r) {
          A->reshapeOuts(r, tBlocked, {tOuts->data(), tOuts->size()});
        },
        "dim0 7, dim1 7 bits -> 4, 10");
  }
  {
    std::vector<DimName> order{DimName::lane(), DimName::reg(), DimName::block(), DimName::warp()};
    auto tOrder = std::make_shared<std::vector<tb::Attr>>(
        s.attrs({DimName::lane(), DimName::reg(), DimName::block(), DimName::warp()}));
    s.layoutOp(
        "BM_TransposeIns_14bit", "transposeIns", A->transposeIns,
        [blocked, order] { return blocked.transposeIns(order); },
        [A, tBlocked, tOrder](void *r) {
          A->transposeIns(r, tBlocked, {tOrder->data(), tOrder->size()});
        });
    std::vector<DimName> outOrder{DimName::dim(1), DimName::dim(0)};
    auto tOutOrder =
        std::make_shared<std::vector<tb::Attr>>(s.attrs({DimName::dim(1), DimName::dim(0)}));
    s.layoutOp(
        "BM_TransposeOuts_14bit", "transposeOuts", A->transposeOuts,
        [blocked, outOrder] { return blocked.transposeOuts(outOrder); },
        [A, tBlocked, tOutOrder](void *r) {
          A->transposeOuts(r, tBlocked, {tOutOrder->data(), tOutOrder->size()});
        });
  }
  {
    LinearLayout l = blocked128PerCta();
    const void *t = s.T(l);
    std::vector<DimName> dims{DimName::block()};
    auto tDims = std::make_shared<std::vector<tb::Attr>>(s.attrs({DimName::block()}));
    s.optionalOp(
        "BM_Quotient_15bit", "quotient", A->quotient, [l, dims] { return l.quotient(dims); },
        [A, t, tDims](void *r) { A->quotient(r, t, {tDims->data(), tDims->size()}); });
  }
}

std::string fmt(double v) {
  char b[32];
  std::snprintf(b, sizeof b, v >= 100 ? "%.0f" : "%.1f", v);
  return b;
}

std::string jsonEscape(const std::string &s) {
  std::string r;
  for (char c : s) {
    if (c == '"' || c == '\\')
      r += '\\';
    if (c == '\n') {
      r += "\\n";
      continue;
    }
    r += c;
  }
  return r;
}

// The checks that must pass before any timing: that the symbols, the load bias, the Twine and
// the object layout guessed from the disassembly are right.
bool selfCheck(const std::string &path, tb::ElfSymbols &syms, tb::Api &api) {
  bool ok = true;
  void *h = dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD);
  void *exported = h ? dlsym(h, "PyInit_libtriton") : nullptr;
  uintptr_t viaTable = syms.address("PyInit_libtriton");
  say("selfcheck: dlsym(PyInit_libtriton) " + std::to_string(uintptr_t(exported)) +
      " vs .symtab + bias " + std::to_string(viaTable) +
      (exported && uintptr_t(exported) == viaTable ? ": ok\n" : ": MISMATCH\n"));
  ok &= exported && uintptr_t(exported) == viaTable;
  bool code = syms.codeMatchesFile("_ZN4mlir6triton12LinearLayoutD2Ev", 32) ||
              syms.codeMatchesFile("_ZN4mlir6triton12LinearLayoutD1Ev", 32);
  say(std::string("selfcheck: ~LinearLayout's code in memory equals the file's: ") +
      (code ? "ok\n" : "NO\n"));
  ok &= code;
  if (!ok)
    return false;
  step("MLIRContext and StringAttr::get");
  std::string error;
  if (!api.makeContext(error)) {
    say("selfcheck: " + error + "\n");
    return false;
  }
  say("selfcheck: StringAttr::get(\"register\") reads back as 'register': ok\n");
  return true;
}

bool layoutCheck(SideBySide &s, tb::Api &api) {
  LinearLayout blocked = blocked128();
  const void *t = s.T(blocked);
  tb::View v;
  std::string error;
  say("selfcheck: Triton's blocked128 object:" + tb::hexDump(t, 0x68) + "\n");
  if (!tb::readView(api, t, v, error)) {
    say("selfcheck: reading it: " + error + "\n");
    return false;
  }
  std::string diff = tb::compareViews(viewOf(blocked), v);
  say("selfcheck: its bases and out dims read back " + (diff.empty() ? "equal" : "as: " + diff) +
      "; rank " + std::to_string(v.rank) + " (expected 14)\n");
  s.printBoth(&blocked, t);
  if (!diff.empty() || v.rank != 14)
    return false;
  step("Triton copy constructor");
  tb::Raw c;
  api.copyCtor(&c, t);
  tb::View cv;
  bool copied = tb::readView(api, &c, cv, error) && tb::compareViews(viewOf(blocked), cv).empty();
  api.dtor(&c);
  say(std::string("selfcheck: a copy reads back equal and is destroyed: ") +
      (copied ? "ok\n" : "NO\n"));
  return copied;
}

} // namespace

/// Runs the side-by-side; `libtriton` is the path of the loaded libtriton.so. Writes the JSON to
/// `jsonPath` (if not empty). Answers 0 when all ran and agreed, 1 when a self-check failed
/// (nothing timed), 2 when some op's answers differ.
extern "C" __attribute__((visibility("default"))) int
linlayout_triton_side_by_side(const char *libtriton, const char *jsonPath, int passes, int rounds,
                              double batchUs) {
  signal(SIGSEGV, onCrash);
  signal(SIGABRT, onCrash);
  std::string path = libtriton;
  step("reading libtriton.so's .symtab");
  std::string error;
  auto syms = tb::ElfSymbols::load(path, error);
  if (!syms) {
    say("side-by-side: " + error + "\n");
    return 1;
  }
  char line[256];
  std::snprintf(line, sizeof line, "libtriton: %s loaded at bias 0x%lx, %zu C++ symbols\n",
                syms->loadedPath().c_str(), (unsigned long)syms->loadBias(), syms->symbolCount());
  say(line);
  std::string log;
  auto api = tb::Api::resolve(*syms, log);
  say("symbols:\n" + log);
  if (!api) {
    say("side-by-side: a symbol needed to build layouts is missing\n");
    return 1;
  }
  if (!selfCheck(path, *syms, *api))
    return 1;
  SideBySide s(*api);
  if (!layoutCheck(s, *api))
    return 1;

  say("checks (the same inputs to both libraries, answers compared by dim names):\n");
  buildCases(s, *api);

  say("timing: " + std::to_string(passes) + " passes x " + std::to_string(rounds) +
      " rounds, batches of ~" + fmt(batchUs) + " us, the two sides alternating\n");
  step("calibrating");
  for (Case &c : s.cases)
    if (c.ours) {
      c.nOurs = calibrate(*c.ours, batchUs * 1000);
      c.nTriton = calibrate(*c.triton, batchUs * 1000);
    }
  for (int p = 0; p < passes; ++p) {
    for (Case &c : s.cases) {
      if (!c.ours)
        continue;
      step(c.bench.c_str());
      std::vector<double> o, t;
      for (int r = 0; r < rounds; ++r) {
        if (r % 2 == 0) {
          o.push_back(nsPerCall(*c.ours, c.nOurs));
          t.push_back(nsPerCall(*c.triton, c.nTriton));
        } else {
          t.push_back(nsPerCall(*c.triton, c.nTriton));
          o.push_back(nsPerCall(*c.ours, c.nOurs));
        }
      }
      c.oursPass.push_back(median(o));
      c.tritonPass.push_back(median(t));
    }
    say("  pass " + std::to_string(p + 1) + " done\n");
  }

  say("\n| benchmark | op | ours ns | Triton ns | Triton / ours | passes' ratios | answers |\n"
      "|---|---|---:|---:|---:|---|---|\n");
  std::string json = "{\"passes\": " + std::to_string(passes) +
                     ", \"rounds\": " + std::to_string(rounds) + ", \"batch_us\": " + fmt(batchUs) +
                     ", \"cases\": [";
  bool first = true;
  for (Case &c : s.cases) {
    std::string row = "| " + c.bench + " | " + c.op + " | ";
    if (!c.ours) {
      say(row + " |  |  |  | " + c.check + " |\n");
      continue;
    }
    double o = median(c.oursPass), t = median(c.tritonPass);
    std::string spread;
    for (size_t p = 0; p < c.oursPass.size(); ++p)
      spread += (p ? " " : "") + fmt(c.tritonPass[p] / c.oursPass[p]);
    say(row + fmt(o) + " | " + fmt(t) + " | " + fmt(t / o) + "x | " + spread + " | " + c.check +
        (c.note.empty() ? "" : "; " + c.note) + " |\n");
    json += std::string(first ? "" : ",") + "\n  {\"bench\": \"" + c.bench + "\", \"op\": \"" +
            jsonEscape(c.op) + "\", \"ours_ns\": " + std::to_string(o) +
            ", \"triton_ns\": " + std::to_string(t) + ", \"ratio\": " + std::to_string(t / o) +
            ", \"ours_pass_ns\": [";
    for (size_t p = 0; p < c.oursPass.size(); ++p)
      json += (p ? ", " : "") + std::to_string(c.oursPass[p]);
    json += "], \"triton_pass_ns\": [";
    for (size_t p = 0; p < c.tritonPass.size(); ++p)
      json += (p ? ", " : "") + std::to_string(c.tritonPass[p]);
    json += "], \"calls_per_batch\": [" + std::to_string(c.nOurs) + ", " +
            std::to_string(c.nTriton) + "], \"check\": \"" + jsonEscape(c.check) +
            "\", \"note\": \"" + jsonEscape(c.note) + "\"}";
    first = false;
  }
  json += "\n]}\n";
  if (jsonPath && *jsonPath) {
    if (FILE *f = std::fopen(jsonPath, "w")) {
      std::fputs(json.c_str(), f);
      std::fclose(f);
    }
  }
  step("done");
  return s.differences ? 2 : 0;
}

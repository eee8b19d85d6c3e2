// Calls Triton's compiled mlir::triton::LinearLayout (libtriton.so, Triton 3.6) through the
// Itanium x86-64 C++ ABI, without its headers.
//
// How a call looks from here:
//  - a method is a function whose first argument is `this`; one that returns a class with a
//    non-trivial destructor (LinearLayout, std::optional of it, std::string, SmallVector,
//    MapVector) takes a hidden first argument before `this`: where to build the result (sret);
//  - llvm::ArrayRef<T> goes by value as {pointer, length} (two registers); mlir::StringAttr is
//    one pointer; llvm::Twine is passed by address and built here for one C string;
//  - a LinearLayout passed by value (operator*) is a copy made by the caller, who passes its
//    address and destroys it after the call.
// Field offsets of the objects read here come from the disassembly of Triton 3.6's move
// constructor and destructor: bases at 0x20 and out dims at 0x50 (each a SmallVector
// {begin, size}, 32- and 16-byte entries), the rank at 0x60; sizeof(LinearLayout) is 0x68 and
// std::optional's flag follows it. The harness checks them on a layout it built before timing.
#pragma once

#include "ElfSymbols.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace linlayout::bench::triton {

/// mlir::StringAttr: a pointer to its uniqued storage.
struct Attr {
  const void *impl = nullptr;
};
/// llvm::ArrayRef<T>.
template <typename T> struct Ref {
  const T *data;
  size_t size;
};
/// llvm::StringRef, as StringAttr::getValue returns it (in two registers).
struct Str {
  const char *data;
  size_t size;
};

using BasesEntry = std::pair<Attr, std::vector<std::vector<int>>>;
using DimEntry = std::pair<Attr, int>;

/// Storage for one result object: larger and more aligned than any Triton object built here.
struct alignas(16) Raw {
  unsigned char bytes[256];
};

inline constexpr size_t kLayoutSize = 0x68;
inline constexpr size_t kOptionalFlag = kLayoutSize;

/// Triton's functions, resolved by mangled name. A null pointer is a symbol that is missing.
struct Api {
  void (*contextCtor)(void *self, int threading) = nullptr;
  Attr (*stringAttrGet)(void *context, const void *twine) = nullptr;
  Str (*stringAttrValue)(const Attr *self) = nullptr;

  void (*ctorFromBases)(void *self, Ref<BasesEntry> bases, Ref<DimEntry> outDims,
                        bool requireSurjective) = nullptr;
  void (*copyCtor)(void *self, const void *other) = nullptr;
  void (*dtor)(void *self) = nullptr;
  void (*toString)(std::string *sret, const void *self) = nullptr;

  void (*compose)(void *sret, const void *self, const void *outer) = nullptr;
  void (*invertAndCompose)(void *sret, const void *self, const void *outer) = nullptr;
  void (*invert)(void *sret, const void *self) = nullptr;
  void (*pseudoinvert)(void *sret, const void *self) = nullptr;
  void (*product)(void *sret, void *innerCopy, void *outerCopy) = nullptr;
  void (*divideLeft)(void *sretOptional, const void *a, const void *b) = nullptr;
  void (*sublayout)(void *sret, const void *self, Ref<Attr> ins, Ref<Attr> outs) = nullptr;
  void (*quotient)(void *sretOptional, const void *self, Ref<Attr> dims) = nullptr;
  void (*reshapeIns)(void *sret, const void *self, Ref<DimEntry> dims) = nullptr;
  void (*reshapeOuts)(void *sret, const void *self, Ref<DimEntry> dims) = nullptr;
  void (*transposeIns)(void *sret, const void *self, Ref<Attr> order) = nullptr;
  void (*transposeOuts)(void *sret, const void *self, Ref<Attr> order) = nullptr;
  void (*apply)(void *sretSmallVector, const void *self, Ref<DimEntry> ins) = nullptr;
  void (*freeVariableMasks)(void *sretMapVector, const void *self) = nullptr;
  void (*deallocateBuffer)(void *p, size_t size, size_t align) = nullptr;

  /// Looks every function up; `log` gets one line per symbol (address, or MISSING). Fails when
  /// one of those needed to build and free a layout is missing.
  static std::unique_ptr<Api> resolve(const ElfSymbols &symbols, std::string &log);

  /// An MLIRContext of our own (threading off) for the dimension names; never destroyed.
  bool makeContext(std::string &error);
  /// The StringAttr of `name` in our context (cached).
  Attr attr(const std::string &name);
  std::string name(Attr a) const;

  /// Frees apply's SmallVector<pair<StringAttr, int>> result.
  static void freeApplyResult(Raw &r);
  /// Frees getFreeVariableMasks' MapVector<StringAttr, int> result.
  void freeMasksResult(Raw &r) const;

private:
  void *context_ = nullptr;
  std::map<std::string, Attr> attrs_;
};

/// A Triton LinearLayout on the heap, destroyed by Triton's destructor.
class Layout {
public:
  Layout(const Api &api) : api_(&api), raw_(new Raw) {}
  Layout(const Layout &) = delete;
  Layout &operator=(const Layout &) = delete;
  ~Layout() {
    if (built_)
      api_->dtor(raw_.get());
  }
  void *get() { return raw_.get(); }
  const void *get() const { return raw_.get(); }
  /// Marks the storage as holding a layout (to be destroyed).
  void built() { built_ = true; }

private:
  const Api *api_;
  std::unique_ptr<Raw> raw_;
  bool built_ = false;
};

/// A layout's content by names, read the same way from either library for comparisons.
struct View {
  std::vector<std::string> inNames;
  std::vector<std::vector<std::vector<int64_t>>> bases; // [in dim][basis][out dim]
  std::vector<std::string> outNames;
  std::vector<int64_t> outSizes;
  int rank = -1; // Triton's only
};

/// Reads a Triton LinearLayout's bases and out dims (fails on implausible fields).
bool readView(const Api &api, const void *layout, View &out, std::string &error);

/// "" when equal; otherwise what differs. Dims are matched by name; a dim of size 1 that only one
/// side has is ignored; a different order only is reported with the prefix "order: ".
std::string compareViews(const View &ours, const View &theirs);

std::string hexDump(const void *p, size_t n);

} // namespace linlayout::bench::triton

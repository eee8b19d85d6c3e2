// A function of the tile IR (`tt.func`): its body block (whose arguments are the function's
// arguments), per-argument hints, and the table of every value it defines. A value id indexes
// `values`; its type and its name hint (kept from the text for printing) live there.
#pragma once

#include "linlayout/ir/Op.h"
#include "linlayout/ir/Type.h"

#include <cassert>
#include <cstdint>
#include <string>
#include <vector>

namespace linlayout::ir {

/// What the caller promises about an integer or pointer argument (Triton's `tt.divisibility`,
/// `tt.contiguity`, `tt.constancy`); 1 promises nothing. Divisibility of a pointer is in bytes.
struct ArgHints {
  int64_t divisibility = 1;
  int64_t contiguity = 1;
  int64_t constancy = 1;
  friend bool operator==(const ArgHints &, const ArgHints &) = default;
};

/// The type of a value and the name the text gave it ("" when none).
struct ValueInfo {
  Type type;
  std::string name;
};

/// A function: `tt.func [public] @name(args) { body }`.
struct Function {
  std::string name;
  bool isPublic = true;
  Loc loc;
  /// The body; body.args are the function's arguments.
  Block body;
  /// One entry per argument.
  std::vector<ArgHints> argHints;
  std::vector<ValueInfo> values;

  /// Adds a value of type `t`. Ensures: type(result) == t.
  ValueId addValue(Type t, std::string nameHint = {}) {
    values.push_back(ValueInfo{std::move(t), std::move(nameHint)});
    return ValueId(values.size() - 1);
  }
  /// Requires: v < values.size() (asserts).
  const Type &type(ValueId v) const {
    assert(v < values.size() && "value id out of range");
    return values[v].type;
  }
  bool isValid(ValueId v) const { return v < values.size(); }
};

} // namespace linlayout::ir

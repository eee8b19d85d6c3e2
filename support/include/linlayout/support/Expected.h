// Error values for caller mistakes (the library never throws across its API or aborts on bad
// input). `Expected<T>` holds either a T or an `Error` whose message starts lower-case, has no
// final period, and names the offending values.
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace linlayout {

/// A caller mistake, described for a person.
struct Error {
  std::string message;
};

/// Builds an `Error` from a message.
inline Error makeError(std::string message) { return Error{std::move(message)}; }

/// Either a value or the `Error` that prevented it.
/// Ensures: exactly one of `ok()` and `!ok()` holds; `value()` is only read when `ok()`.
template <typename T> class [[nodiscard]] Expected {
public:
  Expected(T value) : v_(std::move(value)) {}
  Expected(Error error) : v_(std::move(error)) {}
  /// A value built in place: a function can fill it and return it by name with no copy of T.
  template <typename... Args>
  explicit Expected(std::in_place_t, Args &&...args)
      : v_(std::in_place_index<0>, std::forward<Args>(args)...) {}

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  /// The value. Requires: ok() (reading the value of an error is our bug, so it asserts).
  /// Read through get_if: the assert is the check, and release builds skip std::get's throw path.
  const T &value() const & {
    assert(ok() && "value() of an Expected holding an error");
    return *std::get_if<0>(&v_);
  }
  T &value() & {
    assert(ok() && "value() of an Expected holding an error");
    return *std::get_if<0>(&v_);
  }
  T &&value() && {
    assert(ok() && "value() of an Expected holding an error");
    return std::move(*std::get_if<0>(&v_));
  }
  const T &operator*() const & { return value(); }
  T &operator*() & { return value(); }
  T &&operator*() && { return std::move(*this).value(); }
  const T *operator->() const { return &value(); }
  T *operator->() { return &value(); }

  /// The error. Requires: !ok().
  const Error &error() const {
    assert(!ok() && "error() of an Expected holding a value");
    return *std::get_if<1>(&v_);
  }
  const std::string &message() const { return error().message; }

private:
  std::variant<T, Error> v_;
};

/// `Expected<void>`: success or an error.
class [[nodiscard]] Status {
public:
  Status() = default;
  Status(Error error) : error_(std::move(error)), failed_(true) {}
  static Status success() { return Status(); }

  bool ok() const { return !failed_; }
  explicit operator bool() const { return ok(); }
  const Error &error() const {
    assert(failed_ && "error() of a successful Status");
    return error_;
  }
  const std::string &message() const { return error().message; }

private:
  Error error_;
  bool failed_ = false;
};

} // namespace linlayout

/// Returns the error of an Expected/Status expression from the enclosing function, which must
/// return an Expected or a Status.
#define LL_TRY_STATUS(expr)                                                                        \
  do {                                                                                             \
    auto &&ll_try_status_ = (expr);                                                                \
    if (!ll_try_status_.ok())                                                                      \
      return ll_try_status_.error();                                                               \
  } while (0)

#define LL_CONCAT_INNER(a, b) a##b
#define LL_CONCAT(a, b) LL_CONCAT_INNER(a, b)
/// `LL_ASSIGN_OR_RETURN(auto x, expr)`: binds the value of an Expected or returns its error.
#define LL_ASSIGN_OR_RETURN(decl, expr)                                                            \
  auto LL_CONCAT(ll_tmp_, __LINE__) = (expr);                                                      \
  if (!LL_CONCAT(ll_tmp_, __LINE__).ok())                                                          \
    return LL_CONCAT(ll_tmp_, __LINE__).error();                                                   \
  decl = std::move(LL_CONCAT(ll_tmp_, __LINE__)).value()

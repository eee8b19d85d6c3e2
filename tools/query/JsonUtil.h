// Strict readers for JSON fields: each answers an error naming the field and the value when the
// JSON does not have the expected shape (a string or float where an integer belongs, a negative
// size, ...). Shared by every query op.
#pragma once

#include "linlayout/layout/Expected.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace linlayout::query {

using Json = nlohmann::json;

/// `text` parsed as JSON, or an error that says where and why it is not: "<what> is not valid
/// JSON at line 1, column 24: syntax error while parsing object key - unexpected '}'; expected
/// string literal". The reason is the parser's own, at most about 200 bytes.
Expected<Json> parseJson(std::string_view text, const std::string &what);

/// A short, bounded rendering of a JSON value for error messages.
std::string brief(const Json &j);

/// The member `key` of object `obj`. Requires: obj is an object (checked).
Expected<const Json *> field(const Json &obj, const char *key);
/// Whether obj has member key.
bool hasField(const Json &obj, const char *key);

/// A non-negative integer (up to 2^63-1); `what` names it in errors.
Expected<uint64_t> toUInt(const Json &j, const std::string &what);
/// A signed integer.
Expected<int64_t> toInt(const Json &j, const std::string &what);
Expected<bool> toBool(const Json &j, const std::string &what);
Expected<std::string> toString(const Json &j, const std::string &what);
/// An array of non-negative integers.
Expected<std::vector<uint64_t>> toUIntList(const Json &j, const std::string &what);
/// An array of integers.
Expected<std::vector<int64_t>> toIntList(const Json &j, const std::string &what);
/// An array of arrays of integers.
Expected<std::vector<std::vector<int64_t>>> toIntMatrix(const Json &j, const std::string &what);

} // namespace linlayout::query

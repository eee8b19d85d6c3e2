#include "query/JsonUtil.h"

namespace linlayout::query {

std::string brief(const Json &j) {
  std::string s = j.dump(-1, ' ', false, Json::error_handler_t::replace);
  if (s.size() > 60)
    s = s.substr(0, 57) + "...";
  return s;
}

bool hasField(const Json &obj, const char *key) { return obj.is_object() && obj.contains(key); }

Expected<const Json *> field(const Json &obj, const char *key) {
  if (!obj.is_object())
    return makeError(std::string("expected an object with field '") + key + "', got " +
                     brief(obj));
  auto it = obj.find(key);
  if (it == obj.end())
    return makeError(std::string("missing field '") + key + "'");
  return &*it;
}

Expected<uint64_t> toUInt(const Json &j, const std::string &what) {
  if (j.is_number_unsigned()) {
    uint64_t v = j.get<uint64_t>();
    if (v >> 63)
      return makeError(what + " is " + brief(j) + ", too large");
    return v;
  }
  if (j.is_number_integer())
    return makeError(what + " is " + brief(j) + ", expected a non-negative integer");
  return makeError(what + " is " + brief(j) + ", expected an integer");
}

Expected<int64_t> toInt(const Json &j, const std::string &what) {
  if (j.is_number_unsigned()) {
    uint64_t v = j.get<uint64_t>();
    if (v >> 63)
      return makeError(what + " is " + brief(j) + ", too large");
    return int64_t(v);
  }
  if (j.is_number_integer())
    return j.get<int64_t>();
  return makeError(what + " is " + brief(j) + ", expected an integer");
}

Expected<bool> toBool(const Json &j, const std::string &what) {
  if (!j.is_boolean())
    return makeError(what + " is " + brief(j) + ", expected true or false");
  return j.get<bool>();
}

Expected<std::string> toString(const Json &j, const std::string &what) {
  if (!j.is_string())
    return makeError(what + " is " + brief(j) + ", expected a string");
  return j.get<std::string>();
}

Expected<std::vector<uint64_t>> toUIntList(const Json &j, const std::string &what) {
  if (!j.is_array())
    return makeError(what + " is " + brief(j) + ", expected an array of integers");
  std::vector<uint64_t> r;
  for (size_t i = 0; i < j.size(); ++i) {
    LL_ASSIGN_OR_RETURN(uint64_t v, toUInt(j[i], what + "[" + std::to_string(i) + "]"));
    r.push_back(v);
  }
  return r;
}

Expected<std::vector<int64_t>> toIntList(const Json &j, const std::string &what) {
  if (!j.is_array())
    return makeError(what + " is " + brief(j) + ", expected an array of integers");
  std::vector<int64_t> r;
  for (size_t i = 0; i < j.size(); ++i) {
    LL_ASSIGN_OR_RETURN(int64_t v, toInt(j[i], what + "[" + std::to_string(i) + "]"));
    r.push_back(v);
  }
  return r;
}

Expected<std::vector<std::vector<int64_t>>> toIntMatrix(const Json &j, const std::string &what) {
  if (!j.is_array())
    return makeError(what + " is " + brief(j) + ", expected an array of arrays of integers");
  std::vector<std::vector<int64_t>> r;
  for (size_t i = 0; i < j.size(); ++i) {
    LL_ASSIGN_OR_RETURN(auto row, toIntList(j[i], what + "[" + std::to_string(i) + "]"));
    r.push_back(std::move(row));
  }
  return r;
}

} // namespace linlayout::query

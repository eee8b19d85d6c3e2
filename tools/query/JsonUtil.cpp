#include "query/JsonUtil.h"

namespace linlayout::query {

namespace {

// A SAX consumer that builds nothing and keeps the parser's message for the first error: the
// second pass over text the DOM parser refused, so that the error can say where.
struct ErrorOnly : nlohmann::json_sax<Json> {
  std::string message;
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t &) override { return true; }
  bool string(string_t &) override { return true; }
  bool binary(binary_t &) override { return true; }
  bool start_object(std::size_t) override { return true; }
  bool key(string_t &) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t, const std::string &,
                   const nlohmann::detail::exception &e) override {
    message = e.what();
    return false;
  }
};

} // namespace

Expected<Json> parseJson(std::string_view text, const std::string &what) {
  Json j = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_discarded())
    return j;
  ErrorOnly sax;
  Json::sax_parse(text, &sax);
  // "[json.exception.parse_error.101] parse error at line 1, column 2: syntax error while
  // parsing value - invalid literal; last read: 'x'" becomes "<what> is not valid JSON at line
  // 1, column 2: syntax error while ...", the reason bounded.
  std::string reason = sax.message;
  if (size_t close = reason.find("] "); close != std::string::npos)
    reason = reason.substr(close + 2);
  if (reason.rfind("parse error", 0) == 0)
    reason = reason.substr(11);
  if (reason.size() > 200)
    reason = reason.substr(0, 197) + "...";
  if (!reason.empty() && reason[0] != ' ' && reason[0] != ':')
    reason = ": " + reason;
  return makeError(what + " is not valid JSON" + reason);
}

std::string brief(const Json &j) {
  std::string s = j.dump(-1, ' ', false, Json::error_handler_t::replace);
  if (s.size() > 60)
    s = s.substr(0, 57) + "...";
  return s;
}

bool hasField(const Json &obj, const char *key) { return obj.is_object() && obj.contains(key); }

Expected<const Json *> field(const Json &obj, const char *key) {
  if (!obj.is_object())
    return makeError(std::string("expected an object with field '") + key + "', got " + brief(obj));
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

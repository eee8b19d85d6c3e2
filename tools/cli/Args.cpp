#include "Args.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace linlayout::cli {

std::optional<int64_t> parseCount(std::string_view s, int64_t max) {
  // 18 digits cannot overflow int64_t; the bound then checks the value.
  if (s.empty() || s.size() > 18 || s.find_first_not_of("0123456789") != std::string_view::npos)
    return std::nullopt;
  int64_t v = 0;
  for (char c : s)
    v = v * 10 + (c - '0');
  if (v > max)
    return std::nullopt;
  return v;
}

Expected<std::vector<int64_t>> parseShape(std::string_view s) {
  std::vector<int64_t> shape;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i < s.size() && s[i] != 'x' && s[i] != ',')
      continue;
    std::optional<int64_t> v = parseCount(s.substr(start, i - start), int64_t(1) << 40);
    if (!v || *v == 0)
      return makeError("shape '" + std::string(s) + "' is not of the form 64x64");
    shape.push_back(*v);
    start = i + 1;
  }
  return shape;
}

std::string shapeString(const std::vector<int64_t> &shape) {
  std::string t;
  for (size_t i = 0; i < shape.size(); ++i)
    t += (i ? "x" : "") + std::to_string(shape[i]);
  return t;
}

Expected<std::string> readFile(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  if (!f)
    return makeError("cannot open '" + path + "': " + std::strerror(errno));
  std::ostringstream ss;
  ss << f.rdbuf();
  if (f.bad())
    return makeError("cannot read '" + path + "': " + std::strerror(errno));
  return ss.str();
}

Status writeFile(const std::string &path, std::string_view bytes) {
  std::ofstream f(path, std::ios::binary);
  if (!f || !f.write(bytes.data(), std::streamsize(bytes.size())) || !f.flush())
    return makeError("cannot write '" + path + "': " + std::strerror(errno));
  return Status::success();
}

} // namespace linlayout::cli

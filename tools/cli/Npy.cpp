#include "Npy.h"

#include <cstring>

namespace linlayout::cli {

namespace {

// The value of `key` in the header's Python dict literal, up to the next top-level ',' or '}'.
std::string_view dictValue(std::string_view header, std::string_view key) {
  std::string quoted = "'" + std::string(key) + "'";
  size_t at = header.find(quoted);
  if (at == std::string_view::npos)
    return {};
  size_t colon = header.find(':', at + quoted.size());
  if (colon == std::string_view::npos)
    return {};
  size_t start = header.find_first_not_of(' ', colon + 1);
  if (start == std::string_view::npos)
    return {};
  int depth = 0;
  size_t end = start;
  for (; end < header.size(); ++end) {
    char c = header[end];
    if (c == '(')
      ++depth;
    else if (c == ')')
      --depth;
    else if ((c == ',' || c == '}') && depth == 0)
      break;
  }
  std::string_view v = header.substr(start, end - start);
  while (!v.empty() && v.back() == ' ')
    v.remove_suffix(1);
  return v;
}

int64_t itemBytes(std::string_view descr) {
  if (descr.size() < 3)
    return 0;
  int64_t n = 0;
  for (char c : descr.substr(2)) {
    if (c < '0' || c > '9' || n > 64)
      return 0;
    n = n * 10 + (c - '0');
  }
  return n;
}

} // namespace

Expected<NpyArray> parseNpy(std::string_view bytes) {
  if (bytes.size() < 10 || bytes.substr(0, 6) != "\x93NUMPY")
    return makeError("not a .npy file (no \\x93NUMPY magic)");
  int major = uint8_t(bytes[6]);
  size_t headerLen = 0, headerAt = 0;
  if (major == 1) {
    headerLen = uint8_t(bytes[8]) | size_t(uint8_t(bytes[9])) << 8;
    headerAt = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12)
      return makeError(".npy header is cut short");
    headerLen = 0;
    for (int i = 0; i < 4; ++i)
      headerLen |= size_t(uint8_t(bytes[8 + i])) << (8 * i);
    headerAt = 12;
  } else {
    return makeError(".npy format version " + std::to_string(major) + " is not supported");
  }
  if (headerLen > bytes.size() - headerAt)
    return makeError(".npy header is cut short");
  std::string_view header = bytes.substr(headerAt, headerLen);
  NpyArray a;
  std::string_view descr = dictValue(header, "descr");
  if (descr.size() < 2 || descr.front() != '\'' || descr.back() != '\'')
    return makeError(".npy header has no 'descr'");
  a.descr = std::string(descr.substr(1, descr.size() - 2));
  if (a.descr.size() < 3 || (a.descr[0] != '<' && a.descr[0] != '|'))
    return makeError(".npy dtype '" + a.descr + "' is not little-endian");
  int64_t item = itemBytes(a.descr);
  if (item == 0)
    return makeError(".npy dtype '" + a.descr + "' is not supported");
  if (dictValue(header, "fortran_order") != "False")
    return makeError(".npy array is in Fortran order; save it in C order");
  std::string_view shape = dictValue(header, "shape");
  if (shape.size() < 2 || shape.front() != '(' || shape.back() != ')')
    return makeError(".npy header has no 'shape'");
  int64_t count = 1;
  int64_t v = -1;
  for (char c : shape.substr(1, shape.size() - 2)) {
    if (c >= '0' && c <= '9') {
      v = (v < 0 ? 0 : v) * 10 + (c - '0');
      if (v > (int64_t(1) << 40))
        return makeError(".npy shape is too large");
    } else if (c == ',' || c == ' ') {
      if (v >= 0) {
        a.shape.push_back(v);
        count *= v;
        if (count > (int64_t(1) << 40))
          return makeError(".npy shape is too large");
        v = -1;
      }
    } else {
      return makeError(".npy shape '" + std::string(shape) + "' is not a tuple of sizes");
    }
  }
  if (v >= 0) {
    a.shape.push_back(v);
    count *= v;
  }
  std::string_view data = bytes.substr(headerAt + headerLen);
  if (int64_t(data.size()) != count * item)
    return makeError(".npy data holds " + std::to_string(data.size()) + " bytes, the shape needs " +
                     std::to_string(count * item));
  a.data.assign(data.begin(), data.end());
  return a;
}

std::string formatNpy(const NpyArray &a) {
  std::string shape = "(";
  for (size_t i = 0; i < a.shape.size(); ++i)
    shape +=
        std::to_string(a.shape[i]) + (a.shape.size() == 1 || i + 1 < a.shape.size() ? "," : "");
  shape += ")";
  std::string header =
      "{'descr': '" + a.descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
  // The data starts at a multiple of 64 bytes; the header ends with a newline.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string out = "\x93NUMPY";
  out += char(1);
  out += char(0);
  out += char(header.size() & 0xff);
  out += char(header.size() >> 8);
  out += header;
  out.append(reinterpret_cast<const char *>(a.data.data()), a.data.size());
  return out;
}

} // namespace linlayout::cli

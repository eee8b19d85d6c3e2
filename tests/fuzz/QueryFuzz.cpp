// libFuzzer target for the query engine: any bytes, as one line, get exactly one JSON answer line
// with an id and either a result or an error; nothing crashes, leaks or trips AddressSanitizer.
#include "query/Query.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view line(reinterpret_cast<const char *>(data), size);
  std::string out = linlayout::query::answerLine(line);
  // The answer is one line of JSON with an id and exactly one of result / error.
  if (out.find('\n') != std::string::npos)
    std::abort();
  nlohmann::json j = nlohmann::json::parse(out, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object() || !j.contains("id") ||
      j.contains("result") == j.contains("error"))
    std::abort();
  return 0;
}

// What the subcommands' arguments hold beyond what the parser checks itself: counts, shapes and
// files. Every command reads a count or a shape through these, so "all digits, then a bounded
// conversion" is written once.
#pragma once

#include "linlayout/layout/Expected.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace linlayout::cli {

/// The value of `s` when it is all decimal digits and at most `max`; nullopt otherwise (empty,
/// a sign, a space, too large).
/// Ensures: parseCount(std::to_string(n), max) == n for every 0 <= n <= max.
std::optional<int64_t> parseCount(std::string_view s, int64_t max = (int64_t(1) << 62));

/// A shape written `64x64` (or `64,64`): positive sizes up to 2^40 each.
/// Requires: nothing (an error naming `s` otherwise).
Expected<std::vector<int64_t>> parseShape(std::string_view s);

/// "64x64" for {64, 64}.
std::string shapeString(const std::vector<int64_t> &shape);

/// The bytes of the file at `path` (an error naming it and the system's reason otherwise).
Expected<std::string> readFile(const std::string &path);

/// Writes `bytes` to `path`, replacing it (an error naming it and the reason otherwise).
Status writeFile(const std::string &path, std::string_view bytes);

} // namespace linlayout::cli

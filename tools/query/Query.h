// The layout query engine behind `linlayout query`: JSON Lines in, one JSON line out per input
// line, in order (see docs/query.md).
//   {"id": <id>, "result": <answer>}   or   {"id": <id>, "error": "<message>"}
// A bad line gets an error line; nothing a line holds crashes the engine or makes it allocate
// without bound (lines are capped at kMaxLineBytes, nesting at kMaxDepth).
#pragma once

#include "linlayout/layout/Expected.h"

#include <functional>
#include <iosfwd>
#include <map>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

namespace linlayout::query {

constexpr size_t kMaxLineBytes = 16u << 20;
constexpr int kMaxDepth = 64;

/// An op: reads the request object, answers the result or an error.
using OpHandler = std::function<Expected<nlohmann::json>(const nlohmann::json &request)>;
using OpTable = std::map<std::string, OpHandler, std::less<>>;

/// The table of every op the engine knows.
const OpTable &ops();

/// Answers one input line (without its newline) with one output line (without newline).
std::string answerLine(std::string_view line);

/// Answers each line of `in` on `out`. Returns 0 at the end of input, 1 when reading or writing
/// failed.
int runQueries(std::istream &in, std::ostream &out);

// Each group of ops registers itself through one of these (one file per group).
void addAlgebraOps(OpTable &table);
void addSpecOps(OpTable &table);
void addPlanOps(OpTable &table);
void addPictureOps(OpTable &table);
void addCuteOps(OpTable &table);

} // namespace linlayout::query

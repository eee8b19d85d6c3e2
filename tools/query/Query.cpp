#include "query/Query.h"

#include "query/JsonUtil.h"

#include <istream>
#include <ostream>

namespace linlayout::query {
namespace {

// The deepest nesting of arrays/objects in a JSON text, counted without parsing, so hostile
// nesting is refused before the parser sees it.
int nestingDepth(std::string_view s) {
  int depth = 0, worst = 0;
  bool inString = false;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
      continue;
    }
    if (c == '"')
      inString = true;
    else if (c == '[' || c == '{')
      worst = std::max(worst, ++depth);
    else if (c == ']' || c == '}')
      --depth;
  }
  return worst;
}

std::string answer(const Json &id, const Expected<Json> &result) {
  Json out = Json::object();
  out["id"] = id;
  if (result.ok())
    out["result"] = *result;
  else
    out["error"] = result.message();
  return out.dump(-1, ' ', false, Json::error_handler_t::replace);
}

} // namespace

const OpTable &ops() {
  static const OpTable table = [] {
    OpTable t;
    addAlgebraOps(t);
    addSpecOps(t);
    addPlanOps(t);
    addPictureOps(t);
    addCuteOps(t);
    return t;
  }();
  return table;
}

std::string answerLine(std::string_view line) {
  Json id = nullptr;
  if (line.size() > kMaxLineBytes)
    return answer(id,
                  makeError("line of " + std::to_string(line.size()) +
                            " bytes is longer than the limit of " + std::to_string(kMaxLineBytes)));
  if (nestingDepth(line) > kMaxDepth)
    return answer(id,
                  makeError("JSON nested deeper than " + std::to_string(kMaxDepth) + " levels"));
  if (line.find_first_not_of(" \t\r") == std::string_view::npos)
    return answer(id, makeError("empty line"));
  Expected<Json> parsed = parseJson(line, "line");
  if (!parsed)
    return answer(id, parsed);
  Json request = std::move(*parsed);
  if (!request.is_object())
    return answer(id, makeError("expected a JSON object, got " + brief(request)));
  if (auto it = request.find("id"); it != request.end())
    id = *it;
  auto opField = request.find("op");
  if (opField == request.end())
    return answer(id, makeError("missing field 'op'"));
  if (!opField->is_string())
    return answer(id, makeError("field 'op' is " + brief(*opField) + ", expected a string"));
  const std::string &op = opField->get_ref<const std::string &>();
  auto handler = ops().find(op);
  if (handler == ops().end()) {
    std::string known;
    for (const auto &[name, _] : ops())
      known += (known.empty() ? "" : ", ") + name;
    return answer(id, makeError("unknown op '" + op.substr(0, 40) + "' (known: " + known + ")"));
  }
  return answer(id, handler->second(request));
}

int runQueries(std::istream &in, std::ostream &out) {
  // Lines are read in bounded pieces: an over-long line is skipped to its end, never held whole.
  std::string line;
  bool tooLong = false;
  size_t longBytes = 0;
  char buf[1 << 16];
  for (;;) {
    in.getline(buf, sizeof buf);
    std::streamsize n = in.gcount();
    bool eof = in.eof();
    bool partial = in.fail() && !eof && n == std::streamsize(sizeof buf) - 1;
    if (partial)
      in.clear();
    else if (in.bad())
      return 1;
    // getline counts the newline it consumed in gcount.
    size_t got = size_t(n) - (!partial && !eof && n > 0 ? 1 : 0);
    if (!tooLong) {
      if (line.size() + got > kMaxLineBytes) {
        tooLong = true;
        longBytes = line.size();
        line.clear();
        line.shrink_to_fit();
      } else {
        line.append(buf, got);
      }
    }
    if (tooLong)
      longBytes += got;
    if (partial)
      continue;
    bool any = n > 0 || !eof;
    if (any) {
      if (tooLong)
        out << answer(nullptr, makeError("line of " + std::to_string(longBytes) +
                                         " bytes is longer than the limit of " +
                                         std::to_string(kMaxLineBytes)))
            << '\n';
      else
        out << answerLine(line) << '\n';
      out.flush();
      if (!out)
        return 1;
    }
    line.clear();
    tooLong = false;
    longBytes = 0;
    if (eof)
      return 0;
    if (in.fail())
      return 1;
  }
}

} // namespace linlayout::query

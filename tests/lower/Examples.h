// The text of a file in the project's examples/ folder, for the lowering tests.
#pragma once

#include <fstream>
#include <sstream>
#include <string>

namespace linlayout::lower::testing {

/// The text of examples/`name` under the source tree; empty when the file cannot be read (the
/// parse that follows then fails, naming it).
inline std::string exampleSource(const std::string &name) {
  std::ifstream f(std::string(LINLAYOUT_SOURCE_DIR) + "/examples/" + name);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

} // namespace linlayout::lower::testing

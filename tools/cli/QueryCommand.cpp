// `linlayout query [FILE]`: JSON-lines layout queries (docs/query.md), answered by tools/query.
#include "Commands.h"
#include "query/Query.h"

#include <CLI/CLI.hpp>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>

namespace linlayout::cli {

void addQueryCommand(CLI::App &app, int &status) {
  CLI::App *cmd = app.add_subcommand(
      "query", "Answer JSON-lines layout queries from FILE or standard input (docs/query.md).");
  auto file = std::make_shared<std::string>();
  cmd->add_option("FILE", *file, "the queries, one JSON object a line (default: standard input)");
  cmd->callback([file, &status] {
    std::ios::sync_with_stdio(false);
    if (file->empty() || *file == "-") {
      status = query::runQueries(std::cin, std::cout);
      return;
    }
    std::ifstream f(*file, std::ios::binary);
    if (!f) {
      std::cerr << "linlayout query: cannot open '" << *file << "': " << std::strerror(errno)
                << "\n";
      status = 1;
      return;
    }
    status = query::runQueries(f, std::cout);
  });
}

} // namespace linlayout::cli

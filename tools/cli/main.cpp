// linlayout: the command-line tool. One parser (CLI11) for every subcommand, so each has --help,
// `linlayout help COMMAND` prints the same text, and a usage error is reported one way (exit 2).
// Each subcommand lives in its own file and adds itself with addXCommand.
#include "Commands.h"

#include <CLI/CLI.hpp>

#include <iostream>
#include <string>

#ifndef LINLAYOUT_VERSION
#define LINLAYOUT_VERSION "unknown"
#endif

namespace {

std::string versionText() {
  std::string v = std::string("linlayout ") + LINLAYOUT_VERSION;
#ifdef LINLAYOUT_HAS_LOWER
  v += ", with lowering to PTX";
#else
  v += ", without lowering (LLVM 19 was not found)";
#endif
  return v;
}

} // namespace

int main(int argc, char **argv) {
  using namespace linlayout::cli;
  CLI::App app{"linlayout: GPU tensor layouts as linear maps over F2, and a tile-IR compiler.",
               "linlayout"};
  app.set_version_flag("--version", versionText());
  app.require_subcommand(0, 1);
  app.footer("Run 'linlayout COMMAND --help' (or 'linlayout help COMMAND') for a command's "
             "options.");
  app.get_formatter()->column_width(32);
  int status = 0;
  addQueryCommand(app, status);
  addShowCommand(app, status);
  addPlanCommand(app, status);
  addOptCommand(app, status);
  addCompileCommand(app, status);
  addRunCommand(app, status);

  CLI::App *help = app.add_subcommand("help", "Print the help of COMMAND (or this text).");
  std::string topic;
  help->add_option("COMMAND", topic, "the command to explain");
  help->callback([&] {
    if (topic.empty()) {
      std::cout << app.help();
      return;
    }
    CLI::App *sub = nullptr;
    try {
      sub = app.get_subcommand(topic);
    } catch (const CLI::OptionNotFound &) {
    }
    if (!sub || sub == help) {
      std::cerr << "linlayout help: unknown command '" << topic << "'\n" << app.help();
      status = 2;
      return;
    }
    std::cout << sub->help("linlayout");
  });

  try {
    app.parse(argc, argv);
  } catch (const CLI::Success &e) {
    return app.exit(e); // --help, --version
  } catch (const CLI::ParseError &e) {
    // Name the command the error is in, then say where its usage is.
    std::string where = "linlayout";
    for (const CLI::App *sub : app.get_subcommands())
      where += " " + sub->get_name();
    std::cerr << where << ": " << e.what() << "\n"
              << "Run '" << where << " --help' for usage.\n";
    return 2;
  }
  if (app.get_subcommands().empty()) {
    std::cerr << app.help();
    return 2;
  }
  return status;
}

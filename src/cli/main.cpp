// The `boreas` binary: one command, many subcommands (see `boreas --help`).

#include <exception>
#include <iostream>

#include "cli/command.h"
#include "cli/commands.h"
#include "core/version.h"
#include "server/exec/supervisor.h"

int main(int argc, char** argv) {
  if (boreas::server::is_supervisor_call(argc, argv)) {  // a job's supervisor (server/supervisor.h)
    return boreas::server::supervisor_main();
  }
  using namespace boreas::cli;
  CLI::App app{"Boreas — a workload manager and digital twin for AI clusters", "boreas"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "boreas " + std::string(boreas::version()));
  Runner runner;
  add_all_commands(app, runner);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? kExitOk : kExitUserError;
  }
  try {
    return runner.action ? runner.action() : kExitOk;
  } catch (const std::exception& e) {
    std::cerr << "boreas: internal error: " << e.what() << "\n";
    return kExitInternalError;
  }
}

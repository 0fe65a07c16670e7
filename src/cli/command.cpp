#include "cli/command.h"

#include <iostream>

#include "core/version.h"

namespace boreas::cli {

int report_error(const Status& status) {
  std::cerr << "boreas: error: " << status.message() << "\n";
  return status.code() == ErrorCode::kInternal ? kExitInternalError : kExitUserError;
}

void add_version_command(CLI::App& app, Runner& runner) {
  auto* cmd = app.add_subcommand("version", "Print the Boreas version");
  cmd->callback([&runner] {
    runner.action = [] {
      std::cout << "boreas " << version() << "\n";
      return kExitOk;
    };
  });
}

}  // namespace boreas::cli

#pragma once
#include "cli/command.h"

namespace boreas::cli {
// Registers every subcommand family; defined in commands.cpp.
void add_all_commands(CLI::App& app, Runner& runner);
}  // namespace boreas::cli

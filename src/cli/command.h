#pragma once
// Each subcommand family registers itself on the CLI11 app and, when chosen, stores the action to
// run in `Runner`. Exit codes: 0 ok, 1 user error (message on stderr), 2 internal error.

#include <CLI/CLI.hpp>

#include <functional>
#include <string>

#include "core/status.h"

namespace boreas::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitUserError = 1;
inline constexpr int kExitInternalError = 2;

struct Runner {
  std::function<int()> action;
};

// Prints "boreas: error: <message>" and returns the matching exit code.
int report_error(const Status& status);

void add_version_command(CLI::App& app, Runner& runner);
void add_client_commands(CLI::App& app, Runner& runner);
void add_cluster_commands(CLI::App& app, Runner& runner);
void add_models_commands(CLI::App& app, Runner& runner);
void add_serve_commands(CLI::App& app, Runner& runner);
void add_token_commands(CLI::App& app, Runner& runner);
void add_trace_commands(CLI::App& app, Runner& runner);
void add_sim_commands(CLI::App& app, Runner& runner);
void add_report_commands(CLI::App& app, Runner& runner);
void add_experiment_commands(CLI::App& app, Runner& runner);
void add_frag_commands(CLI::App& app, Runner& runner);
void add_man_command(CLI::App& app, Runner& runner);
void add_sim_serving_command(CLI::App& sim, Runner& runner);
// `boreas completion bash|zsh`: walks `app` when run, so register it with the rest (completion.cpp).
void add_completion_command(CLI::App& app, Runner& runner);

}  // namespace boreas::cli

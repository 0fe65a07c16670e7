// `boreas serve` (the daemon) and `boreas token` (local admin commands against a data dir).

#include <chrono>
#include <filesystem>
#include <iostream>

#include "cli/command.h"
#include "server/store.h"
#include "server/tokens.h"

namespace boreas::cli {
namespace {

struct TokenArgs {
  std::string data_dir;
  std::string role = "user";
  std::string queues;
  std::string name;
};

int64_t wall_us() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

int run_token_create(const TokenArgs& a) {
  auto role = server::parse_role(a.role);
  if (!role) {
    return report_error(invalid_argument("--role " + a.role +
                                         ": unknown role; use admin, queue-admin, user or viewer"));
  }
  std::error_code ec;
  std::filesystem::create_directories(a.data_dir, ec);
  auto store = server::Store::open(a.data_dir + "/boreas.db");
  if (!store.is_ok()) {
    return report_error(store.status());
  }
  const std::string name = a.name.empty() ? a.role : a.name;
  auto token = server::create_token(**store, {name, *role, server::split_queue_list(a.queues)}, wall_us());
  if (!token.is_ok()) {
    return report_error(token.status());
  }
  std::cout << *token << "\n";
  std::cerr << "boreas: token for " << name << " (" << a.role
            << "); it is shown only once, store it now\n";
  return kExitOk;
}

void add_token_commands(CLI::App& app, Runner& runner) {
  auto* token = app.add_subcommand("token", "Manage API tokens (local, against a data dir)");
  token->require_subcommand(1);
  auto* create = token->add_subcommand("create", "Create a token and print it once");
  auto args = std::make_shared<TokenArgs>();
  create->add_option("--data-dir", args->data_dir, "The daemon's data directory")->required();
  create->add_option("--role", args->role, "admin, queue-admin, user or viewer")->required();
  create->add_option("--queues", args->queues, "Comma-separated queues it belongs to (* = all)");
  create->add_option("--name", args->name, "Who the token is for (shown in the audit log)");
  create->callback([&runner, args] { runner.action = [args] { return run_token_create(*args); }; });
}

}  // namespace

void add_serve_commands(CLI::App& app, Runner& runner) { add_token_commands(app, runner); }

}  // namespace boreas::cli

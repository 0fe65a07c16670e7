// `boreas token create|list|revoke`: local admin commands against a daemon's data dir (they open
// its store directly; whoever may read the store is an admin by construction).

#include <unistd.h>

#include <chrono>
#include <ctime>
#include <iostream>

#include "cli/client.h"
#include "cli/command.h"
#include "server/api/tokens.h"
#include "server/store/file_modes.h"
#include "server/store/store.h"

namespace boreas::cli {
namespace {

struct TokenArgs {
  std::string data_dir;
  std::string role = "user";
  std::string queues;
  std::string name;
  std::string unix_user;
  std::string expires;
};

int64_t wall_us() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// "30d", "12h", "90m", "45s" → microseconds.
Result<int64_t> parse_lifetime(const std::string& text) {
  const std::string usage = "--expires " + text + ": expected a positive whole number and a unit, e.g. 30d, "
                            "12h, 90m or 45s";
  if (text.size() < 2 || text.size() > 8 || text.find_first_not_of("0123456789", 0) != text.size() - 1) {
    return invalid_argument(usage);
  }
  const int64_t n = std::stoll(text.substr(0, text.size() - 1));
  const char unit = text.back();
  const int64_t seconds = unit == 's' ? 1 : unit == 'm' ? 60 : unit == 'h' ? 3600 : unit == 'd' ? 86400 : 0;
  if (n <= 0 || seconds == 0) {
    return invalid_argument(usage);
  }
  return n * seconds * 1'000'000;
}

Result<std::unique_ptr<server::Store>> open_store(const std::string& data_dir) {
  BOREAS_RETURN_IF_ERROR(server::secure_data_dir(data_dir));
  return server::Store::open(data_dir + "/boreas.db");
}

Result<server::TokenRequest> token_request(const TokenArgs& a, int64_t now_us) {
  auto role = server::parse_role(a.role);
  if (!role) {
    return invalid_argument("--role " + a.role + ": unknown role; use admin, queue-admin, user or viewer");
  }
  server::TokenRequest req{a.name, *role, server::split_queue_list(a.queues), a.unix_user, 0};
  if (!a.expires.empty()) {
    auto lifetime = parse_lifetime(a.expires);
    if (!lifetime.is_ok()) {
      return lifetime.status();
    }
    req.expires_us = now_us + *lifetime;
  }
  return req;
}

int run_token_create(const TokenArgs& a) {
  const int64_t now = wall_us();
  auto req = token_request(a, now);
  if (!req.is_ok()) {
    return report_error(req.status());
  }
  auto store = open_store(a.data_dir);
  if (!store.is_ok()) {
    return report_error(store.status());
  }
  auto created = server::create_token(**store, *req, now);
  if (!created.is_ok()) {
    return report_error(created.status());
  }
  std::cout << created->token << "\n";
  std::cerr << "boreas: token `" << created->name << "` (" << a.role << "); it is shown only once, store it now\n";
  if (geteuid() == 0 && req->role != server::Role::kViewer && req->unix_user.empty()) {
    std::cerr << "boreas: note: it maps to no Unix account (--unix-user), so a daemon running as root "
                 "refuses its submits unless started with --allow-root-jobs\n";
  }
  return kExitOk;
}

std::string status_of(const server::TokenInfo& t, int64_t now_us) {
  if (t.revoked_us != 0) {
    return "revoked " + format_utc(t.revoked_us);
  }
  return t.expires_us != 0 && now_us >= t.expires_us ? "expired" : "live";
}

int run_token_list(const TokenArgs& a) {
  auto store = open_store(a.data_dir);
  auto tokens = store.is_ok() ? server::list_tokens(**store) : Result<std::vector<server::TokenInfo>>(store.status());
  if (!tokens.is_ok()) {
    return report_error(tokens.status());
  }
  const int64_t now = wall_us();
  std::cout << "name\trole\tqueues\tunix_user\tcreated\texpires\tstatus\n";
  for (const server::TokenInfo& t : *tokens) {
    std::string queues;
    for (const auto& q : t.queues) {
      queues += (queues.empty() ? "" : ",") + q;
    }
    std::cout << t.name << "\t" << server::to_string(t.role) << "\t" << (queues.empty() ? "-" : queues) << "\t"
              << (t.unix_user.empty() ? "-" : t.unix_user) << "\t" << format_utc(t.created_us) << "\t"
              << (t.expires_us == 0 ? "never" : format_utc(t.expires_us)) << "\t" << status_of(t, now) << "\n";
  }
  return kExitOk;
}

int run_token_revoke(const TokenArgs& a) {
  auto store = open_store(a.data_dir);
  const Status s = store.is_ok() ? server::revoke_token(**store, a.name, wall_us()) : store.status();
  if (!s.is_ok()) {
    return report_error(s);
  }
  std::cerr << "boreas: token `" << a.name << "` revoked; requests with it now get 401\n";
  return kExitOk;
}

void add_create(CLI::App& token, Runner& runner) {
  auto* create = token.add_subcommand("create", "Create a token and print it once");
  auto args = std::make_shared<TokenArgs>();
  create->add_option("--data-dir", args->data_dir, "The daemon's data directory")->required();
  create->add_option("--role", args->role, "admin, queue-admin, user or viewer")->required();
  create->add_option("--queues", args->queues, "Comma-separated queues it belongs to (* = all)");
  create->add_option("--name", args->name, "Who the token is for, unique (default: ROLE-N)");
  create->add_option("--unix-user", args->unix_user,
                     "Unix account its jobs run as when the daemon is root (must exist)");
  create->add_option("--expires", args->expires, "Lifetime, e.g. 30d, 12h, 90m (default: never)");
  create->callback([&runner, args] { runner.action = [args] { return run_token_create(*args); }; });
}

void add_list(CLI::App& token, Runner& runner) {
  auto* list = token.add_subcommand("list", "List tokens: name, role, queues, Unix user, dates (never secrets)");
  auto args = std::make_shared<TokenArgs>();
  list->add_option("--data-dir", args->data_dir, "The daemon's data directory")->required();
  list->callback([&runner, args] { runner.action = [args] { return run_token_list(*args); }; });
}

void add_revoke(CLI::App& token, Runner& runner) {
  auto* revoke = token.add_subcommand("revoke", "Revoke a token by name; it gets 401 from then on");
  auto args = std::make_shared<TokenArgs>();
  revoke->add_option("name", args->name, "The token's name (see `boreas token list`)")->required();
  revoke->add_option("--data-dir", args->data_dir, "The daemon's data directory")->required();
  revoke->callback([&runner, args] { runner.action = [args] { return run_token_revoke(*args); }; });
}

}  // namespace

void add_token_commands(CLI::App& app, Runner& runner) {
  auto* token = app.add_subcommand("token", "Manage API tokens (local, against a data dir)");
  token->require_subcommand(1);
  add_create(*token, runner);
  add_list(*token, runner);
  add_revoke(*token, runner);
}

}  // namespace boreas::cli

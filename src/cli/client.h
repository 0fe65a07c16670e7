#pragma once
// What the daemon's thin clients share: server and token options, one request with retries, and
// printing that is safe for a terminal (names and commands are the submitter's text).

#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <vector>

#include "cli/command.h"

namespace httplib {
class Client;
}

namespace boreas::cli {

struct ClientArgs {
  std::string server;
  std::string token_file;
  bool json_out = false;
};

// How a request is retried: connection errors and 5xx answers, with back-off. Only requests that
// are safe to repeat retry (a submit is, with its Idempotency-Key).
struct Retry {
  int attempts = 1;
  int first_delay_ms = 250;
};

using Headers = std::vector<std::pair<std::string, std::string>>;

// --server, --token-file, --json on a client command.
void add_common(CLI::App* cmd, ClientArgs& a);

// Sends a request (again per `retry`); the body of a 2xx answer, else a Status with the server's
// message: a 404 is kNotFound, other 4xx kInvalidArgument, so callers can say "no job 42".
Result<nlohmann::json> request(const ClientArgs& a, const std::string& method, const std::string& path,
                               const std::string& body = "", const Headers& extra = {}, Retry retry = {});

// `text` with control characters (ANSI escapes, newlines, DEL) shown as \xHH: a job name or
// command cannot move the cursor, recolour or clear the reader's terminal.
std::string terminal_safe(const std::string& text);
// A field as text ("-" when absent), terminal-safe.
std::string cell(const nlohmann::json& j, const char* key);

// Left-aligned columns two spaces apart; `header` is printed unless empty.
void print_table(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows);
// JSON as YAML (block style; strings as JSON-quoted scalars, which YAML reads back unchanged).
std::string to_yaml(const nlohmann::json& j, int indent = 0);

// Prints the answer (the JSON with --json, else `human`) or the error; the exit code.
int show(const ClientArgs& a, const Result<nlohmann::json>& r, const std::function<void(const nlohmann::json&)>& human);

// Wall-clock microseconds as ISO 8601 UTC, "2026-11-24T04:30:00Z"; "-" for 0 (never).
std::string format_utc(int64_t us);

// A job id given on the command line: digits, 1..999999999.
Result<uint32_t> parse_job_id(const std::string& text);

}  // namespace boreas::cli

namespace boreas::cli {
// The client families, registered by add_client_commands (cmd_client.cpp).
void add_submit_command(CLI::App& app, Runner& runner);  // cmd_submit.cpp
void add_job_commands(CLI::App& app, Runner& runner);    // cmd_jobs.cpp: jobs, cancel, logs, why
void add_service_command(CLI::App& app, Runner& runner); // cmd_service.cpp: service create|list|show|delete
}  // namespace boreas::cli

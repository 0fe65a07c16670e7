// Thin clients of the daemon's API: submit, jobs, job, cancel, why, queues, nodes, drain, resume.
// Familiar to Slurm users: `jobs` reads like squeue, `submit` like sbatch --wrap, `cancel` like scancel.

#include <httplib.h>

#include <array>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <sstream>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>

#include "cli/command.h"

namespace boreas::cli {
namespace {

using nlohmann::json;

struct ClientArgs {
  std::string server;
  std::string token_file;
  bool json_out = false;
};

std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? v : fallback;
}

std::string read_token(const ClientArgs& a) {
  if (!a.token_file.empty()) {
    std::ifstream f(a.token_file);
    std::string t;
    f >> t;
    return t;
  }
  return env_or("BOREAS_TOKEN", "");
}

// How a request is retried: connection errors and 5xx answers, with back-off. Only requests that
// are safe to repeat retry (a submit is, with its Idempotency-Key).
struct Retry {
  int attempts = 1;
  int first_delay_ms = 250;
};

// Sends a request (again per `retry`); the body of a 2xx answer, else a Status with the server's message.
Result<json> request(const ClientArgs& a, const std::string& method, const std::string& path,
                     const std::string& body = "", const httplib::Headers& extra = {}, Retry retry = {}) {
  const std::string url = a.server.empty() ? env_or("BOREAS_SERVER", "http://127.0.0.1:8080") : a.server;
  httplib::Client client(url);
  client.set_connection_timeout(5);
  client.set_read_timeout(60);
  client.set_tcp_nodelay(true);
  httplib::Headers headers = extra;
  if (const std::string t = read_token(a); !t.empty()) {
    headers.emplace("Authorization", "Bearer " + t);
  }
  httplib::Result res{nullptr, httplib::Error::Unknown};
  for (int attempt = 1;; ++attempt) {
    res = method == "GET" ? client.Get(path, headers) : client.Post(path, headers, body, "application/json");
    const bool transient = !res || res->status >= 500;
    if (!transient || attempt >= retry.attempts) {
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(retry.first_delay_ms << (attempt - 1)));
  }
  if (!res) {
    return io_error("cannot reach the daemon at " + url + " (" + httplib::to_string(res.error()) +
                    "); start `boreas serve` or set --server / BOREAS_SERVER");
  }
  const json j = json::parse(res->body, nullptr, false);
  if (res->status / 100 != 2) {
    const std::string msg = j.is_object() && j.contains("error") ? j["error"].get<std::string>() : res->body;
    return invalid_argument("HTTP " + std::to_string(res->status) + ": " + msg);
  }
  return j;
}

// 128 random bits as a UUID-shaped string: names one submit across its retries.
std::string random_key() {
  std::random_device rd;
  std::ostringstream out;
  out << std::hex << std::setfill('0');
  for (int i = 0; i < 4; ++i) {
    out << std::setw(8) << rd() << (i < 3 ? "-" : "");
  }
  return out.str();
}

std::string cell(const json& j, const char* key) {
  if (!j.contains(key)) {
    return "-";
  }
  return j[key].is_string() ? j[key].get<std::string>() : j[key].dump();
}

void print_table(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> width(header.size());
  for (size_t c = 0; c < header.size(); ++c) {
    width[c] = header[c].size();
    for (const auto& r : rows) {
      width[c] = std::max(width[c], r[c].size());
    }
  }
  auto line = [&](const std::vector<std::string>& r) {
    for (size_t c = 0; c < r.size(); ++c) {
      std::cout << std::left << std::setw(static_cast<int>(width[c]) + 2) << r[c];
    }
    std::cout << "\n";
  };
  line(header);
  for (const auto& r : rows) {
    line(r);
  }
}

std::vector<std::string> job_row(const json& j) {
  return {cell(j, "id"), cell(j["request"], "queue"), cell(j, "owner"), cell(j, "state"),
          cell(j["request"], "gpus"), cell(j, "node"), cell(j, "reason")};
}

int show(const ClientArgs& a, const Result<json>& r, const std::function<void(const json&)>& human) {
  if (!r.is_ok()) {
    return report_error(r.status());
  }
  if (a.json_out) {
    std::cout << r->dump(2) << "\n";
  } else {
    human(*r);
  }
  return kExitOk;
}

void print_jobs(const json& j) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& job : j["jobs"]) {
    rows.push_back(job_row(job));
  }
  print_table({"JOBID", "QUEUE", "OWNER", "STATE", "GPUS", "NODE", "REASON"}, rows);
}

void print_job(const json& j) { print_table({"JOBID", "QUEUE", "OWNER", "STATE", "GPUS", "NODE", "REASON"}, {job_row(j)}); }

// "90", "90s", "15m", "2h", "1:30:00" (Slurm's H:MM:SS) → seconds; -1 when unreadable.
int64_t parse_time_limit(const std::string& s) {
  try {
    if (s.find(':') != std::string::npos) {
      int64_t total = 0;
      std::istringstream in(s);
      for (std::string part; std::getline(in, part, ':');) {
        total = total * 60 + std::stoll(part);
      }
      return total;
    }
    size_t used = 0;
    const int64_t n = std::stoll(s, &used);
    const std::string unit = s.substr(used);
    const int64_t scale = unit.empty() || unit == "s" ? 1 : unit == "m" ? 60 : unit == "h" ? 3600 : -1;
    return scale < 0 || n < 0 ? -1 : n * scale;
  } catch (const std::exception&) {
    return -1;
  }
}

struct SubmitArgs {
  uint32_t gpus = 0;
  std::string gpu_type;
  std::string queue = "default";
  std::string priority;
  std::string time_limit;
  std::string name;
  std::string restart;
  std::vector<std::string> command;
};

int run_submit(const ClientArgs& a, const SubmitArgs& s) {
  json body = {{"command", s.command}, {"gpus", s.gpus}, {"queue", s.queue}, {"name", s.name}};
  if (!s.gpu_type.empty()) {
    body["gpu_type"] = s.gpu_type;
  }
  if (!s.priority.empty()) {
    body["priority_class"] = s.priority;
  }
  if (!s.restart.empty()) {
    body["restart"] = s.restart;  // the daemon checks it and says what is wrong
  }
  if (!s.time_limit.empty()) {
    const int64_t secs = parse_time_limit(s.time_limit);
    if (secs < 0) {
      return report_error(invalid_argument("--time-limit " + s.time_limit +
                                           ": use seconds, 15m, 2h or H:MM:SS"));
    }
    body["time_limit_s"] = secs;
  }
  std::error_code ec;
  body["cwd"] = std::filesystem::current_path(ec).string();
  // A retry after a lost answer or a 5xx sends the same key, so the daemon returns the first job
  // instead of running it twice.
  const httplib::Headers key = {{"Idempotency-Key", random_key()}};
  return show(a, request(a, "POST", "/v1/jobs", body.dump(), key, Retry{5, 250}),
              [](const json& j) { std::cout << "Submitted job " << cell(j, "id") << "\n"; });
}

void add_common(CLI::App* cmd, ClientArgs& a) {
  cmd->add_option("--server", a.server, "Daemon URL (default: $BOREAS_SERVER or http://127.0.0.1:8080)");
  cmd->add_option("--token-file", a.token_file, "File holding the token (default: $BOREAS_TOKEN)");
  cmd->add_flag("--json", a.json_out, "Print the API's JSON instead of a table");
}

void add_submit(CLI::App& app, Runner& runner) {
  auto* cmd = app.add_subcommand("submit", "Submit a job: boreas submit --gpus 2 -- python train.py");
  auto a = std::make_shared<ClientArgs>();
  auto s = std::make_shared<SubmitArgs>();
  add_common(cmd, *a);
  cmd->add_option("--gpus", s->gpus, "GPUs in the gang");
  cmd->add_option("--gpu-type", s->gpu_type, "GPU type (empty = any)");
  cmd->add_option("--queue", s->queue, "Queue (Slurm: partition/account)");
  cmd->add_option("--priority", s->priority, "Priority class");
  cmd->add_option("--time-limit", s->time_limit, "Time limit: seconds, 15m, 2h or H:MM:SS");
  cmd->add_option("--name", s->name, "Job name");
  cmd->add_option("--restart", s->restart,
                  "never (default) | on-failure[:N]: requeue after a non-zero exit or a lost process, "
                  "at most N times (default 3)");
  cmd->add_option("command", s->command, "Command and arguments (after --)")->required();
  cmd->callback([&runner, a, s] { runner.action = [a, s] { return run_submit(*a, *s); }; });
}

// Commands of the form `boreas VERB [ARG]` that send one request and print the answer.
void add_simple(CLI::App& app, Runner& runner, const std::string& verb, const std::string& help,
                const std::string& method, const std::string& path_template,
                std::function<void(const json&)> human) {
  auto* cmd = app.add_subcommand(verb, help);
  auto a = std::make_shared<ClientArgs>();
  auto arg = std::make_shared<std::string>();
  add_common(cmd, *a);
  const auto at = path_template.find("{}");
  if (at != std::string::npos) {
    cmd->add_option("id", *arg, "Job id or node name")->required();
  }
  cmd->callback([&runner, a, arg, method, path_template, at, human] {
    runner.action = [a, arg, method, path_template, at, human] {
      std::string path = path_template;
      if (at != std::string::npos) {
        path.replace(at, 2, *arg);
      }
      return show(*a, request(*a, method, path, method == "POST" ? "{}" : ""), human);
    };
  });
}

void print_queues(const json& j) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& q : j["queues"]) {
    rows.push_back({cell(q, "name"), cell(q, "pending"), cell(q, "running"), cell(q, "gpus_in_use")});
  }
  print_table({"QUEUE", "PENDING", "RUNNING", "GPUS_IN_USE"}, rows);
}

// The job on each GPU by index, e.g. "3 3 - -" (- = free).
std::string gpu_jobs(const json& node) {
  std::string out;
  for (const auto& g : node.value("gpu_usage", json::array())) {
    out += (out.empty() ? "" : " ") + (g.contains("job") ? g["job"].dump() : std::string("-"));
  }
  return out;
}

void print_nodes(const json& j) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& n : j["nodes"]) {
    rows.push_back({cell(n, "name"), cell(n, "gpu_type"), cell(n, "gpus"), cell(n, "free_gpus"),
                    n["drained"].get<bool>() ? "drained" : "up", gpu_jobs(n)});
  }
  print_table({"NODE", "GPU_TYPE", "GPUS", "FREE", "STATE", "JOBS"}, rows);
}

void add_jobs(CLI::App& app, Runner& runner) {
  auto* cmd = app.add_subcommand("jobs", "List jobs (like squeue)");
  auto a = std::make_shared<ClientArgs>();
  auto filter = std::make_shared<std::array<std::string, 3>>();
  add_common(cmd, *a);
  cmd->add_option("--state", (*filter)[0], "pending, running, completed, failed, cancelled");
  cmd->add_option("--queue", (*filter)[1], "Only this queue");
  cmd->add_option("--owner", (*filter)[2], "Only this owner");
  cmd->callback([&runner, a, filter] {
    runner.action = [a, filter] {
      httplib::Params params;
      const char* keys[] = {"state", "queue", "owner"};
      for (size_t i = 0; i < 3; ++i) {
        if (!(*filter)[i].empty()) {
          params.emplace(keys[i], (*filter)[i]);
        }
      }
      const std::string query = httplib::detail::params_to_query_str(params);
      return show(*a, request(*a, "GET", "/v1/jobs" + (query.empty() ? "" : "?" + query)), print_jobs);
    };
  });
}

}  // namespace

void add_client_commands(CLI::App& app, Runner& runner) {
  add_submit(app, runner);
  add_jobs(app, runner);
  add_simple(app, runner, "job", "Show one job", "GET", "/v1/jobs/{}", print_job);
  add_simple(app, runner, "why", "Why a job is pending (or how it ended)", "GET", "/v1/jobs/{}/why",
             [](const json& j) { std::cout << cell(j, "state") << ": " << cell(j, "reason") << "\n"; });
  add_simple(app, runner, "cancel", "Cancel a job (like scancel)", "POST", "/v1/jobs/{}/cancel", print_job);
  add_simple(app, runner, "checkpoint", "Ask a running job to checkpoint (SIGUSR1) and requeue",
             "POST", "/v1/jobs/{}/checkpoint", print_job);
  add_simple(app, runner, "queues", "List queues and their usage", "GET", "/v1/queues", print_queues);
  add_simple(app, runner, "nodes", "List nodes and their GPUs", "GET", "/v1/nodes", print_nodes);
  for (const char* verb : {"drain", "resume"}) {
    add_simple(app, runner, verb, std::string(verb) + " a node (admin)", "POST",
               "/v1/nodes/{}/" + std::string(verb),
               [](const json& j) { std::cout << cell(j, "name") << (j["drained"].get<bool>() ? " drained" : " resumed") << "\n"; });
  }
}

}  // namespace boreas::cli

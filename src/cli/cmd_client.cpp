// Thin clients of the daemon's API: job, checkpoint, queues, nodes, drain, resume; and the
// Slurm-shaped families: submit (cmd_submit.cpp), jobs, cancel, logs, why (cmd_jobs.cpp).

#include <chrono>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/client.h"
#include "cli/job_table.h"

namespace boreas::cli {
namespace {

using nlohmann::json;

void print_job(const json& j) {
  const auto columns = *job_columns("default");
  std::vector<std::string> header;
  for (const JobColumn& c : columns) {
    header.push_back(c.header);
  }
  const auto now = std::chrono::duration_cast<std::chrono::microseconds>(
                       std::chrono::system_clock::now().time_since_epoch()).count();
  print_table(header, {job_cells(j, columns, now)});
}

// Commands of the form `boreas VERB [ARG]` that send one request and print the answer. A job's
// id is checked here and an unknown one answers "no job N".
void add_simple(CLI::App& app, Runner& runner, const std::string& verb, const std::string& help,
                const std::string& method, const std::string& path_template,
                std::function<void(const json&)> human) {
  auto* cmd = app.add_subcommand(verb, help);
  auto a = std::make_shared<ClientArgs>();
  auto arg = std::make_shared<std::string>();
  add_common(cmd, *a);
  const auto at = path_template.find("{}");
  const bool job = path_template.rfind("/v1/jobs/", 0) == 0;
  if (at != std::string::npos) {
    cmd->add_option("id", *arg, job ? "Job id" : "Node name")->required();
  }
  cmd->callback([&runner, a, arg, method, path_template, at, human, job] {
    runner.action = [a, arg, method, path_template, at, human, job] {
      std::string path = path_template;
      if (at != std::string::npos) {
        auto id = job ? parse_job_id(*arg) : Result<uint32_t>(0);
        if (!id.is_ok()) {
          return report_error(id.status());
        }
        path.replace(at, 2, *arg);
      }
      auto r = request(*a, method, path, method == "POST" ? "{}" : "");
      if (!r.is_ok() && job && r.status().code() == ErrorCode::kNotFound) {
        r = not_found("no job " + *arg);
      }
      return show(*a, r, human);
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

}  // namespace

void add_client_commands(CLI::App& app, Runner& runner) {
  add_submit_command(app, runner);
  add_job_commands(app, runner);
  add_service_command(app, runner);
  add_simple(app, runner, "job", "Show one job", "GET", "/v1/jobs/{}", print_job);
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

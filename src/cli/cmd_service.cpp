// `boreas service create|list|show|delete`: services in the live daemon (docs/live.md, "Services";
// docs/serving.md, "Services in the live daemon"). Replicas are jobs; the daemon scales them.

#include <filesystem>
#include <iostream>

#include "cli/client.h"
#include "cli/submit_options.h"

namespace boreas::cli {
namespace {

using nlohmann::json;

struct ServiceArgs {
  std::string name;
  std::string replicas = "1";  // MIN..MAX, or N (fixed)
  SubmitArgs replica;          // --gpus, --gpu-type, -A, -q, --cpus, --mem, -t and the command
  double target_inflight = 32;
  double interval_s = 10;
  double scale_down_delay_s = 60;
};

// "2..8" or "3" (MIN = MAX); the daemon checks the bounds (1..64, MIN <= MAX).
Result<std::pair<int64_t, int64_t>> parse_replicas(const std::string& text) {
  const auto dots = text.find("..");
  const std::string lo = text.substr(0, dots);
  const std::string hi = dots == std::string::npos ? lo : text.substr(dots + 2);
  const auto number = [](const std::string& s) {
    return !s.empty() && s.size() <= 4 && s.find_first_not_of("0123456789") == std::string::npos;
  };
  if (!number(lo) || !number(hi)) {
    return invalid_argument("--replicas " + text + ": expected MIN..MAX (e.g. 1..4) or N, whole numbers");
  }
  return std::make_pair(int64_t{std::stoll(lo)}, int64_t{std::stoll(hi)});
}

Result<json> create_body(const ServiceArgs& s) {
  auto bounds = parse_replicas(s.replicas);
  if (!bounds.is_ok()) {
    return bounds.status();
  }
  if (s.replica.gpus.empty()) {
    return invalid_argument("--gpus: required; each replica needs at least one GPU (--gpus N)");
  }
  std::error_code ec;
  auto replica = submit_body(s.replica, std::filesystem::current_path(ec).string());
  if (!replica.is_ok()) {
    return replica.status();
  }
  replica->erase("name");  // the daemon names each replica NAME-INDEX
  return json{{"name", s.name},
              {"replica", *replica},
              {"min_replicas", bounds->first},
              {"max_replicas", bounds->second},
              {"target_inflight", s.target_inflight},
              {"interval_s", s.interval_s},
              {"scale_down_delay_s", s.scale_down_delay_s}};
}

std::string ready_of(const json& v) {
  size_t ready = 0;
  for (const json& r : v.value("replicas", json::array())) {
    ready += r.value("state", "") == "ready" ? 1 : 0;
  }
  return std::to_string(ready) + "/" + std::to_string(v.value("replicas", json::array()).size());
}

std::vector<std::string> service_row(const json& v) {
  return {cell(v, "name"),
          cell(v, "owner"),
          cell(v["replica"], "queue"),
          ready_of(v),
          cell(v, "min_replicas") + ".." + cell(v, "max_replicas"),
          cell(v, "desired_replicas"),
          cell(v, "inflight_requests")};
}

const std::vector<std::string> kServiceHeader = {"SERVICE",  "OWNER",   "QUEUE",   "READY",
                                                 "REPLICAS", "DESIRED", "INFLIGHT"};

void print_service(const json& v) {
  print_table(kServiceHeader, {service_row(v)});
  std::vector<std::vector<std::string>> rows;
  for (const json& r : v["replicas"]) {
    rows.push_back({cell(r, "index"), cell(r, "job"), cell(r, "port"), cell(r, "state"),
                    cell(r, "inflight_requests"), cell(r, "cold_start_s")});
  }
  std::cout << "\n";
  print_table({"REPLICA", "JOB", "PORT", "STATE", "INFLIGHT", "COLD_START_S"}, rows);
  if (v.contains("last_error")) {
    std::cout << "\nlast error: " << terminal_safe(v["last_error"].get<std::string>()) << "\n";
  }
}

void print_services(const json& j) {
  std::vector<std::vector<std::string>> rows;
  for (const json& v : j["services"]) {
    rows.push_back(service_row(v));
  }
  print_table(kServiceHeader, rows);
}

void add_create(CLI::App* service, Runner& runner) {
  auto* cmd = service->add_subcommand("create",
                                      "Create a service: MIN..MAX replica jobs of CMD, scaled on their load");
  auto a = std::make_shared<ClientArgs>();
  auto s = std::make_shared<ServiceArgs>();
  add_common(cmd, *a);
  cmd->add_option("name", s->name, "Service name: lowercase letters, digits, '-'")->required();
  cmd->add_option("--replicas", s->replicas, "MIN..MAX replicas (or N): the autoscaler stays within");
  cmd->add_option("-G,--gpus", s->replica.gpus, "GPUs per replica (N or TYPE:N)");
  cmd->add_option("--gpu-type", s->replica.gpu_type, "GPU type of every replica");
  cmd->add_option("-A,--account,--queue", s->replica.queue, "Queue of the replica jobs");
  cmd->add_option("-q,--qos,--priority", s->replica.qos, "Priority class of the replica jobs");
  cmd->add_option("-c,--cpus", s->replica.cpus, "CPUs per replica");
  cmd->add_option("--mem", s->replica.mem, "Memory per replica (MiB, or 512M, 4G)");
  cmd->add_option("--target-inflight", s->target_inflight, "In-flight requests per replica to aim at (32)");
  cmd->add_option("--interval", s->interval_s, "Seconds between load polls and decisions (10)");
  cmd->add_option("--scale-down-delay", s->scale_down_delay_s,
                  "Seconds the load must stay low before replicas are cancelled (60)");
  cmd->add_option("command", s->replica.command, "The replica's program and arguments (after --)")
      ->required();
  cmd->callback([&runner, a, s] {
    runner.action = [a, s] {
      auto body = create_body(*s);
      auto r = body.is_ok() ? request(*a, "POST", "/v1/services", body->dump()) : Result<json>(body.status());
      return show(*a, r, print_service);
    };
  });
}

// list, show NAME, delete NAME: one request each.
void add_simple(CLI::App* service, Runner& runner, const std::string& verb, const std::string& help,
                const std::string& method, std::function<void(const json&)> human) {
  auto* cmd = service->add_subcommand(verb, help);
  auto a = std::make_shared<ClientArgs>();
  auto name = std::make_shared<std::string>();
  add_common(cmd, *a);
  if (verb != "list") {
    cmd->add_option("name", *name, "Service name")->required();
  }
  cmd->callback([&runner, a, name, method, human] {
    runner.action = [a, name, method, human] {
      auto r = request(*a, method, "/v1/services" + (name->empty() ? "" : "/" + *name));
      if (!r.is_ok() && r.status().code() == ErrorCode::kNotFound && !name->empty()) {
        r = not_found("no service " + *name + "; `boreas service list` shows them");
      }
      return show(*a, r, human);
    };
  });
}

}  // namespace

void add_service_command(CLI::App& app, Runner& runner) {
  auto* service =
      app.add_subcommand("service", "Services: replica jobs scaled on the load they report (docs/live.md)");
  service->require_subcommand(1);
  add_create(service, runner);
  add_simple(service, runner, "list", "List services", "GET", print_services);
  add_simple(service, runner, "show", "Show a service and its replicas", "GET", print_service);
  add_simple(service, runner, "delete", "Delete a service: its replica jobs are cancelled", "DELETE",
             [](const json& v) { std::cout << "service " << cell(v, "name") << " deleted\n"; });
}

}  // namespace boreas::cli

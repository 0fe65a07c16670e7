#include "slurm/state.h"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>

#include "slurm/hostlist.h"

namespace boreas::slurm {
namespace {

using nlohmann::json;

// 22.05: 5; 23.02+: {"set": true, "infinite": false, "number": 5}. Unset or infinite -> 0.
int64_t number(const json& obj, const char* key) {
  const auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) {
    return 0;
  }
  if (it->is_number()) {
    return it->get<int64_t>();
  }
  if (it->is_object() && it->value("set", false) && !it->value("infinite", false)) {
    return it->value("number", int64_t{0});
  }
  return 0;
}

std::string text(const json& obj, const char* key) {
  const auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : "";
}

// 22.05: "RUNNING"; 23.02+: ["RUNNING"] or ["IDLE", "DRAIN"].
std::vector<std::string> words(const json& obj, const char* key) {
  const auto it = obj.find(key);
  std::vector<std::string> out;
  if (it == obj.end()) {
    return out;
  }
  if (it->is_string()) {
    out.push_back(it->get<std::string>());
  } else if (it->is_array()) {
    for (const auto& w : *it) {
      if (w.is_string()) {
        out.push_back(w.get<std::string>());
      }
    }
  }
  return out;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < s.size()) {
    size_t end = s.find(sep, start);
    end = end == std::string::npos ? s.size() : end;
    if (end > start) {
      out.push_back(s.substr(start, end - start));
    }
    start = end + 1;
  }
  return out;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

std::string upper(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::toupper(c); });
  return s;
}

// 22.05: the raw wait status; 23.02+: {"status": [...], "return_code": N|{number}, "signal": {...}}.
int32_t exit_code(const json& job) {
  const auto it = job.find("exit_code");
  if (it == job.end() || it->is_null()) {
    return 0;
  }
  if (it->is_number()) {
    return exit_code_from_wait_status(it->get<int64_t>());
  }
  if (it->is_object()) {
    const auto sig = it->find("signal");
    if (sig != it->end() && sig->is_object() && number(*sig, "id") > 0) {
      return static_cast<int32_t>(128 + number(*sig, "id"));
    }
    return static_cast<int32_t>(number(*it, "return_code"));
  }
  return 0;
}

Result<std::vector<std::string>> hosts(const json& obj, const char* key, uint64_t job) {
  auto list = expand_hostlist(text(obj, key));
  if (!list.is_ok()) {
    return list.status().with_context("job " + std::to_string(job) + " field '" + key + "': ");
  }
  return list;
}

// gres_detail: one "gpu:h100:2(IDX:0-1)" per allocated node.
Result<std::vector<std::vector<uint32_t>>> gpu_indexes(const json& job) {
  std::vector<std::vector<uint32_t>> out;
  for (const std::string& detail : words(job, "gres_detail")) {
    auto gres = parse_gres_list(detail);
    if (!gres.is_ok()) {
      return gres.status();
    }
    std::vector<uint32_t> idx;
    for (const Gres& g : *gres) {
      if (g.name == "gpu") {
        idx.insert(idx.end(), g.indexes.begin(), g.indexes.end());
      }
    }
    out.push_back(std::move(idx));
  }
  return out;
}

Result<SlurmJob> parse_job(const json& j) {
  SlurmJob job;
  job.id = static_cast<uint64_t>(number(j, "job_id"));
  if (job.id == 0) {
    return invalid_argument("a job without a job_id");
  }
  job.name = text(j, "name");
  job.comment = text(j, "comment");
  const auto states = words(j, "job_state");
  job.state = states.empty() ? "" : states.front();
  job.reason = text(j, "state_reason");
  auto nodes = hosts(j, "nodes", job.id);
  auto required = hosts(j, "required_nodes", job.id);
  auto idx = gpu_indexes(j);
  if (!nodes.is_ok() || !required.is_ok() || !idx.is_ok()) {
    return !nodes.is_ok() ? nodes.status() : !required.is_ok() ? required.status() : idx.status();
  }
  job.nodes = std::move(*nodes);
  job.required_nodes = std::move(*required);
  job.gpu_indexes = std::move(*idx);
  job.exit_code = exit_code(j);
  job.submit_time = number(j, "submit_time");
  job.start_time = number(j, "start_time");
  job.end_time = job.finished() ? number(j, "end_time") : 0;
  job.restarts = static_cast<uint32_t>(number(j, "restart_cnt"));
  job.user_id = static_cast<uint32_t>(number(j, "user_id"));
  return job;
}

Result<SlurmNode> parse_node(const json& n) {
  SlurmNode node;
  node.name = text(n, "name");
  if (node.name.empty()) {
    return invalid_argument("a node without a name");
  }
  auto states = words(n, "state");
  node.state = states.empty() ? "" : lower(states.front());
  for (size_t i = 1; i < states.size(); ++i) {
    node.flags.push_back(upper(states[i]));  // 23.02+ lists the flags after the base state
  }
  for (const auto& f : words(n, "state_flags")) {
    node.flags.push_back(upper(f));
  }
  node.reason = text(n, "reason");
  auto gres = parse_gres_list(text(n, "gres"));
  auto used = parse_gres_list(text(n, "gres_used"));
  if (!gres.is_ok() || !used.is_ok()) {
    return (gres.is_ok() ? used.status() : gres.status()).with_context("node " + node.name + ": ");
  }
  node.gres = std::move(*gres);
  node.gres_used = std::move(*used);
  const auto features = n.find("features");
  node.features =
      features != n.end() && features->is_array() ? words(n, "features") : split(text(n, "features"), ',');
  node.partitions = words(n, "partitions");
  node.cpus = static_cast<uint32_t>(number(n, "cpus"));
  node.memory_mib = static_cast<uint64_t>(number(n, "real_memory"));
  return node;
}

Result<json> document(std::string_view text_in, const char* list, const char* tool) {
  json doc = json::parse(text_in, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    return invalid_argument(std::string(tool) + " --json printed something that is not a JSON object");
  }
  const auto errors = doc.find("errors");
  if (errors != doc.end() && errors->is_array() && !errors->empty()) {
    return invalid_argument(std::string(tool) + " --json reported errors: " + errors->dump());
  }
  const auto it = doc.find(list);
  if (it == doc.end() || !it->is_array()) {
    return invalid_argument(std::string(tool) + " --json has no '" + list +
                            "' list; is this Slurm 21.08 or newer?");
  }
  return json(std::move(*it));
}

}  // namespace

int32_t exit_code_from_wait_status(int64_t status) {
  const int64_t signal = status & 0x7f;
  return static_cast<int32_t>(signal != 0 ? 128 + signal : (status >> 8) & 0xff);
}

bool SlurmJob::finished() const {
  static const char* const kTerminal[] = {"COMPLETED", "FAILED",    "CANCELLED", "TIMEOUT",      "NODE_FAIL",
                                          "PREEMPTED", "BOOT_FAIL", "DEADLINE",  "OUT_OF_MEMORY"};
  return std::any_of(std::begin(kTerminal), std::end(kTerminal),
                     [this](const char* s) { return state == s; });
}

int64_t SlurmJob::started_at() const {
  const bool running = state == "RUNNING" || state == "COMPLETING" || state == "SUSPENDED";
  const bool ran = finished() && !(state == "CANCELLED" && end_time <= start_time);
  return (running || ran) && start_time > 0 ? start_time : 0;
}

bool SlurmNode::in_service() const {
  static const char* const kOut[] = {"DRAIN",        "DRAINED",        "DRAINING",
                                     "FAIL",         "NOT_RESPONDING", "DOWN",
                                     "POWERED_DOWN", "MAINTENANCE",    "REBOOT_REQUESTED"};
  if (state == "down" || state == "future" || state == "unknown" || state == "error") {
    return false;
  }
  return std::none_of(flags.begin(), flags.end(), [](const std::string& f) {
    return std::any_of(std::begin(kOut), std::end(kOut), [&f](const char* o) { return f == o; });
  });
}

Result<std::vector<SlurmJob>> parse_jobs_json(std::string_view text_in) {
  auto list = document(text_in, "jobs", "squeue");
  if (!list.is_ok()) {
    return list.status();
  }
  std::vector<SlurmJob> jobs;
  for (const auto& j : *list) {
    auto job = parse_job(j);
    if (!job.is_ok()) {
      return job.status().with_context("squeue --json: ");
    }
    jobs.push_back(std::move(*job));
  }
  return jobs;
}

Result<std::vector<SlurmNode>> parse_nodes_json(std::string_view text_in) {
  auto list = document(text_in, "nodes", "sinfo");
  if (!list.is_ok()) {
    return list.status();
  }
  std::vector<SlurmNode> nodes;
  for (const auto& n : *list) {
    auto node = parse_node(n);
    if (!node.is_ok()) {
      return node.status().with_context("sinfo --json: ");
    }
    nodes.push_back(std::move(*node));
  }
  return nodes;
}

}  // namespace boreas::slurm

#include "slurm/client.h"

#include <charconv>
#include <cstdlib>
#include <filesystem>

namespace boreas::slurm {
namespace {

std::string id_text(uint64_t job) {
  return std::to_string(job);
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) {
    s.pop_back();
  }
  return s;
}

std::string gres_arg(const SubmitRequest& req) {
  return "--gres=gpu:" + (req.gpu_type.empty() ? "" : req.gpu_type + ":") + std::to_string(req.gpus_per_node);
}

// "123" or "123;cluster".
Result<uint64_t> parse_job_id(const std::string& out) {
  const std::string first = out.substr(0, out.find_first_of(";\n"));
  uint64_t id = 0;
  const auto [p, ec] = std::from_chars(first.data(), first.data() + first.size(), id);
  if (first.empty() || ec != std::errc() || p != first.data() + first.size() || id == 0) {
    return internal_error("sbatch --parsable printed '" + trimmed(out) + "' instead of a job id");
  }
  return id;
}

// A slurm.conf named but missing makes every Slurm tool retry for 60 s before it fails: say so now.
Status check_conf(const std::string& configured) {
  const char* env = std::getenv("SLURM_CONF");
  const std::string path = !configured.empty() ? configured : env != nullptr ? env : "";
  std::error_code ec;
  if (!path.empty() && !std::filesystem::is_regular_file(path, ec)) {
    return not_found("slurm.conf '" + path + "' (" + (configured.empty() ? "SLURM_CONF" : "--slurm-conf") +
                     ") is not a file; point it at the cluster's slurm.conf");
  }
  return Status::ok();
}

}  // namespace

std::string shell_quote(const std::vector<std::string>& argv) {
  std::string s;
  for (const auto& a : argv) {
    s += s.empty() ? "'" : " '";
    for (char c : a) {
      s += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    s += "'";
  }
  return s;
}

std::vector<std::string> sbatch_args(const SubmitRequest& req) {
  std::vector<std::string> a{"--parsable", "--nodes=" + std::to_string(req.nodes), "--ntasks-per-node=1",
                             "--export=ALL"};
  if (req.hold) {
    a.push_back("--hold");
  }
  if (!req.name.empty()) {
    a.push_back("--job-name=" + req.name);
  }
  if (!req.comment.empty()) {
    a.push_back("--comment=" + req.comment);
  }
  if (req.gpus_per_node > 0) {
    a.push_back(gres_arg(req));
  }
  if (!req.node_list.empty()) {
    std::string list;
    for (const auto& n : req.node_list) {
      list += (list.empty() ? "" : ",") + n;
    }
    a.push_back("--nodelist=" + list);
  }
  if (!req.cwd.empty()) {
    a.push_back("--chdir=" + req.cwd);
  }
  if (!req.error.empty()) {
    a.push_back("--error=" + req.error);
  }
  if (!req.output.empty()) {
    a.push_back("--output=" + req.output);
  }
  if (req.time_limit_min > 0) {
    a.push_back("--time=" + std::to_string(req.time_limit_min));
  }
  if (req.uid) {
    a.push_back("--uid=" + std::to_string(*req.uid));
  }
  std::string wrap = shell_quote(req.argv);
  if (!req.exit_file.empty()) {
    wrap += "; rc=$?; echo \"$rc\" > " + shell_quote({req.exit_file}) + "; exit \"$rc\"";
  }
  a.push_back("--wrap=" + wrap);
  return a;
}

Result<std::string> Client::run(const std::vector<std::string>& argv, std::vector<std::string> env) const {
  BOREAS_RETURN_IF_ERROR(check_conf(options_.slurm_conf));
  if (!options_.slurm_conf.empty()) {
    env.push_back("SLURM_CONF=" + options_.slurm_conf);
  }
  auto out = run_command(argv, env);
  if (!out.is_ok()) {
    return out.status();
  }
  if (out->exit_code != 0) {
    const std::string err = trimmed(out->err.empty() ? out->out : out->err);
    return io_error(quote_command(argv) + " failed (exit " + std::to_string(out->exit_code) +
                    "): " + (err.empty() ? "no message" : err));
  }
  return std::move(out->out);
}

Status Client::run_ok(const std::vector<std::string>& argv) const {
  auto out = run(argv);
  return out.is_ok() ? Status::ok() : out.status();
}

Result<uint64_t> Client::submit(const SubmitRequest& req) const {
  if (req.argv.empty()) {
    return invalid_argument("a Slurm job needs a command");
  }
  std::vector<std::string> argv{"sbatch"};
  for (auto& a : sbatch_args(req)) {
    argv.push_back(std::move(a));
  }
  auto out = run(argv, req.env);
  if (!out.is_ok()) {
    return out.status();
  }
  return parse_job_id(*out);
}

Status Client::pin(uint64_t job, const std::vector<std::string>& nodes) const {
  std::string list;
  for (const auto& n : nodes) {
    list += (list.empty() ? "" : ",") + n;
  }
  return run_ok({"scontrol", "update", "JobId=" + id_text(job), "NodeList=" + list});
}

Status Client::release(uint64_t job) const {
  return run_ok({"scontrol", "release", id_text(job)});
}

Status Client::signal(uint64_t job, const std::string& signal, bool whole_job) const {
  return run_ok({"scancel", "--signal=" + signal, whole_job ? "--full" : "--batch", id_text(job)});
}

Status Client::requeue(uint64_t job, bool hold) const {
  return run_ok({"scontrol", hold ? "requeuehold" : "requeue", id_text(job)});
}

Status Client::start_now(uint64_t job) const {
  return run_ok({"scontrol", "update", "JobId=" + id_text(job), "StartTime=now"});
}

Status Client::cancel(uint64_t job) const {
  return run_ok({"scancel", id_text(job)});
}

Status Client::drain(const std::string& node, const std::string& reason) const {
  return run_ok({"scontrol", "update", "NodeName=" + node, "State=DRAIN",
                 "Reason=" + (reason.empty() ? std::string("boreas drain") : reason)});
}

Status Client::resume(const std::string& node) const {
  return run_ok({"scontrol", "update", "NodeName=" + node, "State=RESUME"});
}

Result<std::vector<SlurmJob>> Client::jobs() const {
  auto out = run({"squeue", "--json"});
  return out.is_ok() ? parse_jobs_json(*out) : Result<std::vector<SlurmJob>>(out.status());
}

Result<SlurmJob> Client::job(uint64_t id) const {
  auto all = jobs();
  if (!all.is_ok()) {
    return all.status();
  }
  for (auto& j : *all) {
    if (j.id == id) {
      return std::move(j);
    }
  }
  return not_found("Slurm job " + id_text(id) + " is not in squeue (finished more than MinJobAge ago?)");
}

Result<std::vector<SlurmNode>> Client::nodes() const {
  auto out = run({"sinfo", "--json"});
  return out.is_ok() ? parse_nodes_json(*out) : Result<std::vector<SlurmNode>>(out.status());
}

Result<std::vector<SlurmSwitch>> Client::topology() const {
  auto out = run({"scontrol", "show", "topology"});
  return out.is_ok() ? parse_topology(*out) : Result<std::vector<SlurmSwitch>>(out.status());
}

Status Client::ping() const {
  auto out = run({"scontrol", "ping"});
  if (!out.is_ok()) {
    return out.status();
  }
  if (out->find("is UP") == std::string::npos) {
    return io_error("slurmctld is not up: 'scontrol ping' says: " + trimmed(*out));
  }
  return Status::ok();
}

}  // namespace boreas::slurm

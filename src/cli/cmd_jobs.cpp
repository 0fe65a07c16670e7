// The job commands Slurm users reach for: `jobs` (squeue), `cancel` (scancel), `logs` (the
// output files), `why` (squeue's reason, and where a running job runs).

#include <algorithm>
#include <chrono>
#include <iostream>
#include <map>
#include <thread>

#include <httplib.h>
#include <unistd.h>

#include "cli/client.h"
#include "cli/job_table.h"
#include "core/job_states.h"

namespace boreas::cli {
namespace {

using nlohmann::json;

int64_t now_us() {
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// A 404 on a job's route means the id is unknown (or the token may not see it).
Status no_job(const Status& s, uint32_t id) {
  return s.code() == ErrorCode::kNotFound ? not_found("no job " + std::to_string(id)) : s;
}

struct JobsArgs {
  bool all = false;
  std::string states;
  std::string user;
  std::string queue;
  std::string name;
  std::string format;
  bool noheader = false;
  uint32_t page_size = 0;  // jobs per GET /v1/jobs page; 0 = the daemon's default
  double watch_s = 0;
};

// Every page of GET /v1/jobs with these parameters (the daemon pages by id: next_after).
Status fetch_pages(const ClientArgs& a, httplib::Params params, uint32_t page_size, std::map<uint64_t, json>& out) {
  if (page_size > 0) {
    params.emplace("limit", std::to_string(page_size));
  }
  for (std::string after = "0";;) {
    params.erase("after");
    params.emplace("after", after);
    auto r = request(a, "GET", "/v1/jobs?" + httplib::detail::params_to_query_str(params));
    if (!r.is_ok()) {
      return r.status();
    }
    for (const json& job : (*r)["jobs"]) {
      out[job.value("id", uint64_t{0})] = job;
    }
    if (!r->contains("next_after")) {
      return Status::ok();
    }
    after = std::to_string((*r)["next_after"].get<uint64_t>());
  }
}

// GET /v1/jobs filtered by owner, queue and each state on the server (so the active jobs cost
// the same with any history), by name here; by id.
Result<json> fetch_jobs(const ClientArgs& a, const JobsArgs& j, const std::vector<std::string>& states) {
  httplib::Params params;
  if (!j.user.empty()) {
    params.emplace("owner", j.user);
  }
  if (!j.queue.empty()) {
    params.emplace("queue", j.queue);
  }
  std::map<uint64_t, json> by_id;
  for (size_t i = 0; i < std::max<size_t>(states.size(), 1); ++i) {
    httplib::Params p = params;
    if (!states.empty()) {
      p.emplace("state", states[i]);
    }
    BOREAS_RETURN_IF_ERROR(fetch_pages(a, std::move(p), j.page_size, by_id));
  }
  json kept = json::array();
  for (auto& [id, job] : by_id) {
    if (j.name.empty() || job["request"].value("name", "") == j.name) {
      kept.push_back(std::move(job));
    }
  }
  return json{{"jobs", kept}};
}

void print_jobs(const json& jobs, const std::vector<JobColumn>& columns, bool noheader) {
  std::vector<std::string> header;
  for (const JobColumn& c : columns) {
    header.push_back(c.header);
  }
  std::vector<std::vector<std::string>> rows;
  for (const json& job : jobs["jobs"]) {
    rows.push_back(job_cells(job, columns, now_us()));
  }
  print_table(noheader ? std::vector<std::string>() : header, rows);
}

int run_jobs_once(const ClientArgs& a, const JobsArgs& j, const std::vector<std::string>& states) {
  auto jobs = fetch_jobs(a, j, states);
  if (!jobs.is_ok()) {
    return report_error(jobs.status());
  }
  if (a.json_out || j.format == "json") {
    std::cout << jobs->dump(2, ' ', false, json::error_handler_t::replace) << "\n";
  } else if (j.format == "yaml") {
    std::cout << to_yaml(*jobs);
  } else {
    print_jobs(*jobs, *job_columns(j.format), j.noheader);
  }
  return kExitOk;
}

int run_jobs(const ClientArgs& a, const JobsArgs& j) {
  auto states = states_to_show(j.states, j.all);
  auto columns = j.format == "json" || j.format == "yaml" ? Result<std::vector<JobColumn>>(std::vector<JobColumn>{})
                                                          : job_columns(j.format);
  const Status bad = !states.is_ok() ? states.status() : !columns.is_ok() ? columns.status() : Status::ok();
  if (!bad.is_ok()) {
    return report_error(bad);
  }
  if (j.watch_s <= 0) {
    return run_jobs_once(a, j, *states);
  }
  while (true) {  // until interrupted, as `watch` and `squeue -i`
    if (isatty(STDOUT_FILENO) != 0) {
      std::cout << "\033[H\033[2J";
    }
    std::cout << "every " << j.watch_s << " s\n";
    (void)run_jobs_once(a, j, *states);
    std::cout.flush();
    std::this_thread::sleep_for(std::chrono::milliseconds(static_cast<int64_t>(j.watch_s * 1000)));
  }
}

void add_jobs(CLI::App& app, Runner& runner) {
  auto* cmd = app.add_subcommand("jobs", "List active jobs (like squeue); --all for history");
  auto a = std::make_shared<ClientArgs>();
  auto j = std::make_shared<JobsArgs>();
  add_common(cmd, *a);
  cmd->add_flag("-a,--all", j->all, "Every job, ended ones too (default: pending, running, preempted)");
  cmd->add_option("-t,--state,--states", j->states,
                  "Only these states, comma-separated: " + job_state_names());
  cmd->add_option("-u,--user,--owner", j->user, "Only this user's jobs (the token's name)");
  cmd->add_option("-A,--account,--queue", j->queue, "Only this queue");
  cmd->add_option("-n,--name", j->name, "Only jobs of this name");
  cmd->add_option("-o,--format", j->format,
                  "wide, json, yaml, or a comma-separated column list (id,name,user,queue,state,time,gpus,"
                  "nodelist,gpu_type,qos,time_limit,submit_time,start_time,exit,node,reason,command)");
  cmd->add_flag("--noheader", j->noheader, "Leave out the header line");
  cmd->add_option("--page-size", j->page_size, "Jobs per API page (tests; default: the daemon's)")
      ->check(CLI::Range(1, 10000))
      ->group("");  // hidden
  cmd->add_option("-i,--iterate,--watch", j->watch_s, "Redraw every N seconds until interrupted")
      ->check(CLI::Range(0.1, 3600.0));
  cmd->callback([&runner, a, j] { runner.action = [a, j] { return run_jobs(*a, *j); }; });
}

struct CancelArgs {
  std::vector<std::string> ids;
  std::string user;
  std::string name;
};

// The ids to cancel: those given, narrowed (or found, when none is given) by -u and -n among
// active jobs, as scancel does.
Result<std::vector<uint32_t>> cancel_targets(const ClientArgs& a, const CancelArgs& c) {
  std::vector<uint32_t> ids;
  for (const std::string& text : c.ids) {
    auto id = parse_job_id(text);
    if (!id.is_ok()) {
      return id.status();
    }
    ids.push_back(*id);
  }
  if (c.user.empty() && c.name.empty()) {
    return ids.empty() ? Result<std::vector<uint32_t>>(invalid_argument("give job ids, -u USER or -n NAME"))
                       : Result<std::vector<uint32_t>>(ids);
  }
  JobsArgs filter;
  filter.user = c.user;
  filter.name = c.name;
  auto jobs = fetch_jobs(a, filter, *states_to_show("", false));
  if (!jobs.is_ok()) {
    return jobs.status();
  }
  std::vector<uint32_t> matched;
  for (const json& job : (*jobs)["jobs"]) {
    const uint32_t id = job["id"].get<uint32_t>();
    if (ids.empty() || std::find(ids.begin(), ids.end(), id) != ids.end()) {
      matched.push_back(id);
    }
  }
  return matched;
}

int run_cancel(const ClientArgs& a, const CancelArgs& c) {
  auto ids = cancel_targets(a, c);
  if (!ids.is_ok()) {
    return report_error(ids.status());
  }
  if (ids->empty()) {
    std::cerr << "boreas: no active job matches; nothing cancelled\n";
  }
  int rc = kExitOk;
  json done = json::array();
  for (uint32_t id : *ids) {
    auto r = request(a, "POST", "/v1/jobs/" + std::to_string(id) + "/cancel", "{}");
    if (!r.is_ok()) {
      rc = report_error(no_job(r.status(), id));
      continue;
    }
    done.push_back(*r);
    if (!a.json_out) {
      std::cout << "Cancelled job " << id << "\n";
    }
  }
  if (a.json_out) {
    std::cout << json{{"jobs", done}}.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
  }
  return rc;
}

void add_cancel(CLI::App& app, Runner& runner) {
  auto* cmd = app.add_subcommand("cancel", "Cancel jobs (like scancel): boreas cancel 42 43, -u USER, -n NAME");
  auto a = std::make_shared<ClientArgs>();
  auto c = std::make_shared<CancelArgs>();
  add_common(cmd, *a);
  cmd->add_option("ids", c->ids, "Job ids");
  cmd->add_option("-u,--user", c->user, "Every active job of this user (with ids: only those of them)");
  cmd->add_option("-n,--name,--job-name", c->name, "Every active job of this name");
  cmd->callback([&runner, a, c] { runner.action = [a, c] { return run_cancel(*a, *c); }; });
}

struct LogsArgs {
  std::string id;
  bool follow = false;
  bool err = false;
};

// Prints the file from the start; with --follow, polls for more until the job has ended and
// everything it wrote is printed.
int run_logs(const ClientArgs& a, const LogsArgs& l) {
  auto id = parse_job_id(l.id);
  if (!id.is_ok()) {
    return report_error(id.status());
  }
  uint64_t offset = 0;
  const std::string base = "/v1/jobs/" + std::to_string(*id) + "/logs?stream=" + (l.err ? "stderr" : "stdout");
  while (true) {
    auto r = request(a, "GET", base + "&offset=" + std::to_string(offset));
    if (!r.is_ok()) {
      return report_error(no_job(r.status(), *id));
    }
    const std::string data = (*r)["data"].get<std::string>();
    std::cout << data << std::flush;
    offset = (*r)["next_offset"].get<uint64_t>();
    const std::string state = (*r)["state"].get<std::string>();
    const auto parsed = parse_job_state(state);
    const bool active = parsed && !is_terminal(*parsed);
    if (offset < (*r)["size"].get<uint64_t>()) {
      continue;  // more than one chunk
    }
    if (!l.follow || (!active && data.empty())) {
      return kExitOk;
    }
    if (data.empty()) {
      std::this_thread::sleep_for(std::chrono::seconds(1));
    }
  }
}

void add_logs(CLI::App& app, Runner& runner) {
  auto* cmd = app.add_subcommand("logs", "Print a job's output (its owner and admins): boreas logs 42 [-f]");
  auto a = std::make_shared<ClientArgs>();
  auto l = std::make_shared<LogsArgs>();
  add_common(cmd, *a);
  cmd->add_option("id", l->id, "Job id")->required();
  cmd->add_flag("-f,--follow", l->follow, "Keep printing as the job writes, until it ends");
  cmd->add_flag("-e,--stderr", l->err, "Standard error instead of standard output");
  cmd->callback([&runner, a, l] { runner.action = [a, l] { return run_logs(*a, *l); }; });
}

std::string gpu_list(const json& gpus) {
  std::string out;
  for (const auto& g : gpus) {
    out += (out.empty() ? "" : ",") + g.dump();
  }
  return out;
}

// "node-a (GPUs 0,1)"; a gang across nodes: "n1 (GPUs 0-7 as 0,...,7), n2 (GPUs ...)"
std::string placement_text(const json& job) {
  std::string out;
  for (const auto& n : job.value("nodes", json::array())) {
    const std::string gpus = gpu_list(n.value("gpu_indexes", json::array()));
    out += (out.empty() ? "" : ", ") + cell(n, "node") + (gpus.empty() ? " (no GPUs)" : " (GPUs " + gpus + ")");
  }
  if (job.contains("gpu_share")) {  // "node-a (GPUs 0) sharing 0.5 GPU and 40 GiB of its memory"
    const json& s = job["gpu_share"];
    const uint64_t bytes = s.value("memory_bytes", uint64_t{0});
    const std::string mem = bytes % (uint64_t{1} << 30) == 0 ? std::to_string(bytes >> 30) + " GiB"
                                                              : std::to_string(bytes >> 20) + " MiB";
    out += " sharing " + s.value("gpus", json(0)).dump() + " GPU and " + mem + " of its memory";
  }
  return out;
}

// "running on node-a (GPUs 0,1) since 2026-11-24T04:30:00Z (for 5:03)"
void print_running(const json& job) {
  const JobColumn start{"start_time", ""};
  const JobColumn time{"time", ""};
  const auto cells = job_cells(job, {start, time}, now_us());
  std::cout << "running on " << placement_text(job) << " since " << cells[0] << " (for " << cells[1] << ")\n";
}

int run_why(const ClientArgs& a, const std::string& text) {
  auto id = parse_job_id(text);
  if (!id.is_ok()) {
    return report_error(id.status());
  }
  const std::string path = "/v1/jobs/" + std::to_string(*id);
  auto why = request(a, "GET", path + "/why");
  // Running in Boreas but held back by the executor (Slurm's reason): the reason says so.
  if (!why.is_ok() || a.json_out || (*why)["state"] != "running" || why->contains("executor_wait")) {
    return show(a, why.is_ok() ? why : Result<json>(no_job(why.status(), *id)),
                [](const json& j) { std::cout << cell(j, "state") << ": " << cell(j, "reason") << "\n"; });
  }
  auto job = request(a, "GET", path);
  return show(a, job.is_ok() ? job : Result<json>(no_job(job.status(), *id)), print_running);
}

void add_why(CLI::App& app, Runner& runner) {
  auto* cmd = app.add_subcommand("why", "Why a job is pending, where it runs, or how it ended");
  auto a = std::make_shared<ClientArgs>();
  auto id = std::make_shared<std::string>();
  add_common(cmd, *a);
  cmd->add_option("id", *id, "Job id")->required();
  cmd->callback([&runner, a, id] { runner.action = [a, id] { return run_why(*a, *id); }; });
}

}  // namespace

void add_job_commands(CLI::App& app, Runner& runner) {
  add_jobs(app, runner);
  add_cancel(app, runner);
  add_logs(app, runner);
  add_why(app, runner);
}

}  // namespace boreas::cli

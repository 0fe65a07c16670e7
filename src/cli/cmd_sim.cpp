// `boreas sim`: replay a trace on a cluster under one or more policies (one thread each) and print
// a comparison row per policy; with --out, write docs/formats/sim-output.md files.
#include <unistd.h>

#include <fmt/format.h>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <future>
#include <iostream>
#include <memory>
#include <sstream>
#include <thread>

#include "cli/command.h"
#include "cli/sim_placement.h"
#include "cli/sim_tenancy.h"
#include "config/cluster_spec.h"
#include "policy/registry.h"
#include "report/chrome_trace.h"
#include "report/html_report.h"
#include "sim/output.h"
#include "sim/run.h"
#include "trace/trace.h"

namespace boreas::cli {

namespace {

struct SimArgs {
  std::string cluster, trace, format = "auto", map, policies = "fifo", out;
  std::string report, schedule_trace;  // optional views built from the --out files
  std::string physics = "none";        // models the engine applies (docs/models.md)
  std::string window;                  // --window START:END (docs/formats/sim-output.md)
  sim::MeterOptions meter;
  sim::PhysicsSwitches physics_on;
  uint64_t seed = 0;
  double sample_interval_s = 300, preemption_overhead_s = 0, time_limit_factor = 1.0, starvation = 0;
  std::vector<double> las_thresholds{3250, 7200};
  TenancyArgs tenancy;
  PlacementArgs placement_args;
};

std::vector<std::string> split_policies(const std::string& list) {
  std::vector<std::string> out;
  std::stringstream ss(list);
  for (std::string item; std::getline(ss, item, ',');) {
    if (!item.empty()) {
      out.push_back(item);
    }
  }
  return out;
}

Status check_args(const SimArgs& a, const policy::PolicyRegistry& registry,
                  const std::vector<std::string>& names) {
  if (names.empty()) {
    return invalid_argument("--policy: give at least one policy, e.g. --policy fifo,las");
  }
  for (const auto& n : names) {
    BOREAS_RETURN_IF_ERROR(registry.check_policy(n).with_context("--policy: "));
  }
  policy::PolicyOptions probe;
  BOREAS_RETURN_IF_ERROR(apply_placement_options(a.placement_args, registry, probe));
  sim::MeterOptions window;
  BOREAS_RETURN_IF_ERROR(a.window.empty() ? Status::ok() : sim::parse_window(a.window, window));
  if (a.sample_interval_s <= 0 || a.preemption_overhead_s < 0 || a.time_limit_factor <= 0) {
    return invalid_argument(
        "--sample-interval and --time-limit-factor must be > 0, --preemption-overhead >= 0");
  }
  return Status::ok();
}

// Shares of jobs finished per policy, drawn on stderr while the runs go on (only on a terminal).
void draw_progress(const std::vector<std::string>& names, const std::vector<std::atomic<double>>& done) {
  std::string line = "\r";
  for (size_t i = 0; i < names.size(); ++i) {
    line += fmt::format("{} {:3.0f}%  ", names[i], 100 * done[i].load());
  }
  std::cerr << line << std::flush;
}

void print_table(const std::vector<sim::RunOutput>& runs) {
  std::cout << fmt::format("{:<14} {:<12} {:>8} {:>12} {:>12} {:>12} {:>12} {:>12} {:>8} {:>8} {:>8}\n",
                           "policy", "placement", "jobs", "avg_jct_s", "p50_jct_s", "p99_jct_s",
                           "avg_queue_s", "makespan_s", "win_util", "preempt", "wall_s");
  for (const auto& r : runs) {
    const sim::Summary& s = r.summary;
    std::cout << fmt::format(
        "{:<14} {:<12} {:>8} {:>12.1f} {:>12.1f} {:>12.1f} {:>12.1f} {:>12.0f} {:>8.4f} {:>8} {:>8.3f}\n",
        r.policy, r.placement, s.jobs, s.avg_jct_s, s.p50_jct_s, s.p99_jct_s, s.avg_queue_s, s.makespan_s,
        s.window_utilization, s.preemptions, r.wall_time_s);
  }
  if (!runs.empty()) {
    std::cout << fmt::format("win_util: allocated GPU time / capacity from {:.0f} s to {:.0f} s after the "
                             "first submission (--window)\n",
                             runs[0].summary.window_start_s, runs[0].summary.window_end_s);
  }
}

sim::RunRequest make_request(const SimArgs& a, const policy::PolicyRegistry& registry, const Cluster& cluster,
                             const trace::Trace& tr, const std::string& name) {
  sim::RunRequest req;
  req.cluster = &cluster;
  req.jobs = tr.jobs;
  req.symbols = &tr.symbols;
  req.policy = name;
  req.policy_options.time_limit_factor = a.time_limit_factor;
  req.policy_options.service.thresholds_gpu_s = a.las_thresholds;
  req.policy_options.service.starvation_factor = a.starvation;
  req.policy_options.tenancy = a.tenancy.loaded;
  (void)apply_placement_options(a.placement_args, registry, req.policy_options);  // checked in check_args
  req.engine_options.sample_interval = Duration::from_seconds(a.sample_interval_s);
  req.engine_options.preemption_overhead = Duration::from_seconds(a.preemption_overhead_s);
  req.engine_options.seed = a.seed;
  req.engine_options.physics.on = a.physics_on;
  req.engine_options.meter = a.meter;
  return req;
}

// One thread per policy: each owns its ClusterState and Scheduler; they share only const inputs.
std::vector<Result<sim::RunOutput>> run_all(const SimArgs& a, const policy::PolicyRegistry& registry,
                                            const Cluster& cluster, const trace::Trace& tr,
                                            const std::vector<std::string>& names) {
  std::vector<std::atomic<double>> done(names.size());
  std::vector<std::future<Result<sim::RunOutput>>> futures;
  for (size_t i = 0; i < names.size(); ++i) {
    sim::RunRequest req = make_request(a, registry, cluster, tr, names[i]);
    req.progress = [&done, i](double f) { done[i].store(f); };
    futures.push_back(
        std::async(std::launch::async, [&registry, req] { return sim::run_policy(registry, req); }));
  }
  const bool tty = isatty(STDERR_FILENO) != 0;
  std::vector<Result<sim::RunOutput>> out;
  for (auto& f : futures) {
    while (tty && f.wait_for(std::chrono::milliseconds(200)) != std::future_status::ready) {
      draw_progress(names, done);
    }
    out.push_back(f.get());
  }
  if (tty) {
    std::cerr << "\r" << std::string(names.size() * 20, ' ') << "\r" << std::flush;
  }
  return out;
}

// The HTML report and the Chrome trace are built from the files just written, exactly as
// `boreas report` builds them from saved runs: one code path for both.
int write_views(const SimArgs& a) {
  if (!a.report.empty()) {
    report::ReportOptions options;
    options.title = "Boreas: " + a.trace;
    if (Status st = report::write_html_report({a.out}, a.report, options); !st.is_ok()) {
      return report_error(st);
    }
    std::cout << "report: " << a.report << "\n";
  }
  if (!a.schedule_trace.empty()) {
    if (Status st = report::write_schedule_trace({a.out}, a.schedule_trace); !st.is_ok()) {
      return report_error(st);
    }
    std::cout << "schedule trace: " << a.schedule_trace << "\n";
  }
  return kExitOk;
}

int run_sim(SimArgs& a) {
  if (a.out.empty() && !(a.report.empty() && a.schedule_trace.empty())) {
    a.out = (a.report.empty() ? a.schedule_trace : a.report) + ".runs";  // the views need the files
  }
  policy::PolicyRegistry registry;
  policy::register_baseline(registry);
  const auto names = split_policies(a.policies);
  if (Status st = check_args(a, registry, names); !st.is_ok()) {
    return report_error(st);
  }
  auto physics = sim::parse_physics(a.physics);
  if (!physics.is_ok()) {
    return report_error(physics.status());
  }
  a.physics_on = *physics;
  if (!a.window.empty()) {
    (void)sim::parse_window(a.window, a.meter);  // checked in check_args
  }
  auto cluster = config::load_cluster_file(a.cluster);
  if (!cluster.is_ok()) {
    return report_error(cluster.status());
  }
  trace::ReadOptions ro;
  ro.format = a.format;
  ro.column_map = a.map;
  auto tr = trace::read_trace_file(a.trace, ro);
  if (!tr.is_ok()) {
    return report_error(tr.status());
  }
  if (Status st = prepare_tenancy(a.tenancy, *cluster, *tr, a.seed); !st.is_ok()) {
    return report_error(st);
  }
  auto results = run_all(a, registry, *cluster, *tr, names);
  std::vector<sim::RunOutput> runs;
  for (auto& r : results) {
    if (!r.is_ok()) {
      return report_error(r.status());
    }
    runs.push_back(std::move(*r));
  }
  print_table(runs);
  if (!a.tenancy.explain.empty()) {
    if (Status st = print_explain(a.tenancy, runs, *tr); !st.is_ok()) {
      return report_error(st);
    }
  }
  if (!a.out.empty()) {
    for (const auto& r : runs) {
      const Status st =
          sim::write_run(a.out + "/" + r.policy, r, sim::OutputInfo{cluster->name, a.trace, a.seed}, *cluster,
                         tr->jobs, tr->symbols);
      if (!st.is_ok()) {
        return report_error(st);
      }
    }
    std::cout << "wrote " << a.out << "/<policy>/{summary.json,jobs.csv,timeseries.csv,runs.csv}\n";
  }
  return write_views(a);
}

}  // namespace

void add_sim_commands(CLI::App& app, Runner& runner) {
  auto a = std::make_shared<SimArgs>();
  auto* cmd =
      app.add_subcommand("sim", "Replay a trace on a cluster under one or more policies (the digital twin)");
  cmd->add_option("--cluster", a->cluster, "cluster spec YAML")->required();
  cmd->add_option("--trace", a->trace, "job trace (any supported format, .gz ok)")->required();
  cmd->add_option("--format", a->format, "trace format (default: auto-detect)");
  cmd->add_option("--map", a->map, "generic CSV column map, e.g. submit=ts,duration=run,gpus=n");
  cmd->add_option("--policy", a->policies,
                  "comma-separated policies: fifo,fjf,easy-backfill,srtf,srtf-gpu,las,gittins,boreas");
  cmd->add_option("--seed", a->seed, "random seed (recorded; for stochastic models)");
  cmd->add_option("--out", a->out, "write DIR/<policy>/{summary.json,jobs.csv,timeseries.csv,runs.csv}");
  cmd->add_option("--report", a->report, "also write the HTML comparison report to FILE.html");
  cmd->add_option("--schedule-trace", a->schedule_trace,
                  "also write the schedule as a Chrome trace (Perfetto, chrome://tracing) to FILE.json");
  cmd->add_option("--sample-interval", a->sample_interval_s,
                  "time-series sample interval, simulated seconds");
  cmd->add_option("--preemption-overhead", a->preemption_overhead_s,
                  "seconds of work redone after each preemption");
  cmd->add_option("--time-limit-factor", a->time_limit_factor,
                  "easy-backfill: a job without a time limit asks for this × its duration");
  cmd->add_option("--las-thresholds", a->las_thresholds, "las/gittins queue thresholds in GPU-seconds")
      ->delimiter(',');
  cmd->add_option("--starvation-factor", a->starvation,
                  "las/gittins: promote a job pending this many times its run time (0 = off)");
  cmd->add_option("--window", a->window,
                  "measurement window START:END, seconds since the first submission (default: first to "
                  "last submission; either side may be empty)");
  cmd->add_option("--physics", a->physics,
                  "models applied: none (default), all, or a comma list of "
                  "throughput,comm,power,thermal,failures,checkpoint,spot,cost");
  add_tenancy_options(cmd, a->tenancy);
  add_placement_options(cmd, a->placement_args);
  cmd->callback([&runner, a] { runner.action = [a] { return run_sim(*a); }; });
}

}  // namespace boreas::cli

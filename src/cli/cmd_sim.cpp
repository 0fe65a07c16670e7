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

#include "cli/batch_memory.h"
#include "cli/command.h"
#include "cli/sim_mixed.h"
#include "cli/sim_options.h"
#include "config/cluster_spec.h"
#include "policy/registry.h"
#include "report/chrome_trace.h"
#include "report/html_report.h"
#include "sim/output.h"
#include "sim/run.h"
#include "trace/trace.h"

namespace boreas::cli {

namespace {

// Shares of jobs finished per policy, drawn on stderr while the runs go on (only on a terminal).
void draw_progress(const std::vector<std::string>& names, const std::vector<std::atomic<double>>& done) {
  std::string line = "\r";
  for (size_t i = 0; i < names.size(); ++i) {
    line += fmt::format("{} {:3.0f}%  ", names[i], 100 * done[i].load());
  }
  std::cerr << line << std::flush;
}

// What the numbers are relative to: the reference hardware and the offered load.
void print_inputs(const SimInputs& in) {
  std::cout << fmt::format("reference GPU: {} ({}); the cluster is worth {:.0f} of them; offered load {:.3f}\n",
                           in.reference.name.empty() ? "none" : in.reference.name, in.reference.why,
                           in.reference_capacity, in.offered_load);
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

// One thread per policy: each owns its ClusterState and Scheduler; they share only const inputs.
std::vector<Result<sim::RunOutput>> run_all(const SimArgs& a, const policy::PolicyRegistry& registry,
                                            const SimInputs& inputs, const std::vector<std::string>& names) {
  std::vector<std::atomic<double>> done(names.size());
  std::vector<std::future<Result<sim::RunOutput>>> futures;
  for (size_t i = 0; i < names.size(); ++i) {
    futures.push_back(std::async(std::launch::async, [&, i] {
      return run_one_policy(a, registry, inputs, names[i], [&done, i](double f) { done[i].store(f); });
    }));
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
  keep_freed_memory();
  if (a.out.empty() && !(a.report.empty() && a.schedule_trace.empty())) {
    a.out = (a.report.empty() ? a.schedule_trace : a.report) + ".runs";  // the views need the files
  }
  policy::PolicyRegistry registry;
  policy::register_baseline(registry);
  auto inputs = read_sim_inputs(a);
  if (!inputs.is_ok()) {
    return report_error(inputs.status());
  }
  if (Status st = prepare_sim_inputs(a, registry, *inputs); !st.is_ok()) {
    return report_error(st);
  }
  print_inputs(*inputs);
  if (is_mixed(a)) {
    return run_mixed_command(a, registry, *inputs);
  }
  const auto names = split_policies(a.policies);
  auto results = run_all(a, registry, *inputs, names);
  std::vector<sim::RunOutput> runs;
  for (auto& r : results) {
    if (!r.is_ok()) {
      return report_error(r.status());
    }
    runs.push_back(std::move(*r));
  }
  print_table(runs);
  if (!a.tenancy.explain.empty()) {
    if (Status st = print_explain(a.tenancy, runs, inputs->trace); !st.is_ok()) {
      return report_error(st);
    }
  }
  if (!a.out.empty()) {
    for (const auto& r : runs) {
      const Status st = sim::write_run(a.out + "/" + r.policy, r, output_info(a, *inputs), inputs->cluster,
                                       inputs->trace.jobs, inputs->trace.symbols);
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
  add_sim_options(cmd, *a);
  cmd->add_option("--out", a->out, "write DIR/<policy>/{summary.json,jobs.csv,timeseries.csv,runs.csv}");
  cmd->add_option("--report", a->report, "also write the HTML comparison report to FILE.html");
  cmd->add_option("--schedule-trace", a->schedule_trace,
                  "also write the schedule as a Chrome trace (Perfetto, chrome://tracing) to FILE.json");
  cmd->callback([&runner, a] { runner.action = [a] { return run_sim(*a); }; });
  add_sim_serving_command(*cmd, runner);
}

}  // namespace boreas::cli

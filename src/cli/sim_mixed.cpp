#include "cli/sim_mixed.h"

#include <fmt/format.h>

#include <fstream>
#include <iostream>

#include "cli/command.h"
#include "cli/sim_options.h"
#include "mixed/mixed.h"
#include "serving/request_trace.h"
#include "serving/service_spec.h"
#include "sim/output.h"

namespace boreas::cli {

void add_mixed_options(CLI::App* cmd, SimArgs& a) {
  cmd->add_option("--service", a.service,
                  "mixed cluster: a service spec YAML whose replicas run beside the training trace "
                  "(docs/serving.md, Mixed cluster; needs --service-trace)");
  cmd->add_option("--service-trace", a.service_trace,
                  "mixed cluster: the service's request trace (Azure LLM 2023, Mooncake); its time 0 is the "
                  "training trace's first submission");
  cmd->add_option("--service-start", a.service_start_s,
                  "mixed cluster: seconds after the training trace's first submission at which the request "
                  "trace begins (default 0)");
  cmd->add_option("--service-queue", a.service_queue, "mixed cluster: the replicas' queue (default serving)");
  cmd->add_option("--service-class", a.service_class,
                  "mixed cluster: the replicas' priority class, non-preemptible in --queues (default production)");
}

bool is_mixed(const SimArgs& a) { return !a.service.empty() || !a.service_trace.empty(); }

Status check_mixed_args(const SimArgs& a) {
  if (!is_mixed(a)) {
    return Status::ok();
  }
  if (a.service.empty() || a.service_trace.empty()) {
    return invalid_argument("--service and --service-trace go together: give the service spec and its request trace");
  }
  if (a.policies.find(',') != std::string::npos) {
    return invalid_argument(fmt::format("--policy '{}': a mixed cluster (--service) runs one policy; run once per "
                                        "policy",
                                        a.policies));
  }
  if (!a.report.empty() || !a.schedule_trace.empty()) {
    return invalid_argument("--report and --schedule-trace do not draw a mixed cluster (--service) yet; use --out "
                            "and read DIR/<policy>/summary.json");
  }
  if (a.service_start_s < 0) {
    return invalid_argument("--service-start: give seconds >= 0 after the training trace's first submission");
  }
  if (a.physics != "none") {
    return invalid_argument("--physics: a mixed cluster (--service) runs without physics (a replica's end is its "
                            "autoscaler's decision, not work at a rate); leave --physics out");
  }
  return Status::ok();
}

namespace {

struct ServiceInputs {
  serving::ServiceSpec service;
  serving::RequestTrace trace;
  serving::Placement placement;
};

Result<ServiceInputs> load_service(const SimArgs& a, const SimInputs& in) {
  auto service = serving::load_service_file(a.service);
  if (!service.is_ok()) {
    return service.status();
  }
  auto placement = serving::placement_on(in.cluster, *service, a.cluster);
  if (!placement.is_ok()) {
    return placement.status();
  }
  auto trace = serving::read_request_trace(a.service_trace);
  if (!trace.is_ok()) {
    return trace.status();
  }
  return ServiceInputs{std::move(*service), std::move(*trace), *placement};
}

struct MixedOutput {
  mixed::MixedRun run;
  std::string summary;
};

Result<MixedOutput> run_mixed_sim(const SimArgs& a, const policy::PolicyRegistry& registry, const SimInputs& in) {
  auto svc = load_service(a, in);
  if (!svc.is_ok()) {
    return svc.status();
  }
  auto req = make_run_request(a, registry, in, a.policies);
  if (!req.is_ok()) {
    return req.status();
  }
  mixed::ServiceSide side;
  side.trace = &svc->trace;
  side.service = &svc->service;
  side.placement = svc->placement;
  side.queue = a.service_queue;
  side.priority_class = a.service_class;
  side.options.seed = a.seed;
  side.start = Duration::from_seconds(a.service_start_s);
  auto run = mixed::run_mixed(registry, *req, side);
  if (!run.is_ok()) {
    return run.status();
  }
  auto j = nlohmann::json::parse(sim::summary_text(run->engine, output_info(a, in), in.cluster));
  mixed::add_mixed_keys(j, *run, side, in.cluster.gpu_count());
  return MixedOutput{std::move(*run), j.dump(2)};
}

Status write_mixed(const std::string& dir, const MixedOutput& m, const SimArgs& a, const SimInputs& in) {
  BOREAS_RETURN_IF_ERROR(sim::write_run(dir, m.run.engine, output_info(a, in), in.cluster, m.run.jobs, m.run.symbols));
  std::ofstream os(dir + "/summary.json");
  os << m.summary << "\n";
  return os.flush() ? Status::ok() : invalid_argument("cannot write " + dir + "/summary.json; check --out");
}

void print_mixed(const MixedOutput& m) {
  const auto j = nlohmann::json::parse(m.summary);
  const auto& s = j["service"];
  std::cout << fmt::format(
      "training: jobs {}  avg JCT {:.1f} s  preemptions {}  GPU-hours {:.1f}  window utilization {:.4f}\n"
      "service: TTFT p50/p99 {:.3f}/{:.3f} s  TBT p50/p99 {:.4f}/{:.4f} s  SLO attainment {:.3f}  "
      "goodput {:.2f} req/s  GPU-hours {:.2f}  cold starts {}\n"
      "replicas: {}  ask to serving mean {:.1f} s (p99 {:.1f} s)  wait for GPUs max {:.1f} s  "
      "coupling rounds {}{}\n",
      j["jobs"].get<uint64_t>(), j["avg_jct_s"].get<double>(), j["preemptions"].get<uint64_t>(),
      j["training_gpu_hours"].get<double>(), j["training_window_utilization"].get<double>(),
      s["ttft_p50_s"].get<double>(), s["ttft_p99_s"].get<double>(), s["tbt_p50_s"].get<double>(),
      s["tbt_p99_s"].get<double>(), s["slo_attainment"].get<double>(), s["goodput_rps"].get<double>(),
      s["gpu_hours"].get<double>(), s["cold_starts"].get<int64_t>(), s["replicas"].get<uint64_t>(),
      s["replica_wait_mean_s"].get<double>(), s["replica_wait_p99_s"].get<double>(),
      s["replica_gpu_wait_max_s"].get<double>(), m.run.rounds, m.run.converged ? "" : " (did not converge)");
}

}  // namespace

Result<std::string> run_summary(const SimArgs& a, const policy::PolicyRegistry& registry, const SimInputs& in) {
  if (is_mixed(a)) {
    auto m = run_mixed_sim(a, registry, in);
    return m.is_ok() ? Result<std::string>(std::move(m->summary)) : Result<std::string>(m.status());
  }
  auto run = run_one_policy(a, registry, in, a.policies);
  if (!run.is_ok()) {
    return run.status();
  }
  return sim::summary_text(*run, output_info(a, in), in.cluster);
}

int run_mixed_command(const SimArgs& a, const policy::PolicyRegistry& registry, const SimInputs& in) {
  auto m = run_mixed_sim(a, registry, in);
  if (!m.is_ok()) {
    return report_error(m.status());
  }
  print_mixed(*m);
  if (!a.out.empty()) {
    const std::string dir = a.out + "/" + a.policies;
    if (Status st = write_mixed(dir, *m, a, in); !st.is_ok()) {
      return report_error(st);
    }
    std::cout << "wrote " << dir << "/{summary.json,jobs.csv,timeseries.csv,runs.csv}\n";
  }
  return kExitOk;
}

}  // namespace boreas::cli

// `boreas sim serving`: the request-level serving twin (docs/serving.md). Replays a request trace
// (Azure LLM inference 2023, Mooncake) against one service spec on a cluster's GPUs and writes
// DIR/summary.json.

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "config/cluster_spec.h"
#include "serving/max_rate.h"
#include "serving/request_trace.h"
#include "serving/service_spec.h"
#include "serving/simulator.h"
#include "serving/summary.h"
#include "trace/text.h"

namespace boreas::cli {

namespace {

struct ServingArgs {
  std::string cluster;
  std::string trace;
  std::string service;
  std::string out;
  std::string prefix_cache_tokens = "0";
  uint64_t seed = 0;
  std::string trace_window;  // FROM:TO seconds
  bool find_max_rate = false;
  double rate_tolerance = 0.02;
};

Result<int64_t> parse_cache_tokens(const std::string& v) {
  if (v == "inf") {
    return serving::PrefixCache::kUnbounded;
  }
  const auto n = trace::parse_int(v);
  if (!n || *n < 0) {
    return invalid_argument(fmt::format("--prefix-cache-tokens '{}' is not a token count; give N >= 0 or 'inf'", v));
  }
  return *n;
}

void print_summary(const serving::Summary& s, const serving::ServingRun& run) {
  std::cout << fmt::format(
      "requests {}  TTFT p50/p99 {:.3f}/{:.3f} s  TBT p50/p99 {:.4f}/{:.4f} s  E2E p99 {:.2f} s\n"
      "SLO attainment {:.3f}  goodput {:.2f} req/s  GPU-hours {:.2f}  cost ${:.2f}  energy {:.2f} kWh\n"
      "replicas max {}  cold starts {}  prefix hit ratio {:.3f}\n",
      run.outcomes.size(), s.ttft_p50_s, s.ttft_p99_s, s.tbt_p50_s, s.tbt_p99_s, s.e2e_p99_s, s.slo_attainment,
      s.goodput_rps, s.gpu_hours, s.cost_usd, s.energy_kwh, run.max_replicas, run.cold_starts, run.prefix.ratio());
}

Status write_summary(const std::string& dir, nlohmann::json j) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  const std::string path = dir + "/summary.json";
  std::ofstream f(path);
  if (ec || !(f << j.dump(2) << "\n")) {
    return io_error(fmt::format("{}: cannot write; check that the folder is writable", path));
  }
  return Status::ok();
}

Result<serving::RequestTrace> window_of(const serving::RequestTrace& trace, const ServingArgs& a) {
  const auto colon = a.trace_window.find(':');
  const auto from = trace::parse_double(a.trace_window.substr(0, colon));
  const auto to = trace::parse_double(colon == std::string::npos ? std::string() : a.trace_window.substr(colon + 1));
  const double lo = from.value_or(-1);
  const double hi = to.value_or(-1);
  if (lo < 0 || hi <= lo) {
    return invalid_argument(fmt::format("--trace-window '{}' is not FROM:TO seconds with FROM < TO; give e.g. 0:600",
                                        a.trace_window));
  }
  return serving::trace_window(trace, lo, hi, a.trace);
}

struct Inputs {
  Cluster cluster;
  serving::ServiceSpec service;
  serving::Placement placement;
  serving::RequestTrace trace;
  int64_t cache_tokens = 0;
};

Result<Inputs> load_inputs(const ServingArgs& a) {
  auto cache = parse_cache_tokens(a.prefix_cache_tokens);
  auto cluster = config::load_cluster_file(a.cluster);
  auto service = serving::load_service_file(a.service);
  for (const Status* s : {cache.is_ok() ? nullptr : &cache.status(), cluster.is_ok() ? nullptr : &cluster.status(),
                          service.is_ok() ? nullptr : &service.status()}) {
    if (s != nullptr) {
      return *s;
    }
  }
  auto placement = serving::placement_on(*cluster, *service, a.cluster);
  auto trace = placement.is_ok() ? serving::read_request_trace(a.trace) : placement.status();
  if (trace.is_ok() && !a.trace_window.empty()) {
    trace = window_of(*trace, a);
  }
  if (!trace.is_ok()) {
    return trace.status();
  }
  return Inputs{std::move(*cluster), std::move(*service), *placement, std::move(*trace), *cache};
}

// Runs the search, then leaves `in` as the run at the rate found (the pinned service, the trace
// scaled) so the rest of the summary describes it.
Result<nlohmann::json> max_rate(const ServingArgs& a, Inputs* in, const serving::SimOptions& sim) {
  if (!(a.rate_tolerance > 0 && a.rate_tolerance < 1)) {
    return invalid_argument(fmt::format("--rate-tolerance {} is not a fraction; give one such as 0.02", a.rate_tolerance));
  }
  auto r = serving::find_max_rate(in->trace, in->service, in->placement, sim, {.tolerance = a.rate_tolerance});
  if (!r.is_ok()) {
    return r.status();
  }
  nlohmann::json probes = nlohmann::json::array();
  for (const auto& p : r->probes) {
    probes.push_back({{"rate_rps", p.rate_rps}, {"scale", p.scale}, {"slo_met", p.slo_met},
                      {"slo_attainment", p.slo_attainment}});
  }
  std::cout << fmt::format("max rate at SLO {:.3f} req/s ({:.3f}x the trace's {:.3f}) on {} replicas, {} probes, "
                           "tolerance {}\n",
                           r->max_rate_rps, r->scale, r->trace_rate_rps, r->replicas, r->probes.size(), a.rate_tolerance);
  in->service = serving::pinned_at_max(in->service);
  in->trace = serving::time_scaled(in->trace, r->scale);
  return nlohmann::json{{"max_rate_rps", r->max_rate_rps},     {"trace_rate_rps", r->trace_rate_rps},
                        {"max_rate_scale", r->scale},          {"max_rate_replicas", r->replicas},
                        {"max_rate_tolerance", a.rate_tolerance}, {"max_rate_probes", probes}};
}

Status run_serving(const ServingArgs& a) {
  auto in = load_inputs(a);
  if (!in.is_ok()) {
    return in.status();
  }
  serving::SimOptions sim;
  sim.prefix_cache_tokens = in->cache_tokens;
  sim.seed = a.seed;
  nlohmann::json extra = nlohmann::json::object();
  if (a.find_max_rate) {
    auto found = max_rate(a, &*in, sim);
    if (!found.is_ok()) {
      return found.status();
    }
    extra = std::move(*found);
  }
  auto run = serving::simulate(in->trace, in->service, in->placement, sim);
  if (!run.is_ok()) {
    return run.status();
  }
  const serving::Summary s = serving::summarize(in->trace, in->service, in->placement.gpu, *run);
  print_summary(s, *run);
  if (a.out.empty()) {
    return Status::ok();
  }
  nlohmann::json j = serving::summary_json(s, *run, in->service, in->trace.requests.size());
  j.update(extra);
  j["trace"] = a.trace;
  j["cluster"] = a.cluster;
  j["gpu"] = in->placement.gpu.name;
  j["prefix_cache_tokens"] = a.prefix_cache_tokens;
  j["seed"] = a.seed;
  BOREAS_RETURN_IF_ERROR(write_summary(a.out, std::move(j)));
  std::cout << "wrote " << a.out << "/summary.json\n";
  return Status::ok();
}

}  // namespace

void add_sim_serving_command(CLI::App& sim, Runner& runner) {
  auto a = std::make_shared<ServingArgs>();
  auto* cmd = sim.add_subcommand("serving", "Replay a request trace against a model service (the serving twin)");
  cmd->add_option("--cluster", a->cluster, "cluster spec YAML (the replicas' GPUs)")->required();
  cmd->add_option("--trace", a->trace, "request trace: Azure LLM CSV or Mooncake JSONL (.gz ok)")->required();
  cmd->add_option("--service", a->service, "service spec YAML (examples/services/)")->required();
  cmd->add_option("--out", a->out, "write DIR/summary.json");
  cmd->add_option("--prefix-cache-tokens", a->prefix_cache_tokens,
                  "prefix cache per replica in tokens, or 'inf' (default 0: off)");
  cmd->add_option("--trace-window", a->trace_window,
                  "FROM:TO: only the requests arriving in [FROM, TO) seconds after the trace's first");
  auto* find = cmd->add_flag("--find-max-rate", a->find_max_rate,
               "search the largest request rate (the trace's arrivals time-scaled) at which the SLO holds, with "
               "the autoscaler pinned at max_replicas");
  cmd->add_option("--rate-tolerance", a->rate_tolerance, "--find-max-rate stops when the bracket is this narrow "
                  "(relative; default 0.02)")
      ->needs(find);
  cmd->add_option("--seed", a->seed, "recorded in summary.json (the engine makes no random choices)");
  // `sim`'s own options are required and its callback runs after ours: once `serving` is named,
  // neither applies.
  cmd->preparse_callback([&sim, &runner, a](size_t) {
    for (auto* opt : sim.get_options()) {
      opt->required(false);
    }
    sim.callback([&runner, a] { runner.action = [a] {
        const Status st = run_serving(*a);
        return st.is_ok() ? kExitOk : report_error(st);
      }; });
  });
}

}  // namespace boreas::cli

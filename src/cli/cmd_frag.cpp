// `boreas frag`: FGD's packing study (docs/fragmentation.md). Replays a pod list on a cluster
// under each policy and seed and writes DIR/<policy>/summary.json and DIR/<policy>/curve.csv.

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "cli/command.h"
#include "cli/experiment_spec.h"
#include "config/cluster_spec.h"
#include "frag/study.h"
#include "trace/trace.h"

namespace boreas::cli {

namespace {

struct FragArgs {
  std::string cluster;
  std::string trace;
  std::string policies = "fgd,bestfit,packing,clustering,dotprod,random,boreas";
  std::string seeds = "42-51";
  std::string out;
  double ratio = 1.3;
  double coverage = 1.0;
  bool gpu_nodes_only = false;
  bool ignore_memory = false;
  unsigned threads = 0;
};

nlohmann::json metrics_json(const frag::Metrics& m) {
  return {{"gpu_alloc_pct_at_100", m.gpu_alloc_pct_at_100},
          {"gpu_alloc_pct_at_130", m.gpu_alloc_pct_at_130},
          {"unalloc_gpu_pct_at_100", m.unalloc_gpu_pct_at_100},
          {"frag_ratio_pct_at_90", m.frag_ratio_pct_at_90},
          {"frag_amount_pct_at_100", m.frag_amount_pct_at_100}};
}

nlohmann::json summary_json(const frag::PolicyRuns& pr, const FragArgs& a) {
  nlohmann::json j = metrics_json(pr.mean);
  j["policy"] = std::string(frag::policy_name(pr.policy));
  j["cluster"] = a.cluster;
  j["trace"] = a.trace;
  j["ratio"] = a.ratio;
  j["class_coverage"] = a.coverage;
  j["gpu_nodes_only"] = a.gpu_nodes_only;
  j["ignore_memory"] = a.ignore_memory;
  j["per_seed"] = nlohmann::json::array();
  for (const auto& r : pr.runs) {
    nlohmann::json s = metrics_json(r.metrics);
    s["seed"] = r.seed;
    s["pods"] = r.replay.pods;
    s["failed_pods"] = r.replay.failed;
    const auto& k = r.replay.failed_by_kind_at_100;
    s["failed_pods_at_100_by_kind"] = {{"cpu_only", k[0]}, {"share", k[1]}, {"one_gpu", k[2]}, {"two_gpu", k[3]},
                                       {"four_gpu", k[4]}, {"eight_gpu", k[5]}, {"other", k[6]}};
    j["per_seed"].push_back(s);
  }
  return j;
}

// One row per seed and arrived percent, then the mean over seeds per percent.
std::string curve_csv(const frag::PolicyRuns& pr) {
  std::string out = "seed,arrived_pct,gpu_alloc_pct,frag_amount_pct,frag_ratio_pct,unalloc_gpu_pct\n";
  auto row = [&out](const std::string& seed, int pct, double a, double f, double r, double u) {
    out += fmt::format("{},{},{:.4f},{:.4f},{:.4f},{:.4f}\n", seed, pct, a, f, r, u);
  };
  size_t points = 0;
  for (const auto& r : pr.runs) {
    points = std::max(points, r.replay.curve.size());
    for (const auto& c : r.replay.curve) {
      row(std::to_string(r.seed), c.pct, c.alloc_pct, c.frag_pct, c.frag_ratio, c.failed_pct);
    }
  }
  for (size_t i = 0; i < points; ++i) {
    double a = 0, f = 0, q = 0, u = 0, n = 0;
    for (const auto& r : pr.runs) {
      if (i < r.replay.curve.size()) {
        const auto& c = r.replay.curve[i];
        a += c.alloc_pct, f += c.frag_pct, q += c.frag_ratio, u += c.failed_pct, n += 1;
      }
    }
    row("mean", static_cast<int>(i), a / n, f / n, q / n, u / n);
  }
  return out;
}

Status write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream os(path);
  os << text;
  if (!os.flush()) {
    return invalid_argument("cannot write " + path.string() + "; check the --out directory");
  }
  return Status::ok();
}

Result<frag::StudyInput> load_input(const FragArgs& a) {
  if (!(a.ratio > 0 && a.ratio <= 10)) {
    return invalid_argument(fmt::format("--ratio {}: give the arrived GPU demand at the end as a multiple of "
                                        "capacity, e.g. 1.3", a.ratio));
  }
  if (!(a.coverage > 0 && a.coverage <= 1)) {
    return invalid_argument(fmt::format("--class-coverage {}: give the share of pods the task classes cover, "
                                        "in (0, 1], e.g. 1 or 0.95", a.coverage));
  }
  auto cluster = config::load_cluster_file(a.cluster);
  if (!cluster.is_ok()) {
    return cluster.status();
  }
  auto nodes = frag::nodes_from_cluster(*cluster);
  if (!nodes.is_ok()) {
    return nodes.status().with_context(a.cluster + ": ");
  }
  if (a.gpu_nodes_only) {
    std::erase_if(*nodes, [](const frag::Node& n) { return n.gpu_count == 0; });
  }
  if (frag::capacity_milli(*nodes) == 0) {
    return invalid_argument(a.cluster + ": the cluster has no GPU; boreas frag packs GPU pods");
  }
  auto trace = trace::read_trace_file(a.trace, trace::ReadOptions{});
  if (!trace.is_ok()) {
    return trace.status();
  }
  auto pods = frag::pods_from_jobs(trace->jobs, trace->symbols, *cluster);
  if (!pods.is_ok()) {
    return pods.status().with_context(a.trace + ": ");
  }
  if (a.ignore_memory) {
    for (auto& p : *pods) {
      p.memory_mib = 0;
    }
  }
  auto policies = frag::parse_policy_list(a.policies);
  if (!policies.is_ok()) {
    return policies.status();
  }
  auto seeds = parse_seed_list(a.seeds);
  if (!seeds.is_ok()) {
    return seeds.status().with_context("--");
  }
  frag::StudyInput in;
  in.nodes = std::move(*nodes);
  in.pods = std::move(*pods);
  in.policies = std::move(*policies);
  in.seeds = std::move(*seeds);
  in.ratio = a.ratio;
  in.coverage = a.coverage;
  in.threads = a.threads ? a.threads : std::max(1u, std::thread::hardware_concurrency());
  return in;
}

int run_frag(const FragArgs& a) {
  auto in = load_input(a);
  if (!in.is_ok()) {
    return report_error(in.status());
  }
  const std::vector<frag::PolicyRuns> results = frag::run_study(*in);
  fmt::print("{:<11} {:>9} {:>9} {:>10} {:>10} {:>10}\n", "policy", "alloc@100", "alloc@130", "unalloc@100",
             "fragr@90", "frag@100");
  for (const auto& pr : results) {
    const std::filesystem::path dir = std::filesystem::path(a.out) / std::string(frag::policy_name(pr.policy));
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) {
      return report_error(invalid_argument("--out: cannot create " + dir.string() + ": " + ec.message()));
    }
    if (Status st = write_file(dir / "summary.json", summary_json(pr, a).dump(2) + "\n"); !st.is_ok()) {
      return report_error(st);
    }
    if (Status st = write_file(dir / "curve.csv", curve_csv(pr)); !st.is_ok()) {
      return report_error(st);
    }
    const frag::Metrics& m = pr.mean;
    fmt::print("{:<11} {:>9.2f} {:>9.2f} {:>11.2f} {:>10.2f} {:>10.2f}\n", frag::policy_name(pr.policy),
               m.gpu_alloc_pct_at_100, m.gpu_alloc_pct_at_130, m.unalloc_gpu_pct_at_100, m.frag_ratio_pct_at_90,
               m.frag_amount_pct_at_100);
  }
  fmt::print("means over {} seeds; wrote {}/<policy>/summary.json and curve.csv\n", in->seeds.size(), a.out);
  return kExitOk;
}

}  // namespace

void add_frag_commands(CLI::App& app, Runner& runner) {
  auto a = std::make_shared<FragArgs>();
  auto* cmd = app.add_subcommand("frag", "GPU fragmentation study: FGD's packing replay (docs/fragmentation.md)");
  cmd->add_option("--cluster", a->cluster, "cluster YAML, e.g. examples/clusters/openb.yaml")->required();
  cmd->add_option("--trace", a->trace, "pod list, e.g. data/traces/alibaba-pai-gpu-2023/openb_pod_list_default.csv.gz")
      ->required();
  cmd->add_option("--policy", a->policies, "comma-separated: fgd,bestfit,packing,clustering,dotprod,random,boreas,boreas-cpu (default: all but boreas-cpu)");
  cmd->add_option("--seeds", a->seeds, "seeds, e.g. 42-51 (default) or 1,5");
  cmd->add_option("--ratio", a->ratio, "arrived GPU demand at the end, x capacity (default 1.3)");
  cmd->add_option("--class-coverage", a->coverage,
                  "share of pods the fragmentation measure's task classes cover (default 1; FGD's scripts: 0.95)");
  cmd->add_flag("--gpu-nodes-only", a->gpu_nodes_only,
                "drop CPU-only nodes, as FGD's experiments do (openb_node_list_gpu_node.csv)");
  cmd->add_flag("--ignore-memory", a->ignore_memory, "place pods on CPU and GPU alone (memory is never checked)");
  cmd->add_option("--threads", a->threads, "parallel runs (default: one per core)");
  cmd->add_option("--out", a->out, "directory for <policy>/summary.json and curve.csv")->required();
  cmd->callback([&runner, a] { runner.action = [a] { return run_frag(*a); }; });
}

}  // namespace boreas::cli

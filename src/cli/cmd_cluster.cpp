// `boreas cluster validate|show|import`: check a cluster spec, summarise what it describes, or
// write one from a live Slurm cluster.

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/command.h"
#include "config/cluster_spec.h"
#include "config/cluster_summary.h"
#include "slurm/client.h"
#include "slurm/import.h"

namespace boreas::cli {
namespace {

struct ClusterArgs {
  std::string file;
  std::string queues;
  bool json = false;
  bool slurm = false;
  std::string slurm_conf;
  std::string out;
  std::string name;
};

void print_warnings(const std::vector<config::Warning>& warnings) {
  for (const auto& w : warnings) {
    std::cerr << "boreas: warning: " << w.message << "\n";
  }
}

int run_validate(const ClusterArgs& args) {
  std::vector<config::Warning> warnings;
  Result<Cluster> cluster = config::load_cluster_file(args.file, &warnings);
  if (!cluster.is_ok()) {
    print_warnings(warnings);
    return report_error(cluster.status());
  }
  if (!args.queues.empty()) {
    Result<QueueTree> tree = config::load_queues_file(args.queues, *cluster, &warnings);
    print_warnings(warnings);
    if (!tree.is_ok()) {
      return report_error(tree.status());
    }
    std::cout << "ok: " << args.queues << ": " << tree->queues.size() << " queues, "
              << tree->priority_classes.size() << " priority classes\n";
  } else {
    print_warnings(warnings);
  }
  std::cout << "ok: " << args.file << ": " << cluster->nodes.size() << " nodes, " << cluster->gpu_count()
            << " GPUs\n";
  return kExitOk;
}

// Derived figures are rounded to 4 decimals so the JSON does not carry float noise.
double r4(double v) {
  return std::round(v * 1e4) / 1e4;
}

nlohmann::json to_json(const config::ClusterSummary& s, const Cluster& c) {
  nlohmann::json j;
  j["name"] = s.name;
  j["totals"] = {{"zones", s.zones.size()},
                 {"racks", s.racks},
                 {"nodes", s.nodes},
                 {"cpu_only_nodes", s.cpu_only_nodes},
                 {"gpus", s.gpus},
                 {"cpus", s.cpus},
                 {"memory_gib", s.memory_gib}};
  j["zones"] = nlohmann::json::array();
  for (const auto& z : s.zones) {
    j["zones"].push_back({{"name", z.name},
                          {"cooling", z.cooling},
                          {"pue", z.pue},
                          {"spot", z.spot},
                          {"racks", z.racks},
                          {"nodes", z.nodes},
                          {"gpus", z.gpus},
                          {"it_power_kw", r4(z.it_power_kw)}});
  }
  j["gpus_by_type"] = nlohmann::json::array();
  for (const auto& t : s.gpu_types) {
    j["gpus_by_type"].push_back(
        {{"type", t.type}, {"nodes", t.nodes}, {"gpus", t.gpus}, {"placeholder", t.placeholder}});
  }
  j["peak_pflops"] = {{"bf16", r4(s.peak.bf16)},
                      {"fp8", r4(s.peak.fp8)},
                      {"tf32", r4(s.peak.tf32)},
                      {"fp32", r4(s.peak.fp32)}};
  j["it_power_kw"] = r4(s.it_power_kw);
  j["facility_power_kw"] = r4(s.facility_power_kw);
  j["on_demand_usd_per_hour"] = r4(s.on_demand_usd_per_hour);
  j["fabric"] = nlohmann::json::array();
  for (const auto& t : c.fabric) {
    j["fabric"].push_back(
        {{"tier", t.name}, {"bandwidth_gbps", t.bandwidth_gbps}, {"latency_us", t.latency.us()}});
  }
  return j;
}

// 1234567 -> "1,234,567": summaries are read by people.
std::string grouped(int64_t v) {
  std::string digits = std::to_string(v < 0 ? -v : v);
  for (int64_t i = static_cast<int64_t>(digits.size()) - 3; i > 0; i -= 3) {
    digits.insert(static_cast<size_t>(i), ",");
  }
  return (v < 0 ? "-" : "") + digits;
}

std::string formatted(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), format, v);
  return buf;
}

void print_fabric(const Cluster& c) {
  std::cout << "fabric:";
  if (c.fabric.empty()) {
    std::cout << " none given";
  }
  for (size_t i = 0; i < c.fabric.size(); ++i) {
    const FabricTier& t = c.fabric[i];
    std::cout << (i == 0 ? " " : "; ") << t.name << " " << formatted("%g", t.bandwidth_gbps)
              << " GB/s per GPU (" << t.latency.us() << " us)";
  }
  std::cout << "\n";
}

void print_text(const config::ClusterSummary& s, const Cluster& c) {
  std::cout << "cluster " << s.name << ": " << s.zones.size() << " zones, " << grouped(s.racks) << " racks, "
            << grouped(s.nodes) << " nodes (" << grouped(s.cpu_only_nodes) << " CPU-only), "
            << grouped(s.gpus) << " GPUs, " << grouped(s.cpus) << " CPU cores, " << grouped(s.memory_gib)
            << " GiB memory\n\nzones:\n";
  for (const auto& z : s.zones) {
    std::printf("  %-14s %-13s PUE %.2f  %5u racks  %6u nodes  %6u GPUs  %9.1f kW IT%s\n", z.name.c_str(),
                z.cooling.c_str(), z.pue, z.racks, z.nodes, z.gpus, z.it_power_kw, z.spot ? "  spot" : "");
  }
  std::cout << "\nGPUs by type:\n";
  for (const auto& t : s.gpu_types) {
    std::printf("  %-10s %6u GPUs on %5u nodes%s\n", t.type.c_str(), t.gpus, t.nodes,
                t.placeholder ? "  (placeholder figures)" : "");
  }
  std::cout << "\npeak dense PFLOPS: bf16/fp16 " << formatted("%.1f", s.peak.bf16) << ", fp8 "
            << formatted("%.1f", s.peak.fp8) << ", tf32 " << formatted("%.1f", s.peak.tf32) << ", fp32 "
            << formatted("%.1f", s.peak.fp32) << "\n"
            << "IT power envelope: " << formatted("%.1f", s.it_power_kw)
            << " kW (GPU TDP + 500 W/node + 200 W/GPU); "
            << "facility at zone PUE: " << formatted("%.1f", s.facility_power_kw) << " kW\n"
            << "on-demand price: $" << formatted("%.2f", s.on_demand_usd_per_hour)
            << "/hour (catalog $/GPU-hour; types without a price count as $0)\n";
  print_fabric(c);
  std::cout.flush();
}

int run_show(const ClusterArgs& args) {
  std::vector<config::Warning> warnings;
  Result<Cluster> cluster = config::load_cluster_file(args.file, &warnings);
  print_warnings(warnings);
  if (!cluster.is_ok()) {
    return report_error(cluster.status());
  }
  const config::ClusterSummary summary = config::summarize(*cluster);
  if (args.json) {
    std::cout << to_json(summary, *cluster).dump(2) << "\n";
  } else {
    print_text(summary, *cluster);
  }
  return kExitOk;
}

Result<std::string> slurm_spec(const ClusterArgs& args) {
  const slurm::Client client({args.slurm_conf});
  BOREAS_RETURN_IF_ERROR(client.ping());
  auto nodes = client.nodes();
  if (!nodes.is_ok()) {
    return nodes.status();
  }
  auto topology = client.topology();
  if (!topology.is_ok()) {
    return topology.status();
  }
  auto imported = slurm::import_cluster(args.name, *nodes, *topology, config::builtin_gpu_catalog());
  if (!imported.is_ok()) {
    return imported.status();
  }
  return slurm::to_yaml(*imported);
}

int run_import(const ClusterArgs& args) {
  if (!args.slurm) {
    return report_error(invalid_argument("cluster import: say where from: --slurm (the only source so far)"));
  }
  auto yaml = slurm_spec(args);
  if (!yaml.is_ok()) {
    return report_error(yaml.status().with_context("cluster import --slurm: "));
  }
  std::ofstream out(args.out);
  out << *yaml;
  out.close();
  if (!out) {
    return report_error(io_error("cluster import: cannot write '" + args.out + "'; check the folder exists and is writable"));
  }
  std::vector<config::Warning> warnings;
  Result<Cluster> cluster = config::load_cluster_file(args.out, &warnings);
  print_warnings(warnings);
  if (!cluster.is_ok()) {
    return report_error(cluster.status().with_context("the imported spec does not load (a bug): "));
  }
  std::cout << "wrote " << args.out << ": " << cluster->nodes.size() << " nodes, " << cluster->gpu_count()
            << " GPUs, " << cluster->racks.size() << " racks from Slurm\n";
  return kExitOk;
}

}  // namespace

void add_cluster_commands(CLI::App& app, Runner& runner) {
  auto* cluster =
      app.add_subcommand("cluster", "Validate and summarise cluster specs (docs/formats/cluster.md)");
  cluster->require_subcommand(1);
  auto args = std::make_shared<ClusterArgs>();

  auto* validate =
      cluster->add_subcommand("validate", "Check a cluster spec; prints warnings and an ok line");
  validate->add_option("file", args->file, "cluster spec YAML")->required();
  validate->add_option("--queues", args->queues,
                       "also check a queue spec against it (docs/formats/queues.md)");
  validate->callback([&runner, args] { runner.action = [args] { return run_validate(*args); }; });

  auto* show =
      cluster->add_subcommand("show", "Summarise a cluster: zones, racks, GPUs, PFLOPS, power, price");
  show->add_option("file", args->file, "cluster spec YAML")->required();
  show->add_flag("--json", args->json, "stable JSON output (schema in docs/formats/cluster.md)");
  show->callback([&runner, args] { runner.action = [args] { return run_show(*args); }; });

  auto* import = cluster->add_subcommand("import", "Write a cluster spec from a live Slurm cluster (docs/live.md)");
  import->add_flag("--slurm", args->slurm, "read nodes, GRES, features and topology.conf switches from Slurm");
  import->add_option("--slurm-conf", args->slurm_conf, "slurm.conf to use (default: SLURM_CONF or /etc/slurm)");
  import->add_option("--out", args->out, "cluster spec YAML to write")->required();
  import->add_option("--name", args->name, "cluster name in the spec")->default_val("slurm");
  import->callback([&runner, args] { runner.action = [args] { return run_import(*args); }; });
}

}  // namespace boreas::cli

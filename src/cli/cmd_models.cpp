// `boreas models check`: prints the validation runs of docs/models.md.

#include <cstdio>
#include <memory>

#include "cli/command.h"
#include "config/cluster_spec.h"
#include "models/params.h"
#include "models/site.h"
#include "models/validation.h"

namespace boreas::cli {
namespace {

void print_rows(const models::ValidationReport& r) {
  std::printf("%-78s %10s %-5s  %-30s %s\n", "check", "model", "unit", "reference", "source");
  for (const models::ValidationRow& row : r.rows) {
    std::printf("%-78s %10.3f %-5s  %-30s %s\n", row.check.c_str(), row.model, row.unit.c_str(),
                row.reference.c_str(), row.source.c_str());
  }
}

void print_split(const models::ValidationReport& r) {
  std::printf("\n32-GPU H100 gang, 2 GB all-reduce per step, 0.5 s compute, overlap 0.5:\n");
  std::printf("%-36s %10s %10s %11s\n", "placement", "comm ms", "busbw GB/s", "efficiency");
  for (const models::SplitRow& s : r.split) {
    std::printf("%-36s %10.2f %10.1f %11.4f\n", s.placement.c_str(), s.comm_ms, s.busbw_gbps, s.efficiency);
  }
}

void print_sweep(const models::ValidationReport& r) {
  std::printf(
      "\nCheckpoint sweep, M = 3.1 h, write 300 s, restore 600 s, 20,000 h of work "
      "(Young %.0f s, Daly %.0f s):\n",
      r.young_s, r.daly_s);
  std::printf("%12s %12s %16s %17s\n", "interval s", "x Young", "expected waste", "simulated waste");
  for (const models::SweepPoint& p : r.sweep) {
    std::printf("%12.0f %12.3f %16.4f %17.4f\n", p.interval_s, p.interval_s / r.young_s, p.expected_waste,
                p.simulated_waste);
  }
}

// The declared parameter table: value, unit and the source, or the word assumption.
void print_params() {
  std::printf("\nModel parameters (models/param_table.h; override with boreas sim --param NAME=VALUE):\n");
  std::printf("%-38s %12s %-7s %s\n", "parameter", "value", "unit", "source");
  for (const models::ParamSpec& p : models::param_table()) {
    const std::string source = p.assumption ? "assumption: " + std::string(p.source) : std::string(p.source);
    std::printf("%-38s %12.6g %-7s %s\n", std::string(p.name).c_str(), p.value, std::string(p.unit).c_str(),
                source.c_str());
  }
}

const char* throttle_name(models::Throttle t) {
  switch (t) {
    case models::Throttle::kSoftware:
      return "sw-slowdown";
    case models::Throttle::kHardware:
      return "hw-slowdown";
    case models::Throttle::kNone:
      break;
  }
  return "none";
}

void print_zones(const Cluster& c, const models::SiteThermal& site) {
  std::printf("%-14s %-14s %8s %12s %14s %9s\n", "zone", "cooling", "IT kW", "facility kW", "cap kW",
              "cap clock");
  for (const models::ZonePower& z : site.zones) {
    const Zone& zone = c.zones[z.zone];
    std::printf("%-14s %-14s %8.1f %12.1f %14.1f %9.3f%s\n", zone.name.c_str(),
                std::string(to_string(zone.cooling)).c_str(), z.it_kw, z.facility_kw, zone.power_cap_kw,
                z.cap.clock, z.cap.meets_cap ? "" : " (cap not met)");
  }
}

// One rack's columns after the rack count.
std::string rack_columns(const Cluster& c, const models::RackThermal& r) {
  const Rack& rack = c.racks[r.rack];
  char buf[160];
  std::snprintf(buf, sizeof buf, "%6u %8.1f %10.1f %9.1f %10.1f %-12s %6.3f", r.gpus, r.it_kw,
                rack.cooling_limit_kw, r.inlet_c, r.gpu_temp_c, throttle_name(r.throttle.level),
                r.throttle.clock);
  return c.zones[rack.zone.value()].name + "\t" + buf;
}

// Consecutive racks that come out identical print as one line with their count.
void print_racks(const Cluster& c, const models::SiteThermal& site) {
  std::printf("\n%-14s %6s %6s %8s %10s %9s %10s %-12s %6s\n", "zone", "racks", "GPUs", "rack kW", "cool. kW",
              "inlet C", "GPU max C", "throttle", "clock");
  for (size_t i = 0; i < site.racks.size();) {
    const std::string line = rack_columns(c, site.racks[i]);
    size_t run = 1;
    while (i + run < site.racks.size() && rack_columns(c, site.racks[i + run]) == line) {
      ++run;
    }
    const size_t tab = line.find('\t');
    std::printf("%-14s %6zu %s\n", line.substr(0, tab).c_str(), run, line.substr(tab + 1).c_str());
    i += run;
  }
}

void print_site(const Cluster& c, const models::SiteThermal& site, double activity) {
  std::printf("every GPU at activity %.2f, full clock, steady state (docs/models.md)\n\n", activity);
  print_zones(c, site);
  print_racks(c, site);
}

int run_site(const std::string& file, double activity) {
  Result<Cluster> cluster = config::load_cluster_file(file);
  if (!cluster.is_ok()) {
    return report_error(cluster.status());
  }
  if (!(activity >= 0 && activity <= 1)) {
    return report_error(invalid_argument("--activity must be in [0, 1], got " + std::to_string(activity)));
  }
  const models::SiteThermal site =
      models::site_thermal(*cluster, activity, models::PowerParams{}, models::ThermalParams{});
  print_site(*cluster, site, activity);
  return kExitOk;
}

}  // namespace

void add_models_commands(CLI::App& app, Runner& runner) {
  auto* models = app.add_subcommand("models", "The physical models of the twin");
  models->require_subcommand(1);
  auto* check = models->add_subcommand("check", "Print the models' validation runs against FACTS");
  auto seed = std::make_shared<uint64_t>(1);
  check->add_option("--seed", *seed, "Seed of the random processes")->capture_default_str();
  check->callback([&runner, seed] {
    runner.action = [seed] {
      const models::ValidationReport report = models::run_validation(*seed);
      print_rows(report);
      print_split(report);
      print_sweep(report);
      print_params();
      return kExitOk;
    };
  });
  auto* site =
      models->add_subcommand("site", "Rack power, inlet, GPU temperature and throttling of a cluster");
  auto file = std::make_shared<std::string>();
  auto activity = std::make_shared<double>(models::PowerParams{}.default_activity);
  site->add_option("cluster", *file, "Cluster spec (YAML)")->required();
  site->add_option("--activity", *activity, "GPU activity in [0, 1] for every GPU")->capture_default_str();
  site->callback(
      [&runner, file, activity] { runner.action = [file, activity] { return run_site(*file, *activity); }; });
}

}  // namespace boreas::cli

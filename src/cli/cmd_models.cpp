// `boreas models check`: prints the validation runs of docs/models.md.

#include <cstdio>
#include <memory>

#include "cli/command.h"
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
      return kExitOk;
    };
  });
}

}  // namespace boreas::cli

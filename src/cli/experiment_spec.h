#pragma once
// An experiment file (docs/experiments.md): one question, the options every arm shares, the loads
// and seeds, and the arms, each differing from the others in the factor under study. Every option
// is a `boreas sim` option, written without its dashes and parsed by the same declaration.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/status.h"

namespace boreas::cli {

using SimOption = std::pair<std::string, std::string>;  // "placement", "cool"

struct ExperimentArm {
  std::string name;
  std::vector<SimOption> options;
  std::string where;  // file:line:col of the arm, for messages
};

struct ExperimentSpec {
  std::string file;
  std::string name;
  std::string question;
  std::vector<SimOption> options;            // every arm's, before its own
  std::vector<std::optional<double>> loads;  // {nullopt}: the trace's own arrivals
  std::vector<uint64_t> seeds;
  std::vector<std::string> metrics;  // the report's columns
  std::vector<ExperimentArm> arms;   // one is named "baseline"
};

Result<ExperimentSpec> load_experiment_file(const std::string& path);
Result<ExperimentSpec> parse_experiment(const std::string& text, const std::string& file);

// Seeds as "1-10", "1,2,5" or a mix ("1-3,7").
Result<std::vector<uint64_t>> parse_seed_list(const std::string& text);

// The `boreas sim` arguments of one run: the shared options, then the arm's (which win), then
// --seed and --load.
std::vector<std::string> run_arguments(const ExperimentSpec& spec, const ExperimentArm& arm,
                                       std::optional<double> load, uint64_t seed);

}  // namespace boreas::cli

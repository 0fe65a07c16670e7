#pragma once
// `boreas sim --service S.yaml --service-trace T`: the mixed cluster (docs/serving.md, "Mixed
// cluster"), a training trace and one autoscaled service on the same GPUs (src/mixed). Shared by
// `boreas sim` and `boreas experiment run`.

#include <CLI/CLI.hpp>
#include <string>

#include "core/status.h"
#include "policy/registry.h"

namespace boreas::cli {

struct SimArgs;
struct SimInputs;

void add_mixed_options(CLI::App* cmd, SimArgs& args);
bool is_mixed(const SimArgs& args);
// The combinations the mixed cluster refuses, each with how to fix it.
Status check_mixed_args(const SimArgs& args);

// One run of `args`' single policy, mixed or not: summary.json's text (`boreas experiment run`).
Result<std::string> run_summary(const SimArgs& args, const policy::PolicyRegistry& registry, const SimInputs& inputs);

// `boreas sim` with --service: runs, prints both sides and writes --out/<policy>/.
int run_mixed_command(const SimArgs& args, const policy::PolicyRegistry& registry, const SimInputs& inputs);

}  // namespace boreas::cli

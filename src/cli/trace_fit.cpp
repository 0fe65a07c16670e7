#include "cli/trace_fit.h"

#include <iostream>

#include "trace/fit.h"
#include "trace/type_map.h"

namespace boreas::cli {
namespace {

constexpr const char* kFix =
    "\nfix: map the trace's GPU type names to the cluster's types with --gpu-type-map FROM=TO,... "
    "(e.g. --gpu-type-map nvidia-a100-80gb=A100-80G), run on a cluster that has these GPUs, or leave "
    "these jobs out with --drop-unfit";

}  // namespace

void add_gpu_type_map_option(CLI::App* cmd, std::string& spec) {
  cmd->add_option("--gpu-type-map", spec,
                  "rename the trace's GPU types before matching them to the cluster: FROM=TO,... "
                  "(FROM as the trace spells it, TO a catalog type)");
}

Status map_gpu_types(const std::string& spec, const GpuCatalog& catalog, trace::Trace& trace) {
  if (spec.empty()) {
    return Status::ok();
  }
  auto map = trace::parse_gpu_type_map(spec);
  if (!map.is_ok()) {
    return map.status();
  }
  BOREAS_RETURN_IF_ERROR(trace::check_gpu_type_map(*map, catalog));
  trace::apply_gpu_type_map(trace, *map);
  return Status::ok();
}

Result<uint64_t> refuse_or_drop_unfit(const Cluster& cluster, trace::Trace& trace, bool drop) {
  const auto unfit = trace::find_unfit_jobs(cluster, trace);
  if (unfit.empty()) {
    return uint64_t{0};
  }
  const std::string what = trace::describe_unfit(unfit, trace, cluster);
  if (!drop) {
    return invalid_argument(what + kFix);
  }
  std::cerr << "dropped (--drop-unfit): " << what << "\n";
  trace::drop_unfit_jobs(trace, unfit);
  return static_cast<uint64_t>(unfit.size());
}

std::string unfit_report(const Cluster& cluster, const trace::Trace& trace) {
  const auto unfit = trace::find_unfit_jobs(cluster, trace);
  return unfit.empty() ? "" : trace::describe_unfit(unfit, trace, cluster);
}

}  // namespace boreas::cli

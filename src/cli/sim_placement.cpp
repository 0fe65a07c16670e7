#include "cli/sim_placement.h"

namespace boreas::cli {

void add_placement_options(CLI::App* cmd, PlacementArgs& a) {
  cmd->add_option("--placement", a.name, "count | first-fit | pack | consolidated | frag | topo | cool | hetero (default count)");
  cmd->add_option("--topo-max-wait", a.topo_max_wait_s,
                  "topo: most seconds a gang waits for a tighter network domain (default 86400; it waits only while the wait is shorter than the slowdown it avoids)");
  cmd->add_option("--topo-min-efficiency", a.topo_min_efficiency,
                  "topo: placement efficiency below which a gang waits (default 0.95)");
  cmd->add_option("--cool-long-job", a.cool_long_job_s,
                  "cool: jobs expected to run this many seconds go to liquid zones first (default 3600)");
  cmd->add_option("--hetero-max-jobs", a.hetero_max_jobs,
                  "hetero: pending jobs in the allocation LP besides the running ones (default 256)");
  cmd->add_option("--hetero-max-wait", a.hetero_max_wait_s,
                  "hetero: seconds before a job takes a type the LP does not favour (default 0; fifo-like orders only)");
}

Status apply_placement_options(const PlacementArgs& a, const policy::PolicyRegistry& registry,
                               policy::PolicyOptions& o) {
  BOREAS_RETURN_IF_ERROR(registry.check_placement(a.name).with_context("--placement: "));
  o.placement = a.name;
  o.topo.max_wait = Duration::from_seconds(a.topo_max_wait_s);
  o.topo.min_efficiency = a.topo_min_efficiency;
  o.cool.long_job = Duration::from_seconds(a.cool_long_job_s);
  o.hetero.max_jobs = a.hetero_max_jobs;
  o.hetero.max_wait = Duration::from_seconds(a.hetero_max_wait_s);
  BOREAS_RETURN_IF_ERROR(policy::validate(o.topo).with_context("--topo-*: "));
  BOREAS_RETURN_IF_ERROR(policy::validate(o.cool).with_context("--cool-*: "));
  return policy::validate(o.hetero).with_context("--hetero-*: ");
}

}  // namespace boreas::cli

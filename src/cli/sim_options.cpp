#include "cli/sim_options.h"

#include <fmt/format.h>
#include <sstream>

#include "cli/job_mix.h"
#include "cli/sim_mixed.h"
#include "cli/sim_params.h"
#include "cli/trace_fit.h"
#include "config/cluster_spec.h"
#include "trace/transform.h"

namespace boreas::cli {

void add_sim_options(CLI::App* cmd, SimArgs& a) {
  cmd->add_option("--cluster", a.cluster, "cluster spec YAML")->required();
  cmd->add_option("--trace", a.trace, "job trace (any supported format, .gz ok)")->required();
  cmd->add_option("--format", a.format, "trace format (default: auto-detect)");
  cmd->add_option("--map", a.map, "generic CSV column map, e.g. submit=ts,duration=run,gpus=n");
  cmd->add_option("--policy", a.policies,
                  "comma-separated policies: fifo,fjf,easy-backfill,srtf,srtf-gpu,las,gittins,boreas");
  cmd->add_option("--seed", a.seed, "random seed (stochastic models, --slice, --production-fraction)");
  cmd->add_option("--load", a.load,
                  "rescale the trace's inter-arrival times so its offered load on the cluster is X "
                  "(job mix unchanged; docs/formats/sim-output.md, offered_load)");
  cmd->add_option("--slice", a.slice,
                  "replay N consecutive jobs from a start drawn from --seed (0 = the whole trace)");
  cmd->add_option("--reference-gpu", a.reference_gpu,
                  "GPU type the trace's durations were measured on (default: the trace format's rule, "
                  "else the cluster's most common type; docs/experiments.md)");
  cmd->add_option("--sample-interval", a.sample_interval_s, "time-series sample interval, simulated seconds");
  cmd->add_option("--preemption-overhead", a.preemption_overhead_s,
                  "seconds of work redone after each preemption");
  cmd->add_option("--time-limit-factor", a.time_limit_factor,
                  "easy-backfill: a job without a time limit asks for this × its duration");
  cmd->add_option("--las-thresholds", a.las_thresholds, "las/gittins queue thresholds in GPU-seconds")
      ->delimiter(',');
  cmd->add_option("--starvation-factor", a.starvation,
                  "las/gittins: promote a job pending this many times its run time (0 = off)");
  cmd->add_option("--max-preemptions", a.max_preemptions,
                  "srtf/srtf-gpu/las/gittins: a job preempted this many times runs to its end (0 = no cap; "
                  "the boreas policy's own cap is 3)");
  cmd->add_option("--physics", a.physics,
                  "models applied: none (default), all, or a comma list of "
                  "throughput,comm,power,thermal,failures,checkpoint,spot,cost");
  cmd->add_option("--window", a.window,
                  "measurement window START:END, seconds since the first submission (default: first to "
                  "last submission; either side may be empty)");
  cmd->add_option("--param", a.params,
                  "model parameters NAME=VALUE[,NAME=VALUE] (list: boreas models check; docs/models.md)");
  add_tenancy_options(cmd, a.tenancy);
  add_placement_options(cmd, a.placement_args);
  add_gpu_type_map_option(cmd, a.gpu_type_map);
  cmd->add_flag("--drop-unfit", a.drop_unfit,
                "leave out jobs that can never run on the cluster (counted in summary.json's dropped_jobs) "
                "instead of refusing the trace");
  cmd->add_option("--job-classes", a.job_classes,
                  "give jobs without a model class one drawn from this mix, seeded by --seed: "
                  "CLASS=SHARE,... summing to 1 (classes: docs/models.md, throughput)");
  cmd->add_option("--checkpoint-interval", a.checkpoint_interval,
                  "with --physics checkpoint: model (default: Young's interval from the job's failure rate), "
                  "none (no periodic writes) or SECONDS, for jobs whose trace gives none");
  add_mixed_options(cmd, a);
}

std::vector<std::string> split_policies(const std::string& list) {
  std::vector<std::string> out;
  std::stringstream ss(list);
  for (std::string item; std::getline(ss, item, ',');) {
    if (!item.empty()) {
      out.push_back(item);
    }
  }
  return out;
}

namespace {

Status check_args(const SimArgs& a, const policy::PolicyRegistry& registry) {
  const auto names = split_policies(a.policies);
  if (names.empty()) {
    return invalid_argument("--policy: give at least one policy, e.g. --policy fifo,las");
  }
  for (const auto& n : names) {
    BOREAS_RETURN_IF_ERROR(registry.check_policy(n).with_context("--policy: "));
  }
  policy::PolicyOptions probe;
  BOREAS_RETURN_IF_ERROR(apply_placement_options(a.placement_args, registry, probe));
  if (a.sample_interval_s <= 0 || a.preemption_overhead_s < 0 || a.time_limit_factor <= 0) {
    return invalid_argument(
        "--sample-interval and --time-limit-factor must be > 0, --preemption-overhead >= 0");
  }
  if (a.load < 0) {
    return invalid_argument("--load: give an offered load > 0, e.g. --load 0.7 (or leave it out)");
  }
  return Status::ok();
}

// --job-classes and --checkpoint-interval (cli/job_mix.h), after --slice.
Status apply_job_mix(const SimArgs& a, trace::Trace& trace) {
  const auto interval = parse_checkpoint_interval(a.checkpoint_interval);
  if (!interval.is_ok()) {
    return interval.status();
  }
  set_checkpoint_interval(trace, *interval);
  if (a.job_classes.empty()) {
    return Status::ok();
  }
  const auto mix = parse_job_classes(a.job_classes, a.physics_options.throughput);
  if (!mix.is_ok()) {
    return mix.status();
  }
  assign_job_classes(trace, *mix, a.seed);
  return Status::ok();
}

}  // namespace

Result<SimInputs> read_sim_inputs(const SimArgs& a) {
  auto cluster = config::load_cluster_file(a.cluster);
  if (!cluster.is_ok()) {
    return cluster.status();
  }
  trace::ReadOptions ro;
  ro.format = a.format;
  ro.column_map = a.map;
  auto tr = trace::read_trace_file(a.trace, ro);
  if (!tr.is_ok()) {
    return tr.status();
  }
  SimInputs in;
  in.cluster = std::move(*cluster);
  in.trace = std::move(*tr);
  return in;
}

Status prepare_sim_inputs(SimArgs& a, const policy::PolicyRegistry& registry, SimInputs& in) {
  BOREAS_RETURN_IF_ERROR(check_args(a, registry));
  BOREAS_RETURN_IF_ERROR(check_mixed_args(a));
  auto physics = sim::parse_physics(a.physics);
  if (!physics.is_ok()) {
    return physics.status();
  }
  a.physics_on = *physics;
  BOREAS_RETURN_IF_ERROR(apply_param_flag(a.params, a.physics_options));
  if (!a.window.empty()) {
    BOREAS_RETURN_IF_ERROR(sim::parse_window(a.window, a.meter));
  }
  BOREAS_RETURN_IF_ERROR(map_gpu_types(a.gpu_type_map, in.cluster.catalog, in.trace));
  const auto dropped = refuse_or_drop_unfit(in.cluster, in.trace, a.drop_unfit);
  if (!dropped.is_ok()) {
    return dropped.status();
  }
  in.dropped_jobs = *dropped;
  auto reference = sim::choose_reference_gpu(a.reference_gpu, in.trace.format, in.cluster);
  if (!reference.is_ok()) {
    return reference.status();
  }
  in.reference = std::move(*reference);
  if (a.slice > 0) {
    trace::apply_slice(in.trace, a.slice, a.seed);
  }
  BOREAS_RETURN_IF_ERROR(apply_job_mix(a, in.trace));
  const double capacity = sim::reference_capacity(in.cluster, in.reference.name,
                                                  a.physics_on.throughput ? &a.physics_options.throughput : nullptr);
  in.reference_capacity = capacity;
  if (a.load > 0) {
    BOREAS_RETURN_IF_ERROR(trace::set_offered_load(in.trace, capacity, a.load));
  }
  in.offered_load = trace::offered_load(in.trace, capacity);
  return prepare_tenancy(a.tenancy, in.cluster, in.trace, a.seed);
}

Result<sim::RunRequest> make_run_request(const SimArgs& a, const policy::PolicyRegistry& registry,
                                         const SimInputs& in, const std::string& name) {
  sim::RunRequest req;
  req.cluster = &in.cluster;
  req.jobs = in.trace.jobs;
  req.symbols = &in.trace.symbols;
  req.policy = name;
  req.policy_options.time_limit_factor = a.time_limit_factor;
  req.policy_options.service.thresholds_gpu_s = a.las_thresholds;
  req.policy_options.service.starvation_factor = a.starvation;
  req.policy_options.service.max_preemptions = a.max_preemptions;
  req.policy_options.tenancy = a.tenancy.loaded;
  BOREAS_RETURN_IF_ERROR(apply_placement_options(a.placement_args, registry, req.policy_options));
  req.engine_options.sample_interval = Duration::from_seconds(a.sample_interval_s);
  req.engine_options.preemption_overhead = Duration::from_seconds(a.preemption_overhead_s);
  req.engine_options.seed = a.seed;
  req.engine_options.meter = a.meter;
  req.engine_options.physics = a.physics_options;
  req.engine_options.physics.on = a.physics_on;
  req.engine_options.physics.reference_gpu = in.reference.name;
  return req;
}

Result<sim::RunOutput> run_one_policy(const SimArgs& a, const policy::PolicyRegistry& registry,
                                      const SimInputs& in, const std::string& name,
                                      std::function<void(double)> progress) {
  auto req = make_run_request(a, registry, in, name);
  if (!req.is_ok()) {
    return req.status();
  }
  req->progress = std::move(progress);
  return sim::run_policy(registry, *req);
}

sim::OutputInfo output_info(const SimArgs& a, const SimInputs& in) {
  return sim::OutputInfo{in.cluster.name, a.trace,          a.seed,         in.reference.name,
                         in.reference.why, in.offered_load, in.dropped_jobs};
}

}  // namespace boreas::cli

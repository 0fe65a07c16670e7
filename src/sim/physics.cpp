#include "sim/physics.h"

#include <algorithm>
#include <cmath>

#include "models/checkpoint.h"
#include "sim/reference.h"

namespace boreas::sim {

namespace {

Status set_switch(PhysicsSwitches& s, std::string_view name) {
  bool* flags[] = {&s.throughput, &s.comm,       &s.power, &s.thermal,
                   &s.failures,   &s.checkpoint, &s.spot,  &s.cost};
  const char* names[] = {"throughput", "comm", "power", "thermal", "failures", "checkpoint", "spot", "cost"};
  for (size_t i = 0; i < std::size(names); ++i) {
    if (name == names[i]) {
      *flags[i] = true;
      return Status::ok();
    }
  }
  return invalid_argument("--physics: unknown model '" + std::string(name) +
                          "'; use none, all or a comma list of "
                          "throughput,comm,power,thermal,failures,checkpoint,spot,cost");
}

// Whether the GPUs lie on one node (or there are none): placement_factor's single-node case,
// found without building the job's node list.
bool on_one_node(const state::ClusterState& state, std::span<const GpuId> gpus) {
  return std::all_of(gpus.begin(), gpus.end(),
                     [&](GpuId g) { return state.node_of(g) == state.node_of(gpus.front()); });
}

}  // namespace

Result<PhysicsSwitches> parse_physics(std::string_view list) {
  PhysicsSwitches s;
  if (list == "none" || list.empty()) {
    return s;
  }
  if (list == "all") {
    return PhysicsSwitches{true, true, true, true, true, true, true, true};
  }
  size_t begin = 0;
  while (begin <= list.size()) {
    const size_t end = std::min(list.find(',', begin), list.size());
    BOREAS_RETURN_IF_ERROR(set_switch(s, list.substr(begin, end - begin)));
    begin = end + 1;
  }
  return s;
}

Physics::Physics(const state::ClusterState& state, PhysicsOptions options)
    : state_(state),
      cluster_(state.cluster()),
      options_(std::move(options)),
      model_(options_.throughput),
      table_(model_, cluster_.catalog),
      ckpt_(state.job_count()) {
  class_.reserve(state.job_count());
  for (size_t j = 0; j < state.job_count(); ++j) {
    class_.push_back(
        model_.class_index(state.symbols().view(state.spec(JobId(static_cast<uint32_t>(j))).job_class)));
  }
  // The stated reference type; unset or unknown, the cluster's most common (the CLI checks names).
  std::optional<GpuTypeId> reference;
  if (!options_.reference_gpu.empty()) {
    reference = cluster_.catalog.find(options_.reference_gpu);
  }
  default_type_ = reference.value_or(most_common_gpu_type(cluster_).value_or(GpuTypeId(0))).value();
  totals_.queue_cost_usd.assign(state.symbols().size() + 1, 0.0);
  totals_.queue_energy_kwh.assign(state.symbols().size() + 1, 0.0);
  init_thermal();
}

uint32_t Physics::reference_type(const JobSpec& spec) const {
  const std::string_view types = state_.symbols().view(spec.gpu_types);
  if (!types.empty()) {
    if (auto t = cluster_.catalog.find(types.substr(0, types.find('|')))) {
      return t->value();
    }
  }
  return default_type_;
}

double Physics::placement_factor(JobId job) const {
  const auto& gpus = state_.record(job).gpus;
  if (on_one_node(state_, gpus)) {
    return 1.0;  // single-node jobs: NVLink, no placement penalty
  }
  std::vector<models::NodeGpus>& nodes = placement_nodes_;  // reused: no allocation per rate
  nodes.clear();
  for (GpuId g : gpus) {
    const NodeId n = state_.node_of(g);
    if (nodes.empty() || nodes.back().node != n) {
      nodes.push_back(models::NodeGpus{n, 0});
    }
    ++nodes.back().gpus;
  }
  const models::GangPlacement actual = models::summarize_placement(cluster_, nodes);
  const Node& first = cluster_.nodes[nodes.front().node.value()];
  const uint32_t leaf_nodes = static_cast<uint32_t>(state_.nodes_of_rack(first.rack).size());
  const models::PlacementSummary ideal =
      models::tightest_placement(static_cast<uint32_t>(gpus.size()), first.gpu_count, leaf_nodes);
  const auto& p = options_.comm;
  const double comm = models::allreduce_seconds(
      actual.summary, options_.comm_bytes,
      models::placement_links(cluster_.fabric, actual.nvlink, actual.summary, p), p);
  const double best = models::allreduce_seconds(
      ideal, options_.comm_bytes, models::placement_links(cluster_.fabric, first.nvlink, ideal, p), p);
  return models::placement_efficiency(options_.step_compute_s, std::min(best, comm), comm,
                                      options_.comm_overlap);
}

double Physics::rate(JobId job) const {
  const PhysicsSwitches& on = options_.on;
  const JobSpec& spec = state_.spec(job);
  const auto& gpus = state_.record(job).gpus;
  double r = 1.0;
  if ((on.throughput || on.thermal || on.power) && !gpus.empty()) {
    const size_t cls = class_[job.value()];
    double slowest = std::numeric_limits<double>::infinity();
    std::optional<GpuTypeId> last_type;
    double last_clock = std::numeric_limits<double>::quiet_NaN();
    for (GpuId g : gpus) {
      // a GPU of the last one's type and clock has its rate: the minimum stays
      const auto type = cluster_.nodes[state_.node_of(g).value()].gpu_type;
      const double clock = clock_of(g.value());
      if (type != last_type || clock != last_clock) {
        slowest = std::min(slowest, table_.rate(cls, *type, clock));
        last_type = type;
        last_clock = clock;
      }
    }
    const GpuTypeId ref = on.throughput ? GpuTypeId(reference_type(spec))
                                        : *cluster_.nodes[state_.node_of(gpus.front()).value()].gpu_type;
    const double base = table_.rate(cls, ref);
    r = base > 0 && slowest > 0 ? slowest / base : 1.0;
  }
  if (on.comm) {
    r *= placement_factor(job);
  }
  const Ckpt& c = ckpt_[job.value()];
  if (on.checkpoint && c.interval > Duration::zero()) {
    r *= c.interval.to_seconds() / (c.interval + c.write).to_seconds();
  }
  return r;
}

void Physics::on_start(JobId job, Time t, std::vector<JobId>& changed) {
  const JobSpec& spec = state_.spec(job);
  Ckpt& c = ckpt_[job.value()];
  c = Ckpt{t, state_.work_done_at(job, t), Duration::zero(), Duration::zero()};
  if (options_.on.checkpoint && spec.gpus > 0) {
    c.write = spec.checkpoint_cost > Duration::zero() ? spec.checkpoint_cost : options_.checkpoint_write;
    if (spec.checkpoint_interval > Duration::zero()) {
      c.interval = spec.checkpoint_interval;
    } else {
      const uint32_t per_node = std::max<uint32_t>(
          1, cluster_.nodes[state_.node_of(state_.record(job).gpus.front()).value()].gpu_count);
      const double mtbf_h =
          models::job_mtbf_hours(options_.failure, spec.gpus, (spec.gpus + per_node - 1) / per_node);
      c.interval = Duration::from_seconds(models::young_interval_s(c.write.to_seconds(), mtbf_h * 3600));
    }
  }
  set_gpu_loads(state_.record(job).gpus, job);
  touch_racks(state_.record(job).gpus, t, changed);
}

Duration Physics::lost_on_kill(JobId job, Time t) {
  const Ckpt& c = ckpt_[job.value()];
  const Duration done = state_.work_done_at(job, t) - c.work0;
  Duration saved = Duration::zero();
  Duration since = t - c.run_start;
  if (c.interval > Duration::zero()) {
    const int64_t n = (t - c.run_start).us() / (c.interval + c.write).us();
    const double raw =
        state_.record(job).rate * (c.interval + c.write).to_seconds() / c.interval.to_seconds();
    saved = Duration::from_seconds(static_cast<double>(n) * c.interval.to_seconds() * raw);
    since = since - Duration::micros(n * (c.interval + c.write).us());
  }
  const Duration lost = std::max(Duration::zero(), done - saved);
  const double gpus = static_cast<double>(state_.spec(job).gpus);
  totals_.lost_gpu_hours += since.to_seconds() / 3600.0 * gpus;
  const Duration restore = options_.on.checkpoint ? options_.restore : Duration::zero();
  return lost + restore;
}

// One checkpoint write of the job: its own cost, else the default.
Duration Physics::checkpoint_write(JobId job) const {
  const Ckpt& c = ckpt_[job.value()];
  return c.write > Duration::zero() ? c.write : options_.checkpoint_write;
}

void Physics::charge_write(JobId job, Duration write) {
  totals_.checkpoint_overhead_gpu_hours += write.to_seconds() / 3600.0 * state_.spec(job).gpus;
}

Duration Physics::redo_after_notice(JobId job, Time t, Duration notice) {
  const Duration write = checkpoint_write(job);
  if (options_.on.checkpoint && write <= notice) {
    charge_write(job, write);
    return options_.restore;
  }
  return lost_on_kill(job, t);
}

// The write happens before the GPUs are given up, but the engine hands them to the preemptor at
// once; the victim redoes the write's time on resuming instead, so its GPU time and JCT carry it.
Duration Physics::checkpoint_before_stop(JobId job) {
  const Duration write = checkpoint_write(job);
  charge_write(job, write);
  return write + options_.restore;
}

void Physics::charge_run(JobId job, std::span<const GpuId> gpus, Time t) {
  const Ckpt& c = ckpt_[job.value()];
  const double n = static_cast<double>(gpus.size());
  if (c.interval > Duration::zero()) {
    const int64_t writes = (t - c.run_start).us() / (c.interval + c.write).us();
    totals_.checkpoint_overhead_gpu_hours += static_cast<double>(writes) * c.write.to_seconds() / 3600.0 * n;
  }
  if (!options_.on.cost || gpus.empty()) {
    return;
  }
  // Each GPU at its own node's type and tier: a gang may span spot and on-demand nodes.
  double usd_per_hour = 0;
  NodeId last;
  double node_price = 0;
  for (GpuId g : gpus) {
    const NodeId id = state_.node_of(g);
    if (id != last) {
      const Node& node = cluster_.nodes[id.value()];
      const bool spot = cluster_.zones[cluster_.rack_of(node).zone.value()].spot;
      node_price = models::gpu_hour_price(cluster_.catalog.at(*node.gpu_type),
                                          spot ? models::PriceTier::kSpot : models::PriceTier::kOnDemand,
                                          options_.cost);
      last = id;
    }
    usd_per_hour += node_price;
  }
  const double usd = usd_per_hour * (t - c.run_start).to_seconds() / 3600.0;
  totals_.cost_usd += usd;
  totals_.queue_cost_usd[state_.spec(job).queue.index()] += usd;
}

void Physics::on_stop(JobId job, std::span<const GpuId> gpus, Time t, std::vector<JobId>& changed) {
  charge_run(job, gpus, t);
  set_gpu_loads(gpus, JobId());
  touch_racks(gpus, t, changed);
}

PhysicsTotals Physics::finish(Time t) {
  advance(t);
  for (JobId j : state_.running()) {
    charge_run(j, state_.record(j).gpus, t);
  }
  for (uint32_t r = 0; r < cluster_.racks.size(); ++r) {
    advance_rack(r, t);
  }
  if (options_.on.cost) {
    totals_.cost_usd += totals_.energy_facility_kwh * options_.cost.energy_usd_per_kwh;
  }
  return totals_;
}

}  // namespace boreas::sim

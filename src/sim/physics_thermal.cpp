// Power and heat of the engine's physics: per-GPU power and RC temperature, advanced per rack in
// closed form between the events that change the rack (starts, stops, throttle onsets).

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>
#include <string>

#include "sim/physics.h"
#include "sim/rack_order.h"
#include "sim/thermal_reach.h"
#include "sim/zone_racks.h"

namespace boreas::sim {

namespace {
constexpr double kOnsetSlackC = 0.01;  // event times are rounded to µs: "reached" within this
constexpr double kJoulesPerKwh = 3.6e6;
// exp(−x) is 0 for x past ≈ 745.13 (below half the least subnormal); glibc gets there through a
// slow underflow path, so decay() returns the 0 itself.
constexpr double kExpUnderflow = 746.0;

// exp(−dt/τ), the share of the distance to the steady state left after dt; τ 0: no power model.
double decay(double tau, Duration dt) {
  if (tau <= 0) {
    return 0.0;
  }
  const double x = dt.to_seconds() / tau;
  return x > kExpUnderflow ? 0.0 : std::exp(-x);
}

// decay() for one dt across the nodes of a rack, computed once per distinct τ in a row (a rack's
// nodes mostly share one GPU type and cooling).
class Decay {
 public:
  explicit Decay(Duration dt) : dt_(dt) {}
  double of(const models::Rc& rc) {
    const double tau = rc.tau_s();
    if (tau != tau_) {
      tau_ = tau;
      keep_ = decay(tau, dt_);
    }
    return keep_;
  }

 private:
  Duration dt_;
  double tau_ = -1;
  double keep_ = 0;
};

// A GPU's power at this clock (the thermal clock and the cap clocks together).
double power_at(const GpuType& type, double idle, double clock, double act, const models::PowerParams& p) {
  if (clock == 1.0) {  // the common case, without models::gpu_power_w's pow()
    return idle + (type.tdp_w - idle) * act;
  }
  return models::gpu_power_w(type, act, clock, p);
}

}  // namespace

double Physics::gpu_power(uint32_t gpu, double act) const {
  const Node& node = cluster_.nodes[state_.node_of(GpuId(gpu)).value()];
  const GpuType& type = cluster_.catalog.at(*node.gpu_type);
  return power_at(type, models::idle_w(type), clock_of(gpu), act, options_.power);
}

// Closed-form RC step for every GPU of a node at once: one exp per node, not per GPU.
void Physics::node_temps(const Node& node, const models::Rc& rc, double inlet_c, double keep,
                         double* out) const {
  for (uint32_t i = 0; i < node.gpu_count; ++i) {
    const uint32_t g = node.first_gpu + i;
    const double steady = inlet_c + power_w_[g] * rc.r_c_per_w;
    out[i] = steady + (temp_c_[g] - steady) * keep;
  }
}

void Physics::init_thermal() {
  const uint32_t gpus = state_.total_gpus();
  temp_c_.assign(gpus, 0);
  power_w_.assign(gpus, 0);
  clock_.assign(gpus, 1.0);
  node_rc_.resize(cluster_.nodes.size());
  node_max_c_.assign(cluster_.nodes.size(), 0);
  for (size_t n = 0; n < cluster_.nodes.size(); ++n) {
    const Node& node = cluster_.nodes[n];
    if (node.gpu_type && node.gpu_count > 0 &&
        models::validate_for_power(cluster_.catalog.at(*node.gpu_type)).is_ok()) {
      const GpuType& type = cluster_.catalog.at(*node.gpu_type);
      const Zone& zone = cluster_.zones[cluster_.rack_of(node).zone.value()];
      node_rc_[n] = models::rc_for(type, zone.cooling, options_.thermal);
      node_max_c_[n] = models::thresholds_for(type, options_.thermal).max_operating_c;
    }
  }
  rack_time_.assign(cluster_.racks.size(), Time());
  rack_inlet_c_.assign(cluster_.racks.size(), 0);
  rack_power_w_.assign(cluster_.racks.size(), 0);
  rack_version_.assign(cluster_.racks.size(), 0);
  zone_power_w_.assign(cluster_.zones.size(), 0);
  zone_cap_clock_.assign(cluster_.zones.size(), 1.0);
  rack_cap_clock_.assign(cluster_.racks.size(), 1.0);
  zone_racks_ = racks_of_capped_zones(cluster_);
  node_sum_.assign(cluster_.nodes.size(), NodeSum{});
  rack_sum_cap_.assign(cluster_.racks.size(), std::numeric_limits<double>::quiet_NaN());
  gpu_act_.assign(gpus, 0.0);
  gpu_queue_.assign(gpus, kIdleQueue);
  gpu_zone_.assign(gpus, 0);
  gpu_rack_.assign(gpus, 0);
  for (const Node& node : cluster_.nodes) {
    for (uint32_t g = node.first_gpu; g < node.first_gpu + node.gpu_count; ++g) {
      gpu_zone_[g] = cluster_.rack_of(node).zone.value();
      gpu_rack_[g] = node.rack.value();
    }
  }
  std::vector<JobId> none;
  for (uint32_t r = 0; r < cluster_.racks.size(); ++r) {
    refresh_rack(r, Time(), none);
    for (NodeId n : state_.nodes_of_rack(RackId(r))) {  // start at the idle steady state
      const Node& node = cluster_.nodes[n.value()];
      for (uint32_t g = node.first_gpu; g < node.first_gpu + node.gpu_count; ++g) {
        temp_c_[g] = models::steady_state_c(rack_inlet_c_[r], power_w_[g], node_rc_[n.value()]);
      }
      note_node_temps(n);
    }
  }
  events_.clear();
}

double Physics::facility_power_w() const {
  double w = 0;
  for (size_t z = 0; z < zone_power_w_.size(); ++z) {
    w += zone_power_w_[z] * cluster_.zones[z].pue;
  }
  return w;
}

void Physics::advance(Time t) {
  if (t <= last_) {
    return;
  }
  const double dt = (t - last_).to_seconds();
  for (size_t z = 0; z < zone_power_w_.size(); ++z) {
    const double kwh = zone_power_w_[z] * dt / kJoulesPerKwh;
    totals_.energy_it_kwh += kwh;
    totals_.energy_facility_kwh += kwh * cluster_.zones[z].pue;
  }
  totals_.throttled_gpu_hours += static_cast<double>(throttled_) * dt / 3600.0;
  totals_.throttle_loss_gpu_hours += clock_deficit_ * dt / 3600.0;
  last_ = t;
}

void Physics::settle(std::span<const GpuId> gpus, Time t) {
  advance(t);
  if (!options_.on.energy()) {
    return;
  }
  uint32_t last = std::numeric_limits<uint32_t>::max();
  for (GpuId g : gpus) {  // a rack already at t stays: a repeat of the last GPU's rack is skipped
    if (gpu_rack_[g.value()] != last) {
      last = gpu_rack_[g.value()];
      advance_rack(last, t);
    }
  }
}

uint32_t Physics::gpu_rack(GpuId gpu) const {
  return cluster_.nodes[state_.node_of(gpu).value()].rack.value();
}

void Physics::advance_rack(uint32_t rack, Time t) {
  if (t <= rack_time_[rack]) {
    return;
  }
  const Duration dt = t - rack_time_[rack];
  const double pue = cluster_.zones[cluster_.racks[rack].zone.value()].pue;
  const bool energy = options_.on.energy();
  Decay decay(dt);
  for (NodeId n : state_.nodes_of_rack(RackId(rack))) {
    const Node& node = cluster_.nodes[n.value()];
    if (node.gpu_count > 0) {
      node_temps(node, node_rc_[n.value()], rack_inlet_c_[rack], decay.of(node_rc_[n.value()]),
                 &temp_c_[node.first_gpu]);
      note_node_temps(n);
    }
    for (uint32_t g = node.first_gpu; g < node.first_gpu + node.gpu_count && energy; ++g) {
      const uint32_t q = gpu_queue_[g];
      if (q != kIdleQueue) {  // chargeback of the GPU's own facility energy (idle GPUs stay unbilled)
        const double kwh = power_w_[g] * dt.to_seconds() / kJoulesPerKwh * pue;
        totals_.queue_energy_kwh[q] += kwh;
        totals_.queue_cost_usd[q] += options_.on.cost ? kwh * options_.cost.energy_usd_per_kwh : 0;
      }
    }
  }
  rack_time_[rack] = t;
}

void Physics::note_node_temps(NodeId n) {
  const Node& node = cluster_.nodes[n.value()];
  node_sum_[n.value()].cool = below_onset(std::span<const double>(&temp_c_[node.first_gpu], node.gpu_count),
                                          node_max_c_[n.value()] - kOnsetSlackC);
}

// The refresh's first pass: every GPU's power at its clock under `cap` (into power_w_) and the
// rack's draw, summed node by node in order (static draw, then its GPUs) from the first stale node
// on (NodeSum: the nodes before it sum to what they summed to last time); every node goes to
// `quiet`.
double Physics::rack_power_w(uint32_t rack, double cap, QuietRack& quiet) {
  bool summing = !(cap == rack_sum_cap_[rack]);  // another cap: every power may change
  rack_sum_cap_[rack] = cap;
  double rack_w = 0;
  for (NodeId n : state_.nodes_of_rack(RackId(rack))) {
    const NodeSum& kept = node_sum_[n.value()];
    summing |= kept.stale;  // from the first stale node on, every node is summed again
    rack_w = summing ? sum_node(n, cap, rack_w) : kept.through_w;
    quiet.add_node(kept.full_clock, kept.cool, kept.max_w, node_max_c_[n.value()], node_rc_[n.value()]);
  }
  return rack_w;
}

// Adds the node's static draw and then its GPUs' powers (into power_w_) to `rack_w`, in order, and
// keeps what it found in node_sum_; returns the sum.
double Physics::sum_node(NodeId n, double cap, double rack_w) {
  const Node& node = cluster_.nodes[n.value()];
  rack_w += models::node_static_w(node, options_.power);
  double max_w = -std::numeric_limits<double>::infinity();
  bool full_clock = true;
  if (node.gpu_count > 0) {
    const GpuType& type = cluster_.catalog.at(*node.gpu_type);
    const double idle = models::idle_w(type);
    const double dynamic_w = type.tdp_w - idle;  // power_at's at full clock, taken once
    const double* act = gpu_act_.data();
    const double* clock = clock_.data();
    double* power_w = power_w_.data();
    for (uint32_t g = node.first_gpu; g < node.first_gpu + node.gpu_count; ++g) {
      if (clock[g] == 1.0 && cap == 1.0) [[likely]] {
        power_w[g] = idle + dynamic_w * act[g];
      } else {
        power_w[g] = power_at(type, idle, std::min(clock[g], cap), act[g], options_.power);
        full_clock = false;
      }
      rack_w += power_w[g];
      max_w = std::max(max_w, power_w[g]);
    }
  }
  node_sum_[n.value()] = NodeSum{rack_w, max_w, full_clock, node_sum_[n.value()].cool, false};
  return rack_w;
}

Result<uint32_t> Physics::check_node_sums() const {
  uint32_t checked = 0;
  for (uint32_t r = 0; r < cluster_.racks.size(); ++r) {
    const double cap = std::min(zone_cap_clock_[cluster_.racks[r].zone.value()], rack_cap_clock_[r]);
    bool kept_valid = cap == rack_sum_cap_[r];
    double sum_w = 0;
    for (NodeId n : state_.nodes_of_rack(RackId(r))) {
      const Node& node = cluster_.nodes[n.value()];
      const NodeSum& kept = node_sum_[n.value()];
      const std::string where = "physics: rack " + std::to_string(r) + ", node " + std::to_string(n.value());
      bool cool = true, full_clock = true;
      double max_w = -std::numeric_limits<double>::infinity();
      bool powers_kept = true;
      sum_w += models::node_static_w(node, options_.power);
      for (uint32_t g = node.first_gpu; g < node.first_gpu + node.gpu_count; ++g) {
        const double p = models::gpu_power_w(cluster_.catalog.at(*node.gpu_type), gpu_act_[g],
                                             std::min(clock_[g], cap), options_.power);
        cool = cool && temp_c_[g] < node_max_c_[n.value()] - kOnsetSlackC;
        full_clock = full_clock && clock_[g] == 1.0 && cap == 1.0;
        max_w = std::max(max_w, p);
        powers_kept = powers_kept && power_w_[g] == p;
        sum_w += p;
      }
      if (kept.cool != cool) {
        return internal_error(where + " keeps cool = " + std::to_string(kept.cool) + ", its temperatures say " +
                              std::to_string(cool));
      }
      kept_valid = kept_valid && !kept.stale;
      if (!kept_valid) {
        continue;
      }
      if (kept.through_w != sum_w || kept.max_w != max_w || kept.full_clock != full_clock || !powers_kept) {
        return internal_error(where + " keeps a sum of " + std::to_string(kept.through_w) + " W (largest " +
                              std::to_string(kept.max_w) + " W), afresh " + std::to_string(sum_w) + " W (largest " +
                              std::to_string(max_w) + " W)" + (powers_kept ? "" : ", its GPUs' powers differ"));
      }
      ++checked;
    }
  }
  return checked;
}

// Recomputes a rack's powers, inlet and throttle states at t (temperatures already advanced to t)
// and schedules its next throttle onset. One pass: the inlet is taken from the power at the
// current clocks, as models::site_thermal does.
void Physics::refresh_rack(uint32_t rack, Time t, std::vector<JobId>& changed) {
  const Rack& rk = cluster_.racks[rack];
  const Zone& zone = cluster_.zones[rk.zone.value()];
  // clock_of(g) for the rack's GPUs: every one is in this rack and its zone
  const double cap = std::min(zone_cap_clock_[rk.zone.value()], rack_cap_clock_[rack]);
  QuietRack quiet;
  double rack_w = rack_power_w(rack, cap, quiet);
  const bool thermal = options_.on.thermal;
  const double inlet =
      thermal ? models::rack_inlet_c(zone, rk, rack_w / 1000.0, options_.thermal) : zone.inlet_c;
  // The second pass only looks at GPUs quiet_in_refresh does not skip: none, usually (QuietRack).
  const bool second_pass = thermal && !quiet.all_quiet(inlet, rack_w);
  Duration next = Duration::infinite();
  // A GPU left at its limit at full clock is looked at again a microsecond later — a second pass,
  // since this pass took the inlet from the clocks it started with — but only if this pass changed
  // a clock: with nothing changed the second pass would find the same and ask again, every
  // microsecond until the GPU cooled (min_clock = 1, where GPUs overshoot their limit).
  bool at_limit = false;
  bool clocks_changed = false;
  const std::span<const NodeId> second_pass_nodes =
      second_pass ? state_.nodes_of_rack(RackId(rack)) : std::span<const NodeId>();
  for (NodeId n : second_pass_nodes) {
    const Node& node = cluster_.nodes[n.value()];
    const models::Rc& rc = node_rc_[n.value()];
    const double max_c = node_max_c_[n.value()];
    for (uint32_t g = node.first_gpu; g < node.first_gpu + node.gpu_count; ++g) {
      const double act = gpu_act_[g];
      if (quiet_in_refresh(act, clock_[g], temp_c_[g], max_c - kOnsetSlackC, max_c, inlet, power_w_[g], rc)) {
        continue;
      }
      double clock = 1.0;
      bool onset_reached = false;  // throttling, but at full clock (min_clock = 1): no onset to await
      if (act > 0 && rc.r_c_per_w > 0 &&
          (clock_[g] < 1.0 || temp_c_[g] >= node_max_c_[n.value()] - kOnsetSlackC)) {
        const models::ThrottleState ts = models::throttle_state(cluster_.catalog.at(*node.gpu_type), act,
                                                                inlet, rc, options_.power, options_.thermal);
        clock = ts.level == models::Throttle::kNone ? 1.0 : ts.clock;
        onset_reached = ts.level != models::Throttle::kNone && clock == 1.0;
      }
      if (clock != clock_[g]) {
        clocks_changed = true;
        node_sum_[n.value()].stale = true;  // its powers change
        throttled_ += (clock < 1.0 ? 1 : 0) - (clock_[g] < 1.0 ? 1 : 0);
        clock_deficit_ = throttled_ == 0 ? 0.0 : clock_deficit_ + clock_[g] - clock;
        clock_[g] = clock;
        rack_w -= power_w_[g];
        power_w_[g] = gpu_power(g, act);
        rack_w += power_w_[g];
        if (state_.gpu_owner(GpuId(g)).valid()) {
          changed.push_back(state_.gpu_owner(GpuId(g)));
        }
      }
      // A GPU whose software slowdown is a clock of 1 (min_clock = 1) has reached its onset:
      // awaiting it again would fire every microsecond.
      if (act > 0 && clock_[g] == 1.0 && rc.r_c_per_w > 0 && !onset_reached) {
        const Duration reach = models::time_to_reach(temp_c_[g], node_max_c_[n.value()], inlet, power_w_[g], rc);
        if (reach > Duration::zero()) {
          next = std::min(next, reach);
        } else {
          at_limit = true;  // already at its limit with a steady state under it: cooling back
        }
      }
    }
  }
  zone_power_w_[rk.zone.value()] += rack_w - rack_power_w_[rack];
  rack_power_w_[rack] = rack_w;
  rack_inlet_c_[rack] = inlet;
  ++rack_version_[rack];
  if (at_limit && clocks_changed) {
    next = Duration::zero();
  }
  if (next != Duration::infinite()) {
    events_.push_back(RackEvent{t + std::max(next, Duration::micros(1)), rack, rack_version_[rack]});
  }
  enforce_rack_cap(rack, t, changed);
  enforce_zone_cap(rk.zone.value(), t, changed);
}

// A zone or rack over its power cap runs every GPU in it at the one clock that meets it
// (models::group_clock_for_cap); the clock is recomputed whenever its draw changes. `clock` is the
// group's current cap clock; returns whether it changed.
bool Physics::cap_group(std::span<const uint32_t> racks, double cap_w, double draw_w, double& clock, Time t,
                        std::vector<JobId>& changed) {
  if (capping_ || !options_.on.power || cap_w <= 0 || (draw_w <= cap_w && clock == 1.0)) {
    return false;
  }
  std::vector<models::GpuLoad> loads;
  double static_w = 0;
  for (uint32_t r : racks) {
    for (NodeId n : state_.nodes_of_rack(RackId(r))) {
      const Node& node = cluster_.nodes[n.value()];
      static_w += models::node_static_w(node, options_.power);
      for (uint32_t g = node.first_gpu; g < node.first_gpu + node.gpu_count; ++g) {
        loads.push_back(models::GpuLoad{&cluster_.catalog.at(*node.gpu_type), activity(GpuId(g))});
      }
    }
  }
  const double next = models::group_clock_for_cap(loads, static_w, cap_w, options_.power).clock;
  if (std::abs(next - clock) < 1e-9) {
    return false;
  }
  clock = next;
  capping_ = true;
  for (uint32_t r : racks) {
    advance_rack(r, t);
    refresh_rack(r, t, changed);
    for (NodeId n : state_.nodes_of_rack(RackId(r))) {
      const Node& node = cluster_.nodes[n.value()];
      for (uint32_t g = node.first_gpu; g < node.first_gpu + node.gpu_count; ++g) {
        if (state_.gpu_owner(GpuId(g)).valid()) {
          changed.push_back(state_.gpu_owner(GpuId(g)));
        }
      }
    }
  }
  capping_ = false;
  return true;
}

// zone_racks_ (init_thermal, racks_of_capped_zones) holds each capped zone's racks: a rack pass
// builds no list.
void Physics::enforce_zone_cap(uint32_t zone, Time t, std::vector<JobId>& changed) {
  cap_group(zone_racks_[zone], cluster_.zones[zone].power_cap_kw * 1000.0, zone_power_w_[zone],
            zone_cap_clock_[zone], t, changed);
}

void Physics::enforce_rack_cap(uint32_t rack, Time t, std::vector<JobId>& changed) {
  cap_group(std::span<const uint32_t>(&rack, 1), cluster_.racks[rack].power_limit_kw * 1000.0, rack_power_w_[rack],
            rack_cap_clock_[rack], t, changed);
}

void Physics::touch_racks(std::span<const GpuId> gpus, Time t, std::vector<JobId>& changed) {
  if (!options_.on.energy()) {
    return;
  }
  each_rack_once(
      gpus, gpu_rack_,
      [&](uint32_t r) {
        advance_rack(r, t);
        refresh_rack(r, t, changed);  // touches no rack list: rack_scratch_ stays
      },
      rack_scratch_);
}

bool Physics::on_rack_event(const RackEvent& e, std::vector<JobId>& changed) {
  if (e.version != rack_version_[e.rack]) {
    return false;
  }
  advance(e.at);
  advance_rack(e.rack, e.at);
  refresh_rack(e.rack, e.at, changed);
  return true;
}

void Physics::sample(Time t, std::vector<ZoneSample>& out) {
  if (!options_.on.energy()) {
    return;
  }
  const size_t first = out.size();
  for (uint32_t z = 0; z < cluster_.zones.size(); ++z) {
    out.push_back(ZoneSample{t, z, zone_power_w_[z] / 1000.0, 0, 0, 0});
  }
  std::vector<uint32_t> count(cluster_.zones.size(), 0);
  for (uint32_t r = 0; r < cluster_.racks.size(); ++r) {
    const uint32_t zone = cluster_.racks[r].zone.value();
    const RackSample& rs = sample_rack(r, t);
    ZoneSample& s = out[first + zone];
    s.mean_gpu_c += rs.sum;
    s.max_gpu_c = std::max(s.max_gpu_c, rs.hottest);
    s.throttled_gpus += rs.throttled;
    count[zone] += rs.gpus;
  }
  for (uint32_t z = 0; z < cluster_.zones.size(); ++z) {
    out[first + z].mean_gpu_c = count[z] > 0 ? out[first + z].mean_gpu_c / count[z] : 0;
  }
}

// Temperatures as node_temps has them. Summed per node, then per rack (independent sums the CPU
// overlaps, where one running sum over every GPU was a chain of dependent adds).
const Physics::RackSample& Physics::sample_rack(uint32_t rack, Time t) {
  if (rack_sample_.empty()) {
    rack_sample_.resize(cluster_.racks.size());
  }
  RackSample& rs = rack_sample_[rack];
  if (rs.settled && rs.rack_time == rack_time_[rack] && rs.version == rack_version_[rack]) {
    return rs;  // every GPU at its steady state then and now: nothing moved
  }
  rs = RackSample{};
  rs.settled = true;
  rs.rack_time = rack_time_[rack];
  rs.version = rack_version_[rack];
  const Duration dt = t > rack_time_[rack] ? t - rack_time_[rack] : Duration::zero();
  const double inlet = rack_inlet_c_[rack];
  Decay decay(dt);
  for (NodeId n : state_.nodes_of_rack(RackId(rack))) {
    const Node& node = cluster_.nodes[n.value()];
    const models::Rc& rc = node_rc_[n.value()];
    const double keep = node.gpu_count > 0 ? decay.of(rc) : 0.0;
    rs.settled = rs.settled && keep == 0.0;
    double node_sum = 0;
    for (uint32_t g = node.first_gpu; g < node.first_gpu + node.gpu_count; ++g) {
      const double steady = inlet + power_w_[g] * rc.r_c_per_w;
      const double c = steady + (temp_c_[g] - steady) * keep;
      node_sum += c;
      rs.hottest = std::max(rs.hottest, c);
      rs.throttled += clock_[g] < 1.0 ? 1 : 0;
    }
    rs.sum += node_sum;
    rs.gpus += node.gpu_count;
  }
  return rs;
}

}  // namespace boreas::sim

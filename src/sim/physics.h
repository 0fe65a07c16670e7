#pragma once
// The physical models of src/models/ applied inside the engine (docs/models.md, "Engine
// integration"): job rates from throughput × placement efficiency × gang clock, GPU and rack power,
// per-GPU RC temperatures advanced in closed form per rack, throttle onsets as events, energy,
// throttled GPU-hours, checkpoint overhead and per-queue cost. Failures and spot reclaims live in sim/faults.h.

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "models/comm.h"
#include "models/cost.h"
#include "models/failure.h"
#include "models/params.h"
#include "models/power.h"
#include "models/spot.h"
#include "models/thermal.h"
#include "models/throughput.h"
#include "state/cluster_state.h"

namespace boreas::sim {

class QuietRack;  // sim/thermal_reach.h

// Which models run. All false = the engine as without physics (byte-identical results).
struct PhysicsSwitches {
  bool throughput = false, comm = false, power = false, thermal = false;
  bool failures = false, checkpoint = false, spot = false, cost = false;
  bool any() const {
    return throughput || comm || power || thermal || failures || checkpoint || spot || cost;
  }
  // power, energy and heat are integrated when any of these is on
  bool energy() const { return power || thermal || cost; }  // thermal implies power
};

// "none", "all" or a comma list of throughput,comm,power,thermal,failures,checkpoint,spot,cost.
Result<PhysicsSwitches> parse_physics(std::string_view list);

// A failure placed by hand (tests, what-if runs), on top of or instead of the random process. The
// node is out of service for `repair`; without one, a host repair is drawn (draw_repair, kNode).
struct InjectedFailure {
  Time at;
  NodeId node;
  std::optional<Duration> repair;
};

// Defaults from the declared parameter table (models/param_table.h, docs/models.md); `boreas sim
// --param NAME=VALUE` changes them through apply_param_overrides.
struct PhysicsOptions {
  PhysicsSwitches on;
  models::ThroughputParams throughput = models::default_throughput_params();
  models::CommParams comm;
  models::PowerParams power;
  models::ThermalParams thermal;
  models::FailureParams failure = models::llama3_failure_params(8);
  models::SpotParams spot;
  models::CostParams cost;
  // Activity (share of TDP's dynamic part) of a busy GPU by job kind: training at TDP (the 76%
  // node figure of FACTS §3.1 T7 is the power model at TDP), inference 0.8 (T6: 86% at batch 128).
  double training_activity = models::param("workload.training_activity");
  double inference_activity = models::param("workload.inference_activity");
  // Communication per step when the trace gives none (docs/models.md example: 2 GB, 0.5 s, 0.5).
  double comm_bytes = models::param("workload.comm_bytes");
  double step_compute_s = models::param("workload.step_compute_s");
  double comm_overlap = models::param("workload.comm_overlap");
  // Checkpoint write / restore when the job gives none: 60 s (FACTS §4.3 worked example); restore =
  // restart overhead 60 s (§6.3 I4) + reading the checkpoint back at the write bandwidth = 120 s.
  Duration checkpoint_write = Duration::from_seconds(models::param("workload.checkpoint_write_s"));
  Duration restore = Duration::from_seconds(models::default_restore_s(models::ModelParams{}));
  std::string reference_gpu;  // durations are on this type; empty = the cluster's most common
  std::vector<InjectedFailure> injected_failures;
  bool random_failures = true;  // with failures on: draw from FailureProcess too
};

// The model parameters of these options, and the options with model parameters set.
models::ModelParams model_params(const PhysicsOptions& o);
void set_model_params(PhysicsOptions& o, const models::ModelParams& p);
// `--param NAME=VALUE,...`: sets each, validates, and derives the restore again.
Status apply_param_overrides(PhysicsOptions& o, std::span<const models::ParamOverride> overrides);

struct PhysicsTotals {
  double energy_it_kwh = 0;
  double energy_facility_kwh = 0;
  double throttled_gpu_hours = 0;
  // ∫ Σ (1 − clock) over throttled GPUs dt: the GPU-hours of compute heat actually took away
  double throttle_loss_gpu_hours = 0;
  uint64_t failures = 0;
  uint64_t interrupted_runs = 0;
  double lost_gpu_hours = 0;
  double checkpoint_overhead_gpu_hours = 0;
  uint64_t spot_reclaims = 0;
  double down_gpu_hours = 0;  // GPU capacity out of service (repairs, reclaimed spot nodes)
  double cost_usd = 0;
  std::vector<double> queue_cost_usd;    // by queue symbol index
  std::vector<double> queue_energy_kwh;  // facility energy of the GPUs a queue's jobs held, by symbol
};

struct ZoneSample {
  Time time;
  uint32_t zone = 0;
  double power_kw = 0;
  double mean_gpu_c = 0;
  double max_gpu_c = 0;
  uint32_t throttled_gpus = 0;
};

// A pending thermal check of one rack, for the engine's heap (stale when its version moved on).
struct RackEvent {
  Time at;
  uint32_t rack = 0;
  uint32_t version = 0;
};

class Physics {
 public:
  Physics(const state::ClusterState& state, PhysicsOptions options);

  // Integrates energy and throttled time up to t (call before any change at t).
  void advance(Time t);
  // Facility power now (Σ zones IT power × PUE), constant until the next change.
  double facility_power_w() const;
  // The job's current rate (work per second), 1 when no rate model is on.
  double rate(JobId job) const;
  // Brings the racks of these GPUs to t: call before their owners change (start, stop).
  void settle(std::span<const GpuId> gpus, Time t);
  // After a start: heats its racks; jobs whose clocks changed are appended to `changed`.
  void on_start(JobId job, Time t, std::vector<JobId>& changed);
  // After a stop (GPUs already released): charges checkpoints and cost, cools its racks.
  void on_stop(JobId job, std::span<const GpuId> gpus, Time t, std::vector<JobId>& changed);
  // A thermal event of a rack; returns false when stale.
  bool on_rack_event(const RackEvent& e, std::vector<JobId>& changed);
  // Work a run loses when killed at t: done since its last completed checkpoint (≥ 0), plus the
  // restore it must redo; lost wall time × GPUs goes to lost_gpu_hours.
  Duration lost_on_kill(JobId job, Time t);
  // A spot reclaim with `notice`: only the restore when the checkpoint write fits in the notice.
  Duration redo_after_notice(JobId job, Time t, Duration notice);
  // Preemption with checkpoints on: the victim writes a checkpoint before it stops (counted in
  // checkpoint_overhead_gpu_hours) and reads it back when it resumes; returns write + restore.
  Duration checkpoint_before_stop(JobId job);
  // Rack checks the refreshes since the last clear_events() asked for, in the order asked.
  const std::vector<RackEvent>& events() const { return events_; }
  void clear_events() { events_.clear(); }  // keeps the buffer: most refreshes push none or one
  void sample(Time t, std::vector<ZoneSample>& out);
  // Flushes racks and costs of still-running jobs at the end of the run.
  PhysicsTotals finish(Time t);
  PhysicsTotals& totals() { return totals_; }
  // The per-GPU activity and queue kept on start and stop, checked against the GPUs' owners now
  // (tests): an error names the first GPU whose kept value differs.
  Status check_gpu_loads() const;
  // The node sums the rack refresh keeps (NodeSum) against the plain computation now (tests): each
  // node's `cool` against its temperatures, and every node a refresh would not sum again (its
  // rack's cap unchanged, it and the nodes before it not stale) against the rack's sum taken afresh
  // in order with models::gpu_power_w, bit for bit. Returns how many such nodes it checked.
  Result<uint32_t> check_node_sums() const;
  const PhysicsOptions& options() const { return options_; }

 private:
  Duration checkpoint_write(JobId job) const;
  void charge_write(JobId job, Duration write);  // into checkpoint_overhead_gpu_hours
  struct Ckpt {
    Time run_start;
    Duration work0;
    Duration interval;  // τ (0 = no checkpoints)
    Duration write;     // δ
  };
  // One rack's share of a zone sample: its GPUs' temperatures at t summed node by node, the
  // hottest, the throttled count. Kept while the rack is settled (every GPU at its steady state:
  // exp(−dt/τ) is 0) and unchanged since (same rack_time_ and rack_version_).
  struct RackSample {
    double sum = 0;
    double hottest = -std::numeric_limits<double>::infinity();
    uint32_t throttled = 0;
    uint32_t gpus = 0;
    bool settled = false;
    Time rack_time = Time::never();
    uint32_t version = 0;
  };
  const RackSample& sample_rack(uint32_t rack, Time t);
  void init_thermal();
  void advance_rack(uint32_t rack, Time t);
  void refresh_rack(uint32_t rack, Time t, std::vector<JobId>& changed);
  double rack_power_w(uint32_t rack, double cap, QuietRack& quiet);  // refresh_rack's first pass
  double sum_node(NodeId node, double cap, double rack_w);             // one node of it
  void note_node_temps(NodeId node);  // after its GPUs' temperatures moved: NodeSum::cool
  uint32_t gpu_rack(GpuId gpu) const;
  double activity(GpuId gpu) const { return gpu_act_[gpu.value()]; }
  double owner_activity(GpuId gpu) const;  // from the owner's spec: what gpu_act_ keeps
  void set_gpu_loads(std::span<const GpuId> gpus, JobId owner);  // owner invalid: idle
  double gpu_power(uint32_t gpu, double act) const;
  // Thermal clock and the zone's and rack's power-cap clocks together: the lowest wins.
  double clock_of(uint32_t gpu) const {
    return std::min({clock_[gpu], zone_cap_clock_[gpu_zone_[gpu]], rack_cap_clock_[gpu_rack_[gpu]]});
  }
  bool cap_group(std::span<const uint32_t> racks, double cap_w, double draw_w, double& clock, Time t,
                 std::vector<JobId>& changed);
  void enforce_zone_cap(uint32_t zone, Time t, std::vector<JobId>& changed);
  void enforce_rack_cap(uint32_t rack, Time t, std::vector<JobId>& changed);
  // keep = exp(−dt/τ) of the node's RC (decay()), shared by the nodes of one RC in a rack.
  void node_temps(const Node& node, const models::Rc& rc, double inlet_c, double keep, double* out) const;
  double placement_factor(JobId job) const;
  uint32_t reference_type(const JobSpec& spec) const;
  void charge_run(JobId job, std::span<const GpuId> gpus, Time t);
  void touch_racks(std::span<const GpuId> gpus, Time t, std::vector<JobId>& changed);

  const state::ClusterState& state_;
  const Cluster& cluster_;
  PhysicsOptions options_;
  models::ThroughputModel model_;
  models::ThroughputTable table_;
  std::vector<size_t> class_;  // per job
  uint32_t default_type_ = 0;
  std::vector<uint32_t> gpu_rack_;
  std::vector<double> temp_c_, power_w_, clock_;  // per GPU
  std::vector<models::Rc> node_rc_;
  std::vector<double> node_max_c_;
  std::vector<Time> rack_time_;
  std::vector<double> rack_inlet_c_, rack_power_w_;
  std::vector<uint32_t> rack_version_;
  std::vector<double> zone_power_w_;
  // Per GPU, kept by on_start and on_stop instead of looked up through the owner and its spec on
  // every rack pass: the owner's activity (0: idle) and queue symbol index (kIdleQueue: idle).
  std::vector<double> gpu_act_;
  std::vector<uint32_t> gpu_queue_;
  std::vector<RackSample> rack_sample_;  // per rack: its last sample (sample_rack)
  // Per node, what the refresh's first pass (rack_power_w) found, kept until the node's powers may
  // change (its GPUs' activity or clock, the rack's cap: `stale`), so that a pass sums again only
  // from the rack's first stale node on: the rack's sum through a node depends only on that node
  // and the ones before it. `cool` is kept by the passes that move temperatures.
  struct NodeSum {
    double through_w = 0;     // the rack's sum through this node: its static draw, then its GPUs
    double max_w = 0;         // its GPUs' largest power
    bool full_clock = false;  // every GPU at clock 1 under a cap of 1
    bool cool = false;        // every GPU below its onset (QuietRack)
    bool stale = true;
  };
  std::vector<NodeSum> node_sum_;
  std::vector<double> rack_sum_cap_;  // per rack: the cap its node sums were taken under
  static constexpr uint32_t kIdleQueue = std::numeric_limits<uint32_t>::max();
  std::vector<double> zone_cap_clock_;  // 1 = the zone's cap does not bind
  std::vector<double> rack_cap_clock_;  // 1 = the rack's cap does not bind
  std::vector<uint32_t> gpu_zone_;
  std::vector<std::vector<uint32_t>> zone_racks_;  // per zone with a power cap: its racks in order
  std::vector<uint32_t> rack_scratch_;                   // touch_racks' sorted racks, reused
  mutable std::vector<models::NodeGpus> placement_nodes_;  // placement_factor's gang by node, reused
  bool capping_ = false;  // enforce_cap refreshes racks, which must not recurse
  uint32_t throttled_ = 0;
  double clock_deficit_ = 0;  // Σ (1 − clock) over the throttled GPUs
  Time last_;
  std::vector<Ckpt> ckpt_;
  std::vector<RackEvent> events_;
  PhysicsTotals totals_;
};

}  // namespace boreas::sim

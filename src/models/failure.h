#pragma once
// Failures as independent exponential processes, one per component (GPU or node), with repair
// times. Defaults are derived from the Llama 3 405B run (FACTS §4.1); docs/models.md shows the
// arithmetic.

#include <cstdint>
#include <optional>
#include <vector>

#include "core/status.h"
#include "core/time.h"
#include "models/param_table.h"
#include "models/random.h"

namespace boreas::models {

enum class ComponentKind : uint8_t { kGpu, kNode };

// The Llama 3 405B interruptions (FACTS §4.1) split by cause into three processes
// (models/param_table.h has the counts): GPU hardware and host hardware take the node down for a
// repair; software, network, NCCL and silent-data-corruption interruptions only kill the job.
struct FailureParams {
  double gpu_mtbf_hours = 0;  // per GPU: GPU hardware; the node goes to repair
  double node_mtbf_hours = 0;  // per host: host hardware; the node goes to repair
  double job_only_mtbf_hours = 0;  // per GPU: the job dies, the node stays in service
  // Mean repair times (exponential). FACTS has no MTTR row (§7 gaps): assumptions, configurable.
  double gpu_repair_hours = param("failure.gpu_repair_hours");    // drain the node, swap the GPU or board
  double node_repair_hours = param("failure.node_repair_hours");  // reboot / unplanned host maintenance
};

// The Llama 3 derived defaults for nodes of `gpus_per_node` GPUs (Llama 3 used 8 per node).
FailureParams llama3_failure_params(uint32_t gpus_per_node = 8);
Status validate(const FailureParams& p);

// Expected time between failures of a job spanning `gpus` GPUs on `nodes` nodes.
double job_mtbf_hours(const FailureParams& p, uint32_t gpus, uint32_t nodes);

struct FailureEvent {
  Duration after;          // time from the draw to the failure
  uint32_t component = 0;  // index into the process's components
};

// A set of components failing independently; the superposition is exponential with the sum of
// the rates, and the failing component is chosen in proportion to its rate. Components that are
// down (under repair) are disabled and do not fail. Rates sit in a Fenwick tree, so adding,
// enabling and drawing are O(log n) for a 100,000-GPU cluster as for one node.
class FailureProcess {
 public:
  // Adds a component with the given MTBF (hours, > 0); returns its index.
  uint32_t add(double mtbf_hours);
  void set_enabled(uint32_t component, bool enabled);
  bool enabled(uint32_t component) const { return enabled_[component]; }
  uint32_t size() const { return static_cast<uint32_t>(rate_.size()); }
  double total_rate_per_hour() const { return prefix(size()); }
  // The next failure among the enabled components; empty when none is enabled.
  std::optional<FailureEvent> next(Rng& rng) const;

 private:
  double prefix(uint32_t count) const;  // sum of the first `count` enabled rates
  void update(uint32_t component, double delta);
  uint32_t pick(double u) const;

  std::vector<double> rate_;
  std::vector<bool> enabled_;
  std::vector<double> tree_;  // Fenwick tree over enabled rates, 1-based
};

// The components a job runs on: `gpus` GPU processes (indexes 0..gpus−1), then `nodes` nodes,
// then `gpus` job-only processes.
FailureProcess job_failure_process(const FailureParams& p, uint32_t gpus, uint32_t nodes);

// Mean time between failures observed over `events` draws (hours): a job that moves to spare
// hardware after each failure sees every draw.
double simulated_failure_interval_hours(const FailureProcess& process, uint32_t events, Rng& rng);

// A repair time drawn for a failed component of the given kind.
Duration draw_repair(const FailureParams& p, ComponentKind kind, Rng& rng);

}  // namespace boreas::models

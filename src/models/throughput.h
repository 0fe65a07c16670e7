#pragma once
// Speed of a job class on a GPU type. A step is split, on a fixed anchor GPU, into a
// compute-bound share that scales with achievable matmul TFLOPS (dense BF16 × MAMF efficiency,
// FACTS §1.1–1.2) and clock, and a memory-bound share that scales with HBM bandwidth. Because the
// shares are pinned to one anchor, relative speeds compose: speed(a→b) × speed(b→c) = speed(a→c).

#include <string>
#include <string_view>
#include <vector>

#include "core/gpu.h"
#include "core/ids.h"
#include "core/status.h"

namespace boreas::models {

struct JobClassProfile {
  std::string name;            // e.g. "transformer-training"
  double compute_share = 0.5;  // fraction of step time that is compute-bound on the anchor, [0, 1]
};

// Achievable fraction of the dense BF16 peak for one GPU type (MAMF / peak, FACTS §1.2).
struct MatmulEfficiency {
  std::string gpu;  // catalog name, e.g. "H100-SXM"
  double efficiency = 0.8;
};

struct ThroughputParams {
  std::vector<JobClassProfile> classes;
  std::string default_class;  // used for jobs without a class or with an unknown one
  std::vector<MatmulEfficiency> efficiencies;
  double default_efficiency = 0.8;  // types without a MAMF row
  // The anchor the shares refer to: H100-SXM, 989 × 0.803 TFLOPS and 3350 GB/s.
  double anchor_tflops = 794.5;
  double anchor_bandwidth_gbps = 3350;
};

// The class table and MAMF rows of docs/models.md.
ThroughputParams default_throughput_params();
Status validate(const ThroughputParams& p);
// A catalog type the model can rate: positive BF16 peak and memory bandwidth.
Status validate_for_throughput(const GpuType& type);

// Resolves job classes to profiles once, so that rating a job is a few multiplications.
class ThroughputModel {
 public:
  explicit ThroughputModel(ThroughputParams params) : params_(std::move(params)) {}

  // Index of the class profile; the default class for an empty or unknown name.
  size_t class_index(std::string_view job_class) const;
  double effective_tflops(const GpuType& type) const;
  // Work done per second relative to the anchor GPU at full clock (anchor = 1).
  // clock_factor in (0, 1] scales the compute-bound share only (HBM clocks are separate).
  double rate(size_t cls, const GpuType& type, double clock_factor = 1.0) const;
  // How many times faster `to` runs the class than `from`.
  double relative_speed(std::string_view job_class, const GpuType& from, const GpuType& to) const;
  const ThroughputParams& params() const { return params_; }

 private:
  ThroughputParams params_;
};

// Rates of every class on every type of a catalog, resolved once: the engine's per-event lookups
// and the hetero policy's class × type throughput matrix (Gavel) need no string compares.
class ThroughputTable {
 public:
  // Types the model cannot rate (validate_for_throughput fails) get rate 0.
  ThroughputTable(const ThroughputModel& model, const GpuCatalog& catalog);
  // Work per second relative to the anchor at full clock.
  double rate(size_t cls, GpuTypeId type) const { return full_[cls * types_ + type.value()]; }
  // At a clock factor: only the compute-bound share slows (as ThroughputModel::rate).
  double rate(size_t cls, GpuTypeId type, double clock_factor) const;
  size_t classes() const { return types_ == 0 ? 0 : full_.size() / types_; }
  size_t types() const { return types_; }

 private:
  size_t types_ = 0;
  std::vector<double> full_;          // [class][type] at clock 1
  std::vector<double> compute_time_;  // [class][type]: share / compute, the part a clock stretches
};

}  // namespace boreas::models

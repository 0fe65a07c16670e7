#include "models/throughput.h"

#include <strings.h>
#include <algorithm>
#include <cassert>

namespace boreas::models {
namespace {

bool same_name(std::string_view a, std::string_view b) {
  return a.size() == b.size() && strncasecmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace

ThroughputParams default_throughput_params() {
  ThroughputParams p;
  // Shares are assumptions (no FACTS row measures them); the reasons are in docs/models.md.
  p.classes = {{"transformer-training", 0.85},
               {"cnn-training", 0.65},
               {"recsys-training", 0.25},
               {"llm-inference", 0.15},
               {"default", 0.6}};
  p.default_class = "default";
  // BF16 MAMF / dense peak, FACTS §1.2 with §1.1 peaks (S-MLE-ACC V). H200 "≈ H100".
  p.efficiencies = {{"A100-40G", 271.2 / 312}, {"A100-80G", 271.2 / 312}, {"H100-SXM", 794.5 / 989},
                    {"H200", 794.5 / 989},     {"B200", 1745.0 / 2250},   {"MI300X", 668.4 / 1307.4},
                    {"H100-PCIe", 0.811}};  // no MAMF row: A100 PCIe's 81.1% (PCIe power limit)
  return p;
}

Status validate(const ThroughputParams& p) {
  for (const JobClassProfile& c : p.classes) {
    if (!(c.compute_share >= 0 && c.compute_share <= 1)) {
      return invalid_argument("throughput model: class '" + c.name +
                              "': compute_share must be in [0, 1], got " + std::to_string(c.compute_share));
    }
  }
  const bool has_default = std::any_of(p.classes.begin(), p.classes.end(), [&](const JobClassProfile& c) {
    return same_name(c.name, p.default_class);
  });
  if (!has_default) {
    return invalid_argument("throughput model: default_class '" + p.default_class +
                            "' is not in the class table; add it or name an existing class");
  }
  if (!(p.anchor_tflops > 0 && p.anchor_bandwidth_gbps > 0 && p.default_efficiency > 0)) {
    return invalid_argument(
        "throughput model: anchor_tflops, anchor_bandwidth_gbps and default_efficiency "
        "must be positive");
  }
  return Status::ok();
}

Status validate_for_throughput(const GpuType& type) {
  if (type.bf16_tflops > 0 && type.memory_bandwidth_gbps > 0) {
    return Status::ok();
  }
  return invalid_argument("GPU type '" + type.name +
                          "' needs positive bf16_tflops and memory_bandwidth_gbps for the throughput model");
}

size_t ThroughputModel::class_index(std::string_view job_class) const {
  const auto& cls = params_.classes;
  for (size_t i = 0; i < cls.size(); ++i) {
    if (same_name(cls[i].name, job_class)) {
      return i;
    }
  }
  if (job_class != params_.default_class) {
    return class_index(params_.default_class);
  }
  assert(false && "validate(ThroughputParams) guarantees the default class exists");
  return 0;
}

double ThroughputModel::effective_tflops(const GpuType& type) const {
  for (const MatmulEfficiency& e : params_.efficiencies) {
    if (same_name(e.gpu, type.name)) {
      return type.bf16_tflops * e.efficiency;
    }
  }
  return type.bf16_tflops * params_.default_efficiency;
}

double ThroughputModel::rate(size_t cls, const GpuType& type, double clock_factor) const {
  const double share = params_.classes[cls].compute_share;
  const double compute = effective_tflops(type) * clock_factor / params_.anchor_tflops;
  const double memory = type.memory_bandwidth_gbps / params_.anchor_bandwidth_gbps;
  return 1.0 / (share / compute + (1.0 - share) / memory);
}

double ThroughputModel::relative_speed(std::string_view job_class, const GpuType& from,
                                       const GpuType& to) const {
  const size_t cls = class_index(job_class);
  return rate(cls, to) / rate(cls, from);
}

ThroughputTable::ThroughputTable(const ThroughputModel& model, const GpuCatalog& catalog)
    : types_(catalog.size()) {
  const ThroughputParams& p = model.params();
  for (const JobClassProfile& cls : p.classes) {
    for (const GpuType& type : catalog.types()) {
      if (!validate_for_throughput(type).is_ok()) {
        full_.push_back(0);
        compute_time_.push_back(0);
        continue;
      }
      const double compute = model.effective_tflops(type) / p.anchor_tflops;
      const double memory = type.memory_bandwidth_gbps / p.anchor_bandwidth_gbps;
      compute_time_.push_back(cls.compute_share / compute);
      full_.push_back(1.0 / (compute_time_.back() + (1.0 - cls.compute_share) / memory));
    }
  }
}

double ThroughputTable::rate(size_t cls, GpuTypeId type, double clock_factor) const {
  const size_t i = cls * types_ + type.value();
  if (full_[i] == 0) {
    return 0;
  }
  const double time = 1.0 / full_[i] + compute_time_[i] * (1.0 / clock_factor - 1.0);
  return 1.0 / time;
}

}  // namespace boreas::models

#pragma once
// The hardware catalog: what each GPU type can do, draws and costs. Defaults live in
// data/gpus.yaml (figures from shared FACTS.md §1); config/ loads it and user extensions.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/ids.h"

namespace boreas {

struct GpuPrice {
  double on_demand_usd_per_hour = 0;  // $/GPU-hour
  double spot_usd_per_hour = 0;       // 0 when no spot market price is known
  double reserved_usd_per_hour = 0;   // 0 when unknown
  std::string date;                   // when the snapshot was taken, e.g. "2026-03"
  std::string source;                 // FACTS.md reference key(s), e.g. "P1, P3"
};

struct GpuType {
  std::string name;  // e.g. "H100-SXM"
  std::vector<std::string> aliases;  // other spellings found in traces, e.g. "V100M16"
  // Dense peaks (no sparsity). Absent when the precision has no tensor path on this part.
  double bf16_tflops = 0;  // BF16 or FP16 dense tensor TFLOPS
  std::optional<double> fp8_tflops;
  std::optional<double> int8_tops;
  std::optional<double> tf32_tflops;
  double fp32_tflops = 0;  // non-tensor vector rate
  double memory_gib = 0;
  double memory_bandwidth_gbps = 0;  // GB/s, decimal
  double tdp_w = 0;
  double idle_w = 0;
  double nvlink_gbps = 0;  // per direction, per GPU; 0 = PCIe only
  GpuPrice price;
  bool placeholder = false;  // figures are guesses (undisclosed parts such as Alibaba's G2/G3)
  std::string note;
};

// An ordered set of GPU types; GpuTypeId indexes it.
class GpuCatalog {
 public:
  // Fails (returns false) when the name or an alias is already taken.
  bool add(GpuType type);
  std::optional<GpuTypeId> find(std::string_view name_or_alias) const;
  const GpuType& at(GpuTypeId id) const { return types_[id.value()]; }
  const std::vector<GpuType>& types() const { return types_; }
  size_t size() const { return types_.size(); }
  std::vector<std::string> names() const;

 private:
  std::vector<GpuType> types_;
};

}  // namespace boreas

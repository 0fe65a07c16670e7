#include "policy/fair_share.h"

#include <algorithm>
#include <cmath>

namespace boreas::policy {

FairShare::FairShare(const Cluster& cluster, FairShareOptions options)
    : options_(std::move(options)), values_(cluster.catalog.size(), 1.0) {
  for (size_t t = 0; t < values_.size(); ++t) {
    const GpuType& type = cluster.catalog.at(GpuTypeId(static_cast<uint32_t>(t)));
    const auto it = options_.type_values.find(type.name);
    if (it != options_.type_values.end()) {
      values_[t] = it->second;
    } else if (type.bf16_tflops > 0) {
      values_[t] = type.bf16_tflops;
    }
  }
  std::vector<uint8_t> present(values_.size(), 0);
  for (const Node& n : cluster.nodes) {
    if (n.gpu_type) {
      total_value_ += values_[n.gpu_type->value()] * n.gpu_count;
      present[n.gpu_type->value()] = 1;
    }
  }
  for (size_t t = 0; t < present.size(); ++t) {
    if (present[t]) {
      present_.push_back(t);
    }
  }
}

void FairShare::advance(Time now, const std::vector<std::vector<uint32_t>>& held) {
  if (decayed_.size() < held.size()) {
    decayed_.resize(held.size(), std::vector<double>(values_.size(), 0.0));
  }
  if (last_.is_never() || now <= last_) {
    last_ = last_.is_never() ? now : last_;
    return;
  }
  const double dt = (now - last_).to_seconds();
  const double half = options_.half_life.to_seconds();
  const double decay = half > 0 ? std::exp2(-dt / half) : 1.0;  // 0 = never decays
  for (size_t q = 0; q < decayed_.size(); ++q) {
    for (size_t t : present_) {  // a type the cluster lacks is never held: its usage stays 0
      const double used = q < held.size() ? held[q][t] : 0.0;
      // Usage held over [last, now] decays from its midpoint: exact enough, cheap.
      decayed_[q][t] = decayed_[q][t] * decay + used * dt * values_[t] * std::sqrt(decay);
    }
  }
  last_ = now;
}

double FairShare::share(uint32_t queue, double weight) const {
  if (queue >= decayed_.size() || decayed_[queue].empty() || total_value_ <= 0) {
    return 0;
  }
  const double most = *std::max_element(decayed_[queue].begin(), decayed_[queue].end());
  return most / total_value_ / std::max(weight, 1e-9);
}

}  // namespace boreas::policy

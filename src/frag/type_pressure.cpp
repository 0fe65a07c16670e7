#include "frag/type_pressure.h"

#include <algorithm>

namespace boreas::frag {

namespace {

double capacity_of(TypeMask mask, const std::array<double, kTypeBits>& cap) {
  double total = 0;
  for (int t = 0; t < kTypeBits; ++t) {
    total += ((mask >> t) & 1u) != 0 ? cap[t] : 0.0;
  }
  return total;
}

}  // namespace

TypePressure type_pressure(const std::vector<TaskClass>& mix, const std::vector<Node>& nodes) {
  TypePressure tp;
  std::array<double, kTypeBits> cap{};
  double total_cap = 0;
  for (const auto& n : nodes) {
    if (n.type_bit >= 0 && n.type_bit < kTypeBits && n.gpu_count > 0) {
      cap[n.type_bit] += double{kMilli} * n.gpu_count;
      total_cap += double{kMilli} * n.gpu_count;
      tp.capacity = total_cap;
      tp.present |= TypeMask{1} << n.type_bit;
    }
  }
  double total_demand = 0;  // the mix's GPU milli per pod, on average
  for (const auto& c : mix) {
    total_demand += c.weight * static_cast<double>(c.shape.total_milli());
  }
  if (total_demand <= 0 || total_cap <= 0) {
    return tp;
  }
  for (const auto& c : mix) {
    const TypeMask mask = c.shape.types & tp.present;
    const double allowed_cap = capacity_of(mask, cap);
    if (c.shape.types == 0 || c.shape.gpus == 0 || allowed_cap <= 0) {
      continue;
    }
    // The class's demand at 100 % arrived, spread over its types by capacity: per GPU of each type.
    const double demand = total_cap * c.weight * static_cast<double>(c.shape.total_milli()) / total_demand;
    for (int t = 0; t < kTypeBits; ++t) {
      tp.restricted[t] += ((mask >> t) & 1u) != 0 ? demand * cap[t] / allowed_cap : 0.0;
    }
  }
  for (int t = 0; t < kTypeBits; ++t) {
    tp.pressure[t] = cap[t] > 0 ? std::min(tp.restricted[t] / cap[t], 1.0) : 0.0;
  }
  return tp;
}

TypePressure pressure_now(const TypePressure& base, const std::vector<Node>& nodes, double arrived_milli) {
  std::array<double, kTypeBits> idle{};
  for (const auto& n : nodes) {
    if (n.type_bit >= 0 && n.type_bit < kTypeBits) {
      idle[n.type_bit] += static_cast<double>(n.gpu_left_total());
    }
  }
  TypePressure now = base;
  const double to_come = base.capacity > 0 ? std::max(0.0, 1.0 - arrived_milli / base.capacity) : 0.0;
  for (int t = 0; t < kTypeBits; ++t) {
    now.pressure[t] = idle[t] > 0 ? std::min(base.restricted[t] * to_come / idle[t], 1.0) : 1.0;
  }
  return now;
}

double displaced_milli(const PodShape& p, const Node& n, const TypePressure& tp) {
  if (p.gpus == 0 || n.type_bit < 0 || n.type_bit >= kTypeBits) {
    return 0;
  }
  const TypeMask allowed = (p.types == 0 ? tp.present : p.types) & tp.present;
  double least = tp.pressure[n.type_bit];
  for (int t = 0; t < kTypeBits; ++t) {
    least = ((allowed >> t) & 1u) != 0 ? std::min(least, tp.pressure[t]) : least;
  }
  return static_cast<double>(p.total_milli()) * (tp.pressure[n.type_bit] - least);
}

}  // namespace boreas::frag

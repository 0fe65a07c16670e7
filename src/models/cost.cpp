#include "models/cost.h"

#include "models/param_check.h"

namespace boreas::models {

Status validate(const CostParams& p) {
  return ParamCheck("cost")
      .in("reserved_discount", p.reserved_discount, 0, 1)
      .in("spot_discount", p.spot_discount, 0, 1)
      .at_least("energy_usd_per_kwh", p.energy_usd_per_kwh, 0)
      .status();
}

double gpu_hour_price(const GpuType& type, PriceTier tier, const CostParams& p) {
  const double on_demand = type.price.on_demand_usd_per_hour;
  switch (tier) {
    case PriceTier::kReserved:
      return type.price.reserved_usd_per_hour > 0 ? type.price.reserved_usd_per_hour
                                                  : on_demand * (1.0 - p.reserved_discount);
    case PriceTier::kSpot:
      return type.price.spot_usd_per_hour > 0 ? type.price.spot_usd_per_hour
                                              : on_demand * (1.0 - p.spot_discount);
    case PriceTier::kOnDemand:
      break;
  }
  return on_demand;
}

QueueCost& CostAccumulator::slot(QueueId queue) {
  if (queue.value() >= queues_.size()) {
    queues_.resize(queue.value() + 1);
  }
  return queues_[queue.value()];
}

void CostAccumulator::add_gpu_time(QueueId queue, const GpuType& type, PriceTier tier, Duration gpu_time) {
  QueueCost& q = slot(queue);
  const double hours = gpu_time.to_seconds() / 3600.0;
  q.gpu_hours += hours;
  q.gpu_usd += hours * gpu_hour_price(type, tier, params_);
}

void CostAccumulator::add_energy(QueueId queue, double facility_kwh) {
  QueueCost& q = slot(queue);
  q.facility_kwh += facility_kwh;
  q.energy_usd += facility_kwh * params_.energy_usd_per_kwh;
}

QueueCost CostAccumulator::queue(QueueId queue) const {
  return queue.value() < queues_.size() ? queues_[queue.value()] : QueueCost{};
}

QueueCost CostAccumulator::total() const {
  QueueCost sum;
  for (const QueueCost& q : queues_) {
    sum.gpu_hours += q.gpu_hours;
    sum.gpu_usd += q.gpu_usd;
    sum.facility_kwh += q.facility_kwh;
    sum.energy_usd += q.energy_usd;
  }
  return sum;
}

}  // namespace boreas::models

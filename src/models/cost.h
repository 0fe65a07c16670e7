#pragma once
// Cost: $/GPU-hour by type and tier plus energy price × facility energy, summed per queue
// (chargeback).

#include <vector>

#include "core/gpu.h"
#include "core/ids.h"
#include "core/status.h"
#include "core/time.h"
#include "models/param_table.h"

namespace boreas::models {

enum class PriceTier { kOnDemand, kReserved, kSpot };

struct CostParams {
  // Used when the catalog has no reserved / spot price for a type.
  double reserved_discount = param("cost.reserved_discount");  // 30–60% below on-demand (P2, P12)
  double spot_discount = param("cost.spot_discount");  // surveys: 40–70% or 50–80% lower (P12, P10)
  // Site energy price; not in FACTS (set it per site). Cloud GPU-hour prices already include
  // power, so set 0 when costing cloud capacity.
  double energy_usd_per_kwh = param("cost.energy_usd_per_kwh");
};

Status validate(const CostParams& p);
double gpu_hour_price(const GpuType& type, PriceTier tier, const CostParams& p);

struct QueueCost {
  double gpu_hours = 0;
  double gpu_usd = 0;
  double facility_kwh = 0;
  double energy_usd = 0;
  double total_usd() const { return gpu_usd + energy_usd; }
};

// Chargeback per queue, indexed by QueueId (grows on first use of a queue).
class CostAccumulator {
 public:
  explicit CostAccumulator(CostParams params) : params_(params) {}
  // gpu_time = GPUs held × wall time (e.g. 8 GPUs for 2 h = 16 GPU-hours).
  void add_gpu_time(QueueId queue, const GpuType& type, PriceTier tier, Duration gpu_time);
  void add_energy(QueueId queue, double facility_kwh);
  QueueCost queue(QueueId queue) const;
  QueueCost total() const;

 private:
  QueueCost& slot(QueueId queue);

  CostParams params_;
  std::vector<QueueCost> queues_;
};

}  // namespace boreas::models

#include "models/checkpoint.h"

#include <algorithm>
#include <cmath>

#include "models/param_check.h"

namespace boreas::models {

Status validate(const CheckpointParams& p) {
  return ParamCheck("checkpoint")
      .positive("bytes_per_param", p.bytes_per_param)
      .positive("write_gbps", p.write_gbps)
      .positive("read_gbps", p.read_gbps)
      .at_least("restart_overhead_s", p.restart_overhead_s, 0)
      .status();
}

CheckpointCost checkpoint_cost(double model_params, const CheckpointParams& p) {
  const double bytes = model_params * p.bytes_per_param;
  return {bytes / (p.write_gbps * 1e9), p.restart_overhead_s + bytes / (p.read_gbps * 1e9)};
}

double young_interval_s(double write_s, double mtbf_s) {
  return std::sqrt(2.0 * write_s * mtbf_s);
}

double daly_interval_s(double write_s, double mtbf_s) {
  return std::max(write_s, young_interval_s(write_s, mtbf_s) - write_s);
}

double waste_fraction(double interval_s, double write_s, double restore_s, double mtbf_s) {
  return write_s / interval_s + interval_s / (2.0 * mtbf_s) + restore_s / mtbf_s;
}

double expected_time_per_work(double interval_s, double write_s, double restore_s, double mtbf_s) {
  const double segment = std::expm1((interval_s + write_s) / mtbf_s) * (mtbf_s + restore_s);
  return segment / interval_s;
}

double simulate_runtime_s(double work_s, double interval_s, double write_s, double restore_s, double mtbf_s,
                          Rng& rng) {
  const double rate_per_s = 1.0 / mtbf_s;
  double wall = 0;
  for (double done = 0; done < work_s; done += interval_s) {
    const double segment = std::min(interval_s, work_s - done) + write_s;
    for (;;) {
      const double failure_in = exponential(rng, rate_per_s);
      if (failure_in >= segment) {
        wall += segment;
        break;
      }
      wall += failure_in + restore_s;
    }
  }
  return wall;
}

std::vector<SweepPoint> sweep_intervals(const std::vector<double>& intervals_s, double work_s, double write_s,
                                        double restore_s, double mtbf_s, uint64_t seed) {
  std::vector<SweepPoint> points;
  for (double interval : intervals_s) {
    Rng rng(seed);
    const double wall = simulate_runtime_s(work_s, interval, write_s, restore_s, mtbf_s, rng);
    points.push_back(
        {interval, expected_time_per_work(interval, write_s, restore_s, mtbf_s) - 1.0, wall / work_s - 1.0});
  }
  return points;
}

}  // namespace boreas::models

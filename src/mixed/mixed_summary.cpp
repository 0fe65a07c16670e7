#include <algorithm>
#include <numeric>

#include "mixed/mixed.h"
#include "serving/summary.h"

namespace boreas::mixed {

namespace {

// Time from the autoscaler's ask to the replica serving (wait for GPUs + cold start), seconds.
nlohmann::json replica_waits(const MixedRun& m) {
  std::vector<double> ready, gpus;
  for (const serving::ReplicaLife& r : m.serving.replicas) {
    ready.push_back(static_cast<double>(r.ready_us - r.asked_us) / 1e6);
    gpus.push_back(static_cast<double>(r.start_us - r.asked_us) / 1e6);
  }
  const auto mean = [](const std::vector<double>& v) {
    return v.empty() ? 0.0 : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
  };
  nlohmann::json j;
  j["replicas"] = ready.size();
  j["replica_wait_mean_s"] = mean(ready);
  j["replica_gpu_wait_mean_s"] = mean(gpus);
  j["replica_gpu_wait_max_s"] = gpus.empty() ? 0.0 : *std::max_element(gpus.begin(), gpus.end());
  j["replica_wait_p50_s"] = serving::percentile(ready, 0.5);
  j["replica_wait_p99_s"] = serving::percentile(ready, 0.99);
  return j;
}

}  // namespace

void add_mixed_keys(nlohmann::json& j, const MixedRun& m, const ServiceSide& side, uint32_t cluster_gpus) {
  const serving::Summary s = serving::summarize(*side.trace, *side.service, side.placement.gpu, m.serving);
  nlohmann::json service = serving::summary_json(s, m.serving, *side.service, side.trace->requests.size());
  service.update(replica_waits(m));
  j["service"] = std::move(service);
  const sim::Summary& t = m.engine.summary;
  const Time origin = m.engine.result.first_submit;
  const Time lo = origin + Duration::from_seconds(t.window_start_s);
  const Time hi = origin + Duration::from_seconds(t.window_end_s);
  const Held training = held_by(m.engine.result, 0, m.training_jobs, lo, hi);
  const Held replicas = held_by(m.engine.result, m.training_jobs, m.jobs.size(), lo, hi);
  const double window_gpu_s = static_cast<double>(cluster_gpus) * (t.window_end_s - t.window_start_s);
  j["training_gpu_hours"] = training.gpu_seconds / 3600;
  j["service_gpu_hours_engine"] = replicas.gpu_seconds / 3600;
  j["training_window_utilization"] = window_gpu_s > 0 ? training.in_window_gpu_seconds / window_gpu_s : 0.0;
  j["service_window_utilization"] = window_gpu_s > 0 ? replicas.in_window_gpu_seconds / window_gpu_s : 0.0;
  j["coupling_rounds"] = m.rounds;
  j["coupling_converged"] = m.converged;
}

}  // namespace boreas::mixed

#include "serving/slo.h"

#include <algorithm>

#include "serving/summary.h"

namespace boreas::serving {

namespace {

constexpr double kMinIsolatedS = 1e-6;  // the engine's clock tick

// Time of decode iterations reading KV contexts first..last (one token each), summed.
double decode_seconds(const CostModel& cost, int64_t first, int64_t last) {
  auto work = [](int64_t kv) { return IterationWork{.decode_tokens = 1, .kv_tokens_read = kv}; };
  auto at = [&](int64_t kv) { return cost.iteration_s(work(kv)); };
  // Each iteration costs overhead + max(compute, memory), both linear in the context: when the same
  // roof binds at both ends it binds throughout, and the sum is the trapezoid.
  auto compute_bound = [&](int64_t kv) { return cost.compute_s(work(kv)) >= cost.memory_s(work(kv)); };
  const auto n = static_cast<double>(last - first + 1);
  if (compute_bound(first) == compute_bound(last)) {
    return n * (at(first) + at(last)) / 2;
  }
  double sum = 0;
  for (int64_t kv = first; kv <= last; ++kv) {
    sum += at(kv);
  }
  return sum;
}

double prefill_seconds(const CostModel& cost, int64_t prompt, int64_t budget) {
  double sum = 0;
  for (int64_t done = 0; done < prompt;) {
    const int64_t chunk = std::min(budget, prompt - done);
    sum += cost.iteration_s(
        {.prefill_tokens = chunk, .prefill_attention_pairs = prefill_pairs(done, chunk), .kv_tokens_read = done});
    done += chunk;
  }
  return sum;
}

struct Slowdowns {
  std::vector<double> ttft, tbt, e2e;
};

const std::vector<double>& of(const Slowdowns& s, const std::string& metric) {
  return metric == "ttft" ? s.ttft : metric == "tbt" ? s.tbt : s.e2e;
}

}  // namespace

CostModel cost_model_for(const ServiceSpec& service, const GpuType& gpu) {
  return CostModel(service.model, Hardware{gpu.bf16_tflops * 1e12, gpu.memory_bandwidth_gbps * 1e9, service.tp});
}

IsolatedLatency isolated_latency(const Request& r, const ServiceSpec& service, const CostModel& cost) {
  IsolatedLatency out;
  if (service.batching.kind == BatchingKind::kDynamic) {
    out.ttft_s = service.batching.batch_fixed_s + service.batching.batch_per_item_s;
    out.e2e_s = out.ttft_s;
    return out;
  }
  out.ttft_s = prefill_seconds(cost, r.input_tokens, service.batching.token_budget);
  out.e2e_s = out.ttft_s;
  if (r.output_tokens > 1) {
    // The first decode reads the prompt and the first token; each later one a token more.
    const double decode = decode_seconds(cost, int64_t{r.input_tokens} + 1, int64_t{r.input_tokens} + r.output_tokens - 1);
    out.tbt_s = decode / (r.output_tokens - 1);
    out.e2e_s += decode;
  }
  return out;
}

std::vector<SloRow> splitwise_slo_rows() {
  std::vector<SloRow> rows;
  const double quantiles[3] = {0.5, 0.9, 0.99};
  const double ttft[3] = {2, 3, 6};
  const double rest[3] = {1.25, 1.5, 5};
  for (const char* metric : {"ttft", "tbt", "e2e"}) {
    for (int i = 0; i < 3; ++i) {
      rows.push_back({metric, quantiles[i], std::string(metric) == "ttft" ? ttft[i] : rest[i]});
    }
  }
  return rows;
}

SlowdownReport slowdown_report(const RequestTrace& trace, const ServiceSpec& service, const GpuType& gpu,
                               const std::vector<Outcome>& outcomes) {
  SlowdownReport report;
  report.rows = splitwise_slo_rows();
  const double p99[3] = {report.rows[2].limit, report.rows[5].limit, report.rows[8].limit};
  const CostModel cost = cost_model_for(service, gpu);
  Slowdowns s;
  for (size_t i = 0; i < outcomes.size(); ++i) {
    const Request& r = trace.requests[i];
    IsolatedLatency iso = isolated_latency(r, service, cost);
    iso.ttft_s = std::max(iso.ttft_s, kMinIsolatedS);  // a free batch (0 ms costs) still takes a tick
    iso.e2e_s = std::max(iso.e2e_s, kMinIsolatedS);
    const double ttft = static_cast<double>(outcomes[i].first_token_us - r.arrival_us) / 1e6;
    const double e2e = static_cast<double>(outcomes[i].done_us - r.arrival_us) / 1e6;
    s.ttft.push_back(ttft / iso.ttft_s);
    s.e2e.push_back(e2e / iso.e2e_s);
    bool within = s.ttft.back() <= p99[0] && s.e2e.back() <= p99[2];
    if (iso.tbt_s > 0) {
      s.tbt.push_back((e2e - ttft) / (r.output_tokens - 1) / iso.tbt_s);
      within = within && s.tbt.back() <= p99[1];
    }
    report.within += within ? 1 : 0;
  }
  report.met = true;
  for (auto& row : report.rows) {
    std::vector<double> v = of(s, row.metric);
    row.slowdown = percentile(v, row.quantile);
    row.pass = row.slowdown <= row.limit;
    report.met = report.met && row.pass;
  }
  return report;
}

}  // namespace boreas::serving

#include "frag/study.h"

#include <algorithm>
#include <atomic>
#include <thread>

#include "frag/fragmentation.h"

namespace boreas::frag {

namespace {

const CurvePoint& at(const ReplayResult& r, int pct) {
  // The curve holds every whole percent up to the last reached; a run that stopped short (a
  // tiny trace) reports its last point.
  const size_t i = static_cast<size_t>(pct);
  return i < r.curve.size() ? r.curve[i] : r.curve.back();
}

Metrics mean_of(const std::vector<SeedRun>& runs) {
  Metrics m;
  for (const auto& s : runs) {
    m.gpu_alloc_pct_at_100 += s.metrics.gpu_alloc_pct_at_100;
    m.gpu_alloc_pct_at_130 += s.metrics.gpu_alloc_pct_at_130;
    m.unalloc_gpu_pct_at_100 += s.metrics.unalloc_gpu_pct_at_100;
    m.frag_ratio_pct_at_90 += s.metrics.frag_ratio_pct_at_90;
    m.frag_amount_pct_at_100 += s.metrics.frag_amount_pct_at_100;
  }
  const double n = runs.empty() ? 1.0 : static_cast<double>(runs.size());
  m.gpu_alloc_pct_at_100 /= n;
  m.gpu_alloc_pct_at_130 /= n;
  m.unalloc_gpu_pct_at_100 /= n;
  m.frag_ratio_pct_at_90 /= n;
  m.frag_amount_pct_at_100 /= n;
  return m;
}

}  // namespace

Metrics metrics_of(const ReplayResult& r) {
  Metrics m;
  if (r.curve.empty()) {
    return m;
  }
  m.gpu_alloc_pct_at_100 = at(r, 100).alloc_pct;
  m.gpu_alloc_pct_at_130 = at(r, 130).alloc_pct;
  m.unalloc_gpu_pct_at_100 = at(r, 100).failed_pct;
  m.frag_ratio_pct_at_90 = at(r, 90).frag_ratio;
  m.frag_amount_pct_at_100 = at(r, 100).frag_pct;
  return m;
}

std::vector<PolicyRuns> run_study(const StudyInput& in) {
  const std::vector<TaskClass> mix = task_mix(in.pods, in.coverage);
  const int64_t cap = capacity_milli(in.nodes);
  std::vector<std::vector<PodShape>> arrivals_by_seed;
  for (uint64_t seed : in.seeds) {
    arrivals_by_seed.push_back(arrivals(in.pods, cap, in.ratio, seed));
  }
  std::vector<PolicyRuns> out(in.policies.size());
  for (size_t p = 0; p < in.policies.size(); ++p) {
    out[p].policy = in.policies[p];
    out[p].runs.resize(in.seeds.size());
  }
  const size_t jobs = in.policies.size() * in.seeds.size();
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t j = next++; j < jobs; j = next++) {
      const size_t p = j / in.seeds.size();
      const size_t s = j % in.seeds.size();
      SeedRun& run = out[p].runs[s];
      run.seed = in.seeds[s];
      run.replay = replay(in.nodes, arrivals_by_seed[s], mix, in.policies[p], in.seeds[s]);
      run.metrics = metrics_of(run.replay);
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < std::max(1u, in.threads); ++t) {
    pool.emplace_back(worker);
  }
  worker();
  for (auto& t : pool) {
    t.join();
  }
  for (auto& pr : out) {
    pr.mean = mean_of(pr.runs);
  }
  return out;
}

}  // namespace boreas::frag

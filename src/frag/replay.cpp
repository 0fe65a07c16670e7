#include "frag/replay.h"

#include <algorithm>
#include <random>

namespace boreas::frag {

namespace {

void shuffle(std::vector<PodShape>& v, std::mt19937_64& rng) {
  // Fisher-Yates with our own index draw: std::shuffle's draws differ between libraries.
  for (size_t i = v.size(); i > 1; --i) {
    std::swap(v[i - 1], v[rng() % i]);
  }
}

struct Totals {
  int64_t capacity = 0;
  int64_t idle = 0;  // free milli-GPU over the cluster
  double frag = 0;   // Σ node_frag
};

CurvePoint point_at(int pct, const Totals& t, int64_t arrived, int64_t placed) {
  const double cap = static_cast<double>(t.capacity);
  CurvePoint c;
  c.pct = pct;
  c.alloc_pct = 100.0 * static_cast<double>(t.capacity - t.idle) / cap;
  c.frag_pct = 100.0 * t.frag / cap;
  c.frag_ratio = t.idle > 0 ? 100.0 * t.frag / static_cast<double>(t.idle) : 0.0;
  c.failed_pct = 100.0 * static_cast<double>(arrived - placed) / cap;
  return c;
}

}  // namespace

int64_t capacity_milli(const std::vector<Node>& nodes) {
  int64_t cap = 0;
  for (const auto& n : nodes) {
    cap += int64_t{n.gpu_count} * kMilli;
  }
  return cap;
}

std::vector<PodShape> arrivals(const std::vector<PodShape>& pods, int64_t capacity, double ratio, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const auto target = static_cast<int64_t>(ratio * static_cast<double>(capacity));
  std::vector<PodShape> out = pods;
  int64_t demand = 0;
  for (const auto& p : out) {
    demand += p.total_milli();
  }
  while (demand < target) {
    const PodShape& p = pods[rng() % pods.size()];
    out.push_back(p);
    demand += p.total_milli();
  }
  shuffle(out, rng);
  if (demand > target) {  // keep the prefix that reaches the target
    int64_t sum = 0;
    size_t k = 0;
    while (k < out.size() && sum < target) {
      sum += out[k++].total_milli();
    }
    out.resize(k);
  }
  return out;
}

ReplayResult replay(std::vector<Node> nodes, const std::vector<PodShape>& arrivals,
                    const std::vector<TaskClass>& mix, Policy policy, uint64_t seed) {
  Placer placer(policy, mix, seed);
  // The curve reports FGD's measure for every policy. boreas-cpu scores with its own, kept per node
  // beside FGD's in a second memo; the other policies share the placer's memo of FGD's measure.
  const bool own_measure = placer.measure() != Measure::kFgd;
  FragMemo fgd_memo(own_measure ? mix : std::vector<TaskClass>{});
  FragMemo& metric = own_measure ? fgd_memo : placer.memo();
  std::vector<double> frag(nodes.size());  // FGD's measure, per node
  std::vector<double> own(own_measure ? nodes.size() : 0);
  Totals t;
  t.capacity = t.idle = capacity_milli(nodes);
  for (size_t i = 0; i < nodes.size(); ++i) {
    frag[i] = metric.frag(nodes[i]);
    t.frag += frag[i];
    if (own_measure) {
      own[i] = placer.memo().frag(nodes[i]);
    }
  }
  ReplayResult r;
  int64_t arrived = 0;
  int64_t placed = 0;
  int next = 0;
  auto record = [&] {
    if (next <= kCurveMaxPct && arrived * 100 >= int64_t{next} * t.capacity) {
      t.frag = 0;  // summed afresh at each sample: no drift from the running updates
      for (double f : frag) {
        t.frag += f;
      }
    }
    while (next <= kCurveMaxPct && arrived * 100 >= int64_t{next} * t.capacity) {
      r.curve.push_back(point_at(next++, t, arrived, placed));
    }
  };
  record();
  for (const auto& p : arrivals) {
    ++r.pods;
    arrived += p.total_milli();
    const Choice c = placer.choose(nodes, own_measure ? own : frag, p);
    if (c.node < 0) {
      ++r.failed;
      if (arrived * 100 <= 100 * t.capacity) {
        ++r.failed_by_kind_at_100[static_cast<size_t>(affinity_of(p))];
      }
    } else {
      Node& n = nodes[static_cast<size_t>(c.node)];
      apply(n, p, c.pick);
      placed += p.total_milli();
      t.idle -= p.total_milli();
      frag[static_cast<size_t>(c.node)] = metric.frag(n);
      if (own_measure) {
        own[static_cast<size_t>(c.node)] = placer.memo().frag(n);
      }
    }
    record();
  }
  return r;
}

}  // namespace boreas::frag

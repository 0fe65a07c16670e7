#include "frag/policy.h"

#include <algorithm>
#include <cmath>

namespace boreas::frag {

namespace {

constexpr int64_t kMaxScore = 100;

struct NamedPolicy {
  std::string_view name;
  Policy policy;
};
constexpr NamedPolicy kNames[] = {{"fgd", Policy::kFgd},           {"bestfit", Policy::kBestFit},
                                  {"packing", Policy::kPacking},   {"clustering", Policy::kClustering},
                                  {"dotprod", Policy::kDotProd},   {"random", Policy::kRandom},
                                  {"boreas", Policy::kBoreas},     {"boreas-cpu", Policy::kBoreasCpu}};

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

int64_t fgd_points(double before, double after) {
  return static_cast<int64_t>(sigmoid((before - after) / kMilli) * kMaxScore);
}

}  // namespace

std::string_view policy_name(Policy p) {
  for (const auto& n : kNames) {
    if (n.policy == p) {
      return n.name;
    }
  }
  return "?";
}

Result<Policy> parse_policy(std::string_view name) {
  for (const auto& n : kNames) {
    if (n.name == name) {
      return n.policy;
    }
  }
  return invalid_argument("--policy: unknown policy '" + std::string(name) +
                          "'; use fgd, bestfit, packing, clustering, dotprod, random, boreas or "
                          "boreas-cpu (comma-separated)");
}

Result<std::vector<Policy>> parse_policy_list(std::string_view csv) {
  std::vector<Policy> out;
  while (true) {
    const size_t comma = csv.find(',');
    auto p = parse_policy(csv.substr(0, comma));
    if (!p.is_ok()) {
      return p.status();
    }
    if (std::find(out.begin(), out.end(), *p) != out.end()) {
      return invalid_argument("--policy: '" + std::string(policy_name(*p)) + "' is named twice");
    }
    out.push_back(*p);
    if (comma == std::string_view::npos) {
      return out;
    }
    csv = csv.substr(comma + 1);
  }
}

Measure measure_of(Policy p, const BoreasDesign& design) {
  if (p == Policy::kBoreas && design.stranded) {
    return Measure::kStranded;
  }
  return p == Policy::kBoreasCpu ? Measure::kCpuAware : Measure::kFgd;
}

TieBreak tie_break_of(Policy p) {
  switch (p) {
    case Policy::kFgd:
    case Policy::kBestFit:
    case Policy::kPacking:
    case Policy::kClustering:
    case Policy::kDotProd:
    case Policy::kBoreas: return TieBreak::kNodeRank;
    case Policy::kRandom:
    case Policy::kBoreasCpu: break;
  }
  return TieBreak::kRandom;
}

Scored score_fgd(const Node& n, const PodShape& p, double frag_before, FragMemo& memo, double penalty) {
  Scored best;
  if (!p.is_share()) {
    Node after = n;
    best.pick = pick_tightest(n, p);
    apply(after, p, best.pick);
    best.score = fgd_points(frag_before, memo.frag(after) + penalty);
    return best;
  }
  // A share pod: try each GPU it fits on; GPUs with equal free milli lead to the same state.
  for (int i = 0; i < n.gpu_count; ++i) {
    const bool seen = std::find(n.gpu_left.begin(), n.gpu_left.begin() + i, n.gpu_left[i]) != n.gpu_left.begin() + i;
    if (n.gpu_left[i] < p.gpu_milli || seen) {
      continue;
    }
    Node after = n;
    GpuPick pick;
    pick.gpu[0] = static_cast<int8_t>(i);
    pick.count = 1;
    apply(after, p, pick);
    const int64_t s = fgd_points(frag_before, memo.frag(after) + penalty);
    if (s > best.score) {
      best = {s, pick};
    }
  }
  return best;
}

Scored score_boreas(const Node& n, const PodShape& p, double fgd_before, FragMemo& fgd, FragMemo& cpu,
                    double penalty) {
  Scored s = score_fgd(n, p, fgd_before, fgd, penalty);
  s.score = s.score * (kMaxScore + 1) + score_fgd(n, p, cpu.frag(n), cpu).score;
  return s;
}

Scored score_bestfit(const Node& n, const PodShape& p) {
  const double cpu = static_cast<double>(n.cpu_left - p.cpu_milli) / kMaxSpecCpu;
  const double gpu = static_cast<double>(n.gpu_left_total() - p.total_milli()) / kMaxSpecGpu;
  const double waste = 0.5 * cpu + 0.5 * gpu;  // 0..1, lower is a tighter fit
  return {static_cast<int64_t>((1.0 - waste) * kMaxScore), pick_tightest(n, p)};
}

Scored score_packing(const Node& n, const PodShape& p) {
  const GpuPick pick = pick_tightest(n, p);
  if (p.gpus == 0) {
    return {0, pick};
  }
  const int free = n.fully_free_gpus();
  if (free == n.gpu_count) {  // an idle node: last resort, smaller nodes first
    return {std::max<int64_t>(kMaxScore / 3 - free, free), pick};
  }
  int fresh = 0;  // fully free GPUs the pod would have to take
  int64_t shared_free_pct = 0;
  for (int k = 0; k < pick.count; ++k) {
    const int16_t left = n.gpu_left[pick.gpu[k]];
    fresh += left == kMilli ? 1 : 0;
    shared_free_pct += left * 100 / kMilli;
  }
  if (fresh > 0) {  // free GPUs on a node already in use
    return {std::max<int64_t>(kMaxScore / 2 - fresh, kMaxScore / 3), pick};
  }
  return {std::max<int64_t>(kMaxScore - shared_free_pct / 10, kMaxScore / 2), pick};  // shared GPUs
}

Scored score_clustering(const Node& n, const PodShape& p) {
  const GpuPick pick = pick_tightest(n, p);
  const Affinity tag = affinity_of(p);
  if (tag == Affinity::kNoGpu) {
    return {0, pick};
  }
  int tags = 0;
  for (size_t t = 1; t < n.affinity.size(); ++t) {
    tags += n.affinity[t] > 0 ? 1 : 0;
  }
  const int64_t fill = kMaxScore / 4 * (kMaxSpecGpu - n.gpu_left_total()) / kMaxSpecGpu;
  int64_t band = 0;  // quarter of the range: 3 same tag only, 2 same among others, 1 idle, 0 others
  if (n.affinity[static_cast<size_t>(tag)] > 0) {
    band = tags == 1 ? 3 : 2;
  } else {
    band = tags == 0 ? 1 : 0;
  }
  return {fill + kMaxScore * band / 4, pick};
}

Scored score_dotprod(const Node& n, const PodShape& p) {
  const double node_cpu = static_cast<double>(n.cpu_left) / kMaxSpecCpu;
  const double node_gpu = static_cast<double>(n.gpu_left_total()) / kMaxSpecGpu;
  const double pod_cpu = static_cast<double>(p.cpu_milli) / kMaxSpecCpu;
  const double pod_gpu = static_cast<double>(p.total_milli()) / kMaxSpecGpu;
  const double dot = (node_cpu * pod_cpu + node_gpu * pod_gpu) / 2;  // the smaller, the better
  return {static_cast<int64_t>((1.0 - dot) * kMaxScore), pick_tightest(n, p)};
}

Scored Placer::score(const Node& n, const PodShape& p, double frag_before) {
  switch (policy_) {
    case Policy::kFgd:
    case Policy::kBoreasCpu: return score_fgd(n, p, frag_before, memo_);
    case Policy::kBoreas: {
      const double displaced = design_.type_pressure ? displaced_milli(p, n, pressure_) : 0.0;
      return score_boreas(n, p, frag_before, memo_, cpu_memo_, displaced);
    }
    case Policy::kBestFit: return score_bestfit(n, p);
    case Policy::kPacking: return score_packing(n, p);
    case Policy::kClustering: return score_clustering(n, p);
    case Policy::kDotProd: return score_dotprod(n, p);
    case Policy::kRandom: break;
  }
  return {0, pick_tightest(n, p)};
}

bool Placer::wins_tie(size_t i, size_t best, uint64_t ties) {
  if (ties_ == TieBreak::kNodeRank) {
    return rank_[i] < rank_[best];
  }
  return below(ties) == 0;  // reservoir: each tie equally likely
}

Placer::Placer(Policy policy, const std::vector<TaskClass>& mix, uint64_t seed, BoreasDesign design)
    : policy_(policy), ties_(tie_break_of(policy)), design_(design), memo_(mix, measure_of(policy, design)),
      cpu_memo_(mix, Measure::kCpuAware), mix_(mix), rng_(seed) {
  if (policy == Policy::kBoreas && !design.rank_ties) {
    ties_ = TieBreak::kRandom;
  }
}

void Placer::start_run(const std::vector<Node>& nodes) {
  started_ = true;
  if (policy_ == Policy::kBoreas) {
    base_pressure_ = pressure_ = type_pressure(mix_, nodes);
  }
}

Choice Placer::choose(const std::vector<Node>& nodes, const std::vector<double>& frag, const PodShape& p) {
  if (!started_) {
    start_run(nodes);
  }
  if (policy_ == Policy::kBoreas && design_.type_pressure && design_.dynamic_pressure) {
    pressure_ = pressure_now(base_pressure_, nodes, arrived_milli_);
  }
  arrived_milli_ += static_cast<double>(p.total_milli());
  if (ties_ == TieBreak::kNodeRank && rank_.size() != nodes.size()) {
    // Fisher-Yates with our own index draw (std::shuffle's draws differ between libraries).
    rank_.resize(nodes.size());
    for (size_t i = 0; i < rank_.size(); ++i) {
      rank_[i] = static_cast<uint32_t>(i);
    }
    for (size_t i = rank_.size(); i > 1; --i) {
      std::swap(rank_[i - 1], rank_[below(i)]);
    }
  }
  Choice best;
  int64_t best_score = -1;
  uint64_t ties = 0;
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (!fits(nodes[i], p)) {
      continue;
    }
    const Scored s = score(nodes[i], p, frag[i]);
    if (s.score > best_score) {
      best_score = s.score;
      best = {static_cast<int>(i), s.pick};
      ties = 1;
    } else if (s.score == best_score && wins_tie(i, static_cast<size_t>(best.node), ++ties)) {
      best = {static_cast<int>(i), s.pick};
    }
  }
  if (policy_ == Policy::kRandom && best.node >= 0 && p.is_share()) {
    // Random GPU among those the share fits on.
    const Node& n = nodes[static_cast<size_t>(best.node)];
    std::vector<int8_t> ok;
    for (int g = 0; g < n.gpu_count; ++g) {
      if (n.gpu_left[g] >= p.gpu_milli) {
        ok.push_back(static_cast<int8_t>(g));
      }
    }
    best.pick.gpu[0] = ok[below(ok.size())];
  }
  return best;
}

}  // namespace boreas::frag

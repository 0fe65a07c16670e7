#include "frag/fragmentation.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace boreas::frag {

namespace {

using ClassKey = std::tuple<int64_t, int32_t, uint32_t, TypeMask>;  // cpu, milli, gpus, types

ClassKey key_of(const PodShape& p) { return {p.cpu_milli, p.gpu_milli, p.gpus, p.types}; }

}  // namespace

std::vector<TaskClass> task_mix(const std::vector<PodShape>& pods, double coverage) {
  std::map<ClassKey, int64_t> counts;
  for (const auto& p : pods) {
    ++counts[key_of(p)];
  }
  std::vector<std::pair<ClassKey, int64_t>> sorted(counts.begin(), counts.end());
  // Most popular first; equal counts by the larger key first (deterministic).
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first > b.first;
  });
  const double total = static_cast<double>(pods.size());
  std::vector<TaskClass> mix;
  int64_t covered = 0;
  for (const auto& [key, count] : sorted) {
    if (static_cast<double>(covered) >= coverage * total) {
      break;
    }
    TaskClass c;
    std::tie(c.shape.cpu_milli, c.shape.gpu_milli, c.shape.gpus, c.shape.types) = key;
    c.weight = static_cast<double>(count);
    covered += count;
    mix.push_back(c);
  }
  for (auto& c : mix) {
    c.weight /= static_cast<double>(covered);
  }
  return mix;
}

int64_t class_frag(const Node& n, const PodShape& c) {
  const int64_t idle = n.gpu_left_total();
  // A CPU-only task, a task of another GPU type, too little CPU or too few GPUs with enough free
  // milli: none of the node's idle GPU serves this class.
  if (c.gpus == 0 || !type_ok(n, c) || n.cpu_left < c.cpu_milli || !gpus_fit(n, c)) {
    return idle;
  }
  // The class fits: only GPUs with less free than one share of it are fragments.
  int64_t frag = 0;
  for (int i = 0; i < n.gpu_count; ++i) {
    frag += n.gpu_left[i] < c.gpu_milli ? n.gpu_left[i] : 0;
  }
  return frag;
}

int64_t class_frag_cpu(const Node& n, const PodShape& c) {
  const int64_t frag = class_frag(n, c);
  const int64_t idle = n.gpu_left_total();
  if (frag == idle || c.cpu_milli == 0) {  // the class cannot use the node at all, or needs no CPU
    return frag;
  }
  // The class fits at least once. Pods of it reach `usable` GPU milli at most (FGD's non-fragment),
  // and the CPU left hosts `by_cpu` of them: the GPU the missing pods would have used is stranded.
  const int64_t usable = idle - frag;
  const int64_t by_cpu = n.cpu_left / c.cpu_milli;
  return idle - std::min(usable, by_cpu * c.total_milli());
}

double cpu_per_gpu_milli(const std::vector<TaskClass>& mix) {
  double cpu = 0;
  double gpu = 0;
  for (const auto& c : mix) {
    if (c.shape.gpus > 0) {
      cpu += c.weight * static_cast<double>(c.shape.cpu_milli);
      gpu += c.weight * static_cast<double>(c.shape.total_milli());
    }
  }
  return gpu > 0 ? cpu / gpu : 0.0;
}

double cpu_stranded(const Node& n, double cpu_per_milli) {
  const auto idle = static_cast<double>(n.gpu_left_total());
  if (cpu_per_milli <= 0) {
    return 0;
  }
  return std::max(0.0, idle - static_cast<double>(n.cpu_left) / cpu_per_milli);
}

double node_frag(const Node& n, const std::vector<TaskClass>& mix, Measure measure) {
  if (n.gpu_count == 0) {
    return 0;
  }
  double f = 0;
  for (const auto& c : mix) {
    const int64_t cf = measure == Measure::kCpuAware ? class_frag_cpu(n, c.shape) : class_frag(n, c.shape);
    f += c.weight * static_cast<double>(cf);
  }
  return measure == Measure::kStranded ? f + cpu_stranded(n, cpu_per_gpu_milli(mix)) : f;
}

size_t FragMemo::KeyHash::operator()(const Key& k) const {
  uint64_t h = static_cast<uint64_t>(k.cpu) * 0x9E3779B97F4A7C15ULL ^ static_cast<uint64_t>(k.type + 7);
  for (int16_t g : k.gpus) {
    h = (h ^ static_cast<uint64_t>(g + 1)) * 0x100000001B3ULL;
  }
  return static_cast<size_t>(h ^ (h >> 29));
}

double FragMemo::frag(const Node& n) {
  if (n.gpu_count == 0) {
    return 0;
  }
  Key k;
  k.cpu = n.cpu_left;
  k.type = n.type_bit;
  std::fill(k.gpus.begin(), k.gpus.end(), int16_t{-1});
  std::copy(n.gpu_left.begin(), n.gpu_left.begin() + n.gpu_count, k.gpus.begin());
  std::sort(k.gpus.begin(), k.gpus.begin() + n.gpu_count);
  auto it = memo_.find(k);
  if (it != memo_.end()) {
    return it->second;
  }
  const double f = node_frag(n, mix_, measure_);
  memo_.emplace(k, f);
  return f;
}

}  // namespace boreas::frag

#pragma once
// FGD's fragmentation measure (docs/fragmentation.md). The target workload is a mix of task
// classes, each a pod shape with its popularity. A node's fragmentation for one class is the idle
// GPU (milli) that class could not use there; the node's fragmentation is the popularity-weighted
// sum over classes. Memory is not part of the measure (as in FGD); CPU and GPU type are.

#include <array>
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "frag/model.h"

namespace boreas::frag {

struct TaskClass {
  PodShape shape;     // memory_mib is 0: classes are keyed on CPU, GPU count, GPU milli and type
  double weight = 0;  // popularity, the weights sum to 1
};

// The most popular pod shapes until they cover `coverage` (0..1] of the pods, re-weighted to sum
// to 1. FGD's experiments use 0.95 and count CPU-only pods too.
std::vector<TaskClass> task_mix(const std::vector<PodShape>& pods, double coverage = 0.95);

// Which fragmentation a memo measures: FGD's (one pod of each class), or Boreas' CPU-aware one
// (as many pods of each class as the node's CPU allows; docs/fragmentation.md, "Beating FGD").
// kStranded: FGD's plus the node's idle GPU that its CPU left cannot serve at the mix's CPU per GPU
// (the GPU pods' average), counted once per node, not per class.
enum class Measure : uint8_t { kFgd, kCpuAware, kStranded };

// Idle milli-GPU on `n` that one pod of `c` could not use.
int64_t class_frag(const Node& n, const PodShape& c);
// Idle milli-GPU on `n` that pods of `c` could not use, filling the node with them until its CPU
// or GPU runs out: FGD's fragment plus the idle GPU stranded by too little CPU for more pods.
int64_t class_frag_cpu(const Node& n, const PodShape& c);
// CPU milli per GPU milli of the mix's GPU classes, weighted by popularity (0 with no GPU class).
double cpu_per_gpu_milli(const std::vector<TaskClass>& mix);
// Idle milli-GPU on `n` beyond what its CPU left serves at `cpu_per_milli` CPU per milli-GPU.
double cpu_stranded(const Node& n, double cpu_per_milli);
// Popularity-weighted fragmentation of `n`, in milli-GPU.
double node_frag(const Node& n, const std::vector<TaskClass>& mix, Measure measure = Measure::kFgd);

// node_frag memoised on what it depends on (GPU type, CPU left, the multiset of free GPU milli).
class FragMemo {
 public:
  explicit FragMemo(std::vector<TaskClass> mix, Measure measure = Measure::kFgd)
      : mix_(std::move(mix)), measure_(measure) {}
  double frag(const Node& n);
  Measure measure() const { return measure_; }

 private:
  struct Key {
    int64_t cpu = 0;
    int32_t type = 0;
    std::array<int16_t, kMaxGpusPerNode> gpus{};
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    size_t operator()(const Key& k) const;
  };
  std::vector<TaskClass> mix_;
  Measure measure_;
  std::unordered_map<Key, double, KeyHash> memo_;
};

}  // namespace boreas::frag

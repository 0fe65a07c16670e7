#pragma once
// The packing model of FGD's experiments (docs/fragmentation.md): nodes with CPU, memory and a
// list of GPUs, each GPU holding 0..1000 milli-GPU; pods that ask for CPU, memory and either a
// share of one GPU (gpu_milli < 1000) or whole GPUs. Pods never finish.

#include <array>
#include <cstdint>
#include <vector>

#include "core/job.h"
#include "core/status.h"
#include "core/symbol.h"
#include "core/topology.h"

namespace boreas::frag {

inline constexpr int32_t kMilli = 1000;        // milli-GPU in one GPU
inline constexpr int kMaxGpusPerNode = 8;      // the openb cluster's largest node
inline constexpr int64_t kMaxSpecCpu = 128000; // FGD's normalisation constants
inline constexpr int64_t kMaxSpecGpu = 8000;

// GPU types as a bit set over the cluster catalog's type ids; 0 on a pod = any type.
using TypeMask = uint64_t;
inline constexpr int kTypeBits = 64;  // GPU types a TypeMask can name (its bits)
static_assert(sizeof(TypeMask) * 8 == kTypeBits);

struct PodShape {
  int64_t cpu_milli = 0;
  int64_t memory_mib = 0;
  uint32_t gpus = 0;       // 0 = CPU-only
  int32_t gpu_milli = 0;   // per GPU: < 1000 shares one GPU, 1000 = whole GPUs; 0 for CPU pods
  TypeMask types = 0;      // allowed GPU types; 0 = any
  int64_t total_milli() const { return int64_t{gpu_milli} * gpus; }
  bool is_share() const { return gpus == 1 && gpu_milli < kMilli; }
};

// The clustering policy's affinity tags: which kind of GPU request a pod makes.
enum class Affinity : uint8_t { kNoGpu, kShare, kOne, kTwo, kFour, kEight, kOther, kCount };
Affinity affinity_of(const PodShape& p);

struct Node {
  int64_t cpu_left = 0;
  int64_t cpu_cap = 0;
  int64_t mem_left = 0;
  int32_t type_bit = -1;  // catalog index of the node's GPU type; -1 for CPU-only nodes
  uint8_t gpu_count = 0;
  std::array<int16_t, kMaxGpusPerNode> gpu_left{};  // milli-GPU free on each GPU
  std::array<uint16_t, static_cast<size_t>(Affinity::kCount)> affinity{};  // pods by tag

  int64_t gpu_left_total() const;
  int fully_free_gpus() const;
};

// Which GPUs of a node a pod takes (indices into gpu_left); empty for CPU pods.
struct GpuPick {
  std::array<int8_t, kMaxGpusPerNode> gpu{};
  uint8_t count = 0;
};

// True when the node's GPU type is one the pod accepts (always true for CPU pods).
bool type_ok(const Node& n, const PodShape& p);
// Enough CPU and memory, the right type, and `gpus` GPUs each with at least gpu_milli free.
bool fits(const Node& n, const PodShape& p);
// Enough GPUs with gpu_milli free each (GPU memory only; FGD's "can host").
bool gpus_fit(const Node& n, const PodShape& p);

// FGD's default GPU choice: each GPU taken is the least-free one that still fits ("best").
GpuPick pick_tightest(const Node& n, const PodShape& p);
void apply(Node& n, const PodShape& p, const GpuPick& pick);

// Nodes of a cluster spec and pods of a trace, in the model's units. Fails on a node with more
// than kMaxGpusPerNode GPUs, on a catalog of more than 63 types, and on a trace with no GPU pod.
Result<std::vector<Node>> nodes_from_cluster(const Cluster& cluster);
Result<std::vector<PodShape>> pods_from_jobs(const std::vector<JobSpec>& jobs, const SymbolTable& symbols,
                                             const Cluster& cluster);

}  // namespace boreas::frag

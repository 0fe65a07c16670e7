#pragma once
// GPU sharing (docs/live.md, "Sharing a GPU"): per GPU, the jobs that hold a share of it, each with
// its milli-GPU (compute, 1..1000) and bytes of GPU memory. ClusterState owns one: a GPU with any
// share is out of the free counts and the free index (no whole-GPU placement sees it) and returns
// to them when its last share leaves. This class only keeps the table and its sums; the limits
// (milli ≤ 1000, memory ≤ the GPU type's) are checked by ClusterState::start_share.

#include <cstdint>
#include <span>
#include <vector>

#include "core/ids.h"

namespace boreas::state {

inline constexpr uint32_t kMilliPerGpu = 1000;

struct GpuShare {
  JobId job;
  uint32_t milli = 0;   // 1..1000: the share of the GPU's compute (MPS active thread percentage × 10)
  uint64_t bytes = 0;   // GPU memory the job may use (its MPS pinned memory limit)
  bool operator==(const GpuShare&) const = default;
};

class GpuShares {
 public:
  explicit GpuShares(size_t gpus) : by_gpu_(gpus), milli_(gpus, 0), bytes_(gpus, 0) {}

  bool shared(GpuId gpu) const { return !by_gpu_[gpu.value()].empty(); }
  uint32_t milli_used(GpuId gpu) const { return milli_[gpu.value()]; }
  uint64_t bytes_used(GpuId gpu) const { return bytes_[gpu.value()]; }
  std::span<const GpuShare> on(GpuId gpu) const { return by_gpu_[gpu.value()]; }
  // The share `job` holds on `gpu`; milli 0 when it holds none.
  GpuShare of(GpuId gpu, JobId job) const;
  // Whether `milli` and `bytes` more fit beside the shares there, on a GPU of `capacity` bytes.
  bool fits(GpuId gpu, uint32_t milli, uint64_t bytes, uint64_t capacity) const;

  // True when it is the GPU's first share (the GPU leaves the free counts).
  bool add(GpuId gpu, const GpuShare& share);
  // True when it was the GPU's last share (the GPU returns to the free counts). A job holding no
  // share there changes nothing and returns false.
  bool remove(GpuId gpu, JobId job);

 private:
  std::vector<std::vector<GpuShare>> by_gpu_;  // in the order the shares started
  std::vector<uint32_t> milli_;
  std::vector<uint64_t> bytes_;
};

}  // namespace boreas::state

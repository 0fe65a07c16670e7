#include "state/gpu_shares.h"

#include <algorithm>

namespace boreas::state {

GpuShare GpuShares::of(GpuId gpu, JobId job) const {
  for (const GpuShare& s : by_gpu_[gpu.value()]) {
    if (s.job == job) {
      return s;
    }
  }
  return GpuShare{};
}

bool GpuShares::fits(GpuId gpu, uint32_t milli, uint64_t bytes, uint64_t capacity) const {
  const size_t g = gpu.value();
  return milli_[g] + milli <= kMilliPerGpu && bytes <= capacity && bytes_[g] <= capacity - bytes;
}

bool GpuShares::add(GpuId gpu, const GpuShare& share) {
  const size_t g = gpu.value();
  by_gpu_[g].push_back(share);
  milli_[g] += share.milli;
  bytes_[g] += share.bytes;
  return by_gpu_[g].size() == 1;
}

bool GpuShares::remove(GpuId gpu, JobId job) {
  const size_t g = gpu.value();
  auto& list = by_gpu_[g];
  const auto it = std::find_if(list.begin(), list.end(), [job](const GpuShare& s) { return s.job == job; });
  if (it == list.end()) {
    return false;
  }
  milli_[g] -= it->milli;
  bytes_[g] -= it->bytes;
  list.erase(it);
  return list.empty();
}

}  // namespace boreas::state

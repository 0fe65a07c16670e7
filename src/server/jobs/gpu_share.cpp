#include "server/jobs/gpu_share.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "server/jobs/resource_request.h"

namespace boreas::server {
namespace {

constexpr uint32_t kMilli = 1000;
constexpr uint64_t kMaxGpus = 4096;
constexpr int64_t kMaxGpuMemoryMib = int64_t{1} << 20;  // 1 TiB
constexpr uint64_t kMib = uint64_t{1} << 20;
constexpr uint64_t kGib = uint64_t{1} << 30;

Status gpus_error(const nlohmann::json& v, const std::string& why) {
  return invalid_argument("$.gpus: " + v.dump() + " " + why +
                          "; give a whole number of GPUs (0 to 4096) or a share of one GPU from 0.001 to 0.999");
}

}  // namespace

Status read_gpus(const nlohmann::json& v, SubmitRequest& r) {
  if (!v.is_number()) {
    return gpus_error(v, "is not a number");
  }
  if (v.is_number_unsigned()) {
    if (v.get<uint64_t>() > kMaxGpus) {
      return gpus_error(v, "is more than 4096");
    }
    r.gpus = static_cast<uint32_t>(v.get<uint64_t>());
    return Status::ok();
  }
  const double x = v.get<double>();
  if (!(x > 0)) {
    return gpus_error(v, x == 0 ? "is not a share (0 GPUs is written 0)" : "is negative");
  }
  if (x >= 1) {
    return gpus_error(v, "is more than one GPU but not a whole number: a job shares at most one GPU");
  }
  const double milli = x * kMilli;
  if (std::abs(milli - std::round(milli)) > 1e-6 || std::round(milli) < 1) {
    return gpus_error(v, "is finer than a thousandth of a GPU");
  }
  r.gpus = 1;
  r.gpu_milli = static_cast<uint32_t>(std::llround(milli));
  return Status::ok();
}

Status read_gpu_memory(const nlohmann::json& v, SubmitRequest& r) {
  auto mib = read_size_mib(v, "gpu_memory", kMaxGpuMemoryMib, "1 MiB to 1 TiB");
  if (!mib.is_ok()) {
    return mib.status();
  }
  r.gpu_memory_bytes = static_cast<uint64_t>(*mib) * kMib;
  return Status::ok();
}

Status check_share_request(SubmitRequest& r, bool gpus_given) {
  if (r.gpu_memory_bytes == 0) {
    return Status::ok();
  }
  if (!gpus_given) {
    r.gpus = 1;
  }
  if (r.gpus != 1) {
    return invalid_argument("$.gpu_memory: a GPU memory limit is for a job on a share of one GPU, but gpus is " +
                            std::to_string(r.gpus) + "; give gpus 1 or a fraction such as 0.5, or leave gpu_memory out");
  }
  return Status::ok();
}

void write_gpus(const SubmitRequest& r, nlohmann::json& j) {
  if (r.gpu_milli > 0) {
    j["gpus"] = static_cast<double>(r.gpu_milli) / kMilli;
  } else {
    j["gpus"] = r.gpus;
  }
  if (r.gpu_memory_bytes > 0) {
    j["gpu_memory"] = r.gpu_memory_bytes / kMib;
  }
}

ShareSize share_on(const SubmitRequest& r, uint64_t capacity) {
  if (capacity == 0 || r.gpu_memory_bytes > capacity) {
    return {};
  }
  ShareSize s;
  const long double part = static_cast<long double>(r.gpu_memory_bytes) / static_cast<long double>(capacity);
  s.milli = r.gpu_milli > 0 ? r.gpu_milli : static_cast<uint32_t>(std::ceil(part * kMilli));
  s.milli = std::max<uint32_t>(s.milli, 1);
  s.bytes = r.gpu_memory_bytes > 0 ? r.gpu_memory_bytes : capacity * s.milli / kMilli;
  return s;
}

namespace {
std::string gpu_text(uint32_t milli) {
  std::string gpu = std::to_string(milli / kMilli) + "." + std::to_string(kMilli + milli % kMilli).substr(1);
  while (gpu.back() == '0') {
    gpu.pop_back();
  }
  if (gpu.back() == '.') {
    gpu.pop_back();
  }
  return gpu + " GPU";
}
}  // namespace

std::string memory_text(uint64_t bytes) {
  return bytes % kGib == 0 ? std::to_string(bytes / kGib) + " GiB" : std::to_string(bytes / kMib) + " MiB";
}

std::string describe_share(uint32_t milli, uint64_t bytes) {
  return gpu_text(milli) + ", " + memory_text(bytes);
}

std::string describe_request(const SubmitRequest& r) {
  if (r.gpu_milli == 0) {
    return memory_text(r.gpu_memory_bytes) + " of GPU memory";
  }
  return gpu_text(r.gpu_milli) + (r.gpu_memory_bytes > 0 ? " with " + memory_text(r.gpu_memory_bytes) : "");
}

}  // namespace boreas::server

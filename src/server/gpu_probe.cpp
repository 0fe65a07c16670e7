#include "server/gpu_probe.h"

#include <dlfcn.h>

namespace boreas::server {
namespace {

// The few NVML entry points Boreas uses (stable C ABI; see nvml.h).
using NvmlDevice = void*;
struct NvmlUtilization {
  unsigned int gpu;
  unsigned int memory;
};
struct NvmlMemory {
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;
};
using InitFn = int (*)();
using CountFn = int (*)(unsigned int*);
using HandleFn = int (*)(unsigned int, NvmlDevice*);
using NameFn = int (*)(NvmlDevice, char*, unsigned int);
using MemoryFn = int (*)(NvmlDevice, NvmlMemory*);
using UtilFn = int (*)(NvmlDevice, NvmlUtilization*);
using TempFn = int (*)(NvmlDevice, int, unsigned int*);
using PowerFn = int (*)(NvmlDevice, unsigned int*);
using ShutdownFn = int (*)();

template <typename F>
F symbol(void* lib, const char* name) {
  return reinterpret_cast<F>(dlsym(lib, name));
}

class NvmlProbe final : public GpuProbe {
 public:
  explicit NvmlProbe(void* lib) : lib_(lib) {
    count_ = symbol<CountFn>(lib, "nvmlDeviceGetCount_v2");
    handle_ = symbol<HandleFn>(lib, "nvmlDeviceGetHandleByIndex_v2");
    name_ = symbol<NameFn>(lib, "nvmlDeviceGetName");
    memory_ = symbol<MemoryFn>(lib, "nvmlDeviceGetMemoryInfo");
    util_ = symbol<UtilFn>(lib, "nvmlDeviceGetUtilizationRates");
    temp_ = symbol<TempFn>(lib, "nvmlDeviceGetTemperature");
    power_ = symbol<PowerFn>(lib, "nvmlDeviceGetPowerUsage");
    shutdown_ = symbol<ShutdownFn>(lib, "nvmlShutdown");
  }
  ~NvmlProbe() override {
    if (shutdown_ != nullptr) {
      shutdown_();
    }
    dlclose(lib_);
  }
  bool complete() const {
    return count_ && handle_ && name_ && memory_ && util_ && temp_ && power_ && shutdown_;
  }

  std::vector<GpuDevice> devices() override {
    std::vector<GpuDevice> out;
    for (unsigned int i = 0; i < count(); ++i) {
      NvmlDevice d = nullptr;
      char name[96] = {};
      NvmlMemory mem{};
      if (handle_(i, &d) == 0 && name_(d, name, sizeof(name)) == 0 && memory_(d, &mem) == 0) {
        out.push_back({i, name, mem.total});
      }
    }
    return out;
  }

  std::vector<GpuSample> sample() override {
    std::vector<GpuSample> out;
    for (unsigned int i = 0; i < count(); ++i) {
      NvmlDevice d = nullptr;
      if (handle_(i, &d) != 0) {
        continue;
      }
      NvmlUtilization u{};
      NvmlMemory mem{};
      unsigned int temp = 0;
      unsigned int power = 0;
      (void)util_(d, &u);
      (void)memory_(d, &mem);
      (void)temp_(d, 0 /* NVML_TEMPERATURE_GPU */, &temp);
      (void)power_(d, &power);
      out.push_back({i, u.gpu, mem.used, temp, power});
    }
    return out;
  }

 private:
  unsigned int count() {
    unsigned int n = 0;
    return count_(&n) == 0 ? n : 0;
  }

  void* lib_;
  CountFn count_;
  HandleFn handle_;
  NameFn name_;
  MemoryFn memory_;
  UtilFn util_;
  TempFn temp_;
  PowerFn power_;
  ShutdownFn shutdown_;
};

}  // namespace

std::unique_ptr<GpuProbe> open_nvml(const std::string& library) {
  void* lib = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) {
    return nullptr;
  }
  auto init = symbol<InitFn>(lib, "nvmlInit_v2");
  if (init == nullptr || init() != 0) {
    dlclose(lib);
    return nullptr;
  }
  auto probe = std::make_unique<NvmlProbe>(lib);
  if (!probe->complete()) {
    return nullptr;
  }
  return probe;
}

std::vector<GpuDevice> discover_gpus(GpuProbe* probe, uint32_t declared, const std::string& type) {
  if (probe != nullptr) {
    auto found = probe->devices();
    if (!found.empty()) {
      return found;
    }
  }
  std::vector<GpuDevice> out;
  for (uint32_t i = 0; i < declared; ++i) {
    out.push_back({i, type, 0});
  }
  return out;
}

}  // namespace boreas::server

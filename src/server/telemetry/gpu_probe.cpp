#include "server/telemetry/gpu_probe.h"

#include <dlfcn.h>

#include <cctype>
#include <optional>

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

namespace {

std::string alnum_lower(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  return out;
}

// The node this daemon runs on: the GPU node named like the host, else the only GPU node.
std::optional<size_t> local_node(const Cluster& cluster, const std::string& host) {
  std::optional<size_t> only;
  size_t gpu_nodes = 0;
  for (size_t i = 0; i < cluster.nodes.size(); ++i) {
    if (cluster.nodes[i].gpu_count == 0 && !cluster.nodes[i].gpu_type) {
      continue;
    }
    if (cluster.nodes[i].name == host) {
      return i;
    }
    ++gpu_nodes;
    only = i;
  }
  return gpu_nodes == 1 ? only : std::nullopt;
}

// NVML names a device "NVIDIA H100 80GB HBM3"; the catalog says "H100-SXM": compare the family
// (the catalog name up to its first '-').
bool same_family(const std::string& catalog_name, const std::string& nvml_name) {
  const std::string family = alnum_lower(catalog_name.substr(0, catalog_name.find('-')));
  return !family.empty() && alnum_lower(nvml_name).find(family) != std::string::npos;
}

}  // namespace

std::string adopt_discovered_gpus(Cluster& cluster, std::span<const GpuDevice> found, const std::string& host) {
  if (found.empty()) {
    return "";
  }
  const auto i = local_node(cluster, host);
  const std::string n_found = std::to_string(found.size()) + " GPU(s) (" + found.front().name + ")";
  if (!i) {
    return "NVML found " + n_found + ", but no GPU node of the cluster spec is named '" + host +
           "' and there are several: scheduling uses the declared GPUs (name this machine's node '" + host +
           "' to use the discovered ones)";
  }
  Node& node = cluster.nodes[*i];
  std::string said = "node " + node.name + ": " + n_found + " found by NVML, the spec declared " +
                     std::to_string(node.gpu_count) + "; scheduling uses the GPUs found";
  node.gpu_count = static_cast<uint32_t>(found.size());
  uint32_t next = 0;
  for (Node& n : cluster.nodes) {  // GPU ids stay consecutive per node
    n.first_gpu = next;
    next += n.gpu_count;
  }
  if (node.gpu_type && !same_family(cluster.catalog.at(*node.gpu_type).name, found.front().name)) {
    said += "; warning: the spec's type " + cluster.catalog.at(*node.gpu_type).name +
            " does not look like the device found, check gpu_type";
  }
  return said;
}

}  // namespace boreas::server

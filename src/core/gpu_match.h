#pragma once
// Matching the GPU type names found in traces and specs to catalog types. Besides the catalog's
// own names and aliases it understands the spellings tools write for the same part:
//   Kubernetes (GPU feature discovery)  nvidia-a100-80gb, NVIDIA-A100-SXM4-80GB
//   Slurm GRES / autodetect             a100, nvidia_a100-sxm4-80gb
//   NVML                                NVIDIA A100-SXM4-80GB, NVIDIA H100 80GB HBM3
// A name is reduced to a key: case, separators ('-', '_', ' ', '.', '/'), vendor words (nvidia,
// tesla, amd, instinct) and memory kinds (hbm2e, hbm3, ...) drop out; "80gb" becomes the memory;
// sxm2..sxm5 and pcie become the form factor; what is left is the model ("a100").
// The rule, in order (docs/formats/trace.md, "GPU type names"):
//   1. a catalog name or alias spelled the same (ignoring case) wins;
//   2. else a type with a name or alias of the same key;
//   3. else every type of the same model whose memory and form factor do not contradict the name.
// A step that finds more than one type makes the name ambiguous: it matches nothing, and the
// candidates are returned so that the caller can say so (e.g. "A100-SXM4" when the catalog has
// A100-40G and A100-80G). A bare "A100" is not ambiguous: the catalog lists it as an alias.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/gpu.h"

namespace boreas {

struct GpuNameKey {
  std::string model;        // "a100"; empty when the name holds nothing else
  uint32_t memory_gb = 0;   // 0 = not stated
  std::string form;         // "sxm", "pcie" or empty
  bool operator==(const GpuNameKey&) const = default;
};

GpuNameKey gpu_name_key(std::string_view name);

struct GpuTypeMatch {
  std::optional<GpuTypeId> id;        // the one type the name means
  std::vector<GpuTypeId> candidates;  // when ambiguous: every type it could mean (id unset)
};

GpuTypeMatch match_gpu_type(const GpuCatalog& catalog, std::string_view name);

// The type spelled exactly so (name or alias, ignoring case): step 1 alone.
std::optional<GpuTypeId> find_exact_gpu_type(const GpuCatalog& catalog, std::string_view name);

}  // namespace boreas

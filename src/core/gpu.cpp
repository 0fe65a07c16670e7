#include "core/gpu.h"

#include "core/gpu_match.h"

namespace boreas {

bool GpuCatalog::add(GpuType type) {
  if (find_exact_gpu_type(*this, type.name)) {
    return false;
  }
  for (const auto& alias : type.aliases) {
    if (find_exact_gpu_type(*this, alias)) {
      return false;
    }
  }
  types_.push_back(std::move(type));
  return true;
}

std::optional<GpuTypeId> GpuCatalog::find(std::string_view name_or_alias) const {
  return match_gpu_type(*this, name_or_alias).id;
}

std::vector<std::string> GpuCatalog::names() const {
  std::vector<std::string> out;
  out.reserve(types_.size());
  for (const auto& t : types_) {
    out.push_back(t.name);
  }
  return out;
}

}  // namespace boreas

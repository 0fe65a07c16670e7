#include "core/gpu.h"

#include <algorithm>
#include <cctype>

namespace boreas {
namespace {

bool same_name(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
  });
}

bool matches(const GpuType& t, std::string_view name) {
  if (same_name(t.name, name)) {
    return true;
  }
  return std::any_of(t.aliases.begin(), t.aliases.end(),
                     [&](const std::string& alias) { return same_name(alias, name); });
}

}  // namespace

bool GpuCatalog::add(GpuType type) {
  if (find(type.name)) {
    return false;
  }
  for (const auto& alias : type.aliases) {
    if (find(alias)) {
      return false;
    }
  }
  types_.push_back(std::move(type));
  return true;
}

std::optional<GpuTypeId> GpuCatalog::find(std::string_view name_or_alias) const {
  for (size_t i = 0; i < types_.size(); ++i) {
    if (matches(types_[i], name_or_alias)) {
      return GpuTypeId(static_cast<uint32_t>(i));
    }
  }
  return std::nullopt;
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

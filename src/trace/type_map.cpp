#include "trace/type_map.h"

#include <unordered_map>

#include "core/gpu_match.h"
#include "trace/text.h"

namespace boreas::trace {
namespace {

bool same_type_name(std::string_view a, std::string_view b) {
  if (to_lower(a) == to_lower(b)) {
    return true;
  }
  const GpuNameKey key = gpu_name_key(a);
  return !key.model.empty() && key == gpu_name_key(b);
}

std::string_view mapped(std::string_view name, const GpuTypeMap& map) {
  for (const auto& [from, to] : map.entries) {
    if (same_type_name(name, from)) {
      return to;
    }
  }
  return name;
}

// The job's '|'-separated list with each name mapped.
std::string map_list(std::string_view names, const GpuTypeMap& map) {
  std::string out;
  while (true) {
    const size_t bar = names.find('|');
    out += mapped(names.substr(0, bar), map);
    if (bar == std::string_view::npos) {
      return out;
    }
    out += '|';
    names = names.substr(bar + 1);
  }
}

}  // namespace

Result<GpuTypeMap> parse_gpu_type_map(std::string_view spec) {
  GpuTypeMap map;
  std::string_view rest = spec;
  while (!rest.empty()) {
    const std::string_view item = take_item(rest);
    std::string_view from, to;
    if (!split_key_value(item, from, to) || from.empty() || to.empty()) {
      return invalid_argument("--gpu-type-map: expected FROM=TO (a trace's GPU type name = a catalog type), got '" +
                              std::string(item) + "'; e.g. --gpu-type-map nvidia-a100-80gb=A100-80G");
    }
    for (const auto& [seen, _] : map.entries) {
      if (same_type_name(seen, from)) {
        return invalid_argument("--gpu-type-map: '" + std::string(from) + "' is mapped twice (also as '" + seen +
                                "'); keep one of them");
      }
    }
    map.entries.emplace_back(from, to);
  }
  return map;
}

Status check_gpu_type_map(const GpuTypeMap& map, const GpuCatalog& catalog) {
  for (const auto& [from, to] : map.entries) {
    if (!catalog.find(to)) {
      std::string names;
      for (const std::string& n : catalog.names()) {
        append_joined(names, ", ", n);
      }
      return invalid_argument("--gpu-type-map: '" + from + "=" + to + "': '" + to +
                              "' is not one GPU type of the catalog; map to one of: " + names);
    }
  }
  return Status::ok();
}

uint64_t apply_gpu_type_map(Trace& trace, const GpuTypeMap& map) {
  if (map.entries.empty()) {
    return 0;
  }
  std::unordered_map<uint32_t, Symbol> renamed;  // by the job's gpu_types symbol
  uint64_t changed = 0;
  for (JobSpec& job : trace.jobs) {
    if (job.gpu_types.empty()) {
      continue;
    }
    auto [it, inserted] = renamed.try_emplace(job.gpu_types.index());
    if (inserted) {
      const std::string_view names = trace.symbols.view(job.gpu_types);
      const std::string out = map_list(names, map);
      it->second = out == names ? job.gpu_types : trace.symbols.intern(out);
    }
    changed += it->second == job.gpu_types ? 0 : 1;
    job.gpu_types = it->second;
  }
  return changed;
}

}  // namespace boreas::trace

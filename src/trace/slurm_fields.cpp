#include "trace/slurm_fields.h"

#include <string>
#include <vector>

namespace boreas::trace {
namespace {

std::optional<int64_t> memory_mib(std::string_view s) {
  int64_t scale_kib = 1024;
  if (!s.empty()) {
    switch (s.back()) {
      case 'K': scale_kib = 1; break;
      case 'M': scale_kib = 1024; break;
      case 'G': scale_kib = 1024 * 1024; break;
      case 'T': scale_kib = int64_t{1024} * 1024 * 1024; break;
      default: scale_kib = 0;
    }
  }
  const auto v = parse_double(scale_kib == 0 ? s : s.substr(0, s.size() - 1));
  if (!v || *v < 0 || *v > 1e15) {
    return std::nullopt;
  }
  return static_cast<int64_t>(*v * static_cast<double>(scale_kib == 0 ? 1024 : scale_kib) / 1024.0);
}

}  // namespace

std::optional<RowError> read_tres(std::string_view tres, std::string_view field, JobSpec& job,
                                  SymbolTable& symbols) {
  std::string types;
  while (!tres.empty()) {
    const std::string_view item = take_item(tres);
    std::string_view key, value;
    if (!split_key_value(item, key, value)) {
      return field_error(field, "KEY=VALUE entries separated by ','", item);
    }
    const std::string what = std::string(field) + "' entry '" + std::string(key);
    int64_t n = 0;
    if (key == "gres/gpu") {
      if (auto e = get_count(what, value, 1 << 20, n)) {
        return e;
      }
      job.gpus = static_cast<uint32_t>(n);
    } else if (key.starts_with("gres/gpu:")) {
      const std::string_view type = key.substr(9);
      append_joined(types, "|", type);
    } else if (key == "cpu") {
      if (auto e = get_count(what, value, 1 << 24, n)) {
        return e;
      }
      job.cpu_milli = n * 1000;
    } else if (key == "mem") {
      const auto mib = memory_mib(value);
      if (!mib) {
        return field_error(what, "a size like 64G, 4000M or 512K", value);
      }
      job.memory_mib = *mib;
    }
  }
  job.gpu_types = symbols.intern(types);
  return std::nullopt;
}

}  // namespace boreas::trace

#include "trace/slurm_fields.h"

#include <string>
#include <vector>

#include "core/size_units.h"

namespace boreas::trace {

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
      // sacct prints TRES sizes with decimals when they are not whole ("187.50G").
      const auto mib = parse_size_mib(value, SizeNumber::kDecimal);
      if (!mib.is_ok()) {
        return field_error(what, "a size like 64G, 4000M or 512K", value);
      }
      job.memory_mib = *mib;
    }
  }
  job.gpu_types = symbols.intern(types);
  return std::nullopt;
}

}  // namespace boreas::trace

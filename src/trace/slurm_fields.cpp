#include "trace/slurm_fields.h"

#include <string>
#include <vector>

namespace boreas::trace {
namespace {

// Splits "a:b:c" into up to 3 non-negative integers.
std::optional<std::vector<int64_t>> colon_parts(std::string_view s) {
  std::vector<int64_t> parts;
  while (true) {
    const size_t colon = s.find(':');
    const auto v = parse_int(s.substr(0, colon));
    if (!v || *v < 0 || *v > 1'000'000 || parts.size() == 3) {
      return std::nullopt;
    }
    parts.push_back(*v);
    if (colon == std::string_view::npos) {
      return parts;
    }
    s = s.substr(colon + 1);
  }
}

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

std::optional<Duration> parse_slurm_duration(std::string_view s) {
  s = trim(s);
  int64_t days = 0;
  const size_t dash = s.find('-');
  const bool has_days = dash != std::string_view::npos;
  if (has_days) {
    const auto d = parse_int(s.substr(0, dash));
    if (!d || *d < 0 || *d > 100'000) {
      return std::nullopt;
    }
    days = *d;
    s = s.substr(dash + 1);
  }
  if (const size_t dot = s.find('.'); dot != std::string_view::npos) {
    s = s.substr(0, dot);  // sacct may print milliseconds; whole seconds are enough here
  }
  const auto p = colon_parts(s);
  if (!p) {
    return std::nullopt;
  }
  int64_t seconds = 0;
  if (has_days) {
    const int64_t mul[] = {3600, 60, 1};
    for (size_t i = 0; i < p->size(); ++i) {
      seconds += (*p)[i] * mul[i];
    }
  } else if (p->size() == 3) {
    seconds = (*p)[0] * 3600 + (*p)[1] * 60 + (*p)[2];
  } else {
    seconds = (*p)[0] * 60 + (p->size() == 2 ? (*p)[1] : 0);
  }
  return Duration::seconds(days * 86400 + seconds);
}

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

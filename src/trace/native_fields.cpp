#include <charconv>

#include "trace/native.h"

namespace boreas::trace {
namespace {

std::optional<RowError> set_symbol(std::string_view value, Symbol& out, SymbolTable& symbols, bool unique) {
  out = unique ? symbols.add(value) : symbols.intern(value);
  return std::nullopt;
}

template <typename T>
std::optional<RowError> set_int(std::string_view name, std::string_view value, int64_t lo, int64_t hi, T& out) {
  const auto v = parse_int(value);
  if (!v || *v < lo || *v > hi) {
    return field_error(name, "an integer from " + std::to_string(lo) + " to " + std::to_string(hi), value);
  }
  out = static_cast<T>(*v);
  return std::nullopt;
}

std::optional<RowError> set_micros(std::string_view name, std::string_view value, bool allow_infinite,
                                   int64_t& out) {
  const int64_t hi = allow_infinite ? INT64_MAX : kMaxAbsUs;
  return set_int(name, value, allow_infinite ? 0 : -kMaxAbsUs, hi, out);
}

std::optional<RowError> set_duration(std::string_view name, std::string_view value, Duration& out) {
  int64_t us = 0;
  auto e = set_micros(name, value, true, us);
  out = Duration::micros(us);
  return e;
}

std::optional<RowError> set_bool(std::string_view name, std::string_view value, bool& out) {
  if (value == "true" || value == "1") {
    out = true;
  } else if (value == "false" || value == "0") {
    out = false;
  } else {
    return field_error(name, "true or false", value);
  }
  return std::nullopt;
}

std::optional<RowError> set_kind(std::string_view value, JobKind& out) {
  const auto kind = parse_job_kind(value);
  if (!kind) {
    return field_error("kind", "training, inference or batch", value);
  }
  out = *kind;
  return std::nullopt;
}

std::string number(int64_t v) { return std::to_string(v); }

}  // namespace

const std::vector<std::string_view>& native_fields() {
  static const std::vector<std::string_view> kFields = {
      "id",        "name",          "queue",      "user",          "priority_class",        "job_class",
      "gpu_types", "kind",          "preemptible", "gpus",         "gpu_milli",             "gpus_per_node",
      "cpu_milli", "memory_mib",    "submit_us",  "duration_us",   "time_limit_us", "checkpoint_interval_us",
      "checkpoint_cost_us"};
  return kFields;
}

const std::string& native_csv_header() {
  static const std::string kHeader = [] {
    std::string h;
    for (const auto f : native_fields()) {
      append_joined(h, ",", f);
    }
    return h;
  }();
  return kHeader;
}

bool native_field_is_string(std::string_view name) {
  return name == "name" || name == "queue" || name == "user" || name == "priority_class" ||
         name == "job_class" || name == "gpu_types" || name == "kind";
}

std::optional<RowError> set_native_field(std::string_view name, std::string_view value, JobSpec& job,
                                         SymbolTable& symbols) {
  if (name == "id") {
    return std::nullopt;
  }
  if (name == "name") {
    return set_symbol(value, job.name, symbols, true);
  }
  if (name == "queue") {
    return set_symbol(value, job.queue, symbols, false);
  }
  if (name == "user") {
    return set_symbol(value, job.user, symbols, false);
  }
  if (name == "priority_class") {
    return set_symbol(value, job.priority_class, symbols, false);
  }
  if (name == "job_class") {
    return set_symbol(value, job.job_class, symbols, false);
  }
  if (name == "gpu_types") {
    return set_symbol(value, job.gpu_types, symbols, false);
  }
  if (name == "kind") {
    return set_kind(value, job.kind);
  }
  if (name == "preemptible") {
    return set_bool(name, value, job.preemptible);
  }
  if (name == "gpus") {
    return set_int(name, value, 0, UINT32_MAX, job.gpus);
  }
  if (name == "gpu_milli") {
    return set_int(name, value, 1, 1000, job.gpu_milli);
  }
  if (name == "gpus_per_node") {
    return set_int(name, value, 0, UINT32_MAX, job.gpus_per_node);
  }
  if (name == "cpu_milli") {
    return set_int(name, value, 0, INT64_MAX, job.cpu_milli);
  }
  if (name == "memory_mib") {
    return set_int(name, value, 0, INT64_MAX, job.memory_mib);
  }
  if (name == "submit_us") {
    int64_t us = 0;
    auto e = set_micros(name, value, false, us);
    job.submit = Time::from_micros(us);
    return e;
  }
  if (name == "duration_us") {
    return set_duration(name, value, job.duration);
  }
  if (name == "time_limit_us") {
    return set_duration(name, value, job.time_limit);
  }
  if (name == "checkpoint_interval_us") {
    return set_duration(name, value, job.checkpoint_interval);
  }
  if (name == "checkpoint_cost_us") {
    return set_duration(name, value, job.checkpoint_cost);
  }
  return RowError{"unknown field; expected one of the fields in docs/formats/trace.md", std::string(name)};
}

std::vector<std::string> native_values(const JobSpec& job, const SymbolTable& symbols) {
  const auto sym = [&](Symbol s) { return std::string(symbols.view(s)); };
  return {number(job.id.value()),
          sym(job.name),
          sym(job.queue),
          sym(job.user),
          sym(job.priority_class),
          sym(job.job_class),
          sym(job.gpu_types),
          std::string(to_string(job.kind)),
          job.preemptible ? "true" : "false",
          number(job.gpus),
          number(job.gpu_milli),
          number(job.gpus_per_node),
          number(job.cpu_milli),
          number(job.memory_mib),
          number(job.submit.us()),
          number(job.duration.us()),
          number(job.time_limit.us()),
          number(job.checkpoint_interval.us()),
          number(job.checkpoint_cost.us())};
}

}  // namespace boreas::trace

// Any CSV with a header, read through a column map (given with --map or guessed from names).
#include "trace/column_map.h"
#include "trace/readers.h"

namespace boreas::trace {
namespace {

struct Slot {
  size_t index = 0;
  ValueUnit unit = ValueUnit::kNumber;
  std::string column;
};

struct Slots {
  std::optional<Slot> submit, duration, end, start, gpus, name, queue, user, cpus, memory, milli, types,
      priority, limit;
};

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) {
    append_joined(out, ", ", n);
  }
  return out;
}

Result<Slots> resolve(const ColumnMap& map, const std::vector<std::string>& header, const TraceBuilder& b) {
  Slots s;
  const std::pair<const char*, std::optional<Slot>*> targets[] = {
      {"submit", &s.submit}, {"duration", &s.duration}, {"end", &s.end},         {"start", &s.start},
      {"gpus", &s.gpus},     {"name", &s.name},         {"queue", &s.queue},     {"user", &s.user},
      {"cpus", &s.cpus},     {"memory_mib", &s.memory}, {"gpu_milli", &s.milli}, {"gpu_types", &s.types},
      {"priority_class", &s.priority}, {"time_limit", &s.limit}};
  for (const auto& [target, slot] : targets) {
    const auto it = map.find(target);
    if (it == map.end()) {
      continue;
    }
    const auto index = find_column(header, it->second.column);
    if (!index) {
      return b.fatal(1, "header: no column '" + it->second.column + "' for --map field '" + target +
                            "'; the header has: " + joined(header));
    }
    *slot = Slot{*index, it->second.unit, it->second.column};
  }
  if (!s.submit || !s.gpus || (!s.duration && !s.end)) {
    return b.fatal(1, "header: cannot tell which columns hold the submit time, the GPU count and the "
                      "duration (or end time); name them with --map submit=COLUMN,duration=COLUMN,"
                      "gpus=COLUMN (the header has: " + joined(header) + ")");
  }
  return s;
}

std::optional<RowError> time_value(const Slot& slot, const Fields& f, int64_t& out) {
  const std::string_view s = f[slot.index];
  if (slot.unit != ValueUnit::kDateTime) {
    if (const auto v = parse_scaled(s, unit_micros(slot.unit))) {
      out = *v;
      return std::nullopt;
    }
  }
  if (const auto t = parse_datetime(s)) {
    out = t->us();
    return std::nullopt;
  }
  return field_error(slot.column, slot.unit == ValueUnit::kDateTime ? "a date-time like 2024-03-01 10:00:00"
                                                                    : "a number or a date-time",
                     s);
}

std::optional<RowError> count_value(const std::optional<Slot>& slot, const Fields& f, int64_t max,
                                    int64_t& out) {
  return slot ? get_count(slot->column, f[slot->index], max, out) : std::nullopt;
}

std::optional<RowError> read_times(const Slots& s, const Fields& f, JobSpec& job) {
  int64_t submit = 0;
  if (auto e = time_value(*s.submit, f, submit)) {
    return e;
  }
  job.submit = Time::from_micros(submit);
  int64_t duration = 0;
  if (s.duration) {
    if (auto e = time_value(*s.duration, f, duration)) {
      return e;
    }
  } else {
    int64_t start = submit;
    int64_t end = 0;
    if (s.start) {
      if (auto e = time_value(*s.start, f, start)) {
        return e;
      }
    }
    if (auto e = time_value(*s.end, f, end)) {
      return e;
    }
    duration = end - start;
  }
  if (duration < 0) {
    return field_error(s.duration ? s.duration->column : s.end->column, "a non-negative duration",
                       f[s.duration ? s.duration->index : s.end->index]);
  }
  job.duration = Duration::micros(duration);
  int64_t limit = 0;
  if (s.limit) {
    if (auto e = time_value(*s.limit, f, limit); e || limit < 0) {
      return field_error(s.limit->column, "a non-negative number", f[s.limit->index]);
    }
  }
  job.time_limit = Duration::micros(limit);
  return std::nullopt;
}

std::optional<RowError> read_cpus(const Slots& s, const Fields& f, JobSpec& job) {
  if (!s.cpus) {
    return std::nullopt;
  }
  const auto v = parse_scaled(f[s.cpus->index], 1000);
  if (!v || *v < 0) {
    return field_error(s.cpus->column, "a non-negative number of CPUs", f[s.cpus->index]);
  }
  job.cpu_milli = *v;
  return std::nullopt;
}

std::optional<RowError> read_row(const Slots& s, const Fields& f, JobSpec& job, SymbolTable& symbols) {
  int64_t gpus = 0, memory = 0, milli = 1000;
  if (auto e = read_times(s, f, job)) {
    return e;
  }
  if (auto e = count_value(s.gpus, f, 1 << 20, gpus)) {
    return e;
  }
  if (auto e = count_value(s.memory, f, int64_t{1} << 40, memory)) {
    return e;
  }
  if (auto e = count_value(s.milli, f, 1000, milli)) {
    return e;
  }
  if (auto e = read_cpus(s, f, job)) {
    return e;
  }
  job.gpus = static_cast<uint32_t>(gpus);
  job.memory_mib = memory;
  job.gpu_milli = static_cast<uint16_t>(milli == 0 ? 1000 : milli);
  job.kind = gpus == 0 ? JobKind::kBatch : JobKind::kTraining;
  const auto text = [&](const std::optional<Slot>& slot) { return slot ? trim(f[slot->index]) : std::string_view(); };
  job.name = symbols.add(text(s.name));
  job.queue = symbols.intern(text(s.queue));
  job.user = symbols.intern(text(s.user));
  job.gpu_types = symbols.intern(text(s.types));
  job.priority_class = symbols.intern(text(s.priority));
  return std::nullopt;
}

}  // namespace

Status read_generic_csv(ReaderInput& in) {
  const auto header = split_header(in.header, ',');
  ColumnMap map;
  if (in.options.column_map.empty()) {
    map = auto_column_map(header);
  } else {
    auto parsed = parse_column_map(in.options.column_map);
    if (!parsed.is_ok()) {
      return parsed.status();
    }
    map = std::move(*parsed);
  }
  auto slots = resolve(map, header, in.builder);
  if (!slots.is_ok()) {
    return slots.status();
  }
  const Slots s = std::move(*slots);
  auto& symbols = in.builder.symbols();
  return for_each_row(in, ',', header.size(), [&](const Fields& f, JobSpec& job, std::string&) {
    return read_row(s, f, job, symbols);
  });
}

}  // namespace boreas::trace

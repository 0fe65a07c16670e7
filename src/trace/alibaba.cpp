// Alibaba GPU 2023 "openb" pod lists (and the 5-column multigpu variants without times).
#include "trace/readers.h"

namespace boreas::trace {
namespace {

struct PodColumns {
  size_t name, cpu, mem, gpus, milli;
  std::optional<size_t> spec, qos, created, deleted, scheduled;
};

std::optional<size_t> nonempty(const Fields& f, std::optional<size_t> i) {
  return (i && !trim(f[*i]).empty()) ? i : std::nullopt;
}

std::optional<RowError> read_times(const PodColumns& c, const Fields& f, JobSpec& job) {
  Duration created;
  if (const auto i = nonempty(f, c.created); i) {
    if (auto e = get_seconds("creation_time", f[*i], created)) {
      return e;
    }
  }
  job.submit = Time::zero() + created;
  const auto deleted_at = nonempty(f, c.deleted);
  if (!deleted_at) {
    job.duration = Duration::infinite();  // never deleted: holds its resources to the end
    return std::nullopt;
  }
  Duration start = created;
  Duration end;
  if (const auto i = nonempty(f, c.scheduled); i) {
    if (auto e = get_seconds("scheduled_time", f[*i], start)) {
      return e;
    }
  }
  if (auto e = get_seconds("deletion_time", f[*deleted_at], end)) {
    return e;
  }
  if (end < start) {
    return field_error("deletion_time", "a time not before scheduled_time/creation_time", f[*deleted_at]);
  }
  job.duration = end - start;
  return std::nullopt;
}

void read_qos(std::string_view qos, JobSpec& job, SymbolTable& symbols) {
  job.priority_class = symbols.intern(qos);
  job.preemptible = qos != "LS" && qos != "Guaranteed";
  if (job.gpus == 0) {
    job.kind = JobKind::kBatch;
  } else if (qos == "LS") {
    job.kind = JobKind::kInference;
  }
}

std::optional<RowError> read_pod(const PodColumns& c, const Fields& f, JobSpec& job, SymbolTable& symbols) {
  int64_t cpu = 0, mem = 0, gpus = 0, milli = 0;
  if (auto e = get_count("cpu_milli", f[c.cpu], int64_t{1} << 40, cpu)) {
    return e;
  }
  if (auto e = get_count("memory_mib", f[c.mem], int64_t{1} << 40, mem)) {
    return e;
  }
  if (auto e = get_count("num_gpu", f[c.gpus], 1 << 20, gpus)) {
    return e;
  }
  if (auto e = get_count("gpu_milli", f[c.milli], 1000, milli)) {
    return e;
  }
  if (gpus > 0 && milli == 0) {
    return field_error("gpu_milli", "1 to 1000 for a pod with num_gpu > 0", f[c.milli]);
  }
  job.name = symbols.add(trim(f[c.name]));
  job.cpu_milli = cpu;
  job.memory_mib = mem;
  job.gpus = static_cast<uint32_t>(gpus);
  job.gpu_milli = gpus > 0 ? static_cast<uint16_t>(milli) : uint16_t{1000};
  job.gpu_types = c.spec ? symbols.intern(trim(f[*c.spec])) : Symbol();
  read_qos(c.qos ? trim(f[*c.qos]) : std::string_view(), job, symbols);
  return read_times(c, f, job);
}

}  // namespace

Status read_alibaba(ReaderInput& in) {
  const auto columns = split_header(in.header, ',');
  auto idx = require_columns(columns, {"name", "cpu_milli", "memory_mib", "num_gpu", "gpu_milli"}, in.builder);
  if (!idx.is_ok()) {
    return idx.status();
  }
  const auto& i = *idx;
  const PodColumns c{i[0],
                     i[1],
                     i[2],
                     i[3],
                     i[4],
                     find_column(columns, "gpu_spec"),
                     find_column(columns, "qos"),
                     find_column(columns, "creation_time"),
                     find_column(columns, "deletion_time"),
                     find_column(columns, "scheduled_time")};
  auto& symbols = in.builder.symbols();
  return for_each_row(in, ',', columns.size(), [&](const Fields& f, JobSpec& job, std::string&) {
    return read_pod(c, f, job, symbols);
  });
}

}  // namespace boreas::trace

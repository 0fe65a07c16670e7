// Helios (DIR-LAB 15k subset): arrival = running sum of `interval`; gpu_num 0 = CPU batch job.
#include "trace/readers.h"

namespace boreas::trace {

Status read_helios(ReaderInput& in) {
  const auto columns = split_header(in.header, ',');
  auto idx = require_columns(columns, {"u_id", "user", "gpu_num", "cpu_num", "interval", "run_time"}, in.builder);
  if (!idx.is_ok()) {
    return idx.status();
  }
  const std::vector<size_t> c = *idx;
  auto& symbols = in.builder.symbols();
  Duration arrival;
  return for_each_row(in, ',', columns.size(), [&](const Fields& f, JobSpec& job, std::string&) {
    int64_t gpus = 0;
    int64_t cpus = 0;
    Duration interval;
    if (auto e = get_count("gpu_num", f[c[2]], 1 << 20, gpus)) {
      return e;
    }
    if (auto e = get_count("cpu_num", f[c[3]], 1 << 24, cpus)) {
      return e;
    }
    if (auto e = get_seconds("interval", f[c[4]], interval)) {
      return e;
    }
    if (auto e = get_seconds("run_time", f[c[5]], job.duration)) {
      return e;
    }
    if ((arrival + interval).us() > kMaxAbsUs) {
      return std::optional(field_error("interval", "arrivals summing to less than 3,000 years", f[c[4]]));
    }
    arrival += interval;
    job.submit = Time::zero() + arrival;
    job.name = symbols.add(trim(f[c[0]]));
    job.user = symbols.intern(trim(f[c[1]]));
    job.gpus = static_cast<uint32_t>(gpus);
    job.cpu_milli = cpus * 1000;
    job.kind = gpus == 0 ? JobKind::kBatch : JobKind::kTraining;
    return std::optional<RowError>();
  });
}

}  // namespace boreas::trace

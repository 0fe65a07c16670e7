// Philly (Sia's CSV): timestamp,duration,num_gpus,gpu_time,cluster. See docs/formats/readers.md.
#include "trace/readers.h"

namespace boreas::trace {

Status read_philly(ReaderInput& in) {
  const auto columns = split_header(in.header, ',');
  auto idx = require_columns(columns, {"timestamp", "duration", "num_gpus", "cluster"}, in.builder);
  if (!idx.is_ok()) {
    return idx.status();
  }
  const size_t ts = (*idx)[0], dur = (*idx)[1], gpus = (*idx)[2], vc = (*idx)[3];
  auto& symbols = in.builder.symbols();
  return for_each_row(in, ',', columns.size(), [&](const Fields& f, JobSpec& job, std::string&) {
    const auto submit = parse_datetime(f[ts]);
    if (!submit) {
      return std::optional(field_error("timestamp", "a date-time like 2017-10-09 07:01:55", f[ts]));
    }
    job.submit = *submit;
    int64_t n = 0;
    if (auto e = get_seconds("duration", f[dur], job.duration)) {
      return e;
    }
    if (auto e = get_count("num_gpus", f[gpus], 1 << 20, n)) {
      return e;
    }
    job.gpus = static_cast<uint32_t>(n);
    job.queue = symbols.intern(trim(f[vc]));
    return std::optional<RowError>();
  });
}

}  // namespace boreas::trace

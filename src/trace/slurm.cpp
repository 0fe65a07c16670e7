// Slurm accounting: `sacct --parsable2 --allocations --format=JobID,JobName,User,Account,Partition,
// QOS,Submit,Start,End,Elapsed,Timelimit,State,ReqTRES,AllocTRES,NNodes` (docs/formats/readers.md).
#include "trace/readers.h"
#include "trace/slurm_fields.h"

namespace boreas::trace {
namespace {

struct SlurmColumns {
  size_t id, submit, start, end, elapsed, state;
  std::optional<size_t> user, account, partition, qos, limit, req_tres, alloc_tres, nodes;
};

std::string_view opt(const Fields& f, std::optional<size_t> i) { return i ? trim(f[*i]) : std::string_view(); }

// Why a valid record is not a replayable job, or empty.
std::string exclusion(const SlurmColumns& c, const Fields& f) {
  const std::string_view id = trim(f[c.id]);
  if (id.find('.') != std::string_view::npos) {
    return "job step, not an allocation (export with --allocations)";
  }
  const std::string_view start = trim(f[c.start]);
  if (start == "Unknown" || start == "None" || start.empty()) {
    const std::string_view state = trim(f[c.state]);
    return "never started (state " + std::string(state.substr(0, state.find(' '))) + ")";
  }
  return "";
}

std::optional<RowError> read_times(const SlurmColumns& c, const Fields& f, JobSpec& job) {
  const auto submit = parse_datetime(f[c.submit]);
  if (!submit) {
    return field_error("Submit", "a date-time like 2024-03-01T10:00:00", f[c.submit]);
  }
  const auto start = parse_datetime(f[c.start]);
  if (!start) {
    return field_error("Start", "a date-time like 2024-03-01T10:00:00, Unknown or None", f[c.start]);
  }
  job.submit = *submit;
  const std::string_view end_text = trim(f[c.end]);
  if (end_text == "Unknown" || end_text == "None" || end_text.empty()) {
    // Still running when exported: Elapsed is the run time so far.
    const auto elapsed = parse_duration(f[c.elapsed]);
    if (!elapsed.is_ok() || elapsed->is_infinite()) {
      return field_error("Elapsed", "a duration like 1-02:03:04 or 02:03:04", f[c.elapsed]);
    }
    job.duration = *elapsed;
    return std::nullopt;
  }
  const auto end = parse_datetime(end_text);
  if (!end || *end < *start) {
    return field_error("End", "a date-time not before Start, Unknown or None", end_text);
  }
  job.duration = *end - *start;
  return std::nullopt;
}

std::optional<RowError> read_limits(const SlurmColumns& c, const Fields& f, JobSpec& job, SymbolTable& symbols) {
  const std::string_view limit = opt(f, c.limit);
  if (!limit.empty() && limit != "Partition_Limit") {
    const auto d = parse_duration(limit);
    if (!d.is_ok()) {
      return field_error("Timelimit", "a duration like 1-02:00:00, UNLIMITED or Partition_Limit", limit);
    }
    if (!d->is_infinite()) {
      job.time_limit = *d;
    }
  }
  const std::string_view alloc = opt(f, c.alloc_tres);
  const std::string_view tres = alloc.empty() ? opt(f, c.req_tres) : alloc;
  auto error = read_tres(tres, alloc.empty() ? "ReqTRES" : "AllocTRES", job, symbols);
  int64_t nodes = 0;
  if (!error && c.nodes && !opt(f, c.nodes).empty()) {
    error = get_count("NNodes", f[*c.nodes], 1 << 24, nodes);
  }
  if (!error && nodes > 1 && job.gpus % nodes == 0) {
    job.gpus_per_node = static_cast<uint32_t>(job.gpus / nodes);
  }
  return error;
}

std::optional<RowError> read_record(const SlurmColumns& c, const Fields& f, JobSpec& job, std::string& excluded,
                                    SymbolTable& symbols) {
  excluded = exclusion(c, f);
  if (!excluded.empty()) {
    return std::nullopt;
  }
  if (auto e = read_times(c, f, job)) {
    return e;
  }
  if (auto e = read_limits(c, f, job, symbols)) {
    return e;
  }
  const std::string_view account = opt(f, c.account);
  job.name = symbols.add(trim(f[c.id]));
  job.user = symbols.intern(opt(f, c.user));
  job.queue = symbols.intern(account.empty() ? opt(f, c.partition) : account);
  job.priority_class = symbols.intern(opt(f, c.qos));
  job.kind = job.gpus == 0 ? JobKind::kBatch : JobKind::kTraining;
  return std::nullopt;
}

}  // namespace

Status read_slurm(ReaderInput& in) {
  const auto columns = split_header(in.header, '|');
  auto idx = require_columns(columns, {"JobID", "Submit", "Start", "End", "Elapsed", "State"}, in.builder);
  if (!idx.is_ok()) {
    return idx.status();
  }
  const auto& i = *idx;
  const auto col = [&](std::string_view name) { return find_column(columns, name); };
  if (!col("AllocTRES") && !col("ReqTRES")) {
    return in.builder.fatal(1, "header: missing column 'AllocTRES' or 'ReqTRES'; export with "
                               "--format=...,ReqTRES,AllocTRES (see docs/formats/readers.md)");
  }
  const SlurmColumns c{i[0],           i[1],       i[2],         i[3],         i[4],
                       i[5],           col("User"), col("Account"), col("Partition"), col("QOS"),
                       col("Timelimit"), col("ReqTRES"), col("AllocTRES"), col("NNodes")};
  auto& symbols = in.builder.symbols();
  return for_each_row(in, '|', columns.size(), [&](const Fields& f, JobSpec& job, std::string& excluded) {
    return read_record(c, f, job, excluded, symbols);
  });
}

}  // namespace boreas::trace

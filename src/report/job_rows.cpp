#include "report/job_rows.h"

#include <array>
#include <optional>

namespace boreas::report {
namespace {

enum Col : size_t { kId, kQueue, kGpus, kSubmit, kStart, kEnd, kQueueS, kPreempt, kState, kReason, kCols };
constexpr std::array<const char*, kCols> kNames = {"job_id", "queue",       "gpus",  "submit_s",      "first_start_s",
                                                   "end_s",  "queue_s", "preemptions", "state", "pending_reason"};

using Columns = std::array<std::optional<size_t>, kCols>;

// An optional numeric cell: `fallback` when the column is missing or the cell empty.
Status number_into(const CsvTable& t, size_t r, const std::optional<size_t>& c, double fallback, double& out) {
  out = fallback;
  if (!c) {
    return Status::ok();
  }
  auto v = t.optional_number(r, *c);
  if (!v.is_ok()) {
    return v.status();
  }
  out = v->value_or(fallback);
  return Status::ok();
}

std::string text_or_empty(const CsvTable& t, size_t r, const std::optional<size_t>& c) {
  return c ? std::string(t.cell(r, *c)) : std::string();
}

Result<JobRow> read_row(const CsvTable& t, size_t r, const Columns& c) {
  double id = 0, gpus = 0, preemptions = 0;
  JobRow row;
  BOREAS_RETURN_IF_ERROR(number_into(t, r, c[kId], 0, id));
  BOREAS_RETURN_IF_ERROR(number_into(t, r, c[kGpus], 0, gpus));
  BOREAS_RETURN_IF_ERROR(number_into(t, r, c[kSubmit], 0, row.submit_s));
  BOREAS_RETURN_IF_ERROR(number_into(t, r, c[kStart], -1, row.first_start_s));
  BOREAS_RETURN_IF_ERROR(number_into(t, r, c[kEnd], -1, row.end_s));
  BOREAS_RETURN_IF_ERROR(number_into(t, r, c[kQueueS], 0, row.queue_s));
  BOREAS_RETURN_IF_ERROR(number_into(t, r, c[kPreempt], 0, preemptions));
  row.id = static_cast<int64_t>(id);
  row.gpus = static_cast<int64_t>(gpus);
  row.preemptions = static_cast<int64_t>(preemptions);
  row.queue = text_or_empty(t, r, c[kQueue]);
  row.state = text_or_empty(t, r, c[kState]);
  row.pending_reason = text_or_empty(t, r, c[kReason]);
  return row;
}

}  // namespace

Result<std::vector<JobRow>> read_job_rows(const CsvTable& table) {
  Columns cols;
  for (size_t i = 0; i < kCols; ++i) {
    cols[i] = table.find_column(kNames[i]);
  }
  std::vector<JobRow> rows;
  if (!cols[kId] || !cols[kSubmit]) {
    return rows;
  }
  rows.reserve(table.row_count());
  for (size_t r = 0; r < table.row_count(); ++r) {
    auto row = read_row(table, r, cols);
    if (!row.is_ok()) {
      return row.status();
    }
    rows.push_back(std::move(*row));
  }
  return rows;
}

}  // namespace boreas::report

#pragma once
// One function per source format. Each reads the lines after `header` (for formats without a
// header line, `header` is the first data line) and hands jobs and bad lines to the builder.

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "trace/builder.h"
#include "trace/line_reader.h"
#include "trace/text.h"

namespace boreas::trace {

struct ReaderInput {
  LineReader& lines;
  std::string header;
  const ReadOptions& options;
  TraceBuilder& builder;
};

using Fields = std::vector<std::string_view>;
// Fills `job` from one row; sets `excluded` to a reason for a valid row that is not a job.
using RowFn = std::function<std::optional<RowError>(const Fields&, JobSpec& job, std::string& excluded)>;

// The header's column names, trimmed.
std::vector<std::string> split_header(std::string_view header, char sep);
// Index of `name` in `columns`, if present.
std::optional<size_t> find_column(const std::vector<std::string>& columns, std::string_view name);
// Indexes of `required` columns, or a located error naming the missing one.
Result<std::vector<size_t>> require_columns(const std::vector<std::string>& columns,
                                            const std::vector<std::string_view>& required,
                                            const TraceBuilder& builder);
// Runs `row` on each non-empty data line that has exactly `n_fields` fields.
Status for_each_row(ReaderInput& in, char sep, size_t n_fields, const RowFn& row);

Status read_philly(ReaderInput& in);
Status read_helios(ReaderInput& in);
Status read_alibaba(ReaderInput& in);
Status read_generic_csv(ReaderInput& in);
Status read_native_jsonl(ReaderInput& in);
Status read_native_csv(ReaderInput& in);
Status read_swf(ReaderInput& in);
Status read_slurm(ReaderInput& in);

}  // namespace boreas::trace

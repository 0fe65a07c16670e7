#include "trace/readers.h"

namespace boreas::trace {

std::vector<std::string> split_header(std::string_view header, char sep) {
  Fields fields;
  std::deque<std::string> scratch;
  if (!split_csv(header, sep, fields, scratch)) {
    fields = {header};
  }
  std::vector<std::string> names;
  names.reserve(fields.size());
  for (const auto f : fields) {
    names.emplace_back(trim(f));
  }
  return names;
}

std::optional<size_t> find_column(const std::vector<std::string>& columns, std::string_view name) {
  for (size_t i = 0; i < columns.size(); ++i) {
    if (columns[i] == name) {
      return i;
    }
  }
  return std::nullopt;
}

Result<std::vector<size_t>> require_columns(const std::vector<std::string>& columns,
                                            const std::vector<std::string_view>& required,
                                            const TraceBuilder& builder) {
  std::vector<size_t> indexes;
  for (const auto name : required) {
    const auto i = find_column(columns, name);
    if (!i) {
      return builder.fatal(1, "header: missing column '" + std::string(name) +
                                  "'; check that the file is in the format it was read as");
    }
    indexes.push_back(*i);
  }
  return indexes;
}

Status for_each_row(ReaderInput& in, char sep, size_t n_fields, const RowFn& row) {
  Fields fields;
  std::deque<std::string> scratch;
  std::string_view line;
  while (in.lines.next(line)) {
    if (trim(line).empty()) {
      continue;
    }
    in.builder.count_line();
    const uint64_t n = in.lines.line_number();
    if (!split_csv(line, sep, fields, scratch)) {
      BOREAS_RETURN_IF_ERROR(in.builder.row_error(n, {"expected a closing '\"' in a quoted field", std::string(line)}));
      continue;
    }
    if (fields.size() != n_fields) {
      RowError e{"expected " + std::to_string(n_fields) + " fields like the header", std::string(line)};
      BOREAS_RETURN_IF_ERROR(in.builder.row_error(n, e));
      continue;
    }
    JobSpec job;
    std::string excluded;
    const auto error = row(fields, job, excluded);
    BOREAS_RETURN_IF_ERROR(in.builder.take(n, error, job, excluded));
  }
  return in.lines.status();
}

}  // namespace boreas::trace

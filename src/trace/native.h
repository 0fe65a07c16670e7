#pragma once
// The native job-trace format (docs/formats/trace.md): one JobSpec per JSON Lines object, or per
// CSV row with the same column names. Every field is written, so a round trip is lossless.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/job.h"
#include "trace/text.h"
#include "trace/trace.h"

namespace boreas::trace {

// Field names in the order they are written; "id" is written but ignored on read (ids are dense
// in the order jobs are sorted).
const std::vector<std::string_view>& native_fields();
// The native CSV header line (no newline).
const std::string& native_csv_header();

// Sets one field of `job` from its text. Unknown names are an error (typos would otherwise
// silently drop data).
std::optional<RowError> set_native_field(std::string_view name, std::string_view value, JobSpec& job,
                                         SymbolTable& symbols);
// The text of every field of `job` in native_fields() order (strings unquoted).
std::vector<std::string> native_values(const JobSpec& job, const SymbolTable& symbols);
// True for the fields whose values are strings.
bool native_field_is_string(std::string_view name);

enum class NativeForm { kJsonl, kCsv };
// Writes `trace` to `path` (".gz" compresses). Chooses the form from the extension unless given.
Status write_trace_file(const Trace& trace, const std::string& path, std::optional<NativeForm> form = {});
// Appends one job as a JSON object line or CSV line (with "\n").
void append_jsonl(const Trace& trace, const JobSpec& job, std::string& out);
void append_csv(const Trace& trace, const JobSpec& job, std::string& out);

}  // namespace boreas::trace

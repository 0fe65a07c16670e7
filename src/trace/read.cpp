// The one entry point: detect the format (or take --format), then run that reader.
#include <algorithm>

#include "trace/readers.h"
#include "trace/trace.h"

namespace boreas::trace {
namespace {

using Reader = Status (*)(ReaderInput&);

struct FormatEntry {
  std::string_view name;
  Reader read;
};

const std::vector<FormatEntry>& formats() {
  static const std::vector<FormatEntry> kFormats = {
      {"native", read_native_jsonl}, {"native-csv", read_native_csv}, {"philly", read_philly},
      {"helios", read_helios},       {"alibaba", read_alibaba},       {"csv", read_generic_csv},
      {"swf", read_swf},             {"slurm", read_slurm},
  };
  return kFormats;
}

std::string_view canonical(std::string_view name) {
  if (name == "jsonl") {
    return "native";
  }
  if (name == "openb") {
    return "alibaba";
  }
  if (name == "sacct") {
    return "slurm";
  }
  return name;
}

std::string detect(std::string_view path, std::string_view first) {
  if (path.ends_with(".gz")) {
    path.remove_suffix(3);
  }
  first = trim(first);
  if (path.ends_with(".jsonl") || path.ends_with(".ndjson") || first.starts_with("{")) {
    return "native";
  }
  if (path.ends_with(".swf") || first.starts_with(";")) {
    return "swf";
  }
  if (first.find('|') != std::string_view::npos && first.find("JobID") != std::string_view::npos) {
    return "slurm";
  }
  if (first.starts_with("timestamp,duration,num_gpus")) {
    return "philly";
  }
  if (first.starts_with("u_id,user,gpu_num")) {
    return "helios";
  }
  if (first.starts_with("name,cpu_milli,memory_mib,num_gpu,gpu_milli")) {
    return "alibaba";
  }
  if (first.starts_with("id,name,queue,") && first.find("submit_us") != std::string_view::npos) {
    return "native-csv";
  }
  return "csv";
}

Result<Trace> read_lines(LineReader& lines, const std::string& name, const ReadOptions& options,
                         ReadReport* report) {
  std::string_view first;
  if (!lines.next(first)) {
    BOREAS_RETURN_IF_ERROR(lines.status());
    return invalid_argument(name + ":1: the file is empty; expected a header line or a first job");
  }
  const std::string format(options.format == "auto" ? detect(name, first) : canonical(options.format));
  const auto& all = formats();
  const auto it = std::find_if(all.begin(), all.end(), [&](const FormatEntry& f) { return f.name == format; });
  if (it == all.end()) {
    return invalid_argument("--format: unknown format '" + format + "'; known: " + [] {
      std::string s;
      for (const auto& n : format_names()) {
        append_joined(s, ", ", n);
      }
      return s;
    }());
  }
  TraceBuilder builder(name, options.on_error, report);
  ReaderInput in{lines, std::string(first), options, builder};
  BOREAS_RETURN_IF_ERROR(it->read(in));
  return builder.finish(format);
}

}  // namespace

const std::vector<std::string>& format_names() {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> names;
    for (const auto& f : formats()) {
      names.emplace_back(f.name);
    }
    return names;
  }();
  return kNames;
}

Result<Trace> read_trace_file(const std::string& path, const ReadOptions& options, ReadReport* report) {
  auto lines = LineReader::open_file(path);
  if (!lines.is_ok()) {
    return lines.status();
  }
  return read_lines(*lines, path, options, report);
}

Result<Trace> read_trace_string(std::string_view text, const std::string& name, const ReadOptions& options,
                                ReadReport* report) {
  auto lines = LineReader::from_string(text, name);
  return read_lines(lines, name, options, report);
}

}  // namespace boreas::trace

#include "serving/dlrm_instances.h"

#include <fmt/format.h>

#include <unordered_map>

#include "serving/request_trace.h"
#include "serving/text_lines.h"
#include "trace/text.h"

namespace boreas::serving {

namespace {

constexpr std::string_view kHeader =
    "instance_sn,role,app_name,cpu_request,cpu_limit,gpu_request,gpu_limit,rdma_request,rdma_limit,"
    "memory_request,memory_limit,disk_request,disk_limit,max_instance_per_node,creation_time,scheduled_time,"
    "deletion_time";
constexpr size_t kColumns = 17;
enum Column : size_t { kRole = 1, kApp = 2, kCpu = 3, kGpu = 5, kMemory = 9, kCreated = 14, kDeleted = 16 };

Status row_error(const std::string& file, size_t line, std::string_view what) {
  return invalid_argument(fmt::format("{}{} (columns: data/traces/alibaba-dlrm-serving-2025/SOURCE.md)",
                                      where(file, line), what));
}

Result<double> number(std::string_view s, std::string_view column, const std::string& file, size_t line) {
  const auto v = trace::parse_double(s);
  if (!v || *v < 0) {
    return row_error(file, line, fmt::format("{} '{}' is not a non-negative number", column, s));
  }
  return *v;
}

// An event time; empty or NaN means outside the trace window (-1).
Result<double> time_or_absent(std::string_view s, std::string_view column, const std::string& file, size_t line) {
  if (s.empty() || s == "NaN" || s == "nan") {
    return -1.0;
  }
  return number(s, column, file, line);
}

class Parser {
 public:
  explicit Parser(const std::string& file) : file_(file) {}

  Status row(std::string_view line, size_t line_no) {
    const auto f = split_commas(line);
    if (f.size() != kColumns) {
      return row_error(file_, line_no, fmt::format("expected {} fields, found {}", kColumns, f.size()));
    }
    if (f[kRole] != "CN" && f[kRole] != "HN") {
      return row_error(file_, line_no, fmt::format("role '{}' is neither CN nor HN", f[kRole]));
    }
    if (f[kApp].empty()) {
      return row_error(file_, line_no, "app_name is empty");
    }
    DlrmInstance inst;
    inst.gpu_node = f[kRole] == "HN";
    inst.app = app_index(f[kApp]);
    const Result<double> values[] = {number(f[kCpu], "cpu_request", file_, line_no),
                                     number(f[kGpu], "gpu_request", file_, line_no),
                                     number(f[kMemory], "memory_request", file_, line_no),
                                     time_or_absent(f[kCreated], "creation_time", file_, line_no),
                                     time_or_absent(f[kDeleted], "deletion_time", file_, line_no)};
    for (const auto& v : values) {
      if (!v.is_ok()) {
        return v.status();
      }
    }
    inst.cpus = *values[0];
    inst.gpus = *values[1];
    inst.memory_gib = *values[2];
    inst.created_s = *values[3];
    inst.deleted_s = *values[4];
    out_.instances.push_back(inst);
    return Status::ok();
  }

  DlrmInstances take() { return std::move(out_); }

 private:
  uint32_t app_index(std::string_view name) {
    auto [it, added] = app_ids_.try_emplace(std::string(name), static_cast<uint32_t>(out_.apps.size()));
    if (added) {
      out_.apps.emplace_back(name);
    }
    return it->second;
  }

  const std::string& file_;
  DlrmInstances out_;
  std::unordered_map<std::string, uint32_t> app_ids_;
};

}  // namespace

Result<DlrmInstances> parse_dlrm_instances_csv(std::string_view text, const std::string& file) {
  Parser parser(file);
  Status status;
  for_each_line(text, [&](size_t line_no, std::string_view line) {
    if (line_no == 1) {
      if (line != kHeader) {
        status = invalid_argument(fmt::format("{}the header is not the DLRM trace's; expected '{}'", where(file, 1),
                                              kHeader));
      }
      return status.is_ok();
    }
    if (!line.empty()) {
      status = parser.row(line, line_no);
    }
    return status.is_ok();
  });
  if (!status.is_ok()) {
    return status;
  }
  auto out = parser.take();
  if (out.instances.empty()) {
    return invalid_argument(where(file, 1) + "no instances after the header");
  }
  return out;
}

Result<DlrmInstances> read_dlrm_instances(const std::string& path) {
  auto text = read_text(path);
  if (!text.is_ok()) {
    return text.status();
  }
  return parse_dlrm_instances_csv(*text, path);
}

}  // namespace boreas::serving

// Writes the native format (docs/formats/trace.md), plain or gzip-compressed.
#include <zlib.h>

#include "trace/json_line.h"
#include "trace/native.h"

namespace boreas::trace {
namespace {

constexpr size_t kFlushBytes = 1 << 20;

bool ends_with(std::string_view s, std::string_view suffix) { return s.ends_with(suffix); }

void append_csv_value(std::string_view v, std::string& out) {
  if (v.find_first_of(",\"\n\r") == std::string_view::npos) {
    out += v;
    return;
  }
  out += '"';
  for (const char c : v) {
    out += c;
    if (c == '"') {
      out += '"';
    }
  }
  out += '"';
}

class GzOut {
 public:
  GzOut(const std::string& path, bool compress)
      : path_(path), gz_(gzopen(path.c_str(), compress ? "wb6" : "wT")) {}
  ~GzOut() {
    if (gz_ != nullptr) {
      gzclose(gz_);
    }
  }
  GzOut(const GzOut&) = delete;
  GzOut& operator=(const GzOut&) = delete;
  bool ok() const { return gz_ != nullptr; }
  Status write(std::string& buffer) {
    if (!buffer.empty() && gzwrite(gz_, buffer.data(), static_cast<unsigned>(buffer.size())) <= 0) {
      return io_error(path_ + ": cannot write; check free space and permissions");
    }
    buffer.clear();
    return Status::ok();
  }
  Status close() {
    const int rc = gzclose(gz_);
    gz_ = nullptr;
    return rc == Z_OK ? Status::ok() : io_error(path_ + ": cannot finish writing; check free space");
  }

 private:
  std::string path_;
  gzFile gz_;
};

}  // namespace

void append_jsonl(const Trace& trace, const JobSpec& job, std::string& out) {
  const auto values = native_values(job, trace.symbols);
  const auto& names = native_fields();
  out += '{';
  for (size_t i = 0; i < names.size(); ++i) {
    out += i == 0 ? "\"" : ",\"";
    out += names[i];
    out += "\":";
    if (native_field_is_string(names[i])) {
      append_json_string(values[i], out);
    } else {
      out += values[i];
    }
  }
  out += "}\n";
}

void append_csv(const Trace& trace, const JobSpec& job, std::string& out) {
  const auto values = native_values(job, trace.symbols);
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) {
      out += ',';
    }
    append_csv_value(values[i], out);
  }
  out += '\n';
}

Status write_trace_file(const Trace& trace, const std::string& path, std::optional<NativeForm> form) {
  const bool gz = ends_with(path, ".gz");
  const std::string_view stem = gz ? std::string_view(path).substr(0, path.size() - 3) : std::string_view(path);
  const NativeForm f = form ? *form : (ends_with(stem, ".csv") ? NativeForm::kCsv : NativeForm::kJsonl);
  GzOut out(path, gz);
  if (!out.ok()) {
    return io_error(path + ": cannot create; check the directory exists and is writable");
  }
  std::string buffer = f == NativeForm::kCsv ? native_csv_header() + "\n"
                                             : "{\"format\":\"boreas-trace\",\"version\":1}\n";
  for (const auto& job : trace.jobs) {
    if (f == NativeForm::kCsv) {
      append_csv(trace, job, buffer);
    } else {
      append_jsonl(trace, job, buffer);
    }
    if (buffer.size() > kFlushBytes) {
      BOREAS_RETURN_IF_ERROR(out.write(buffer));
    }
  }
  BOREAS_RETURN_IF_ERROR(out.write(buffer));
  return out.close();
}

}  // namespace boreas::trace

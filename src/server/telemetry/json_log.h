#pragma once
// Structured logs of the daemon: one JSON object per line, {"ts", "level", "event", fields...},
// to stderr or a file (docs/live.md, "Logs"). Safe to call from any thread.

#include <cstdio>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "core/status.h"

namespace boreas::server {

class JsonLog {
 public:
  JsonLog() = default;  // to stderr
  ~JsonLog();
  JsonLog(const JsonLog&) = delete;
  JsonLog& operator=(const JsonLog&) = delete;

  // Appends to `path` from now on; "" = stderr.
  Status open(const std::string& path);

  void info(std::string_view event, const nlohmann::json& fields = nlohmann::json::object());
  void warn(std::string_view event, const nlohmann::json& fields = nlohmann::json::object());
  void error(std::string_view event, const nlohmann::json& fields = nlohmann::json::object());

  // The line written for one record, without the newline (ts in RFC 3339 UTC, milliseconds).
  static std::string format(int64_t unix_us, std::string_view level, std::string_view event,
                            const nlohmann::json& fields);

 private:
  void write(std::string_view level, std::string_view event, const nlohmann::json& fields);

  std::mutex mu_;
  std::FILE* file_ = nullptr;  // nullptr = stderr
};

}  // namespace boreas::server

#include "server/telemetry/json_log.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>

namespace boreas::server {

JsonLog::~JsonLog() {
  if (file_ != nullptr) {
    std::fclose(file_);
  }
}

Status JsonLog::open(const std::string& path) {
  if (path.empty()) {
    return Status::ok();
  }
  std::FILE* f = std::fopen(path.c_str(), "ae");
  if (f == nullptr) {
    return io_error("--log-file " + path + ": cannot open for appending: " + std::strerror(errno) +
                    "; check that its directory exists and is writable");
  }
  std::lock_guard lock(mu_);
  if (file_ != nullptr) {
    std::fclose(file_);
  }
  file_ = f;
  return Status::ok();
}

std::string JsonLog::format(int64_t unix_us, std::string_view level, std::string_view event,
                            const nlohmann::json& fields) {
  const std::time_t secs = static_cast<std::time_t>(unix_us / 1'000'000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char ts[40];
  const size_t n = std::strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%S", &tm);
  std::snprintf(ts + n, sizeof(ts) - n, ".%03dZ", static_cast<int>((unix_us / 1000) % 1000));
  nlohmann::ordered_json line = {{"ts", ts}, {"level", level}, {"event", event}};
  for (const auto& [key, value] : fields.items()) {
    if (key != "ts" && key != "level" && key != "event") {
      line[key] = value;
    }
  }
  return line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void JsonLog::write(std::string_view level, std::string_view event, const nlohmann::json& fields) {
  const int64_t now = std::chrono::duration_cast<std::chrono::microseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  const std::string line = format(now, level, event, fields) + "\n";
  std::lock_guard lock(mu_);
  std::FILE* out = file_ != nullptr ? file_ : stderr;
  std::fputs(line.c_str(), out);
  std::fflush(out);
}

void JsonLog::info(std::string_view event, const nlohmann::json& fields) {
  write("info", event, fields);
}
void JsonLog::warn(std::string_view event, const nlohmann::json& fields) {
  write("warn", event, fields);
}
void JsonLog::error(std::string_view event, const nlohmann::json& fields) {
  write("error", event, fields);
}

}  // namespace boreas::server

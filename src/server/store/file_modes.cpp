#include "server/store/file_modes.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace boreas::server {
namespace {

Status set_mode(const std::string& path, mode_t mode, bool must_exist) {
  if (chmod(path.c_str(), mode) == 0 || (!must_exist && errno == ENOENT)) {
    return Status::ok();
  }
  return io_error("cannot restrict " + path + ": " + strerror(errno) + "; the data dir must belong to "
                  "the account the daemon runs as");
}

}  // namespace

Status secure_data_dir(const std::string& dir) {
  umask(077);
  std::error_code ec;
  std::filesystem::create_directories(dir + "/jobs", ec);
  if (ec) {
    return io_error("--data-dir " + dir + ": cannot create it: " + ec.message());
  }
  BOREAS_RETURN_IF_ERROR(set_mode(dir, 0711, true));
  BOREAS_RETURN_IF_ERROR(set_mode(dir + "/jobs", 0711, true));
  for (const char* file : {"/boreas.db", "/boreas.db-wal", "/boreas.db-shm", "/boreas.db-tokens"}) {
    BOREAS_RETURN_IF_ERROR(set_mode(dir + file, 0600, false));
  }
  return Status::ok();
}

}  // namespace boreas::server

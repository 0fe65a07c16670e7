#include "report/io.h"

#include <cerrno>
#include <cstring>
#include <fstream>

namespace boreas::report {

Status write_text_file(const std::string& path, const std::function<void(std::ostream&)>& write) {
  std::ofstream out(path, std::ios::binary);
  if (!out) {
    return io_error(path + ": cannot open for writing (" + std::strerror(errno) + "); does its folder exist?");
  }
  write(out);
  out.close();
  if (!out) {
    return io_error(path + ": write failed; is the disk full?");
  }
  return Status::ok();
}

}  // namespace boreas::report

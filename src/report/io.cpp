#include "report/io.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include <zlib.h>

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

Status write_gzip_file(const std::string& path, const std::function<void(std::ostream&)>& write) {
  std::ostringstream text;
  write(text);
  const std::string data = std::move(text).str();
  gzFile out = gzopen(path.c_str(), "wb6");
  if (out == nullptr) {
    return io_error(path + ": cannot open for writing (" + std::strerror(errno) + "); does its folder exist?");
  }
  size_t done = 0;
  while (done < data.size()) {
    const auto chunk = static_cast<unsigned>(std::min<size_t>(data.size() - done, 1U << 30));
    if (gzwrite(out, data.data() + done, chunk) != static_cast<int>(chunk)) {
      gzclose(out);
      return io_error(path + ": gzip write failed; is the disk full?");
    }
    done += chunk;
  }
  if (gzclose(out) != Z_OK) {
    return io_error(path + ": gzip write failed on close; is the disk full?");
  }
  return Status::ok();
}

}  // namespace boreas::report

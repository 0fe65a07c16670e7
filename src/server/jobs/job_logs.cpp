#include "server/jobs/job_logs.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace boreas::server {

Result<LogChunk> read_log_chunk(const std::string& path, std::optional<uint64_t> offset, uint64_t tail) {
  LogChunk chunk;
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) {
    return chunk;  // not written yet
  }
  chunk.size = size;
  chunk.offset = offset ? std::min<uint64_t>(*offset, size) : size - std::min<uint64_t>(tail, size);
  const uint64_t length = std::min<uint64_t>(size - chunk.offset, kMaxLogChunk);
  std::ifstream in(path, std::ios::binary);
  chunk.data.resize(length);
  if (!in.seekg(static_cast<std::streamoff>(chunk.offset)) ||
      !in.read(chunk.data.data(), static_cast<std::streamsize>(length))) {
    return io_error("cannot read " + path);
  }
  chunk.next_offset = chunk.offset + length;
  return chunk;
}

Result<std::string> log_file_name(const std::string& stream) {
  if (stream == "stdout" || stream == "stderr") {
    return stream + ".log";
  }
  return invalid_argument("stream=" + stream + ": expected stdout or stderr");
}

}  // namespace boreas::server

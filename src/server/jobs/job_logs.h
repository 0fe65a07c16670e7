#pragma once
// A job's output files read through the API (GET /v1/jobs/{id}/logs): a window of bytes and the
// offset to ask for next, so a client can follow a growing file (`boreas logs -f`).

#include <cstdint>
#include <optional>
#include <string>

#include "core/status.h"

namespace boreas::server {

struct LogChunk {
  std::string data;
  uint64_t offset = 0;       // where `data` starts in the file
  uint64_t next_offset = 0;  // offset + data.size(): ask for this next
  uint64_t size = 0;         // the file's size when read; 0 when it does not exist yet
};

inline constexpr uint64_t kMaxLogChunk = 1 << 20;

// From `offset` (clamped to the file's size), or without one the last `tail` bytes; at most
// kMaxLogChunk bytes. A missing file is an empty chunk: the job has not written yet.
Result<LogChunk> read_log_chunk(const std::string& path, std::optional<uint64_t> offset, uint64_t tail);

// "stdout" → "stdout.log", "stderr" → "stderr.log"; anything else is an error naming both.
Result<std::string> log_file_name(const std::string& stream);

}  // namespace boreas::server

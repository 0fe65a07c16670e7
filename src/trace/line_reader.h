#pragma once
// Streams a text file line by line, gzip or plain (zlib reads both), or a string held in memory.
// Lines are views into an internal buffer: valid until the next call to next().

#include <cstdint>
#include <string>
#include <string_view>

#include "core/status.h"

namespace boreas::trace {

class LineReader {
 public:
  // Opens `path`; a .gz file is inflated on the fly.
  static Result<LineReader> open_file(const std::string& path);
  // Reads `text` (not copied: it must outlive the reader); `name` is used in messages.
  static LineReader from_string(std::string_view text, std::string name);

  LineReader(LineReader&& other) noexcept;
  LineReader& operator=(LineReader&& other) noexcept;
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;
  ~LineReader();

  // Sets `line` to the next line without its "\n" or "\r\n"; false at the end or on error
  // (check status()).
  bool next(std::string_view& line);
  // 1-based number of the line last returned.
  uint64_t line_number() const { return line_number_; }
  const std::string& name() const { return name_; }
  const Status& status() const { return status_; }

 private:
  LineReader() = default;
  bool fill();
  void close();

  void* gz_ = nullptr;  // gzFile; void* keeps zlib.h out of this header
  std::string name_;
  std::string buffer_;
  std::string_view memory_;  // unread text when reading from a string
  size_t pos_ = 0;           // start of the unread bytes in buffer_
  size_t end_ = 0;           // end of the valid bytes in buffer_
  bool eof_ = false;
  uint64_t line_number_ = 0;
  Status status_;
};

}  // namespace boreas::trace
